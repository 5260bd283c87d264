"""A follow-up in the journal's CSV and `rag journal --json`: "et sur Windows ?" comes with the
question it was understood as, which is what an editor can act on."""

from __future__ import annotations

import csv
import io

from rag.journal import report
from rag.journal.records import Entry


def test_the_csv_and_the_json_carry_a_follow_ups_standalone_question():
    follow_up = Entry(question="et sur Windows ?", standalone_question="Comment purger les tickets Kerberos sur Windows ?",
                      outcome="answered", id="a", time="2026-12-01T10:00:00+00:00")
    plain = Entry(question="Comment purger les tickets Kerberos ?", standalone_question="Comment purger les tickets Kerberos ?",
                  outcome="answered", id="b", time="2026-12-01T09:00:00+00:00")
    rows = list(csv.DictReader(io.StringIO(report.csv_text([follow_up, plain], {}))))
    assert [(r["question"], r["standalone_question"]) for r in rows] == [
        ("et sur Windows ?", "Comment purger les tickets Kerberos sur Windows ?"),
        ("Comment purger les tickets Kerberos ?", "")]  # asked as it stands: nothing to repeat
    assert report.row(follow_up, "")["standalone_question"] == "Comment purger les tickets Kerberos sur Windows ?"
