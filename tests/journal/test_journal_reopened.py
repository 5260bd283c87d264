"""A reopened conversation shows what its reader may read now: a passage their groups do not allow
is left out, and so is an answer written from one, as a live answer for them would never have used it."""

from __future__ import annotations

from rag.journal.records import Entry
from rag.journal.reopened import WITHHELD, for_reader

PUBLIC = {"n": 1, "title": "Kerberos", "url": "https://blog.example/kerberos", "text": "Le TGT...", "access": ["public"]}
STAFF = {"n": 2, "title": "Coffre", "url": "https://blog.example/coffre", "text": "Le code du coffre", "access": ["staff"]}
OLD = {"n": 3, "title": "Ancien", "url": "https://blog.example/ancien", "text": "sans groupes"}  # recorded without them


def _answered(*passages: dict) -> Entry:
    numbers = [p["n"] for p in passages]
    return Entry(question="Quel code ?", outcome="answered", answer="Le code est 1234 [2].", passages=list(passages),
                 citations=numbers, checks={"sent_passages": numbers, "accepted": numbers})


def test_a_staff_passage_and_the_answer_written_from_it_are_not_replayed_to_a_public_reader():
    seen = for_reader(_answered(PUBLIC, STAFF), ["public"])
    assert [p["title"] for p in seen.passages] == ["Kerberos"]
    assert seen.answer == "" and seen.citations == [] and seen.outcome == "passages_only"
    assert seen.checks[WITHHELD] and seen.checks["sent_passages"] == [1] and seen.checks["accepted"] == [1]
    assert seen.question == "Quel code ?"


def test_a_reader_of_the_groups_or_an_administrator_sees_the_turn_as_it_was():
    entry = _answered(PUBLIC, STAFF)
    assert for_reader(entry, ["public", "staff"]) == entry
    assert for_reader(entry, None) == entry


def test_a_passage_recorded_without_its_groups_is_never_read_as_public():
    seen = for_reader(_answered(PUBLIC, OLD), ["public"])
    assert [p["n"] for p in seen.passages] == [1] and seen.answer == ""


def test_a_refusal_keeps_its_outcome_and_loses_only_the_passages():
    refused = Entry(question="Quel code ?", outcome="refused_gate", passages=[PUBLIC, STAFF])
    seen = for_reader(refused, ["public"])
    assert seen.refused and [p["n"] for p in seen.passages] == [1]
