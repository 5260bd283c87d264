"""What the Journal page and `rag journal` show: rows, subjects with their re-check, weeks, CSV.

Pure functions over entries, plus `subjects_of`, which embeds the refused questions with the
bundled model.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any, Iterable, Sequence

from rag.i18n import t
from rag.journal.answers import reason_text
from rag.journal.records import Entry
from rag.journal.reopened import may_read
from rag.journal.subjects import Subject, embed_questions, group
from rag.spreadsheet import cell_text

REFUSED = ("refused_gate", "refused_model")


def outcome_label(outcome: str) -> str:
    """The outcome in the reader's language ("refusé par le filtre", "answered"...)."""
    return t(f"journal.outcome.{outcome}") if outcome in _OUTCOME_KEYS else outcome


_OUTCOME_KEYS = ("answered", "refused_gate", "refused_model", "passages_only", "failed", "stopped")


def readable(entry: Entry, groups: Sequence[str] | None) -> bool:
    """Whether a reader of `groups` (None: every document) may read every passage of the entry,
    and so its answer. A passage recorded without its access groups counts as unreadable: a
    document's access never falls back to public."""
    return all(may_read(p, groups) for p in entry.passages)


def visible_to(entries: Iterable[Entry], groups: Sequence[str] | None) -> tuple[list[Entry], set[str]]:
    """The entries as an editor of `groups` may see them: the answer and the passages of an entry
    drawn from documents they cannot read are left out. Returns them and the ids of those."""
    shown, hidden = [], set()
    for entry in entries:
        if readable(entry, groups):
            shown.append(entry)
        else:
            hidden.add(entry.id)
            shown.append(replace(entry, answer="", passages=[], citations=[]))
    return shown, hidden


def articles(entry: Entry) -> list[str]:
    """The passages' articles, in rank order, each once."""
    return list(dict.fromkeys(p.get("title") or p.get("url") or "" for p in entry.passages))


def votes(entry: Entry) -> tuple[int, int]:
    """(thumbs up, thumbs down)."""
    return (sum(f.rating > 0 for f in entry.feedback), sum(f.rating < 0 for f in entry.feedback))


def row(entry: Entry, reader: str) -> dict[str, Any]:
    """One entry as the CLI's JSON and the CSV write it (`reader`: its label for editors)."""
    up, down = votes(entry)
    return {
        "id": entry.id, "time": entry.time, "reader": reader, "collection": entry.collection,
        "origin": entry.origin, "question": entry.question,
        "standalone_question": entry.standalone_question if entry.searched != entry.question else "",
        "outcome": entry.outcome,
        "refusal_reason": reason_text(entry), "refusal": dict(entry.refusal) or None,
        "unknown_terms": list(entry.unknown_terms),
        "articles": articles(entry), "answer": entry.answer, "thumbs_up": up, "thumbs_down": down,
        "comments": [f.comment for f in entry.feedback if f.comment],
    }


def subjects_of(entries: Sequence[Entry], rechecks: dict[str, tuple[bool, list[str]]] | None = None,
                embedder: Any = None, vectors: Any = None) -> list[Subject]:
    """The subjects of the refused entries among `entries`, each with what the last re-check said."""
    refused = [e for e in entries if e.outcome in REFUSED]
    if not refused:
        return []
    if vectors is None:
        vectors = embed_questions([e.searched for e in refused], embedder)  # a follow-up as understood
    subjects = group(refused, vectors)
    for subject in subjects:
        checked = [(rechecks or {}).get(e.id) for e in subject.entries]
        now_ok = [c for c in checked if c and c[0]]
        subject.answered = len(now_ok)
        subject.answered_by = list(dict.fromkeys(title for _, titles in now_ok for title in titles))
    return subjects


def subject_row(subject: Subject, labels: dict[str, str]) -> dict[str, Any]:
    return {"subject": subject.label, "terms": subject.terms, "readers": subject.readers,
            "questions": [{"question": e.question, "reader": labels.get(e.reader, e.reader), "time": e.time}
                          for e in subject.entries],
            "answered_now": subject.answered, "answered_by": subject.answered_by}


def week_of(time: str) -> date:
    """The Monday of the entry's week (UTC)."""
    day = datetime.fromisoformat(time).date()
    return day - timedelta(days=day.weekday())


WEEKLY_KEYS = ("answered", "passages_only", "refused", "up", "down")


def weekly(entries: Iterable[Entry]) -> list[dict[str, Any]]:
    """Per week, oldest first: questions answered (a stopped answer among them), answered with the
    passages only (no chat model), refused, thumbs up and down."""
    weeks: dict[date, Counter[str]] = {}
    for entry in entries:
        counts = weeks.setdefault(week_of(entry.time), Counter())
        if entry.outcome in ("answered", "stopped"):
            counts["answered"] += 1
        elif entry.outcome == "passages_only":
            counts["passages_only"] += 1
        elif entry.outcome in REFUSED:
            counts["refused"] += 1
        up, down = votes(entry)
        counts["up"] += up
        counts["down"] += down
    return [{"week": week.isoformat(), **{k: weeks[week][k] for k in WEEKLY_KEYS}}
            for week in sorted(weeks)]


CSV_COLUMNS = ("time", "reader", "collection", "origin", "question", "standalone_question", "outcome", "refusal_reason",
               "unknown_terms", "articles", "answer", "thumbs_up", "thumbs_down", "comments")


def csv_text(entries: Iterable[Entry], labels: dict[str, str]) -> str:
    """The journal as CSV (one row an entry, lists joined with " | "), safe to open in a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        data = row(entry, labels.get(entry.reader, entry.reader))
        writer.writerow([cell_text(" | ".join(map(str, data[c])) if isinstance(data[c], list) else str(data[c]))
                         for c in CSV_COLUMNS])
    return out.getvalue()
