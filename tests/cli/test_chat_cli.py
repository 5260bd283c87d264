"""`rag chat`: a conversation on standard input or in a file, each line a turn played as the Ask page
plays it; `--json` one turn a line with `rag ask --json`'s keys. Over a copy of the demo articles
(the journal is written beside them), the LM Studio stand-in as the chat model."""

from __future__ import annotations

import io
import json
import re
import shutil

import pytest

from rag.cli.main import main


@pytest.fixture
def demo_copy(demo_index, tmp_path, monkeypatch, lmstudio, capsys):
    data = tmp_path / "data"
    shutil.copytree(demo_index.data_dir, data, ignore=shutil.ignore_patterns("*.lock", "journal*"))
    monkeypatch.setenv("RAG_DATA_DIR", str(data))
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    monkeypatch.setenv("RAG_EMBED_THREADS", "1")
    monkeypatch.setenv("RAG_LLM_URL", lmstudio.url)
    monkeypatch.delenv("RAG_THRESHOLD", raising=False)
    lmstudio.answer = lambda messages: "Purgez le cache avec klist purge " + "".join(
        f"[{n}]" for n in re.findall(r'<extrait n="(\d+)">', messages[-1]["content"])[:1]) + "."
    capsys.readouterr()
    return data


def _lines(capsys):
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_an_off_topic_follow_up_is_refused_without_an_answer_call(demo_copy, lmstudio, monkeypatch, capsys):
    assert main(["ask", "Comment purger les tickets Kerberos ?", "--json"]) == 0
    keys = set(json.loads(capsys.readouterr().out))
    calls = lmstudio.chat_calls
    monkeypatch.setattr("sys.stdin", io.StringIO("Comment purger les tickets Kerberos ?\nEt avec keepalived ?\n"))
    assert main(["chat", "--json"]) == 0
    first, second = _lines(capsys)
    assert keys <= set(first) and keys <= set(second)
    assert first["outcome"] == "answered" and "klist purge" in first["answer"]
    assert second["outcome"] == "refused_gate" and second["refused"]
    assert "keepalived" in second["refusal_reason"]
    assert lmstudio.chat_calls == calls + 1  # the first turn's answer; nothing for the second


def test_a_conversation_file_and_its_journal(demo_copy, tmp_path, capsys):
    conversation = tmp_path / "conversation.txt"
    conversation.write_text("Bonjour\nComment purger les tickets Kerberos ?\n\nEt pour un compte de service ?\n",
                            encoding="utf-8")
    assert main(["chat", str(conversation), "--json", "--no-llm"]) == 0
    turns = _lines(capsys)
    assert [t["outcome"] for t in turns][:2] == ["small_talk", "passages_only"]
    assert turns[2]["understood"]["method"] == "terms" and turns[2]["question"] == "Et pour un compte de service ?"
    assert main(["journal", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    asked = [e for e in entries["entries"]] if isinstance(entries, dict) else entries
    assert {e["question"] for e in asked} == {"Comment purger les tickets Kerberos ?", "Et pour un compte de service ?"}
    # The greeting is journaled in its place in the same conversation (out of the editors' lists).
    from rag.journal.store import Journal

    book = Journal.open(demo_copy, create=False)
    (conversation_id,) = {e.conversation_id for e in book.entries()}
    turns = book.turns(conversation_id)
    assert [(t.question, t.small_talk) for t in turns][:2] == [("Bonjour", "greeting"),
                                                              ("Comment purger les tickets Kerberos ?", "")]


def test_bad_input_says_what_to_do(demo_copy, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))
    assert main(["chat"]) == 2
    assert "question" in capsys.readouterr().err
    assert main(["chat", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err


def test_the_text_output_says_each_turn_and_what_was_searched(demo_copy, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("Merci !\nComment purger les tickets Kerberos ?\n"
                                                 "Et pour un compte de service ?\n"))
    assert main(["chat", "--no-llm"]) == 0
    out = capsys.readouterr().out
    assert "> Merci !\n(a word of courtesy: nothing searched)" in out
    assert "> Et pour un compte de service ?\n(searched as: Et pour un compte de service ? " in out
    assert "klist" in out.split("> Et pour un compte de service ?")[1]


def test_the_chat_model_down_is_said_whole_once_a_conversation(demo_copy, lmstudio, monkeypatch, capsys):
    """Each turn repeated the whole paragraph on starting LM Studio (and on containers); said once,
    then a line that points back to it, each turn still showing its passages."""
    lmstudio.down()
    monkeypatch.setenv("RAG_UI_LANG", "en")
    monkeypatch.setattr("sys.stdin", io.StringIO("Comment purger les tickets Kerberos ?\nEt pour un compte de service ?\n"))
    assert main(["chat"]) == 1  # no answer could be written
    out = capsys.readouterr().out
    first, second = out.split("> Et pour un compte de service ?")
    assert "No answer was written. " in first and "lms server start" in first
    assert "lms server start" not in second and "the chat model still does not answer (see above)" in second
    assert "klist" in second  # its own passages
