"""What only the embedded store (Qdrant Edge) has to guarantee: one process at a time without
harming the owner, files that survive a crash, threads sharing a shard, HNSW at the end of a
large ingest."""

from __future__ import annotations

import json
import math
import random
import signal
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rag.chunking import DEFAULT_STRATEGY, make_chunker
from rag.config import Settings
from rag.documents import Document
from rag.errors import StoreError
from rag.store import edge_store
from rag.ingest.point_payload import point_payload
from rag.store.sparse import sparse_vector
from rag.store.store import PointRecord, Store, point_id


@pytest.fixture
def store(data_dir):
    s = Store(Settings(data_dir=data_dir))
    yield s
    s.close()


def _records(url: str, n: int, start: int = 0) -> list[PointRecord]:
    return [
        PointRecord(point_id(url, i), [1.0, (i % 7) / 7, (i % 3) / 3], ([i % 5], [1.0]),
                    {"url": url, "order": i, "access": ["public"], "text": f"{url} {i}"})
        for i in range(start, start + n)
    ]


HOLDER = """
import sys
from pathlib import Path
from rag.config import Settings
from rag.store.store import Store
store = Store(Settings(data_dir=Path(sys.argv[1])))
store.list_collections()
print("ready", flush=True)
if sys.stdin.readline().strip() == "write":
    store.upsert("c", [{records}])
    store.finish("c")
    print(store.count("c"), flush=True)
    sys.stdin.readline()
"""


