"""`rag ingest --enrich`: the context reaches the embedded and BM25 texts but never the cited
body, the collection records its mode, and the chat model's contexts cost nothing the second time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.store.store import Store
from tests.fixtures.files import write_file

ARTICLE = (
    "---\ntitle: Tickets Kerberos\n---\n\n"
    "Cet article montre comment lister et purger les tickets Kerberos avec klist, sans redémarrer.\n\n"
    "## Lister\n\nLancez la commande klist pour voir le cache.\n\n"
    "## Purger\n\nLancez klist purge : chaque ticket est redemandé au prochain accès.\n"
)


@pytest.fixture
def folder(tmp_path) -> Path:
    return write_file(tmp_path / "blog", "klist.md", ARTICLE).parent


def _store(data_dir: Path) -> Store:
    return Store(Settings(data_dir=data_dir))


def _points(data_dir: Path) -> list[dict]:
    return sorted((p.payload for p in _store(data_dir).scroll("blog")), key=lambda p: p["order"])


def test_lead_context_is_embedded_and_indexed_but_never_cited(folder, fake_embeddings_env, data_dir, capsys):
    assert main(["ingest", str(folder), "--strategy", "sections", "--enrich", "lead"]) == 0
    out, err = capsys.readouterr()
    assert "enrichment lead" in err and "Enrichment lead: 3 contexts." in out
    points = _points(data_dir)
    purge = points[2]
    assert purge["section"] == "Purger" and purge["text"].startswith("## Purger")  # the body, as cited
    assert purge["context"] == ("Tickets Kerberos > Purger\nCet article montre comment lister et purger les "
                                "tickets Kerberos avec klist, sans redémarrer.")
    embedded = [text for body in fake_embeddings_env.embedding_requests for text in body["input"]]
    assert any(text.startswith(purge["header"] + "\n\n" + purge["context"] + "\n\n## Purger") for text in embedded)
    info = _store(data_dir).collection_info("blog")
    assert info["enrichment"] == {"mode": "lead", "model": None}
    assert main(["status"]) == 0
    assert "strategy sections, enrichment lead" in capsys.readouterr().out

    # BM25 sees the context: a word only the lead holds ("redémarrer") finds the Purger chunk too.
    from rag.answer.retrieve import retrieve
    from rag.embeddings.remote import OpenAIEmbedder

    embedder = OpenAIEmbedder(fake_embeddings_env.url, fake_embeddings_env.model)
    found = retrieve("redémarrer", _store(data_dir), embedder, "blog", top_k=3, mode="hybrid")
    assert "Purger" in {p.section for p in found}


def test_a_collection_keeps_its_enrichment_and_another_needs_full(folder, fake_embeddings_env, data_dir, capsys):
    assert main(["ingest", str(folder), "--enrich", "lead"]) == 0
    (folder / "klist.md").write_text(ARTICLE + "\n## Ajout\n\nUne section de plus sur klist tickets.\n", encoding="utf-8")
    assert main(["ingest", str(folder)]) == 0  # no --enrich: the collection's own
    assert all("context" in p for p in _points(data_dir))
    capsys.readouterr()
    before = _points(data_dir)

    assert main(["ingest", str(folder), "--enrich", "none"]) == 2
    err = capsys.readouterr().err
    assert "enrichment lead" in err and "--full" in err
    assert _points(data_dir) == before
    assert main(["ingest", str(folder), "--enrich", "none", "--full"]) == 0
    assert all("context" not in p for p in _points(data_dir))
    assert _store(data_dir).collection_info("blog")["enrichment"]["mode"] == "none"


def test_llm_contexts_show_their_cost_and_cost_nothing_on_a_rebuild(folder, fake_embeddings_env, lmstudio, data_dir,
                                                                    monkeypatch, capsys):
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    lmstudio.answer = "Cet extrait fait partie du guide klist sur les tickets Kerberos."
    assert main(["ingest", str(folder), "--enrich", "llm", "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    stats = report["enrichment"]
    assert stats["mode"] == "llm" and stats["model"] == lmstudio.models[0]["id"]
    assert stats["generated"] == lmstudio.chat_calls == len(_points(data_dir)) and stats["cached"] == 0
    assert stats["prompt_tokens"] > 0 and stats["completion_tokens"] > 0 and stats["seconds"] >= 0
    assert "contexts:" in err and "tokens" in err  # progress shows the tokens spent so far
    assert all(p["context"] == lmstudio.answer for p in _points(data_dir))

    calls = lmstudio.chat_calls
    assert main(["ingest", str(folder), "--full", "--enrich", "llm"]) == 0  # rebuilt from scratch
    out = capsys.readouterr().out
    assert lmstudio.chat_calls == calls  # every context came from the cache
    assert "0 written by the model: 0 prompt + 0 answer tokens" in out
    assert list((data_dir / "cache" / "enrichment").glob("*/*.json"))


def test_the_model_modes_refuse_clearly_without_a_chat_model(folder, fake_embeddings_env, lmstudio, data_dir,
                                                            monkeypatch, capsys):
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    lmstudio.unload_all()
    assert main(["ingest", str(folder), "--enrich", "questions"]) == 2
    err = capsys.readouterr().err
    assert "No chat model is loaded" in err and "--enrich lead" in err
    assert not _store(data_dir).exists("blog")  # nothing written
    assert fake_embeddings_env.embedding_requests == []


def test_progress_counts_the_tokens_chunk_by_chunk(folder, fake_embeddings_env, lmstudio, data_dir):
    from rag.embeddings.remote import OpenAIEmbedder
    from rag.enrich import make_enricher
    from rag.ingest.run import ingest
    from rag.sources import open_source

    settings = Settings(data_dir=data_dir, llm_url=lmstudio.url)
    seen = []
    report = ingest(list(open_source(str(folder))), _store(data_dir),
                    OpenAIEmbedder(fake_embeddings_env.url, fake_embeddings_env.model), "blog",
                    strategy="sections", enricher=make_enricher("questions", settings), progress=seen.append)
    enriching = [p.enrich_tokens for p in seen if p.phase == "enriching"]
    # One event as the document starts, then one after each of its three contexts.
    assert len(enriching) == 4 and enriching[0] == 0 and enriching[1] < enriching[2] < enriching[3]
    assert seen[-1].enrich_tokens == report.enrichment["prompt_tokens"] + report.enrichment["completion_tokens"]


def test_the_help_names_the_mode_a_new_collection_gets(folder, fake_embeddings_env, data_dir, capsys):
    """`rag ingest --help` said a new collection gets `auto`; it gets `none` (docs/contracts.md)."""
    with pytest.raises(SystemExit):
        main(["ingest", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert main(["ingest", str(folder)]) == 0
    mode = _store(data_dir).collection_info("blog")["enrichment"]["mode"]
    assert f"[the collection's own, else {mode}]" in helped
