"""Copying a collection out of the embedded store (Qdrant Edge): to a server (the server API,
reached through qdrant-client's local mode) or to another data folder. Ids, vectors, payloads and
metadata arrive unchanged, and the copy answers queries like the original."""

from __future__ import annotations

import argparse
import random

import pytest

from rag.cli import migrate as migrate_command
from rag.config import Settings
from rag.errors import StoreError
from rag.store.migrate import copy_collection
from rag.store.store import PointRecord, Store, point_id
from tests.fixtures.backends import open_store

DIM = 8


@pytest.fixture
def stores(tmp_path):
    opened: list[Store] = []

    def open_one(name: str, kind: str = "edge") -> Store:
        store = open_store(kind, tmp_path / name)
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


def _fill(store: Store, name: str, docs: int = 6, per_doc: int = 10) -> None:
    rng = random.Random(7)
    store.ensure_collection(name, "embedded:test-model", DIM, "sections", {"max_chars": 2000})
    records = []
    for d in range(docs):
        url = f"posts/{d}.md"
        for i in range(per_doc):
            records.append(PointRecord(
                id=point_id(url, i),
                dense=[rng.uniform(-1, 1) for _ in range(DIM)],
                sparse=([d, 100 + i], [rng.uniform(0.5, 2), rng.uniform(0.1, 1)]) if i % 3 else None,  # some have none
                payload={"url": url, "title": f"Post {d}", "order": i, "text": f"body {d}.{i}",
                         "access": ["public"] if d % 2 else ["staff"], "terms": [f"t{i % 4}"]},
            ))
    store.upsert(name, records)
    store.create_index(name, "terms")
    store.set_threshold(name, 0.81)
    store.finish(name)


def _all(store: Store, name: str) -> dict[str, tuple]:
    out = {}
    for p in store.scroll(name, with_vectors=True):
        norm = sum(x * x for x in p.vector) ** 0.5  # cosine vectors are stored normalised
        sparse = (p.sparse[0], [round(v, 5) for v in p.sparse[1]]) if p.sparse else None
        out[p.id] = ([round(x / norm, 5) for x in p.vector], sparse, p.payload)
    return out


@pytest.mark.parametrize("destination", ["server", "edge"])
def test_copy_keeps_ids_vectors_payload_and_metadata(stores, destination):
    src, dst = stores("a"), stores("b", destination)
    _fill(src, "blog")
    seen: list[tuple[int, int]] = []

    report = copy_collection(src, dst, "blog", batch=16, progress=lambda done, total: seen.append((done, total)))

    assert report.points == 60
    assert seen == [(16, 60), (32, 60), (48, 60), (60, 60)]
    src_info, dst_info = src.collection_info("blog"), dst.collection_info("blog")
    for key in ("embedding_model", "dimension", "distance", "strategy", "chunk_settings", "threshold",
                "created", "updated", "points", "has_sparse"):
        assert dst_info[key] == src_info[key], key
    assert _all(dst, "blog") == _all(src, "blog")
    if destination == "edge":  # local mode ignores payload indexes
        assert dst.indexes("blog") == src.indexes("blog")


@pytest.mark.parametrize("destination", ["server", "edge"])
def test_copied_collection_answers_queries_like_the_original(stores, destination):
    src, dst = stores("a"), stores("b", destination)
    _fill(src, "blog")
    copy_collection(src, dst, "blog")
    query = [0.3, -0.2, 0.9, 0.1, 0.0, -0.5, 0.4, 0.2]

    def ranked(hits):
        return [(h.id, round(h.score, 4)) for h in hits]

    def fused(hits):  # RRF ties may come in any order
        return sorted((round(h.score, 6), h.id) for h in hits)

    assert ranked(dst.search_dense("blog", query, 5)) == ranked(src.search_dense("blog", query, 5))
    assert ranked(dst.search_dense("blog", query, 5, groups=["public"])) == ranked(
        src.search_dense("blog", query, 5, groups=["public"]))
    bm25 = ([3, 104], [1.0, 1.0])
    assert fused(dst.search_hybrid("blog", query, bm25, 60)) == fused(src.search_hybrid("blog", query, bm25, 60))


def test_existing_destination_is_refused_unless_replaced(stores):
    src, dst = stores("a"), stores("b", "server")
    _fill(src, "blog", docs=2)
    _fill(dst, "blog", docs=3)
    with pytest.raises(StoreError, match="already exists.*--replace"):
        copy_collection(src, dst, "blog")
    assert dst.count("blog") == 30  # untouched

    copy_collection(src, dst, "blog", replace=True)
    assert dst.count("blog") == 20


def test_missing_collection_and_same_location_are_clear_errors(stores):
    src, dst = stores("a"), stores("b")
    _fill(src, "blog", docs=1)
    with pytest.raises(StoreError, match="'nope' does not exist.*blog"):
        copy_collection(src, dst, "nope")
    with pytest.raises(StoreError, match="same"):
        copy_collection(src, src, "blog")
    report = copy_collection(src, src, "blog", dst_name="blog_copy")
    assert report.points == 10 and src.count("blog_copy") == 10


def _run_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="rag")
    migrate_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_migrate_command_copies_every_collection_of_the_embedded_store(tmp_path, data_dir, capsys):
    src = Store(Settings(data_dir=data_dir))
    _fill(src, "blog", docs=3)
    _fill(src, "notes", docs=1)
    src.close()
    target = tmp_path / "elsewhere"

    assert _run_command(["migrate", "--to", str(target)]) == 0

    out = capsys.readouterr().out
    assert "blog: 30 points copied" in out and "notes: 10 points copied" in out
    dst = Store(Settings(data_dir=target))
    try:
        assert dst.list_collections() == ["blog", "notes"]
        assert dst.collection_info("blog")["threshold"] == 0.81
    finally:
        dst.close()


def test_migrate_command_without_an_embedded_store_says_where_it_looked(data_dir, tmp_path, capsys):
    from rag.cli.main import main

    assert main(["migrate", "--to", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"no embedded store at {data_dir / 'qdrant'}" in err and "RAG_DATA_DIR" in err
