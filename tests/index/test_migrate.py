"""Copying a collection between two embedded stores: what a move to a server relies on."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pytest
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from rag.cli import migrate as migrate_command
from rag.config import Settings
from rag.errors import StoreError
from rag.index.migrate import copy_collection
from rag.index.store import DENSE, SPARSE, PointRecord, Store, point_id

DIM = 8


def _store(path: Path) -> Store:
    return Store(Settings(data_dir=path))


@pytest.fixture
def stores(tmp_path):
    opened: list[Store] = []

    def open_store(name: str) -> Store:
        store = _store(tmp_path / name)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()


# Local mode writes slowly (tens of points a second): keep the collections small.
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
                         "access": ["public"] if d % 2 else ["staff"]},
            ))
    store.upsert(name, records)
    store.set_threshold(name, 0.81)


def _read_all(client: QdrantClient, name: str) -> dict[str, tuple]:
    records, _ = client.scroll(name, limit=10_000, with_payload=True, with_vectors=True)
    out = {}
    for r in records:
        sparse = r.vector.get(SPARSE)
        dense = r.vector[DENSE]
        norm = sum(x * x for x in dense) ** 0.5  # cosine vectors may come back normalised
        out[str(r.id)] = (
            [round(x / norm, 5) for x in dense],
            (list(sparse.indices), list(sparse.values)) if sparse else None,
            r.payload,
        )
    return out


def test_copy_keeps_points_vectors_payload_and_metadata(tmp_path, stores):
    src, dst = stores("a"), stores("b")
    _fill(src, "blog")
    seen: list[tuple[int, int]] = []

    report = copy_collection(src, dst, "blog", batch=16, progress=lambda done, total: seen.append((done, total)))

    assert report.points == 60
    assert seen == [(16, 60), (32, 60), (48, 60), (60, 60)]
    src_info, dst_info = src.collection_info("blog"), dst.collection_info("blog")
    for key in ("embedding_model", "dimension", "distance", "strategy", "chunk_settings", "threshold",
                "created", "updated", "points", "has_sparse"):
        assert dst_info[key] == src_info[key], key
    assert dst_info["threshold"] == 0.81

    # Read both folders back with plain clients, as a fresh process would.
    src.close()
    dst.close()
    a, b = QdrantClient(path=str(tmp_path / "a" / "qdrant")), QdrantClient(path=str(tmp_path / "b" / "qdrant"))
    try:
        assert _read_all(a, "blog") == _read_all(b, "blog")
        params = b.get_collection("blog").config.params
        assert params.vectors[DENSE].size == DIM and params.vectors[DENSE].distance == qm.Distance.COSINE
        assert params.sparse_vectors[SPARSE].modifier == qm.Modifier.IDF
    finally:
        a.close()
        b.close()


def test_copied_collection_answers_queries_like_the_original(stores):
    src, dst = stores("a"), stores("b")
    _fill(src, "blog")
    copy_collection(src, dst, "blog")
    query = [0.3, -0.2, 0.9, 0.1, 0.0, -0.5, 0.4, 0.2]

    def ranked(hits):
        return [(h.id, round(h.score, 5)) for h in hits]

    def fused(hits):  # RRF ties may come in any order
        return sorted((round(h.score, 6), h.id) for h in hits)

    assert ranked(dst.search_dense("blog", query, 5)) == ranked(src.search_dense("blog", query, 5))
    assert ranked(dst.search_dense("blog", query, 5, groups=["public"])) == ranked(
        src.search_dense("blog", query, 5, groups=["public"]))
    bm25 = ([3, 104], [1.0, 1.0])
    assert fused(dst.search_hybrid("blog", query, bm25, 60)) == fused(src.search_hybrid("blog", query, bm25, 60))


def test_existing_destination_is_refused_unless_replaced(stores):
    src, dst = stores("a"), stores("b")
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
    src = _store(data_dir)
    _fill(src, "blog", docs=3)
    _fill(src, "notes", docs=1)
    src.close()
    target = tmp_path / "elsewhere"

    assert _run_command(["migrate", "--to", str(target)]) == 0

    out = capsys.readouterr().out
    assert "blog: 30 points copied" in out and "notes: 10 points copied" in out
    dst = _store(target)
    try:
        assert dst.list_collections() == ["blog", "notes"]
        assert dst.collection_info("blog")["threshold"] == 0.81
    finally:
        dst.close()
        _store(data_dir).close()


def test_migrate_command_without_an_embedded_store_says_where_it_looked(data_dir, tmp_path, capsys):
    from rag.cli.main import main

    assert main(["migrate", "--to", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"no embedded store at {data_dir / 'qdrant'}" in err and "RAG_DATA_DIR" in err
