"""The Qdrant store on the real local mode, with hand-made vectors."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from rag.config import Settings
from rag.errors import StoreError
from rag.index.store import PointRecord, Store, point_id


@pytest.fixture
def store(data_dir):
    s = Store(Settings(data_dir=data_dir))
    yield s
    s.close()


def _rec(url: str, index: int, dense: list[float], access=("public",), terms=(1,)) -> PointRecord:
    return PointRecord(
        id=point_id(url, index),
        dense=dense,
        sparse=(list(terms), [1.0] * len(terms)),
        payload={"url": url, "order": index, "access": list(access), "text": f"{url} {index}"},
    )


def test_point_ids_are_deterministic_uuids():
    assert point_id("a/b.md", 0) == point_id("a/b.md", 0)
    assert point_id("a/b.md", 0) != point_id("a/b.md", 1)
    assert len(point_id("x", 3)) == 36


def test_collection_records_how_it_was_built(store):
    info = store.ensure_collection("blog", "embedded:test", 3, "sections", {"max_chars": 2000})
    assert info["embedding_model"] == "embedded:test"
    assert info["dimension"] == 3
    assert info["distance"] == "Cosine"
    assert info["strategy"] == "sections"
    assert info["chunk_settings"] == {"max_chars": 2000}
    assert info["threshold"] is None
    assert info["created"] and info["updated"]
    assert info["points"] == 0 and info["has_sparse"]
    assert store.list_collections() == ["blog"]

    store.set_threshold("blog", 0.81)
    assert store.collection_info("blog")["threshold"] == pytest.approx(0.81)
    assert store.collection_info("blog")["embedding_model"] == "embedded:test"  # merge, not replace

    assert store.delete_collection("blog")
    assert store.collection_info("blog") is None
    assert store.list_collections() == []


def test_another_model_or_dimension_is_refused_with_both_names(store):
    store.ensure_collection("blog", "embedded:model-a", 3, "sections", {})
    with pytest.raises(StoreError) as err:
        store.ensure_collection("blog", "server-model-b", 3, "sections", {})
    message = str(err.value)
    assert "embedded:model-a" in message and "server-model-b" in message
    assert "--collection" in message
    with pytest.raises(StoreError, match="4 dimensions"):
        store.check_model("blog", "embedded:model-a", 4)
    with pytest.raises(StoreError, match="does not exist"):
        store.check_model("missing", "embedded:model-a")


def test_points_upsert_scroll_delete_and_access_filter(store):
    store.ensure_collection("c", "m", 3, "sections", {})
    store.upsert("c", [
        _rec("a", 0, [1, 0, 0]), _rec("a", 1, [0.9, 0.1, 0]), _rec("a", 2, [0.8, 0.2, 0]),
        _rec("secret", 0, [1, 0.05, 0], access=["private"], terms=(7,)),
    ])
    assert store.count("c") == 4
    assert sorted(p.payload["order"] for p in store.points_for_url("c", "a")) == [0, 1, 2]

    everyone = store.search_dense("c", [1, 0, 0], limit=10)
    assert {h.payload["url"] for h in everyone} == {"a", "secret"}
    assert everyone[0].score == pytest.approx(1.0)
    public = store.search_dense("c", [1, 0, 0], limit=10, groups=["public"])
    assert {h.payload["url"] for h in public} == {"a"}
    hybrid = store.search_hybrid("c", [1, 0.05, 0], ([7], [1.0]), limit=10, groups=["public"])
    assert hybrid and all(h.payload["url"] == "a" for h in hybrid)
    assert store.search_hybrid("c", [1, 0.05, 0], ([7], [1.0]), limit=1, groups=["private"])[0].payload["url"] == "secret"

    store.delete_stale("c", "a", [point_id("a", 0)])
    assert [p.id for p in store.points_for_url("c", "a")] == [point_id("a", 0)]
    back = store.get_points("c", [point_id("a", 0)], with_vectors=True)
    assert len(back[0].vector) == 3
    assert store.delete_points("c", [point_id("secret", 0)]) == 1
    assert store.count("c") == 1


def test_same_process_shares_one_client(data_dir):
    first = Store(Settings(data_dir=data_dir))
    second = Store(Settings(data_dir=data_dir))  # local mode would refuse a second client
    first.ensure_collection("c", "m", 3, "sections", {})
    assert second.list_collections() == ["c"]
    first.close()


@pytest.mark.slow  # a second Python process
def test_second_process_on_the_same_folder_gets_a_clear_message(data_dir, tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from pathlib import Path
            from rag.config import Settings
            from rag.index.store import Store
            store = Store(Settings(data_dir=Path({str(data_dir)!r})))
            store.list_collections()
            print("ready", flush=True)
            sys.stdin.readline()
        """)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(StoreError) as err:
            Store(Settings(data_dir=data_dir))
        message = str(err.value)
        assert "Another process" in message and "streamlit run" in message
        assert "RAG_QDRANT_URL" in message and str(data_dir / "qdrant") in message
    finally:
        holder.communicate("\n", timeout=30)
    # Once the other process is gone the store opens normally.
    Store(Settings(data_dir=data_dir)).close()


def test_unreachable_server_names_the_url_and_hides_the_key():
    settings = Settings(qdrant_url="http://127.0.0.1:9", qdrant_api_key="s3cret-key", timeout=2)
    store = Store(settings)
    try:
        with pytest.raises(StoreError) as err:
            store.list_collections()
        assert "http://127.0.0.1:9" in str(err.value)
        assert "s3cret-key" not in str(err.value)
        assert "s3cret-key" not in store.describe()
    finally:
        store.close()
