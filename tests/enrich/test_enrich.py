"""Contextual enrichment: the lead mode on real articles, the model modes against the LM Studio
emulator, the on-disk cache, and the rule that a collection keeps its mode."""

from __future__ import annotations

import pytest

from rag.chunking import make_chunker
from rag.config import Settings
from rag.demo import DEMO_DIR
from rag.documents import Document
from rag.enrich.auto import AUTO
from rag.enrich import (
    LEAD,
    LLM,
    NONE,
    QUESTIONS,
    built_mode,
    enriched_text,
    make_enricher,
    resolve_enrichment,
)
from rag.enrich.lead import lead_paragraph
from rag.errors import ConfigError
from rag.servers.chat import LLMClient
from rag.sources.files import load_file
from tests.fixtures.disk import full_disk

ARTICLE = Document(
    url="https://blog.example/klist/",
    title="klist : lire et purger les tickets Kerberos",
    markdown=(
        "La commande klist affiche les tickets Kerberos du cache de la session et permet de les purger "
        "sans fermer la session.\n\n## Lister\n\nLancez `klist` pour voir chaque ticket, son service et "
        "sa date d'expiration.\n\n## Purger\n\nLancez `klist purge` : les tickets sont redemandés au "
        "prochain accès.\n"
    ),
)


def _chunks(doc: Document = ARTICLE):
    return make_chunker("sections").chunk(doc.markdown, title=doc.title)


def test_lead_gives_the_heading_trail_and_the_articles_lead_paragraph():
    enricher = make_enricher(LEAD)
    chunks = _chunks()
    contexts = enricher.contexts(ARTICLE, chunks)
    assert contexts[0] == ARTICLE.title  # the introduction holds the lead itself: not repeated
    assert contexts[2].splitlines() == [
        f"{ARTICLE.title} > Purger",
        "La commande klist affiche les tickets Kerberos du cache de la session et permet de les purger "
        "sans fermer la session.",
    ]
    embedded = enriched_text(chunks[2], contexts[2])
    assert embedded.startswith(chunks[2].header + "\n\n" + contexts[2] + "\n\n")
    assert embedded.endswith(chunks[2].text)  # the body itself is untouched
    assert make_enricher(NONE).contexts(ARTICLE, chunks) == ["", "", ""]


def test_lead_skips_what_is_not_the_authors_prose_in_real_articles():
    for path in sorted(DEMO_DIR.glob("*.md")):
        doc = load_file(path, DEMO_DIR)
        contexts = make_enricher(LEAD).contexts(doc, make_chunker("markdown").chunk(doc.markdown, title=doc.title))
        for context in contexts:
            lines = context.splitlines()
            assert lines[0].startswith(doc.title)
            assert all(not line.startswith(("#", "```", "|", ">")) for line in lines), (path.name, context)
            assert len(context) <= len(lines[0]) + 1 + 301


def test_the_lead_is_prose_by_the_rule_every_scan_shares_not_code_nor_the_next_heading():
    markdown = (
        "- Ouvrez une console :\n\n  ````powershell\n  ```\n\n  Write-Host 'Ce texte dans le code est long et ressemble a de la prose.'\n"
        "  ````\n\n"
        "Cette commande affiche le nom de l'ordinateur, tel que le voit le reseau.\n## Syntaxe\n```\nhostname\n```\n"
    )
    offset, lead = lead_paragraph(markdown)
    assert lead == "Cette commande affiche le nom de l'ordinateur, tel que le voit le reseau."
    assert markdown[offset:].startswith(lead)


def _cites_article_and_extract(messages) -> str:
    user = messages[-1]["content"]
    assert "<article" in user and "<extrait>" in user  # the article first, the chunk last
    return "Cet extrait explique comment purger les tickets Kerberos avec klist purge."


@pytest.mark.parametrize("mode", [LLM, QUESTIONS])
def test_model_contexts_are_written_once_then_read_from_the_cache(lmstudio, tmp_path, mode):
    settings = Settings(data_dir=tmp_path / "data", llm_url=lmstudio.url)
    lmstudio.answer = (_cites_article_and_extract if mode == LLM else
                       "Comment purger les tickets ?\nQue fait klist purge ?\nQuand les tickets sont-ils redemandés ?\n"
                       "Mots-clés : klist purge, Kerberos, ticket, cache")
    chunks = _chunks()
    first = make_enricher(mode, settings)
    contexts = first.contexts(ARTICLE, chunks)
    assert lmstudio.chat_calls == len(chunks) == first.stats.generated
    assert all(contexts)
    if mode == QUESTIONS:
        assert contexts[0].endswith("Mots-clés : klist purge, Kerberos, ticket, cache")
        assert "questions" in lmstudio.last_messages()[0]["content"]
    assert first.stats.prompt_tokens > 0 and first.stats.completion_tokens > 0
    assert "3 written by the model" in first.stats.summary()

    again = make_enricher(mode, settings)  # a re-ingest, even into another collection
    assert again.contexts(ARTICLE, chunks) == contexts
    assert lmstudio.chat_calls == len(chunks)  # nothing asked twice
    assert again.stats.cached == 3 and again.stats.prompt_tokens == 0

    changed = Document(ARTICLE.url, ARTICLE.title, ARTICLE.markdown.replace("sans fermer", "sans quitter"))
    make_enricher(mode, settings).contexts(changed, _chunks(changed))
    assert lmstudio.chat_calls == 2 * len(chunks)  # another document version: new contexts


