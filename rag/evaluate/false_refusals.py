"""The in-base questions the gate refused, and the word or name that decided each refusal.

An editor reads these first: a refused question the blog answers is the gate's mistake that a
reader never reports (they believe no article covers it). Pure functions on results.json rows.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping, Sequence

from rag.evaluate.results import QuestionRow, rows_of


def deciding_words(row: QuestionRow | Mapping[str, Any]) -> list[str]:
    """What the refusal named: the rare words no visible article holds (`subject_words`, the
    gate's, rag.answer.refusal); none for a refusal by the passages' closeness, nor when the
    question's words were not compared with the articles' (two languages)."""
    r = QuestionRow.of(row)
    return [] if r.other_language else list(r.subject_words or r.unknown_names or [])


@dataclass(frozen=True)
class FalseRefusal:
    """An in-base question the gate refused, and why."""

    id: str
    question: str
    reason: str  # the row's refusal_reason, `low_cosine` when the row has none
    words: list[str]  # deciding_words
    cosine: float | None  # the score the gate judged
    expected_source: str | None


def refused_in_base(rows: Sequence[QuestionRow | Mapping[str, Any]]) -> list[FalseRefusal]:
    """In-base questions the gate refused, the ones refused for a word first, then by score."""
    found = [FalseRefusal(id=r.id, question=r.question, reason=r.refusal_reason or "low_cosine",
                          words=deciding_words(r), cosine=r.gate_cosine, expected_source=r.expected_source)
             for r in rows_of(rows) if r.in_base and r.refused]
    return sorted(found, key=lambda f: (not f.words, f.reason, str(f.id)))


def false_refusals(rows: Sequence[QuestionRow | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """refused_in_base as plain data (`id`, `question`, `reason`, `words`, `cosine`, `expected_source`)."""
    return [asdict(f) for f in refused_in_base(rows)]
