"""A stopped answer is journaled as stopped, and the weekly chart counts the questions answered
with the passages only (without a chat model they are most of the journal)."""

from __future__ import annotations

import csv
import io

from rag.journal.records import Entry
from rag.journal.report import csv_text, weekly
from rag.journal.store import Journal


def _entries(tmp_path):
    journal = Journal.open(tmp_path)
    for outcome in ("answered", "passages_only", "passages_only", "refused_gate", "stopped"):
        journal.record(Entry(question=f"q {outcome}", outcome=outcome, collection="blog"))
    return journal.entries()


def test_a_stopped_answer_is_kept_as_stopped_in_the_csv(tmp_path):
    rows = list(csv.DictReader(io.StringIO(csv_text(_entries(tmp_path), {}))))
    assert sorted(r["outcome"] for r in rows) == ["answered", "passages_only", "passages_only", "refused_gate",
                                                   "stopped"]


def test_the_weekly_counts_leave_no_question_out(tmp_path):
    (week,) = weekly(_entries(tmp_path))
    assert (week["answered"], week["passages_only"], week["refused"]) == (2, 2, 1)
