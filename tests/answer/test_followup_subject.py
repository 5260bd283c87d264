"""A short question that changes the subject is no follow-up: "Comment faire une pâte à crêpes ?"
after a question on klist must not be searched with klist's terms, which would let the gate
through (benchmarks/README.md, "Follow-up questions", the changed-subject set)."""

from __future__ import annotations

import pytest

from rag.answer import followup
from rag.answer.gate import term_holder
from rag.config import Settings
from rag.store.store import Store

PREVIOUS = [followup.Turn("Comment purger les tickets Kerberos avec klist ?", "klist purge [1].")]


def articles_hold(*words: str):
    held = {w.casefold() for w in words}
    return lambda terms: any(t.casefold() in held for t in terms)


@pytest.mark.parametrize("question", ["Comment faire une pâte à crêpes ?", "Horaires de la piscine ?",
                                      "How do I make pancakes?"])
def test_a_short_question_naming_only_what_no_article_holds_stands_alone(question):
    holds = articles_hold("klist", "kerberos", "valeur", "défaut", "compte")
    assert followup.is_follow_up(question)  # short: without the articles' words, taken for a follow-up
    assert not followup.is_follow_up(question, holds)
    understood = followup.understand(question, PREVIOUS, None, holds=holds)
    assert (understood.method, understood.standalone) == (followup.AS_ASKED, question)


@pytest.mark.parametrize("question", ["Quelle est la valeur par défaut ?", "Et pour un compte de service ?",
                                      "Comment je le modifie ?", "Et pour une pâte à crêpes ?",
                                      "How do I use it in a scheduled task?"])
def test_a_follow_up_stays_one(question):
    """Short and naming what the articles hold, or leaning by a connector or a pronoun."""
    holds = articles_hold("klist", "kerberos", "valeur", "défaut", "compte")
    assert followup.is_follow_up(question, holds)
    assert followup.understand(question, PREVIOUS, None, holds=holds).method == followup.TERMS


def test_the_holder_reads_the_collection_under_the_readers_groups(tmp_path):
    from rag.embeddings.embedded import EmbeddedEmbedder
    from rag.ingest.run import ingest
    from rag.documents import Document

    settings = Settings.from_env({"RAG_DATA_DIR": str(tmp_path), "RAG_EMBED_MODEL": "embedded", "RAG_EMBED_THREADS": "1"})
    store = Store(settings)
    try:
        docs = [Document(url="klist.md", title="klist", markdown="# klist\n\nLa commande klist purge les tickets Kerberos.",
                         access=["public"]),
                Document(url="paie.md", title="Paie", markdown="# Paie\n\nLes bulletins de salaire du service.",
                         access=["rh"])]
        assert ingest(docs, store, EmbeddedEmbedder(threads=1), "c").ok
        info = store.collection_info("c")
        public = term_holder(store, "c", info, ["public"])
        assert public(["klist"]) and public(["tickets"]) and not public(["crêpes"])
        assert not public(["salaire"])  # only in a document this reader may not see
        assert term_holder(store, "c", info, None)(["salaire"])
        assert term_holder(store, "c", {}, None) is None  # no term statistics: the detection alone
    finally:
        store.close()
