"""Questions a user may type: empty, enormous, or in a language the product does not answer in.
A clear error or a refusal, never a crash, and nothing oversized sent to the models."""

from __future__ import annotations

import json

import pytest

from rag.cli.main import main
from rag.answer.prompts import refusal_sentence
from rag.answer.retrieve import MAX_QUESTION_CHARS


@pytest.fixture
def indexed(tmp_path, fake_embeddings_env, lmstudio, monkeypatch, capsys):
    server = fake_embeddings_env
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    monkeypatch.delenv("RAG_THRESHOLD", raising=False)
    root = tmp_path / "notes"
    root.mkdir()
    (root / "ntp.md").write_text("# Heure Windows\n\n## Réglage\n\nw32tm /resync force la synchronisation.\n",
                                 encoding="utf-8")
    assert main(["ingest", str(root)]) == 0
    capsys.readouterr()
    server.requests.clear()
    return server


def _embedded_texts(server) -> list[str]:
    return [text for body in server.embedding_requests for text in body.get("input", [])]


@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
def test_an_empty_question_is_a_clear_error(indexed, lmstudio, capsys, question):
    assert main(["ask", question]) == 2
    out, err = capsys.readouterr()
    assert "error: The question is empty: type a question." in err and "Traceback" not in err
    assert _embedded_texts(indexed) == [] and lmstudio.chat_calls == 0


def test_a_huge_question_is_refused_before_any_model_sees_it(indexed, lmstudio, capsys):
    question = "Pourquoi l'horloge dérive-t-elle ? " * (100_000 // 35)
    assert len(question) > 99_000
    assert main(["ask", question, "--json"]) == 2
    out, err = capsys.readouterr()
    assert f"the limit is {MAX_QUESTION_CHARS:,}" in err and "shorter question" in err
    assert out == "" and "Traceback" not in err
    assert _embedded_texts(indexed) == [] and lmstudio.chat_calls == 0


def test_a_long_but_acceptable_question_is_answered(indexed, lmstudio, capsys):
    question = "Comment resynchroniser l'heure ? Voici le journal : " + "erreur 0x800705B4 " * 150
    assert len(question) < MAX_QUESTION_CHARS
    # No gate at all: the error code is in no article, which alone would refuse the question.
    assert main(["ask", question, "--json", "--threshold", "-1", "--min-coverage", "0"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["answer"] and result["llm_error"] is None
    assert lmstudio.chat_calls == 1


@pytest.mark.parametrize(
    "question, refusals",
    [
        ("How do I force the clock to resynchronise?", [refusal_sentence("en")]),
        ("Comment forcer la resynchronisation de l'horloge ?", [refusal_sentence("fr")]),
        ("Wie erzwinge ich die Zeitsynchronisierung unter Windows?", [refusal_sentence("fr"), refusal_sentence("en")]),
        ("時刻を強制的に同期するにはどうすればよいですか？", [refusal_sentence("fr"), refusal_sentence("en")]),
    ],
)
def test_out_of_base_questions_get_the_refusal_in_their_language(indexed, lmstudio, capsys, question, refusals):
    assert main(["ask", question, "--json", "--threshold", "0.999"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["refused"] is True and result["answer"] in refusals
    assert result["sources"] == [] and lmstudio.chat_calls == 0
    # The same in the terminal: the sentence, then why.
    assert main(["ask", question, "--threshold", "0.999"]) == 0
    out = capsys.readouterr().out
    why = "(refused:" if result["answer"] == refusal_sentence("en") else "(refus :"  # in the refusal's language
    assert out.splitlines()[0] == result["answer"] and why in out
