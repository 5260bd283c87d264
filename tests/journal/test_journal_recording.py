"""Every question asked from `rag ask` and from the Ask page lands in the journal, as it was answered."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from rag.cli.main import main
from rag.journal.store import Journal

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
IN_BASE = "Que signifie l'erreur KDC_ERR_ETYPE_NOSUPP dans un événement Kerberos ?"
OFF_TOPIC = "Comment régler la paie dans Workday ?"


@pytest.fixture
def journal_env(app_env):
    """The demo index's app environment with an empty journal (other tests ask questions too)."""
    folder = app_env.data_dir / "journal"
    shutil.rmtree(folder, ignore_errors=True)
    yield app_env
    shutil.rmtree(folder, ignore_errors=True)


def test_rag_ask_records_the_answer_and_the_refusal(journal_env, lmstudio, capsys):
    lmstudio.answer = "Aucun type de chiffrement commun entre le client, le KDC et le service [1]."
    assert main(["ask", IN_BASE]) == 0
    capsys.readouterr()
    assert main(["ask", OFF_TOPIC, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["refused"] is True  # the output is as before
    refused, answered = Journal.open(journal_env.data_dir).entries()
    assert (answered.question, answered.outcome, answered.origin, answered.reader) == (IN_BASE, "answered", "cli", "")
    assert answered.answer.startswith("Aucun type de chiffrement") and answered.citations == [1]
    assert answered.passages[0]["title"] and answered.passages[0]["url"].endswith(".md")
    assert answered.collection == "blog" and answered.verdict == "answer"
    assert (refused.outcome, refused.verdict) == ("refused_gate", "refuse")
    assert "Workday" in refused.unknown_terms and "Workday" in refused.refusal_reason
    assert lmstudio.chat_calls == 1  # the refusal never called the model


def test_the_ask_page_records_under_the_signed_in_reader(journal_env, lmstudio):
    lmstudio.answer = "Aucun type de chiffrement commun [1]."
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.chat_input[0].set_value(IN_BASE).run()
    assert not at.exception, [e.value for e in at.exception]
    (entry,) = Journal.open(journal_env.data_dir).entries()
    assert (entry.question, entry.outcome, entry.origin, entry.reader) == (IN_BASE, "answered", "ask", "")
    assert at.session_state["history"][-1]["entry_id"] == entry.id
