"""The keyword tokenizer's version, recorded by each collection, on both store backends with the
embedded model: collections from before the field keep working, and a collection whose keywords
this code cannot make is refused with a message that says what to do, never searched wrongly."""

from __future__ import annotations

import pytest

from rag.answer.retrieve import retrieve
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.errors import StoreError
from rag.i18n import language
from rag.ingest.run import ingest
from rag.store.sparse import SPARSE_VERSION, check_sparse_version

PAGES = {
    "backup": "Les sauvegardes nocturnes du serveur Zorblax sont copiées sur bande chaque nuit.",
    "dns": "La résolution DNS lente ralentit l'ouverture de session : vérifiez les redirecteurs.",
    "gpo": "Si une stratégie de groupe ne s'applique pas, lancez gpresult /r sur le poste.",
}
QUESTION = "Où vont les sauvegardes nocturnes de Zorblax ?"


def _docs() -> list[Document]:
    return [Document(url=f"{slug}.md", title=slug, markdown=body, access=["public"]) for slug, body in PAGES.items()]


@pytest.fixture(scope="module")
def embedder():
    return EmbeddedEmbedder(threads=1)


def test_a_new_collection_records_its_keyword_version(store_on, data_dir, embedder):
    store = store_on(data_dir)
    assert ingest(_docs(), store, embedder, "kb").ok
    assert store.collection_info("kb")["sparse_version"] == SPARSE_VERSION
    assert retrieve(QUESTION, store, embedder, "kb", top_k=1, mode="hybrid")[0].url == "backup.md"


def test_a_collection_from_before_the_field_keeps_working(store_on, data_dir, embedder):
    store = store_on(data_dir)
    assert ingest(_docs(), store, embedder, "kb").ok
    store.update_metadata("kb", sparse_version=None)  # a server merges metadata: None stands for absent
    assert retrieve(QUESTION, store, embedder, "kb", top_k=1, mode="hybrid")[0].url == "backup.md"
    report = ingest(_docs() + [Document(url="new.md", title="new", markdown="Une page ajoutée.")], store,
                    embedder, "kb")
    assert report.ok and report.new == 1


def test_a_collection_with_unknown_keywords_is_refused_plainly_and_a_rebuild_fixes_it(
    store_on, data_dir, embedder
):
    store = store_on(data_dir)
    assert ingest(_docs(), store, embedder, "kb").ok
    store.update_metadata("kb", sparse_version=SPARSE_VERSION + 1)  # as a newer rag would record it

    for ask in (lambda: retrieve(QUESTION, store, embedder, "kb", top_k=3),
                lambda: retrieve(QUESTION, store, embedder, "kb", top_k=3, mode="hybrid"),
                lambda: ingest(_docs(), store, embedder, "kb")):
        with pytest.raises(StoreError, match=r"newer version of rag.*--mode dense.*--collection kb --full"):
            ask()
    # Dense search needs no keywords: it still answers.
    assert retrieve(QUESTION, store, embedder, "kb", top_k=1, mode="dense")[0].url == "backup.md"

    report = ingest(_docs(), store, embedder, "kb", full=True)
    assert report.ok and store.collection_info("kb")["sparse_version"] == SPARSE_VERSION
    assert retrieve(QUESTION, store, embedder, "kb", top_k=1, mode="hybrid")[0].url == "backup.md"


def test_the_refusal_is_written_in_french_too():
    with language("fr"), pytest.raises(StoreError) as caught:
        check_sparse_version({"name": "kb", "sparse_version": SPARSE_VERSION + 1})
    message = str(caught.value)
    assert "version plus récente de rag" in message and "--mode dense" in message
    assert "rag ingest SOURCE --collection kb --full" in message