def test_contexts_that_cannot_be_cached_are_written_again_and_leave_nothing_on_disk(lmstudio, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", llm_url=lmstudio.url)
    lmstudio.answer = _cites_article_and_extract
    chunks = _chunks()
    with full_disk():
        contexts = make_enricher(LLM, settings).contexts(ARTICLE, chunks)
    assert all(contexts)  # the ingest goes on
    cache = tmp_path / "data" / "cache" / "enrichment"
    assert [p for p in cache.rglob("*") if p.is_file()] == []  # neither a cut context nor a temporary file
    again = make_enricher(LLM, settings)
    assert again.contexts(ARTICLE, chunks) == contexts and again.stats.generated == len(chunks)
    assert {p.suffix for p in cache.rglob("*") if p.is_file()} == {".json"}  # with room, cached as before


def test_without_a_chat_model_the_model_modes_refuse_before_any_work(lmstudio, tmp_path):
    lmstudio.unload_all()
    settings = Settings(data_dir=tmp_path / "data", llm_url=lmstudio.url)
    with pytest.raises(ConfigError) as caught:
        make_enricher(LLM, settings)
    message = str(caught.value)
    assert "No chat model is loaded" in message and "--enrich lead" in message
    assert lmstudio.chat_calls == 0
    lmstudio.down()
    with pytest.raises(ConfigError, match="not reachable"):
        make_enricher(QUESTIONS, settings, llm=LLMClient(lmstudio.url, timeout=2))
    assert make_enricher(LEAD, settings).mode == LEAD  # no model needed


def test_a_long_article_is_cut_around_the_chunk_to_fit_the_model(lmstudio, tmp_path):
    lmstudio.set_context_length(1200)
    long_doc = Document("https://blog.example/long/", "Long", "Début de l'article.\n\n"
                        + "\n\n".join(f"## Partie {i}\n\n" + f"Texte {i}. " * 200 for i in range(30)))
    chunks = make_chunker("sections").chunk(long_doc.markdown, title="Long")
    settings = Settings(data_dir=tmp_path / "data", llm_url=lmstudio.url)
    contexts = make_enricher(LLM, settings).contexts(long_doc, chunks[-2:])
    assert all(contexts) and lmstudio.chat_calls == 2  # no context overflow
    sent = lmstudio.last_messages()[-1]["content"]
    assert "Début de l'article." in sent and "[…]" in sent and chunks[-1].text in sent


def test_a_collection_keeps_its_enrichment_and_another_needs_full():
    built = {"name": "blog", "points": 10, "enrichment": {"mode": LEAD, "model": None}}
    assert resolve_enrichment(built, None, full=False) == LEAD
    assert resolve_enrichment(built, LEAD, full=False) == LEAD
    with pytest.raises(ConfigError, match="--full"):
        resolve_enrichment(built, LLM, full=False)
    assert resolve_enrichment(built, LLM, full=True) == LLM
    assert resolve_enrichment(built, None, full=True) == NONE  # a rebuild gets the default
    with pytest.raises(ConfigError, match="--full"):
        resolve_enrichment(built, AUTO, full=False)  # auto is a mode of its own
    assert resolve_enrichment({"points": 5}, None, full=False) == NONE  # built before enrichment existed
    assert resolve_enrichment({"points": 0}, None, full=False) == NONE  # nothing built yet: the default
    assert built_mode({"enrichment": {"mode": "questions"}}) == QUESTIONS
    with pytest.raises(ConfigError, match="choose one of"):
        resolve_enrichment(None, "summary", full=False)


def test_the_prompt_follows_the_articles_language(lmstudio, tmp_path):
    settings = Settings(data_dir=tmp_path / "data", llm_url=lmstudio.url)
    english = Document("https://blog.example/en/", "Purging Kerberos tickets",
                       "This article shows how to list and purge the Kerberos tickets with klist.\n\n"
                       "## Purge\n\nRun klist purge: the tickets are requested again on the next access.\n")
    make_enricher(LLM, settings).contexts(english, _chunks(english))
    assert lmstudio.last_messages()[0]["content"].startswith("You help a search engine")
    make_enricher(LLM, settings).contexts(ARTICLE, _chunks())
    assert lmstudio.last_messages()[0]["content"].startswith("Tu aides un moteur de recherche")


def test_contexts_of_another_server_calling_its_model_the_same_are_not_reused(tmp_path):
    from tests.fixtures.lmstudio import LMStudioEmulator

    first, other = LMStudioEmulator().up(), LMStudioEmulator().up()  # the same model name on both
    try:
        first.answer, other.answer = "Contexte écrit par le premier serveur.", "Contexte écrit par l'autre serveur."
        chunks = _chunks()
        made = make_enricher(LLM, Settings(data_dir=tmp_path / "data", llm_url=first.url)).contexts(ARTICLE, chunks)
        elsewhere = make_enricher(LLM, Settings(data_dir=tmp_path / "data", llm_url=other.url))
        assert elsewhere.contexts(ARTICLE, chunks) != made
        assert other.chat_calls == len(chunks) and elsewhere.stats.cached == 0
        again = make_enricher(LLM, Settings(data_dir=tmp_path / "data", llm_url=first.url))
        assert again.contexts(ARTICLE, chunks) == made and again.stats.cached == len(chunks)
    finally:
        first.down()
        other.down()