def _holder(data_dir: Path) -> subprocess.Popen:
    record = "__import__('rag.store.store').store.store.PointRecord('%s', [1.0, 0.0, 0.0], None, {'url': 'late'})"
    code = HOLDER.format(records=record % point_id("late", 0))
    process = subprocess.Popen([sys.executable, "-c", code, str(data_dir)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "ready"
    return process


@pytest.mark.slow  # a second Python process
def test_a_second_process_is_stopped_by_our_lock_and_the_owner_is_not_harmed(data_dir):
    first = Store(Settings(data_dir=data_dir))
    first.ensure_collection("c", "m", 3, "sections", {})
    first.upsert("c", _records("a", 3))
    first.close()

    holder = _holder(data_dir)
    try:
        with pytest.raises(StoreError) as err:
            Store(Settings(data_dir=data_dir))
        message = str(err.value)
        assert f"store held by process {holder.pid}" in message
        assert "Another process" in message and "streamlit run" in message
        assert "RAG_QDRANT_URL" in message and str(data_dir / "qdrant") in message
        # The owner writes and flushes after the refused attempt: Edge's own lock was never reached.
        holder.stdin.write("write\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "4"
    finally:
        holder.communicate("\n", timeout=30)
    assert holder.returncode == 0
    store = Store(Settings(data_dir=data_dir))
    try:
        assert store.count("c") == 4 and store.points_for_url("c", "late")
    finally:
        store.close()


@pytest.mark.slow  # a second Python process
def test_a_killed_holder_leaves_no_lock_behind(data_dir):
    holder = _holder(data_dir)
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    holder.stdin.close()
    holder.stdout.close()
    store = Store(Settings(data_dir=data_dir))  # the kernel dropped the lock with the process
    store.close()


def test_collections_survive_a_reopen_with_their_metadata_beside_the_shard(data_dir, store):
    store.ensure_collection("blog", "m", 3, "sections", {"max_chars": 2000})
    store.upsert("blog", _records("a", 10))
    store.create_index("blog", "heading")
    store.set_threshold("blog", 0.7)
    store.close()

    root = data_dir / "qdrant"
    assert (root / "blog" / "edge_config.json").is_file()
    meta = json.loads((root / "blog.collection.json").read_text(encoding="utf-8"))
    assert meta["threshold"] == 0.7 and meta["embedding_model"] == "m"
    assert not [p for p in root.iterdir() if p.name.endswith(".tmp")]  # written through a renamed temp file

    again = Store(Settings(data_dir=data_dir))
    try:
        info = again.collection_info("blog")
        assert info["points"] == 10 and info["threshold"] == 0.7 and info["chunk_settings"] == {"max_chars": 2000}
        assert again.indexes("blog") == {"url": "keyword", "access": "keyword", "terms": "keyword", "heading": "keyword"}
        assert again.search_dense("blog", [1, 0, 0], 1)[0].payload["order"] == 0
    finally:
        again.close()


def test_a_creation_interrupted_before_its_metadata_is_no_collection(data_dir, store):
    store.ensure_collection("blog", "m", 3, "sections", {})
    store.upsert("blog", _records("a", 4))
    store.close()
    (data_dir / "qdrant" / "blog.collection.json").unlink()  # as if the process died just before writing it

    again = Store(Settings(data_dir=data_dir))
    try:
        assert again.list_collections() == [] and again.collection_info("blog") is None
        info = again.ensure_collection("blog", "m2", 3, "sections", {})
        assert info["points"] == 0 and info["embedding_model"] == "m2"
    finally:
        again.close()


def test_a_collection_name_that_is_not_a_folder_name_is_refused(store):
    for name in ("../escape", "a/b", "", ".hidden", "x" * 65):
        with pytest.raises(StoreError, match="letters, digits"):
            store.ensure_collection(name, "m", 3, "sections", {})
    assert store.list_collections() == []


def test_threads_share_one_shard(store):
    store.ensure_collection("c", "m", 3, "sections", {})
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for d in range(15):
                store.upsert("c", _records(f"t{t}-d{d}", 5))
                store.commit("c")
                assert store.search_hybrid("c", [1, 0.5, 0.5], ([1], [1.0]), 6, groups=["public"])
                store.count("c")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert store.count("c") == 4 * 15 * 5


def test_a_large_collection_gets_hnsw_at_the_end_of_an_ingest_with_the_same_answers(store, monkeypatch):
    rng = random.Random(5)
    store.ensure_collection("c", "m", 8, "sections", {})
    for d in range(30):
        store.upsert("c", [PointRecord(point_id(f"d{d}", i), [rng.gauss(0, 1) for _ in range(8)], None,
                                       {"url": f"d{d}", "access": ["public"]}) for i in range(10)])
    queries = [[rng.gauss(0, 1) for _ in range(8)] for _ in range(10)]
    exact = [[h.id for h in store.search_dense("c", v, 6)] for v in queries]
    assert not store.finish("c")  # below HNSW_FROM: flushed, no index built

    monkeypatch.setattr(edge_store, "HNSW_FROM", 100)
    assert store.finish("c")
    assert [[h.id for h in store.search_dense("c", v, 6)] for v in queries] == exact
    assert store.count("c") == 300


ARTICLE = """# Renouveler un certificat

Introduction : le certificat du serveur expire le 31/12 ; « certutil » vérifie la chaîne.

## Étapes

1. Exportez la clé (PFX).
2. Importez-la sur le nœud n°2, puis redémarrez le service « W3SVC ».

## Vérifier

`certutil -verify -urlfetch serveur.cer` doit afficher « Vérification réussie » — sinon, voyez l'étape 1.
"""


def _f32(values: list[float]) -> list[float]:
    return [struct.unpack("f", struct.pack("f", v))[0] for v in values]


def test_a_documents_points_come_back_exactly_as_written_after_a_reopen(data_dir, store):
    doc = Document(url="https://blog.example/certificat", title="Renouveler un certificat", markdown=ARTICLE,
                   modified="2026-11-30T10:00:00+00:00", access=["staff", "members"], source="folder")
    chunks = make_chunker(DEFAULT_STRATEGY, chunk_size=160, overlap=0).chunk(doc.markdown, title=doc.title)
    assert len(chunks) >= 3
    rng = random.Random(11)
    records = []
    for position, chunk in enumerate(chunks):
        raw = [rng.gauss(0, 1) for _ in range(8)]
        norm = math.sqrt(sum(x * x for x in raw))
        payload = point_payload(doc, chunk, position, DEFAULT_STRATEGY, "b1", "m", len(chunks), context="Contexte")
        records.append(PointRecord(point_id(doc.url, position), [x / norm for x in raw],
                                   sparse_vector(chunk.embedding_text), payload))
    assert any(r.payload["terms"] and r.payload["heading_path"] for r in records)
    store.ensure_collection("c", "m", 8, DEFAULT_STRATEGY, {})
    store.upsert("c", records)
    store.commit("c")
    store.close()

    again = Store(Settings(data_dir=data_dir))
    try:
        back = {p.id: p for p in again.get_points("c", [r.id for r in records], with_vectors=True)}
        assert sorted(back) == sorted(r.id for r in records)
        for rec in records:
            point = back[rec.id]
            assert point.payload == rec.payload  # every key and value, lists and accents included
            assert point.vector == pytest.approx(_f32(rec.dense), abs=1e-6)
            assert dict(zip(*point.sparse)) == dict(zip(rec.sparse[0], _f32(rec.sparse[1])))
        assert again.count("c", groups=["members"]) == len(records)
        assert again.count("c", groups=["public"]) == 0  # the access groups came back, not a default
    finally:
        again.close()


WRITER = """
import sys
from pathlib import Path
from rag.config import Settings
from rag.store import edge_store
from rag.store.store import PointRecord, Store, point_id
edge_store.FLUSH_EVERY = 1e9  # no flush after the collection's creation: only the write-ahead log has them
store = Store(Settings(data_dir=Path(sys.argv[1])))
store.ensure_collection("c", "m", 3, "sections", {})
for d in range(3):
    url = f"doc{d}"
    store.upsert("c", [PointRecord(point_id(url, i), [1.0, i / 4, d / 3], ([i], [1.0]),
                                   {"url": url, "order": i, "chunks": 4, "access": ["public"]}) for i in range(4)])
    store.commit("c")
print("written", flush=True)
sys.stdin.readline()
"""


@pytest.mark.slow  # a second Python process
def test_committed_writes_not_yet_flushed_survive_a_killed_process(data_dir):
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(data_dir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "written"
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        writer.stdin.close()
        writer.stdout.close()
    store = Store(Settings(data_dir=data_dir))
    try:
        assert store.count("c") == 12
        assert [p.payload["order"] for p in sorted(store.points_for_url("c", "doc2"), key=lambda p: p.payload["order"])] \
            == [0, 1, 2, 3]
    finally:
        store.close()


def test_a_file_where_the_data_folder_should_be_is_said_with_what_to_do(tmp_path):
    """RAG_DATA_DIR naming a file: `rag status` and the pages say so instead of a traceback."""
    where = tmp_path / "data"
    where.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot be made or opened.*RAG_DATA_DIR must name a folder"):
        Store(Settings(data_dir=where))
    assert where.read_text() == "not a folder"  # nothing of the user's is touched
