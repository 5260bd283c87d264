"""Small-to-big: once an article is found, its own best passages come into the context, searched
again within it, under the reader's access filter (real embedded model and store)."""

from __future__ import annotations

import pytest

from rag.answer.retrieve import Passage, Query, retrieve, retrieve_options, within_article
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.ingest.run import ingest
from rag.store.sparse import sparse_query
from rag.store.store import Store

FILLER = (
    "Cette partie décrit le contexte général de l'outil, son historique dans les versions de Windows Server "
    "et les précautions habituelles avant toute intervention sur un poste de production. "
)
KLIST = "\n\n".join([
    "# Gérer les tickets Kerberos avec klist",
    "## Présentation\n\n" + "Avec klist, vous affichez et videz le cache des tickets Kerberos de votre session : "
    "la commande klist liste les tickets Kerberos de la session et sait vider ce cache. " + FILLER * 5,
    "## Historique\n\n" + FILLER * 6,
    "## Compatibilité\n\n" + "Les versions et éditions prises en charge sont listées ici. " + FILLER * 5,
    "## Paramètres\n\n" + "Le paramètre purge efface tout : lancez klist purge, puis reconnectez-vous pour "
    "en obtenir de nouveaux. " + FILLER * 4,
])
OTHERS = {
    "kerberos-horloge.md": ("Décalage horaire et Kerberos", "Un écart de plus de cinq minutes entre le client et "
                            "le contrôleur de domaine fait échouer l'obtention des tickets Kerberos."),
    "kerberos-spn.md": ("SPN dupliqués", "Un SPN enregistré sur deux comptes empêche la délivrance d'un ticket "
                        "Kerberos de service ; setspn -X les liste."),
    "kerberos-rc4.md": ("Désactiver RC4", "Les tickets Kerberos chiffrés en RC4 sont refusés quand "
                        "msDS-SupportedEncryptionTypes vaut 24."),
}
PRIVATE = ("interne.md", "Procédure interne", "Procédure réservée : purge des tickets Kerberos du compte de "
           "service de la paie avec le mot de passe Tournesol42.\n\n## Suite\n\n" + FILLER * 6
           + "\n\n## Fin\n\nLe coffre des secrets de la paie s'ouvre avec la clé Tournesol42. " + FILLER * 6)
QUESTION = "Avec klist, comment vider le cache des tickets Kerberos de ma session ?"
ANSWER = "lancez klist purge"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    store = Store(Settings(data_dir=tmp_path_factory.mktemp("small-to-big")))
    embedder = EmbeddedEmbedder(threads=1)
    docs = [Document(url="klist.md", title="Gérer les tickets Kerberos avec klist", markdown=KLIST, access=["public"])]
    docs += [Document(url=url, title=title, markdown=body, access=["public"]) for url, (title, body) in OTHERS.items()]
    docs.append(Document(url=PRIVATE[0], title=PRIVATE[1], markdown=PRIVATE[2], access=["paie"]))
    report = ingest(docs, store, embedder, "kb")
    assert report.ok
    assert store.count("kb", groups=["public"]) >= len(OTHERS) + 4  # the klist article is several chunks
    yield store, embedder
    store.close()


def _ask(indexed, **options):
    store, embedder = indexed
    return retrieve(QUESTION, store, embedder, "kb", top_k=4, groups=["public"], per_document=1, **options)


def test_the_answer_in_another_chunk_of_the_found_article_comes_into_the_context(indexed):
    before = _ask(indexed, expand_chars=0)
    assert before[0].url == "klist.md"
    assert not any(ANSWER in p.text for p in before)  # one passage an article: the answer's chunk is left out

    after = _ask(indexed, expand_chars=0, article_chars=2000)
    assert [p.url for p in after] == [p.url for p in before]  # the same articles in the same order
    assert ANSWER in after[0].text
    assert after[0].text.startswith(before[0].text[:80]) or before[0].text[:80] in after[0].text
    assert all(a.text == b.text for a, b in zip(after[1:], before[1:]))  # one article searched again


def test_the_budget_bounds_what_is_added(indexed):
    plain = _ask(indexed, expand_chars=0)
    for budget in (100, 700, 2000):
        grown = _ask(indexed, expand_chars=0, article_chars=budget)
        added = len(grown[0].text) - len(plain[0].text)
        assert 0 <= added <= budget + 2 * grown[0].text.count("\n\n")  # the chunks, and the blank lines between
    assert ANSWER not in _ask(indexed, expand_chars=0, article_chars=300)[0].text  # too small for its chunk


def test_a_reader_never_gets_passages_of_an_article_they_may_not_read(indexed):
    store, embedder = indexed
    question = "Comment purger les tickets Kerberos du compte de service de la paie ?"
    public = retrieve(question, store, embedder, "kb", top_k=6, groups=["public"], expand_chars=2000,
                      article_chars=4000, articles=6)
    assert public and all(p.url != PRIVATE[0] and "Tournesol42" not in p.text for p in public)
    # The search within an article is filtered itself: a passage of the private article (one a
    # reader kept from before their access changed) gets none of its chunks for a public reader.
    vector = embedder.embed_query(question)
    stale = Passage(n=1, score=0.9, title=PRIVATE[1], section="", url=PRIVATE[0], text="", order=0)
    for query in (Query(vector), Query(vector, sparse_query(question))):
        assert within_article(store, "kb", query, ["public"])(stale) == []
        assert within_article(store, "kb", query, ["paie"])(stale)  # the article's own readers do get them
    staff = retrieve(question, store, embedder, "kb", top_k=6, groups=["paie"], article_chars=4000)
    assert staff[0].url == PRIVATE[0]


def test_the_setting_reaches_the_retrieval(monkeypatch):
    monkeypatch.setenv("RAG_ARTICLE_CHARS", "1500")
    assert retrieve_options(Settings.from_env())["article_chars"] == 1500
    monkeypatch.setenv("RAG_ARTICLE_CHARS", "-3")
    assert retrieve_options(Settings.from_env())["article_chars"] == 0
