"""An evaluation never loses finished work: a question set with an overlong question is refused
before anything runs, a question the embeddings server rejects is named and skipped, and a run
that stops midway still writes the questions it scored."""

from __future__ import annotations

import json

import pytest

from rag.cli.main import main
from rag.config import Settings
from rag.errors import QuestionSetError
from rag.ingest.run import ingest
from rag.embeddings.remote import OpenAIEmbedder
from rag.evaluate.questions import MAX_QUESTION_CHARS, parse_jsonl
from rag.store.store import Store
from tests.evaluate.eval_corpus import DOCS

QUESTIONS = [
    {"id": "q1", "question": "Comment vider le cache Kerberos ?", "expected_source": "kerberos.md", "in_base": True},
    {"id": "q2", "question": "Comment capturer le trafic réseau ?", "expected_source": "pktmon.md", "in_base": True},
    {"id": "q3", "question": "Quelle recette de crêpes ?", "expected_source": None, "in_base": False},
    {"id": "q4", "question": "Comment autoriser les scripts PowerShell ?", "expected_source": "powershell.md",
     "in_base": True},
]


def _jsonl(rows) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


@pytest.fixture
def indexed(fake_embeddings_env, data_dir, tmp_path, monkeypatch):
    """A small collection embedded by the fake LM Studio, which the commands also use."""
    monkeypatch.setattr("rag.cli.main.COMMANDS", ["eval"])
    monkeypatch.setenv("RAG_THRESHOLD", "0.1")
    store = Store(Settings(data_dir=data_dir))
    embedder = OpenAIEmbedder(fake_embeddings_env.url, fake_embeddings_env.model, timeout=5)
    assert ingest(DOCS, store, embedder, "blog", strategy="sections").ok
    embedder.close()
    store.close()
    return fake_embeddings_env


def test_an_overlong_question_refuses_the_set_before_running_naming_its_line():
    rows = QUESTIONS[:2] + [dict(QUESTIONS[3], question="Pourquoi ? " * 1000)]
    with pytest.raises(QuestionSetError) as caught:
        parse_jsonl(_jsonl(rows), "set.jsonl")
    message = str(caught.value)
    assert "line 3" in message and f"over the {MAX_QUESTION_CHARS:,}" in message and "10,999 characters" in message


def test_a_question_the_server_rejects_is_named_and_the_others_are_scored(indexed, tmp_path, capsys):
    indexed.mode, indexed.trigger, indexed.max_chars = "too_long", "trafic", 10
    path = tmp_path / "set.jsonl"
    path.write_text(_jsonl(QUESTIONS), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["eval", "--questions", str(path), "--no-llm", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "question q2 (line 2) failed, not scored" in err and "too long" in err
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert [r["id"] for r in results["questions"]] == ["q1", "q3", "q4"]
    assert results["summary"]["questions"] == 3 and results["summary"]["question_set_size"] == 4
    assert [f["id"] for f in results["summary"]["failed_questions"]] == ["q2"]
    assert results["summary"]["stopped"] is None


def test_a_server_gone_midway_stops_the_run_and_keeps_the_scored_questions(indexed, tmp_path, capsys):
    rows = QUESTIONS + [dict(q, id=f"{q['id']}-bis") for q in QUESTIONS]
    path = tmp_path / "set.jsonl"
    path.write_text(_jsonl(rows), encoding="utf-8")
    # Once the second question is embedded, every query is refused: the server is as good as gone.
    indexed.mode, indexed.trigger, indexed.max_chars = "too_long", None, 10_000
    original = indexed.answer

    def answer(method, path_, body):
        reply = original(method, path_, body)
        if "trafic" in json.dumps(body, ensure_ascii=False):
            indexed.max_chars = 0
        return reply

    indexed.answer = answer  # type: ignore[method-assign]
    out = tmp_path / "out"
    assert main(["eval", "--questions", str(path), "--no-llm", "--out", str(out), "--save-threshold"]) == 2
    err = capsys.readouterr().err
    assert "stopped after 2 of 8 questions" in err and str(out / "results.json") in err
    assert "threshold not saved" in err
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert [r["id"] for r in results["questions"]] == ["q1", "q2"]
    assert "3 questions in a row failed" in results["summary"]["stopped"]
    assert (out / "results.csv").is_file()
