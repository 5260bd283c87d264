"""A data folder written before the embedded store moved to Qdrant Edge opens after the upgrade,
with nothing lost: built here exactly as the previous version wrote it (qdrant-client's local
mode in $RAG_DATA_DIR/qdrant, metadata in the collection, the same payload keys)."""

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
from rag.store.local_mode import staging_dir
from rag.store.store import Store, point_id

DIM = 8
META = {
    "embedding_model": "embedded:intfloat/multilingual-e5-small", "dimension": DIM, "distance": "Cosine",
    "strategy": "markdown", "chunk_settings": {"chunk_size": 1000, "chunk_overlap": 200}, "threshold": 0.83,
    "created": "2026-11-02T08:00:00+00:00", "updated": "2026-11-20T17:30:00+00:00",
}


def _old_points(collection: str, docs: int) -> list[qm.PointStruct]:
    rng = random.Random(collection)
    points = []
    for d in range(docs):
        url = f"https://blog.example/{collection}/{d}/"
        for i in range(3):
            vector = {"dense": [rng.uniform(-1, 1) for _ in range(DIM)]}
            if i != 2:  # the last chunk has no term the BM25 vocabulary keeps
                vector["bm25"] = qm.SparseVector(indices=[d, 1000 + i], values=[1.4, 0.6])
            points.append(qm.PointStruct(id=point_id(url, i), vector=vector, payload={
                "url": url, "title": f"Article {d}", "section": f"Partie {i}", "heading_path": [f"Partie {i}"],
                "order": i, "modified": "2026-10-01T10:00:00", "text": f"Texte {d}.{i} « accentué »",
                "header": f"Article {d} / Partie {i}", "strategy": "markdown", "source": "wordpress",
                "access": ["public"] if d % 2 else ["staff"], "content_hash": f"h{d}", "chunks": 3,
                "build": "b1", "embedding_model": META["embedding_model"], "start": 0, "end": 10, "warnings": [],
            }))
    return points


def write_the_old_way(data_dir: Path, collections: dict[str, int]) -> dict[str, dict]:
    """The previous version's embedded store, as its rag.store wrote it."""
    client = QdrantClient(path=str(data_dir / "qdrant"))
    expected: dict[str, dict] = {}
    try:
        for name, docs in collections.items():
            client.create_collection(
                name,
                vectors_config={"dense": qm.VectorParams(size=DIM, distance=qm.Distance.COSINE)},
                sparse_vectors_config={"bm25": qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
                metadata=META,
            )
            points = _old_points(name, docs)
            for start in range(0, len(points), 10):  # one document's chunks per call, as ingest did
                client.upsert(name, points=points[start:start + 10], wait=True)
            records, _ = client.scroll(name, limit=10_000, with_payload=True, with_vectors=True)
            expected[name] = {str(r.id): _normalised(r.vector, r.payload) for r in records}
    finally:
        client.close()
    return expected


def _normalised(vector: dict, payload: dict) -> tuple:
    dense = vector["dense"]
    norm = sum(x * x for x in dense) ** 0.5
    sparse = vector.get("bm25")
    sparse = (list(sparse.indices), [round(v, 5) for v in sparse.values]) if sparse is not None else None
    return tuple(round(x / norm, 4) for x in dense), sparse, payload


def _read(store: Store, name: str) -> dict[str, tuple]:
    return {p.id: _normalised({"dense": p.vector, **({"bm25": _Sparse(*p.sparse)} if p.sparse else {})}, p.payload)
            for p in store.scroll(name, with_vectors=True)}


class _Sparse:
    def __init__(self, indices, values):
        self.indices, self.values = indices, values


def test_an_old_data_folder_opens_after_the_upgrade_with_nothing_lost(data_dir, capsys):
    expected = write_the_old_way(data_dir, {"blog": 7, "collection": 2})  # "collection" is also a folder name there

    store = Store(Settings(data_dir=data_dir))
    try:
        err = capsys.readouterr().err
        assert "moved to Qdrant Edge" in err and "blog (21 points)" in err and "ids and payloads unchanged" in err
        assert store.list_collections() == ["blog", "collection"]
        for name in ("blog", "collection"):
            assert _read(store, name) == expected[name]
        info = store.collection_info("blog")
        for key, value in META.items():
            assert info[key] == value, key
        assert info["points"] == 21 and info["has_sparse"]
        # It answers as before, under the access filter too.
        public = store.search_dense("blog", [1] * DIM, 50, groups=["public"])
        assert {h.payload["access"][0] for h in public} == {"public"} and len(public) == 9
        fused = store.search_hybrid("blog", [1] * DIM, ([3], [1.0]), 3)
        assert any(h.payload["url"].endswith("/3/") for h in fused)  # the BM25 term still finds its document
    finally:
        store.close()
    backups = sorted(data_dir.glob("qdrant-local-mode-backup-*"))
    assert len(backups) == 1 and (backups[0] / "meta.json").is_file() and (backups[0] / "collection").is_dir()
    assert not (data_dir / "qdrant" / "meta.json").exists()
    # The old files still open with the old client: nothing was deleted.
    old = QdrantClient(path=str(backups[0]))
    try:
        assert old.count("blog").count == 21
    finally:
        old.close()
    # Opened again: no second upgrade, same points.
    again = Store(Settings(data_dir=data_dir))
    try:
        assert "moved to Qdrant Edge" not in capsys.readouterr().err
        assert _read(again, "blog") == expected["blog"]
    finally:
        again.close()


def test_an_upgrade_stopped_midway_starts_over_and_loses_nothing(data_dir):
    expected = write_the_old_way(data_dir, {"blog": 4})
    leftover = staging_dir(data_dir / "qdrant") / "blog"
    leftover.mkdir(parents=True)  # as if a previous upgrade had died while copying
    (leftover / "junk").write_text("partial", encoding="utf-8")

    store = Store(Settings(data_dir=data_dir))
    try:
        assert _read(store, "blog") == expected["blog"]
    finally:
        store.close()
    assert not staging_dir(data_dir / "qdrant").exists()


def test_an_old_folder_held_by_an_old_process_is_a_clear_error_and_stays_as_it_was(data_dir):
    write_the_old_way(data_dir, {"blog": 2})
    old = QdrantClient(path=str(data_dir / "qdrant"))  # the previous version, still running
    try:
        with pytest.raises(StoreError, match="Another process holds the Qdrant folder"):
            Store(Settings(data_dir=data_dir))
    finally:
        old.close()
    assert (data_dir / "qdrant" / "meta.json").is_file()
    store = Store(Settings(data_dir=data_dir))
    try:
        assert store.count("blog") == 6
    finally:
        store.close()


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="rag")
    migrate_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_rag_migrate_without_a_destination_upgrades_the_embedded_store(data_dir, capsys):
    write_the_old_way(data_dir, {"blog": 3})
    assert _run(["migrate"]) == 0
    out = capsys.readouterr()
    assert "moved to Qdrant Edge" in out.out + out.err and "blog (9 points)" in out.out + out.err
    store = Store(Settings(data_dir=data_dir))
    try:
        assert store.count("blog") == 9
    finally:
        store.close()
    assert _run(["migrate"]) == 0
    assert "already Qdrant Edge" in capsys.readouterr().out
