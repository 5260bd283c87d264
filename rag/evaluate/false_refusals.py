"""The in-base questions the gate refused, and the word or name that decided each refusal.

An editor reads these first: a refused question the blog answers is the gate's mistake that a
reader never reports (they believe no article covers it). Pure functions on results.json rows.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence


def deciding_words(row: Mapping[str, Any]) -> list[str]:
    """What the refusal named: the unknown names of the subject, else the missing words that are
    not the reader's situation; none for a refusal by the passages' score."""
    reason = row.get("refusal_reason")
    if reason == "unknown_names":
        return list(row.get("unknown_subject") or row.get("unknown_names") or [])
    if reason == "low_coverage":
        context = set(row.get("context_words") or [])
        return [w for w in row.get("missing_terms") or [] if w not in context]
    return []


def false_refusals(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """In-base questions the gate refused, the ones refused for a word first, then by score."""
    found = [
        {"id": r.get("id"), "question": r.get("question"), "reason": r.get("refusal_reason") or "low_cosine",
         "words": deciding_words(r), "cosine": r.get("cosine", r.get("top1_score")),
         "expected_source": r.get("expected_source")}
        for r in rows if r.get("in_base") and r.get("refused")
    ]
    return sorted(found, key=lambda f: (not f["words"], f["reason"], str(f["id"])))
