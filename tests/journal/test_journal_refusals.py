"""What the journal keeps of a refusal: the reason as data, said in the language of whoever reads it
(the Journal page, `rag journal`, its JSON and CSV), and older journals still read."""

from __future__ import annotations

import csv
import io
import sqlite3

from rag.answer import refusal
from rag.i18n import language
from rag.journal import report
from rag.journal.answers import reason_text
from rag.journal.records import Entry
from rag.journal.store import FILE, FOLDER, Journal


def refused(**values) -> Entry:
    return Entry(question="Comment faire une pâte à crêpes ?", outcome="refused_gate", collection="blog",
                 language="fr", **values)


def test_a_recorded_refusal_is_said_in_the_readers_language_in_json_and_csv(tmp_path):
    book = Journal.open(tmp_path, secrets=[])
    book.record(refused(refusal={"kind": refusal.WORDS, "words": ["crêpes"]},
                        refusal_reason="aucun article ne parle de : crêpes"))
    entry = book.entries()[0]
    assert entry.refusal == {"kind": "words", "words": ["crêpes"]}
    with language("en"):
        data = report.row(entry, "reader 1")
        assert data["refusal_reason"] == "no article mentions: crêpes"
        assert data["refusal"] == {"kind": "words", "words": ["crêpes"]}
        cells = next(csv.DictReader(io.StringIO(report.csv_text([entry], {}))))
        assert cells["refusal_reason"] == "no article mentions: crêpes"
    with language("fr"):
        assert reason_text(entry) == "aucun article ne parle de : crêpes"
    score = refused(refusal=refusal.from_score(0.7722, 0.834))
    assert reason_text(score, "en") == "no passage is close enough to the question (best score 0.772 < threshold 0.834)"


def test_a_journal_written_before_refusals_were_data_opens_and_reads_its_sentences(tmp_path):
    book = Journal.open(tmp_path, secrets=[])
    book.record(refused(refusal_reason="aucun article ne parle de : crêpes"))
    with sqlite3.connect(tmp_path / FOLDER / FILE) as db:  # the file as an older version left it
        for column in ("refusal", "checks", "small_talk"):
            db.execute(f"ALTER TABLE entries DROP COLUMN {column}")
    again = Journal.open(tmp_path, secrets=[])
    old = again.entries()[0]
    assert old.refusal == {} and old.checks == {} and old.small_talk == ""
    with language("en"):
        assert reason_text(old) == "aucun article ne parle de : crêpes"  # as it was written, not invented
    again.record(refused(refusal={"kind": refusal.EVERYDAY}))
    assert [e.refusal for e in again.entries()] == [{"kind": "everyday_words"}, {}]


def test_greetings_in_a_conversation_are_kept_for_it_and_left_out_of_the_lists(tmp_path):
    from rag.journal.answers import small_talk_entry

    book = Journal.open(tmp_path, secrets=[])
    book.record(small_talk_entry("Bonjour", "greeting", conversation_id="c1"))
    book.record(Entry(question="Que signifie KDC_ERR_ETYPE_NOSUPP ?", outcome="answered", conversation_id="c1"))
    book.record(small_talk_entry("Merci !", "thanks", conversation_id="c1"))
    assert [(e.question, e.small_talk) for e in book.turns("c1")] == [
        ("Bonjour", "greeting"), ("Que signifie KDC_ERR_ETYPE_NOSUPP ?", ""), ("Merci !", "thanks")]
    assert book.conversation("c1").title == "Que signifie KDC_ERR_ETYPE_NOSUPP ?"  # not "Bonjour"
    assert [e.question for e in book.entries()] == ["Que signifie KDC_ERR_ETYPE_NOSUPP ?"]
    assert len(book.entries(small_talk=True)) == 3
