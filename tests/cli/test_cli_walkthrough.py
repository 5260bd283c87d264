"""The command line of the seed's loop: change one chunk setting, index into a second
collection, replay the questions, compare; retrieval only; the curl export; the refusal line
in one language. Real parts: the embedded model, Qdrant local mode, the LM Studio emulator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.store.store import Store
from tests.evaluate.eval_corpus import DOCS, QUESTIONS_JSONL


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "articles"
    root.mkdir()
    for doc in DOCS:
        (root / doc.url).write_text(f"---\ntitle: {doc.title}\n---\n\n{doc.markdown}", encoding="utf-8")
    (tmp_path / "questions.jsonl").write_text(QUESTIONS_JSONL, encoding="utf-8")
    return root


@pytest.fixture
def env(data_dir, monkeypatch, lmstudio):
    for name in ("RAG_THRESHOLD", "RAG_COLLECTION", "RAG_EMBED_MODEL", "RAG_EMBED_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    return data_dir


def _info(data_dir: Path, name: str) -> dict:
    store = Store(Settings(data_dir=data_dir))
    try:
        return store.collection_info(name)
    finally:
        store.close()


def test_chunk_settings_index_a_second_collection_and_the_first_refuses_them(env, folder, monkeypatch, capsys):
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    assert main(["ingest", str(folder), "--collection", "base"]) == 0
    assert main(["ingest", str(folder), "--collection", "small", "--strategy", "recursive",
                 "--chunk-size", "120", "--overlap", "20"]) == 0
    err = capsys.readouterr().err
    assert "strategy recursive (--chunk-size 120 --overlap 20)" in err
    assert _info(env, "small")["chunk_settings"] == {"chunk_size": 120, "overlap": 20}
    assert _info(env, "base")["strategy"] == "markdown"

    # The same settings on the collection built otherwise: refused, in words, nothing mixed.
    assert main(["ingest", str(folder), "--collection", "base", "--chunk-size", "120"]) == 2
    err = capsys.readouterr().err
    # Its settings as the flags that would give them: what to type, not Python's chunk_size=1000.
    assert "'base' was built with the strategy markdown (--chunk-size 1000 --overlap 200)" in err
    assert "{" not in err and "--full" in err
    assert _info(env, "base")["chunk_settings"] == {"chunk_size": 1000, "overlap": 200}

    # A setting the strategy does not use is an error, not a silent no-op.
    assert main(["ingest", str(folder), "--collection", "other", "--min-size", "100"]) == 2
    err = capsys.readouterr().err
    assert "--min-size does not apply to the strategy markdown" in err
    assert _info(env, "other") is None


def test_the_collection_model_line_does_not_name_an_unset_variable(env, folder, monkeypatch, capsys):
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    assert main(["ingest", str(folder), "--collection", "base"]) == 0
    assert capsys.readouterr().err.startswith("RAG_EMBED_MODEL=embedded: using")
    monkeypatch.delenv("RAG_EMBED_MODEL")
    assert main(["ingest", str(folder), "--collection", "base"]) == 0  # unchanged: skipped
    err = capsys.readouterr().err
    assert "RAG_EMBED_MODEL" not in err
    assert err.startswith("The collection 'base' was built with embedded:multilingual-e5-small: using")


def test_ask_without_the_model_lists_the_passages(env, folder, monkeypatch, lmstudio, capsys):
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    assert main(["ingest", str(folder), "--collection", "base"]) == 0
    capsys.readouterr()
    assert main(["ask", "Comment vider le cache des tickets Kerberos ?", "--collection", "base", "--no-llm",
                 "--threshold", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "[1] " in out and "kerberos.md" in out and "klist purge" in out
    assert main(["ask", "Comment vider le cache des tickets Kerberos ?", "--collection", "base", "--no-llm",
                 "--threshold", "0.5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answer"] is None and data["refused"] is False and data["passages"][0]["url"] == "kerberos.md"
    assert lmstudio.chat_calls == 0


@pytest.mark.parametrize("question, line", [
    ("Quelle est la recette de la tarte tatin ?", "(refus : meilleur score "),
    ("What is the recipe of the tarte tatin?", "(refused: best score "),
])
def test_the_refusal_line_is_in_the_question_language(env, folder, monkeypatch, capsys, question, line):
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    assert main(["ingest", str(folder), "--collection", "base"]) == 0
    capsys.readouterr()
    # The score's line (without the word checks, which would refuse the recipe first).
    assert main(["ask", question, "--collection", "base", "--threshold", "0.99", "--min-coverage", "0"]) == 0
    refusal = [x for x in capsys.readouterr().out.splitlines() if x.startswith("(")][0]
    assert refusal.startswith(line)
    if line.startswith("(refus :"):
        assert refusal.endswith("(réglage))") and "threshold" not in refusal
    else:
        assert refusal.endswith("(setting))") and "seuil" not in refusal


def test_preview_prints_the_curl_command_of_the_default_strategy(env, folder, capsys):
    assert main(["preview", str(folder / "kerberos.md"), "--curl", "ollama", "--model", "nomic-embed-text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("curl -sS http://localhost:11434/api/embed")
    body = json.loads(out.splitlines()[3])
    assert body["model"] == "nomic-embed-text" and body["truncate"] is False
    assert any("klist purge" in text for text in body["input"])


def test_compare_measures_both_collections_at_one_threshold(env, folder, monkeypatch, capsys):
    """A threshold saved on one side must not read as a strategy effect."""
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    assert main(["ingest", str(folder), "--collection", "base"]) == 0
    assert main(["ingest", str(folder), "--collection", "rec", "--strategy", "recursive"]) == 0
    store = Store(Settings(data_dir=env))
    store.set_threshold("base", 0.87)
    store.close()
    out_dir = env.parent / "cmp"
    assert main(["eval", "--questions", str(folder.parent / "questions.jsonl"), "--collection", "base", "--no-llm",
                 "--out", str(out_dir), "--compare", "rec"]) == 0
    a = json.loads((out_dir / "results.json").read_text())["summary"]
    b = json.loads((out_dir / "compare-rec" / "results.json").read_text())["summary"]
    assert a["threshold"] == b["threshold"] == 0.87
    assert "both measured at the threshold 0.87" in capsys.readouterr().out
