"""`rag journal`: the journal and its subjects as an editor reads them in a terminal or a script."""

from __future__ import annotations

import contextlib
import io
import json
from datetime import UTC, datetime, timedelta

import pytest

from rag.cli.main import main
from rag.journal.records import Entry
from rag.journal.store import Journal
from tests.journal.accounts import as_another_account


@pytest.fixture
def journal(data_dir, monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "en")
    monkeypatch.delenv("RAG_JOURNAL_NAMES", raising=False)
    monkeypatch.delenv("RAG_JOURNAL_DAYS", raising=False)
    return Journal.open(data_dir, secrets=[])


def _fill(journal: Journal) -> None:
    now = datetime.now(UTC)
    journal.record(Entry(question="Qu'est-ce que Kerberos ?", outcome="answered", reader="alice@example.org",
                         collection="blog", passages=[{"n": 1, "title": "Kerberos : les erreurs", "url": "k.md"}],
                         time=now - timedelta(days=3)))
    for i, reader in enumerate(("bob@example.org", "carol@example.org")):
        journal.record(Entry(question=f"Comment restaurer une sauvegarde Veeam {i} ?", outcome="refused_gate",
                             reader=reader, collection="blog", unknown_terms=["Veeam"],
                             refusal_reason="no article mentions: Veeam", time=now - timedelta(days=1, hours=i)))
    journal.record(Entry(question="très ancienne question", outcome="answered", time=now - timedelta(days=120)))


def test_the_list_newest_first_with_numbered_readers_and_retention(journal, capsys):
    _fill(journal)
    assert main(["journal"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 questions (the 3 newest):")
    lines = [line for line in out.splitlines() if "[" in line]
    assert "reader 3  [refused by the gate]  Comment restaurer une sauvegarde Veeam 0 ?" in lines[0]
    assert "reader 1  [answered]  Qu'est-ce que Kerberos ?" in lines[2]
    assert "why: no article mentions: Veeam" in out and "articles: Kerberos : les erreurs" in out
    assert "@example.org" not in out  # identities hidden by default
    assert "très ancienne" not in out and len(journal.entries()) == 3  # past RAG_JOURNAL_DAYS: gone


def test_names_json_and_filters(journal, capsys, monkeypatch):
    _fill(journal)
    monkeypatch.setenv("RAG_JOURNAL_NAMES", "1")
    assert main(["journal", "--json", "--outcome", "refused", "--search", "veeam 1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 1
    (entry,) = data["entries"]
    assert entry["question"].endswith("Veeam 1 ?") and entry["reader"] == "carol@example.org"
    assert entry["outcome"] == "refused_gate" and entry["unknown_terms"] == ["Veeam"]


def test_subjects_ranked_by_readers(journal, capsys):
    _fill(journal)
    assert main(["journal", "subjects", "--json"]) == 0
    (subject,) = json.loads(capsys.readouterr().out)["subjects"]
    assert subject["terms"] == ["Veeam"] and subject["readers"] == 2 and len(subject["questions"]) == 2
    assert main(["journal", "subjects"]) == 0
    assert capsys.readouterr().out.startswith("1. Veeam  (2 readers, 2 questions)")
    # The same question asked again: counted, and listed once with how many times (it was listed twice).
    journal.record(Entry(question="Comment restaurer une sauvegarde Veeam 0 ?", outcome="refused_gate",
                         reader="bob@example.org", collection="blog", unknown_terms=["Veeam"],
                         refusal_reason="no article mentions: Veeam", time=datetime.now(UTC)))
    assert main(["journal", "subjects"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1. Veeam  (2 readers, 3 questions)")
    assert out.count("Veeam 0 ?") == 1 and "Comment restaurer une sauvegarde Veeam 0 ? (×2)" in out


def test_french_by_default(journal, capsys, monkeypatch):
    monkeypatch.delenv("RAG_UI_LANG")
    monkeypatch.setenv("LANG", "C")
    _fill(journal)
    assert main(["journal"]) == 0
    assert "[refusé par le filtre]" in capsys.readouterr().out


def test_no_journal_yet_is_said_plainly(data_dir, capsys, monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "en")
    assert main(["journal"]) == 0
    assert "no question has been asked with this data folder yet" in capsys.readouterr().out
    assert not (data_dir / "journal").exists()  # reading created nothing


def test_another_account_reads_nothing(journal, data_dir, capsys):
    _fill(journal)
    def run() -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["journal", "--json"])
        return status, out.getvalue(), err.getvalue()

    outcome = as_another_account(data_dir / "journal", run)
    assert outcome.startswith("ok (2, '',") and "cannot be read with your permissions" in outcome
    assert "RAG_DATA_DIR" in outcome and "Veeam" not in outcome
