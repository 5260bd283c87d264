"""Six articles first, then the top article's own best passages: with the default settings a
question reaches as many different articles as the context has slots, and the article found first
still brings the chunk that answers, searched again within it, under the reader's access and
within the budgets (real embedded model, both store backends)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rag.answer import budget, prompts
from rag.answer.context import GAP, cap_per_document, stitch
from rag.answer.retrieve import Passage, retrieve, retrieve_options
from rag.config import Settings
from rag.documents import Document
from rag.embeddings.embedded import EmbeddedEmbedder
from rag.ingest.run import ingest
from tests.fixtures.backends import BACKENDS, open_store

PADDING = ("Ce paragraphe rappelle le cadre de l'outil dans les différentes versions du système, les droits "
           "nécessaires pour l'exécuter et les vérifications d'usage avant de toucher un serveur en service. ")
# One long article: its first section matches the question, its last one holds the answer.
SECTIONS = {
    "Présentation": "La commande klist affiche les tickets Kerberos du poste et vide leur cache : klist montre "
                    "les tickets Kerberos mis en cache et sait vider ce cache de tickets. " + PADDING * 5,
    "Contexte": PADDING * 6,
    "Versions": "Les systèmes où klist est présent sont listés ici. " + PADDING * 5,
    "Options": "L'option purge supprime tout : exécutez klist purge, puis rouvrez la session pour en recevoir "
               "de nouveaux. " + PADDING * 4,
}
LONG = "# Les tickets Kerberos du poste avec klist\n\n" + "\n\n".join(f"## {h}\n\n{b}" for h, b in SECTIONS.items())
ANSWER = "exécutez klist purge"
PUBLIC = ["public"]
ARTICLES = [
    Document(url="klist.md", title="Les tickets Kerberos du poste avec klist", markdown=LONG, access=PUBLIC),
    Document(url="horloge.md", title="Horloge et Kerberos", access=PUBLIC, markdown="Un décalage de plus de "
             "cinq minutes avec le contrôleur de domaine empêche d'obtenir des tickets Kerberos pour le poste."),
    Document(url="spn.md", title="SPN en double", access=PUBLIC,
             markdown="Un SPN présent sur deux comptes bloque le ticket Kerberos de service du poste."),
    Document(url="rc4.md", title="Tickets RC4", access=PUBLIC,
             markdown="Les tickets Kerberos chiffrés en RC4 sont rejetés quand le compte n'accepte que AES."),
    Document(url="delegation.md", title="Délégation contrainte", access=PUBLIC, markdown="La délégation "
             "contrainte laisse un service demander des tickets Kerberos au nom de l'utilisateur du poste."),
    Document(url="duree.md", title="Durée des tickets", access=PUBLIC, markdown="La durée de vie d'un ticket "
             "Kerberos se règle dans la stratégie de domaine ; un ticket expiré est renouvelé par le poste."
             + "\n\n## Détails\n\n" + PADDING * 5),
    Document(url="krbtgt.md", title="Compte krbtgt", access=PUBLIC, markdown="Changer deux fois le mot de passe "
             "du compte krbtgt invalide tous les tickets Kerberos émis, ceux du cache du poste compris."
             + "\n\n## Précautions\n\n" + PADDING * 5),
    # The best match of a question about the payroll's workstation, readable by that group only.
    Document(url="coffre.md", title="Procédure réservée", access=["paie"], markdown="Vider le cache des tickets "
             "Kerberos du poste de la paie : klist purge avec le compte Tournesol42.\n\n## Suite\n\n" + PADDING * 6
             + "\n\n## Fin\n\nLe coffre de la paie s'ouvre avec la clé Tournesol42. " + PADDING * 6),
]
QUESTION = "Avec klist, comment vider le cache des tickets Kerberos de mon poste ?"


@pytest.fixture(scope="module", params=BACKENDS)
def indexed(request, tmp_path_factory):
    store = open_store(request.param, tmp_path_factory.mktemp(f"distinct-{request.param}"))
    embedder = EmbeddedEmbedder(threads=1)
    assert ingest(ARTICLES, store, embedder, "kb").ok
    yield store, embedder
    store.close()


def _ask(indexed, question=QUESTION, groups=("public",), **changed):
    store, embedder = indexed
    options = {**retrieve_options(Settings()), **changed}
    return retrieve(question, store, embedder, "kb", top_k=6, groups=list(groups), **options)


def test_the_defaults_bring_six_different_articles_into_the_context(indexed):
    passages = _ask(indexed)
    assert len({p.url for p in passages}) == 6 == len(passages)
    assert passages[0].url == "klist.md"
    # Before, at most 3 passages an article: the long article's sections took slots of other articles.
    capped = _ask(indexed, distinct=0, article_chars=0)
    assert len({p.url for p in capped}) < 6
    assert [p.n for p in passages] == [1, 2, 3, 4, 5, 6]


def test_the_top_articles_answer_chunk_is_added_to_its_passage(indexed):
    passages = _ask(indexed)
    assert ANSWER in passages[0].text
    assert sum(ANSWER in p.text for p in passages) == 1  # once, in the article's own passage
    # The sections between the one matched and the answer's are not in the passage: it says so
    # where they were left out, rather than running one section into another.
    assert GAP in passages[0].text and passages[0].text.index(GAP) < passages[0].text.index(ANSWER)
    without = _ask(indexed, article_chars=0)
    assert without[0].url == "klist.md" and not any(ANSWER in p.text for p in without)
    assert [p.url for p in without] == [p.url for p in passages]  # growing never reorders


def test_what_is_added_stays_within_the_budgets(indexed):
    plain = _ask(indexed, article_chars=0, expand_chars=0)
    for article_chars, expand_chars in ((0, 0), (400, 0), (2000, 0), (2000, 2000)):
        grown = _ask(indexed, article_chars=article_chars, expand_chars=expand_chars)
        added = sum(len(g.text) - len(p.text) for g, p in zip(grown, plain))
        joints = sum(g.text.count("\n\n") for g in grown)
        gaps = sum(g.text.count(GAP) for g in grown)
        assert 0 <= added <= article_chars + expand_chars + 2 * joints + len(GAP) * gaps


def test_a_small_model_context_sheds_the_growth_before_an_article(indexed):
    passages = _ask(indexed)
    build = lambda chosen: prompts.build_messages(QUESTION, chosen, "fr", "Réponds.")  # noqa: E731
    grown = [p.n for p in passages if p.pieces]
    assert 1 in grown and len(grown) > 1
    # Room for the first passage as grown and the others' own chunks: all six articles are sent,
    # the others without their neighbours, the first with the answer small-to-big found.
    shrunk = [passages[0]] + [replace(p, text=stitch(p.pieces[:1]) if p.pieces else p.text) for p in passages[1:]]
    room = budget.estimate_messages(build(shrunk)) + 300 + budget.SAFETY_TOKENS
    fit = budget.fit_passages(passages, build, context_length=room, max_tokens=300)
    assert fit.fits and not fit.dropped and [p.url for p in fit.kept] == [p.url for p in passages]
    assert ANSWER in fit.kept[0].text and set(fit.shortened) <= set(grown) - {1} and fit.shortened
    assert fit.prompt_tokens <= fit.available_tokens
    # Less room: the first passage sheds its added chunks, the last added first, before an article
    # goes; its first small-to-big chunk, the answer's, is the last of them to go.
    answer_at = next(i for i, c in enumerate(passages[0].pieces) if ANSWER in c["text"])
    kept = replace(passages[0], text=stitch(passages[0].pieces[:answer_at + 1]))
    room = budget.estimate_messages(build([kept] + shrunk[1:])) + 300 + budget.SAFETY_TOKENS
    fit = budget.fit_passages(passages, build, context_length=room, max_tokens=300)
    assert fit.fits and not fit.dropped and len(fit.kept) == 6 and ANSWER in fit.kept[0].text
    assert len(fit.kept[0].text) < len(passages[0].text) and 1 in fit.shortened
    # Less still: every passage down to its own chunk, then the weakest articles go.
    own = replace(passages[0], text=stitch(passages[0].pieces[:1]))
    room = budget.estimate_messages(build([own, shrunk[1]])) + 300 + budget.SAFETY_TOKENS
    fit = budget.fit_passages(passages, build, context_length=room, max_tokens=300)
    assert fit.fits and fit.dropped and fit.kept[0].url == "klist.md" and fit.kept[0].text == own.text
    assert fit.prompt_tokens <= fit.available_tokens
    # The growth's chunks are internal: the passage's keys for a program stay what they were.
    assert "pieces" not in passages[0].to_dict()


def test_a_reader_never_gets_an_article_or_chunk_they_may_not_read(indexed):
    question = "Comment vider le cache des tickets Kerberos du poste de la paie ?"
    public = _ask(indexed, question=question, article_chars=6000, expand_chars=6000)
    assert len({p.url for p in public}) == 6
    assert all(p.url != "coffre.md" and "Tournesol42" not in p.text for p in public)
    staff = _ask(indexed, question=question, groups=("paie",))
    assert staff[0].url == "coffre.md" and len(staff) <= 3  # their one article: all its chunks at most
    assert "Tournesol42" in staff[0].text


def _p(url: str, n: int) -> Passage:
    return Passage(n=n, score=0.5, title=url, section="", url=url, text=f"{url}{n}")


def test_distinct_first_then_the_slots_left_under_the_cap():
    ranked = [_p(u, i) for i, u in enumerate("aabacadbe", start=1)]
    assert [p.url for p in cap_per_document(ranked, 6, 3, distinct=6)] == list("abcde") + ["a"]
    # A softer cap: the first 3 slots one article each, then the best left, at most 3 an article.
    assert [p.url for p in cap_per_document(ranked, 6, 3, distinct=3)] == ["a", "b", "c", "a", "a", "d"]
    assert [p.url for p in cap_per_document(ranked, 6, 3)] == ["a", "a", "b", "a", "c", "d"]  # off: as before
    assert [p.n for p in cap_per_document(ranked, 4, 3, distinct=6)] == [1, 2, 3, 4]
    assert [p.url for p in cap_per_document(ranked[:3], 6, 1, distinct=6)] == ["a", "b"]  # fewer articles exist


def test_the_setting_reaches_the_retrieval(monkeypatch):
    assert retrieve_options(Settings())["distinct"] == 6
    assert retrieve_options(Settings())["article_chars"] == 3000
    monkeypatch.setenv("RAG_DISTINCT_ARTICLES", "0")
    assert retrieve_options(Settings.from_env())["distinct"] == 0
    monkeypatch.setenv("RAG_DISTINCT_ARTICLES", "4")
    assert retrieve_options(Settings.from_env())["distinct"] == 4


def test_a_model_loaded_with_a_small_context_gets_all_six_articles_and_the_reader_sees_what_it_read(
        indexed, lmstudio):
    from rag.answer.engine import answer_passages
    from rag.servers.chat import LLMClient

    passages = _ask(indexed)
    system = prompts.load_system_prompt("fr")
    full = budget.estimate_messages(prompts.build_messages(QUESTION, passages, "fr", system))
    lmstudio.set_context_length(full + 300 + budget.SAFETY_TOKENS - 150)  # about 450 characters short
    lmstudio.answer = "Exécutez klist purge [1]."
    result = answer_passages(QUESTION, passages, LLMClient(lmstudio.url), 0.5, max_tokens=300)
    assert result.llm_error is None and result.dropped_passages == [] and len(result.sent_passages) == 6
    assert not result.notes  # nothing was left out, so nothing to warn about
    assert ANSWER in result.passages[0].text
    shown = [p.text for p in result.passages]
    assert sum(map(len, shown)) < sum(len(p.text) for p in passages)  # some growth was shed
    sent = "\n".join(str(m["content"]) for m in lmstudio.last_messages())
    assert all(text.strip()[-120:] in sent for text in shown)  # each passage shown is the one the model read
