"""A server that returns overflowing values (1e308: valid JSON, finite in Python, infinite as a
32-bit float) must not leave NaN points in the collection, and points that are already bad are
never taken for an unchanged document."""

from __future__ import annotations

import pytest

from rag.config import Settings
from rag.documents import Document
from rag.embeddings.remote import OpenAIEmbedder
from rag.embeddings.base import vector_problem
from rag.ingest.run import ingest
from rag.answer.retrieve import retrieve
from rag.store.sparse import sparse_vector
from rag.store.store import PointRecord, Store


def _docs() -> list[Document]:
    return [
        Document(url=f"https://blog.example/{slug}/", title=f"Article {slug}",
                 markdown=f"Introduction de {slug}.\n\n## Réglage\n\nLe réglage {slug} se fait dans la console.",
                 modified="2024-05-01T10:00:00", source="test")
        for slug in ("kerberos", "dns", "gpo")
    ]


@pytest.fixture
def store(data_dir):
    s = Store(Settings(data_dir=data_dir))
    yield s
    s.close()


@pytest.mark.parametrize(
    ("vector", "words"),
    [([1e308] * 4, "too large"), ([1e-30, 0.0, 0.0, 0.0], "too small"), ([1.0, float("inf")], "infinite"),
     ([0.0, 0.0], "all-zero"), ([0.1, -0.2, 0.3], None)],
)
def test_a_vector_is_judged_the_way_the_store_keeps_it(vector, words):
    problem = vector_problem(vector)
    assert problem is None if words is None else words in problem


def test_overflowing_vectors_are_refused_naming_the_document(store, fake_embeddings_server):
    server = fake_embeddings_server(dimension=16, mode="overflow", trigger="Introduction de dns")
    embedder = OpenAIEmbedder(server.url, server.model, timeout=10)
    report = ingest(_docs(), store, embedder, "blog")
    assert report.new == 2 and report.verify_error is None, report.summary()
    assert [item for item, _ in report.failed] == ["https://blog.example/dns/"]
    assert "too large or too small for 32-bit floats" in report.failed[0][1]
    assert "https://blog.example/dns/#0" in report.failed[0][1]
    assert {p.payload["url"] for p in store.scroll("blog")} == {
        "https://blog.example/kerberos/", "https://blog.example/gpo/"}
    for point in store.scroll("blog", with_vectors=True):
        assert vector_problem(point.vector) is None
    # Search still works and finds the indexed documents.
    passages = retrieve("réglage gpo console", store, embedder, "blog", top_k=3, mode="dense")
    assert passages and all(p.score == p.score for p in passages)
    embedder.close()


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_stored_points_that_fail_verification_are_re_embedded_not_unchanged(store, fake_embeddings_server):
    server = fake_embeddings_server(dimension=16)
    embedder = OpenAIEmbedder(server.url, server.model, timeout=10)
    assert ingest(_docs(), store, embedder, "blog").ok
    # What an earlier version left behind: the same payloads, with vectors the store cannot use.
    bad = [p for p in store.scroll("blog") if p.payload["url"] == "https://blog.example/dns/"]
    store.upsert("blog", [PointRecord(id=p.id, dense=[1e308] * 16, sparse=sparse_vector(p.payload["text"]),
                                      payload=p.payload) for p in bad])
    broken = store.get_points("blog", [p.id for p in bad], with_vectors=True)
    assert all(vector_problem(p.vector) for p in broken), "the setup must store unusable vectors"

    again = ingest(_docs(), store, embedder, "blog")
    assert (again.unchanged, again.changed) == (2, 1), again.summary()
    assert again.changed_urls == ["https://blog.example/dns/"]
    assert any("unusable" in w and "dns" in w for w in again.warnings)
    assert again.ok, again.summary()
    for point in store.scroll("blog", with_vectors=True):
        assert vector_problem(point.vector) is None
    third = ingest(_docs(), store, embedder, "blog")
    assert third.unchanged == 3
    embedder.close()
