"""The versions of one answer: each regeneration of a turn is a journal entry of its own with the
same turn number (rag.journal.store), so the earlier answers are kept; these are the ones a reader
can browse back to ("1/2"), oldest first.

A version is an entry of the same turn asking the same question, written after the turn before it
was last written: an edited question starts another line of the conversation, not a version."""

from __future__ import annotations

from typing import Sequence

from rag.journal.records import Entry


def versions_of(entries: Sequence[Entry], turn: int, question: str) -> list[Entry]:
    """The versions of turn `turn` (1 for the first) asking `question`, oldest first, among a
    conversation's `entries` (any order)."""
    ordered = sorted(entries, key=lambda e: e.id)
    before = [e.id for e in ordered if e.turn == turn - 1]
    since = before[-1] if before and turn > 1 else ""
    return [e for e in ordered if e.turn == turn and e.question == question and e.id > since and not e.small_talk]
