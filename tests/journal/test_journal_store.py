"""The journal's SQLite store, on real files: what the dashboard and the command line read back."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from datetime import UTC, datetime, timedelta

import pytest

from rag.journal.records import Entry
from rag.journal.store import Journal, JournalError
from tests.journal.accounts import as_another_account


def _entry(question: str = "Qu'est-ce que Kerberos ?", **fields) -> Entry:
    values = {"outcome": "answered", "collection": "blog", "answer": "Un protocole [1].",
              "passages": [{"n": 1, "title": "Kerberos", "section": "", "url": "https://blog/kerberos",
                            "doc_id": "7", "score": 0.8, "text": "Kerberos est un protocole."}],
              "citations": [1]}
    values.update(fields)
    return Entry(question=question, **values)


def test_an_entry_reads_back_as_written(tmp_path):
    journal = Journal.open(tmp_path, secrets=[])
    written = journal.record(_entry(unknown_terms=["Zorglub"], threshold=0.82, model="qwen"))
    again = Journal.open(tmp_path, secrets=[]).entry(written.id)
    assert again.question == "Qu'est-ce que Kerberos ?"
    assert again.passages[0]["title"] == "Kerberos" and again.citations == [1]
    assert again.unknown_terms == ["Zorglub"] and again.threshold == 0.82 and again.model == "qwen"
    assert again.time.endswith("+00:00")


def test_folder_and_file_are_for_the_owner_only(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    journal = Journal.open(data, secrets=[])
    journal.record(_entry())
    assert stat.S_IMODE((data / "journal").stat().st_mode) == 0o700
    for path in (data / "journal").iterdir():  # the database and its WAL files
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


def test_folder_and_file_are_owner_only_whatever_the_umask(tmp_path):
    previous = os.umask(0o277)  # one that would leave the owner unable to write the file
    try:
        Journal.open(tmp_path, secrets=[]).record(_entry())
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "journal").stat().st_mode) == 0o700
    for path in (tmp_path / "journal").iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


def test_processes_opening_a_new_journal_at_once_all_write_to_it(tmp_path):
    start, failures = threading.Barrier(6), []

    def open_and_record(n):
        start.wait()
        try:
            Journal.open(tmp_path, secrets=[]).record(_entry(f"question {n}"))
        except Exception as exc:  # any failure is the finding
            failures.append(repr(exc))

    workers = [threading.Thread(target=open_and_record, args=(n,)) for n in range(6)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    assert failures == []
    assert sorted(e.question for e in Journal.open(tmp_path, secrets=[]).entries()) == [f"question {n}" for n in range(6)]
    assert sorted(p.name for p in (tmp_path / "journal").iterdir() if not p.name.endswith(("-wal", "-shm"))) == ["journal.sqlite3"]


def test_a_folder_left_open_to_others_is_tightened(tmp_path):
    (tmp_path / "journal").mkdir(mode=0o755)
    os.chmod(tmp_path / "journal", 0o755)
    Journal.open(tmp_path, secrets=[])
    assert stat.S_IMODE((tmp_path / "journal").stat().st_mode) == 0o700


def test_another_account_reads_nothing_and_is_told_why(tmp_path):
    Journal.open(tmp_path, secrets=[]).record(_entry("une question privée"))
    outcome = as_another_account(tmp_path / "journal", lambda: Journal.open(tmp_path, create=False).entries())
    assert outcome.startswith("JournalError") and "RAG_DATA_DIR" in outcome
    assert "privée" not in outcome


def test_wal_mode(tmp_path):
    journal = Journal.open(tmp_path, secrets=[])
    with sqlite3.connect(journal.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_two_connections_write_and_read_at_once(tmp_path):
    dashboard, cli = Journal.open(tmp_path, secrets=[]), Journal.open(tmp_path, secrets=[])
    # A reader holding a read transaction does not block a writer in WAL mode.
    reader = sqlite3.connect(dashboard.path)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM entries").fetchone()
    errors: list[Exception] = []

    def write(journal: Journal, prefix: str) -> None:
        try:
            for i in range(20):
                journal.record(_entry(f"{prefix} {i}"))
        except Exception as exc:  # noqa: BLE001 - the test reports it
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(j, p)) for j, p in ((dashboard, "ask"), (cli, "cli"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    reader.close()
    assert errors == []
    assert len(cli.entries()) == 40 and len(dashboard.entries(text="ask")) == 20


def test_secrets_are_masked_before_writing(tmp_path):
    journal = Journal.open(tmp_path, secrets=["s3cr3t-key-value"])
    entry = journal.record(_entry("mon token=abcdef123 et la clé s3cr3t-key-value ?",
                                  answer="voir https://admin:pw@wp.local/ [1]"))
    raw = journal.path.read_bytes() + b"".join(p.read_bytes() for p in journal.path.parent.iterdir())
    assert b"s3cr3t-key-value" not in raw and b"abcdef123" not in raw and b"admin:pw" not in raw
    assert "***" in journal.entry(entry.id).question


def test_newest_first_and_filters(tmp_path):
    journal = Journal.open(tmp_path, secrets=[])
    start = datetime(2026, 11, 2, 9, tzinfo=UTC)
    journal.record(_entry("Kerbéros et AD", time=start))
    journal.record(_entry("Quel temps fait-il ?", outcome="refused_gate", refusal_reason="aucun passage",
                          time=start + timedelta(days=1)))
    journal.record(_entry("Et SAP ?", outcome="refused_model", collection="docs",
                          time=start + timedelta(days=8)))
    assert [e.question for e in journal.entries()] == ["Et SAP ?", "Quel temps fait-il ?", "Kerbéros et AD"]
    assert [e.question for e in journal.entries(outcome=["refused_gate", "refused_model"])] == [
        "Et SAP ?", "Quel temps fait-il ?"]
    assert [e.question for e in journal.entries(collection="docs")] == ["Et SAP ?"]
    assert [e.question for e in journal.entries(since=start + timedelta(hours=1),
                                                until=start + timedelta(days=7))] == ["Quel temps fait-il ?"]
    # Case and accents do not matter; every word must be found; % is a character, not a wildcard.
    assert [e.question for e in journal.entries(text="KERBEROS ad")] == ["Kerbéros et AD"]
    assert journal.entries(text="100%") == []
    assert [e.question for e in journal.entries(limit=1, offset=1)] == ["Quel temps fait-il ?"]


def test_a_new_vote_replaces_the_readers_previous_one(tmp_path):
    journal = Journal.open(tmp_path, secrets=[])
    entry = journal.record(_entry())
    journal.feedback(entry.id, "alice", 1)
    journal.feedback(entry.id, "alice", -1, "pas la bonne version")
    journal.feedback(entry.id, "bob", -1)
    votes = journal.entry(entry.id).feedback
    assert sorted((v.reader, v.rating) for v in votes) == [("alice", -1), ("bob", -1)]
    assert journal.entry(entry.id).rating == -2
    assert [e.id for e in journal.entries(rating=-1)] == [entry.id] and journal.entries(rating=1) == []
    assert journal.withdraw_feedback(entry.id, "bob") and journal.entry(entry.id).rating == -1
    with pytest.raises(JournalError):
        journal.feedback("no-such-entry", "alice", 1)
    with pytest.raises(ValueError):
        journal.feedback(entry.id, "alice", 5)


def test_conversations_of_a_reader_and_their_turns(tmp_path):
    journal = Journal.open(tmp_path, secrets=[])
    first = journal.start_conversation(reader="alice", collection="blog")
    journal.record(_entry("Qu'est-ce que Kerberos ?", reader="alice", conversation_id=first.id))
    journal.record(_entry("Et son ticket ?", reader="alice", conversation_id=first.id,
                          standalone_question="Qu'est-ce qu'un ticket Kerberos ?"))
    # An id never seen starts a conversation titled by its first question.
    journal.record(_entry("Et SAP ?", reader="alice", conversation_id="c2"))
    journal.record(_entry("Autre lecteur", reader="bob", conversation_id="c3"))
    assert [c.id for c in journal.conversations("alice")] == ["c2", first.id]
    assert journal.conversation("c2").title == "Et SAP ?"
    turns = journal.turns(first.id)
    assert [(t.turn, t.question) for t in turns] == [(1, "Qu'est-ce que Kerberos ?"), (2, "Et son ticket ?")]
    assert turns[1].standalone_question == "Qu'est-ce qu'un ticket Kerberos ?"
    journal.feedback(turns[0].id, "alice", 1)
    assert journal.delete_conversation(first.id) == 2
    assert [c.id for c in journal.conversations("alice")] == ["c2"]
    assert [e.question for e in journal.entries()] == ["Autre lecteur", "Et SAP ?"]
    assert journal.entries(rating=1) == []


def test_delete_an_entry_keeps_the_others(tmp_path):
    journal = Journal.open(tmp_path, secrets=[])
    gone, kept = journal.record(_entry("un")), journal.record(_entry("deux"))
    journal.feedback(gone.id, "alice", -1)
    assert journal.delete_entry(gone.id) and not journal.delete_entry(gone.id)
    assert [e.id for e in journal.entries()] == [kept.id]
    with sqlite3.connect(journal.path) as db:
        assert db.execute("SELECT COUNT(*) FROM feedback").fetchone()[0] == 0


def test_retention_deletes_only_what_is_past_it(tmp_path):
    journal = Journal.open(tmp_path, secrets=[])
    moment = datetime(2026, 12, 1, 12, tzinfo=UTC)
    old = journal.record(_entry("ancienne", time=moment - timedelta(days=91), conversation_id="old"))
    journal.feedback(old.id, "alice", -1)
    edge = journal.record(_entry("limite", time=moment - timedelta(days=89, hours=23)))
    recent = journal.record(_entry("récente", time=moment - timedelta(days=1), conversation_id="live"))
    journal.feedback(recent.id, "alice", 1)
    assert journal.purge(90, moment=moment) == 1
    assert [e.id for e in journal.entries()] == [recent.id, edge.id]
    assert journal.entry(recent.id).rating == 1
    assert journal.conversation("old") is None and journal.conversation("live") is not None
    assert journal.purge(0, moment=moment) == 0 and len(journal.entries()) == 2


def test_an_unknown_outcome_is_refused(tmp_path):
    with pytest.raises(ValueError, match="answered"):
        Journal.open(tmp_path, secrets=[]).record(_entry(outcome="maybe"))
