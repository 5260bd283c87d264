"""The convex fusion of the dense and BM25 branches, beside RRF: its order and the access filter."""

from __future__ import annotations

import pytest

from rag.answer.retrieve import retrieve
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.errors import StoreError
from rag.ingest.run import ingest
from rag.store.fusion import by_documents, convex, normalised, rrf
from rag.store.sparse import sparse_query
from rag.store.store import Store


def test_normalised_scores_span_zero_to_one_and_ties_are_one():
    assert normalised([("a", 0.9), ("b", 0.7), ("c", 0.8)]) == pytest.approx({"a": 1.0, "b": 0.0, "c": 0.5})
    assert normalised([("a", 3.0), ("b", 3.0)]) == {"a": 1.0, "b": 1.0}
    assert normalised([]) == {}


def test_the_weight_moves_the_order_from_bm25_to_the_cosine():
    dense = [("close", 0.86), ("word", 0.80), ("far", 0.78)]
    bm25 = [("word", 12.0), ("far", 6.0), ("other", 1.0)]
    assert [i for i, _ in convex(dense, bm25, 1.0, 3)] == ["close", "word", "far"]
    assert [i for i, _ in convex(dense, bm25, 0.0, 2)] == ["word", "far"]
    assert [i for i, _ in convex(dense, bm25, 0.5, 2)] == ["word", "close"]  # strong in both beats one
    # Equal fused scores keep the dense order, whatever order the branches came in.
    assert [i for i, _ in convex([("b", 0.5), ("a", 0.9)], [("a", 1.0), ("b", 2.0)], 0.5, 2)] == ["a", "b"]


DOCS = {
    "ldaps.md": ("Activer LDAPS", "Si la liaison échoue avec le code 0x80090308, le certificat ne porte pas le nom "
                 "DNS complet du contrôleur de domaine.", ["public"]),
    "tls.md": ("Erreurs TLS", "Une connexion TLS qui échoue laisse des événements Schannel dans le journal.",
               ["public"]),
    "dns.md": ("DNS lent", "Une résolution DNS lente ralentit l'ouverture de session.", ["public"]),
    "interne.md": ("Incident interne", "Le code 0x80090308 est apparu sur le serveur de paie SRV-PAIE-01 ; "
                   "la liaison échoue depuis la migration.", ["staff"]),
}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    store = Store(Settings(data_dir=tmp_path_factory.mktemp("fusion")))
    embedder = EmbeddedEmbedder(threads=1)
    docs = [Document(url=url, title=title, markdown=body, access=access) for url, (title, body, access) in DOCS.items()]
    assert ingest(docs, store, embedder, "kb").ok
    yield store, embedder
    store.close()


def test_convex_fusion_finds_the_exact_code_and_keeps_the_access_filter(indexed):
    store, embedder = indexed
    question = "La liaison échoue avec 0x80090308, que faire ?"
    for fusion in ("rrf", "convex"):
        public = retrieve(question, store, embedder, "kb", top_k=4, groups=["public"], fusion=fusion)
        assert public[0].url == "ldaps.md"
        assert "interne.md" not in {p.url for p in public}
        assert all(0.0 < p.score <= 1.0 for p in public)  # the cosine, whatever fused the order
    everyone = retrieve(question, store, embedder, "kb", top_k=4, fusion="convex")
    assert "interne.md" in {p.url for p in everyone}


def test_an_unknown_fusion_is_a_clear_error(indexed):
    store, embedder = indexed
    vector = embedder.embed_query("code 0x80090308")
    with pytest.raises(StoreError, match="sum"):
        store.search_hybrid("kb", vector, sparse_query("code 0x80090308"), 3, fusion="sum")


