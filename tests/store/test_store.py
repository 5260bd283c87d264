"""The store on both backends (Qdrant Edge embedded, and the server API through qdrant-client's
local mode), with hand-made vectors: collections and their metadata, the model guard, points,
the access filter, counts and payload indexes on any keyword field."""

from __future__ import annotations

import pytest

from rag.config import Settings
from rag.errors import StoreError
from rag.store.filters import Where, match
from rag.store.store import PointRecord, Store, point_id


@pytest.fixture
def store(store_on, data_dir):
    return store_on(data_dir)


def _rec(url: str, index: int, dense: list[float], access=("public",), terms=(1,), words=()) -> PointRecord:
    return PointRecord(
        id=point_id(url, index),
        dense=dense,
        sparse=(list(terms), [1.0] * len(terms)),
        payload={"url": url, "order": index, "access": list(access), "text": f"{url} {index}", "words": list(words)},
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
    assert not store.delete_collection("blog")


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
    assert store.search_dense("c", [1, 0, 0], limit=10, groups=[]) == []  # no group: nothing, never everything
    hybrid = store.search_hybrid("c", [1, 0.05, 0], ([7], [1.0]), limit=10, groups=["public"])
    assert hybrid and all(h.payload["url"] == "a" for h in hybrid)
    assert store.search_hybrid("c", [1, 0.05, 0], ([7], [1.0]), limit=1, groups=["private"])[0].payload["url"] == "secret"
    # RRF: the point first in both lists scores 1/(0 + 2) twice (k=2, as a Qdrant server).
    assert store.search_hybrid("c", [1, 0.05, 0], ([7], [1.0]), limit=1)[0].score == pytest.approx(1.0)

    store.delete_stale("c", "a", [point_id("a", 0)])
    assert [p.id for p in store.points_for_url("c", "a")] == [point_id("a", 0)]
    back = store.get_points("c", [point_id("a", 0)], with_vectors=True)
    assert len(back[0].vector) == 3 and back[0].sparse == ([1], [1.0])
    assert store.delete_points("c", [point_id("secret", 0)]) == 1
    assert store.count("c") == 1


def test_count_under_the_access_filter_on_an_indexed_keyword_field(store, backend_kind):
    store.ensure_collection("c", "m", 3, "sections", {})
    store.upsert("c", [
        _rec("a", 0, [1, 0, 0], words=["kerberos", "dns"]),
        _rec("a", 1, [0, 1, 0], words=["dns"]),
        _rec("b", 0, [0, 0, 1], access=["staff"], words=["dns", "gpo"]),
        _rec("c", 0, [1, 1, 0], access=["staff", "public"], words=["gpo"]),
    ])
    store.create_index("c", "words")
    store.create_index("c", "words")  # idempotent
    dns = Where(must=(match("words", "dns"),))
    assert store.count("c", dns) == 3
    assert store.count("c", dns, groups=["public"]) == 2
    assert store.count("c", Where(must=(match("words", "gpo"),)), groups=["public"]) == 1
    assert store.count("c", Where(must=(match("words", "kerberos", "gpo"),))) == 3
    assert store.count("c", groups=["staff"]) == 2
    assert store.count("c", groups=[]) == 0
    hits = store.search_dense("c", [0, 1, 0], limit=10, where=dns, groups=["public"])
    assert [h.payload["order"] for h in hits][:1] == [1] and {h.payload["url"] for h in hits} == {"a"}
    if backend_kind == "edge":  # local mode accepts payload indexes and ignores them
        assert store.indexes("c") == {"url": "keyword", "access": "keyword", "terms": "keyword", "words": "keyword"}


def test_scroll_pages_through_every_point_once(store):
    store.ensure_collection("c", "m", 3, "sections", {})
    store.upsert("c", [_rec(f"doc{i}", j, [1, i, j]) for i in range(40) for j in range(10)])
    ids = [p.id for p in store.scroll("c", payload=["url"])]
    assert len(ids) == len(set(ids)) == 400
    assert len(list(store.scroll("c", limit=7))) == 7
    assert len(list(store.scroll("c", flt=Where(must=(match("url", "doc3"),))))) == 10


def test_same_process_shares_one_store(data_dir, backend_kind, store_on):
    first = store_on(data_dir)
    if backend_kind == "edge":
        second = Store(Settings(data_dir=data_dir))  # a second Edge opener would break the first
    else:
        second = first
    first.ensure_collection("c", "m", 3, "sections", {})
    assert second.list_collections() == ["c"]


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
