"""A conversation reopened shows what its reader may read now, as a live answer would.

A turn recorded a passage with the access groups of its document. Reopened, every passage is
checked again against the groups of whoever reopens it: a passage they may not read is left out,
and so is an answer that drew on one (it was written from text they may not see). The question
stays: it is theirs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from rag.journal.records import Entry

WITHHELD = "withheld"  # in a reopened entry's checks: its answer drew on passages the reader may not read


def may_read(passage: dict, groups: Sequence[str] | None) -> bool:
    """Whether a reader of `groups` (None: every document) may read a recorded passage; one
    recorded without its groups may not be read: a document's access never falls back to public."""
    return groups is None or bool(set(passage.get("access") or ()) & set(groups))


def for_reader(entry: Entry, groups: Sequence[str] | None) -> Entry:
    """`entry` as a reader of `groups` may see it now."""
    kept = [p for p in entry.passages if may_read(p, groups)]
    if len(kept) == len(entry.passages):
        return entry
    numbers = {p.get("n") for p in kept}
    checks = {**entry.checks, WITHHELD: True}
    for key in ("sent_passages", "accepted"):
        if key in checks:
            checks[key] = [n for n in checks[key] if n in numbers]
    if entry.refused:  # a refusal writes nothing from the passages: only they go
        return replace(entry, passages=kept, checks=checks)
    return replace(entry, passages=kept, answer="", citations=[], outcome="passages_only", checks=checks)
