"""After an ingest, the journal's refused questions are asked again of the gate: a subject says when
a new article answers it."""

from __future__ import annotations

import json
import shutil

import pytest

from rag.cli.main import main
from rag.demo import DEMO_DIR
from rag.journal.store import Journal

QUESTION = "Comment Windows LAPS fait-il tourner le mot de passe de l'administrateur local ?"


@pytest.fixture
def folders(tmp_path, data_dir, monkeypatch):
    monkeypatch.setenv("RAG_EMBED_MODEL", "embedded")
    monkeypatch.setenv("RAG_EMBED_THREADS", "1")
    monkeypatch.setenv("RAG_UI_LANG", "en")
    monkeypatch.setenv("RAG_LLM_URL", "http://127.0.0.1:9")  # no chat model: --no-llm anyway
    # A collection calibrated strictly, as `rag eval --save-threshold` may leave it: the question
    # two Kerberos articles only come near is refused outright, not left to the model.
    monkeypatch.setenv("RAG_THRESHOLD", "0.87")
    first = tmp_path / "first"
    first.mkdir()
    for name in ("kerberos-klist.md", "setspn-doublons.md"):
        shutil.copy(DEMO_DIR / name, first / name)
    return first


@pytest.mark.slow  # the embedded model indexes three articles
def test_a_new_article_answers_a_refused_question(folders, data_dir, capsys):
    assert main(["ingest", str(folders), "--collection", "blog"]) == 0
    assert main(["ask", QUESTION, "--no-llm", "--json"]) == 0
    capsys.readouterr()
    journal = Journal.open(data_dir)
    (refused,) = journal.entries()
    assert refused.outcome == "refused_gate" and journal.rechecks() == {}

    shutil.copy(DEMO_DIR / "windows-laps.md", folders / "windows-laps.md")
    assert main(["ingest", str(folders), "--collection", "blog"]) == 0
    answerable, titles = journal.rechecks()[refused.id]
    assert answerable and any("LAPS" in title for title in titles)
    capsys.readouterr()
    assert main(["journal", "subjects", "--json"]) == 0
    (subject,) = json.loads(capsys.readouterr().out)["subjects"]
    assert subject["answered_now"] == 1 and any("LAPS" in title for title in subject["answered_by"])
    assert journal.entry(refused.id).outcome == "refused_gate"  # what the reader got is kept as it was

    # An evaluation replays questions; it is not a reader: nothing of it goes to the journal.
    questions = folders.parent / "set.jsonl"
    questions.write_text(json.dumps({"id": "q1", "question": QUESTION, "in_base": True,
                                     "expected_source": "windows-laps.md"}) + "\n", encoding="utf-8")
    assert main(["eval", "--questions", str(questions), "--collection", "blog", "--no-llm",
                 "--out", str(folders.parent / "eval")]) == 0
    assert [e.id for e in journal.entries()] == [refused.id]


@pytest.mark.slow  # the embedded model indexes three articles
def test_an_editor_of_other_groups_never_reads_a_restricted_title(folders, data_dir, capsys):
    """A public reader's refused question, then a `staff` article that answers it: an editor of
    `public` only is told nothing about it, neither the verdict nor the title."""
    from rag.config import Settings
    from rag.journal.recheck import recheck_for
    from rag.store.store import Store

    assert main(["ingest", str(folders), "--collection", "blog"]) == 0
    assert main(["ask", QUESTION, "--no-llm", "--json", "--groups", "public"]) == 0
    staff = folders.parent / "staff"
    staff.mkdir()
    shutil.copy(DEMO_DIR / "windows-laps.md", staff / "windows-laps.md")
    assert main(["ingest", str(staff), "--collection", "blog", "--access", "staff"]) == 0
    capsys.readouterr()
    journal = Journal.open(data_dir)
    (refused,) = journal.entries()
    assert journal.rechecks()[refused.id][0]  # over every document (the administrator's view)

    settings = Settings.from_env()
    store = Store(settings)
    try:
        public = recheck_for(settings, store, journal, ["public"])
        assert public[refused.id] == (False, [])
        staff_view = recheck_for(settings, store, journal, ["staff", "public"])
    finally:
        store.close()
    assert staff_view[refused.id][0] and any("LAPS" in title for title in staff_view[refused.id][1])
    assert journal.rechecks(["public"])[refused.id] == (False, [])  # kept: not checked again at each view