def test_the_settings_choose_the_fusion(monkeypatch):
    from rag.answer.retrieve import retrieve_options

    assert (retrieve_options(Settings())["fusion"], retrieve_options(Settings())["fusion_weight"]) == ("convex", 0.5)
    monkeypatch.setenv("RAG_FUSION", "RRF")
    assert retrieve_options(Settings.from_env())["fusion"] == "rrf"
    monkeypatch.setenv("RAG_FUSION", "Convex")
    monkeypatch.setenv("RAG_FUSION_WEIGHT", "0.7")
    options = retrieve_options(Settings.from_env())
    assert (options["fusion"], options["fusion_weight"]) == ("convex", 0.7)
    monkeypatch.setenv("RAG_FUSION_WEIGHT", "0")  # BM25 alone is a weight, not "unset"
    assert retrieve_options(Settings.from_env())["fusion_weight"] == 0.0


def test_rrf_with_its_constant_ranks_from_zero_like_qdrant():
    dense = [("a", 0.9), ("b", 0.8), ("c", 0.7)]
    bm25 = [("b", 9.0), ("d", 5.0)]
    # k 2: b = 1/(2+1) + 1/(2+0), a = 1/2, d = 1/3, c = 1/4.
    fused = rrf(dense, bm25, 2)
    assert [i for i, _ in fused] == ["b", "a", "d", "c"]
    assert [s for _, s in fused] == pytest.approx([1 / 3 + 1 / 2, 0.5, 1 / 3, 0.25])
    # A larger constant flattens the ranks: one branch's first no longer beats the second of both.
    assert [i for i, _ in rrf([("a", 0.9), ("b", 0.8)], [("c", 9.0), ("b", 8.0)], 60)][0] == "b"
    assert [i for i, _ in rrf([("x", 0.5), ("y", 0.5)], [], 2, limit=1)] == ["x"]  # ties: the dense order


def test_fusing_by_documents_ranks_an_article_by_its_best_chunk_in_each_branch():
    document = {"a1": "a", "a2": "a", "b1": "b", "c1": "c"}
    # By chunks, a's strength is split between a1 (dense) and a2 (BM25): b1, second in both, wins.
    dense = [("a1", 0.9), ("b1", 0.8), ("c1", 0.7)]
    bm25 = [("a2", 9.0), ("b1", 8.0), ("c1", 1.0)]
    chunks = rrf(dense, bm25, 2)
    assert chunks[0][0] == "b1"
    ordered = by_documents(chunks, dense, bm25, document, lambda d, s: rrf(d, s, 2))
    assert [i for i, _ in ordered][:2] in (["a1", "a2"], ["a2", "a1"])  # a first, its chunks together
    assert [i for i, _ in ordered][2:] == ["b1", "c1"]


@pytest.mark.parametrize("options", [{"rrf_k": 2}, {"rrf_k": 60}, {"fusion_documents": True},
                                     {"fusion": "convex", "fusion_documents": True}])
def test_the_fusions_computed_here_keep_the_access_filter(indexed, options):
    store, embedder = indexed
    question = "La liaison échoue avec 0x80090308, que faire ?"
    public = retrieve(question, store, embedder, "kb", top_k=4, groups=["public"], **options)
    assert public[0].url == "ldaps.md" and "interne.md" not in {p.url for p in public}
    assert "interne.md" in {p.url for p in retrieve(question, store, embedder, "kb", top_k=4, **options)}


def test_rrf_computed_here_with_qdrants_constant_is_qdrants_own(backend_kind, store_on, tmp_path):
    store = store_on(tmp_path)
    embedder = EmbeddedEmbedder(threads=1)
    docs = [Document(url=url, title=title, markdown=body, access=access) for url, (title, body, access) in DOCS.items()]
    assert ingest(docs, store, embedder, "kb").ok
    for question in ("La liaison échoue avec 0x80090308, que faire ?", "ouverture de session lente"):
        vector, sparse = embedder.embed_query(question), sparse_query(question)
        own = store.search_hybrid("kb", vector, sparse, 4)
        here = store.search_hybrid("kb", vector, sparse, 4, rrf_k=2)
        assert [round(h.score, 6) for h in here] == [round(h.score, 6) for h in own]
        assert {h.id for h in here} == {h.id for h in own}
