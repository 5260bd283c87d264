"""Question sets an editor keeps and edits: `RAG_DATA_DIR/question_sets/<name>.jsonl`, in the
contract's JSON Lines format (so `load_questions` reads them, and a set written by hand loads here).

The demo set is the shipped file until an editor changes it; from then on its edited copy,
`question_sets/demo.jsonl`, is the demo set (the shipped file is never written).
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any, Iterable, Sequence

from rag.auth import owner_only
from rag.demo import QUESTIONS_PATH
from rag.errors import QuestionSetError
from rag.evaluate.questions import Question, load_questions, parse_jsonl
from rag.i18n import t

FOLDER = "question_sets"
DEMO = "demo"
_NAME = re.compile(r"^[\w][\w .-]{0,63}$")


def _folder(data_dir: Path) -> Path:
    return Path(data_dir) / FOLDER


def set_path(data_dir: Path, name: str) -> Path:
    """Where the set `name` is saved; a name that is not a plain file name is refused."""
    if not _NAME.match(name or "") or name.strip(" .") != name:
        raise QuestionSetError(t("qsets.bad_name", name=repr(name)))
    return _folder(data_dir) / f"{name}.jsonl"


def saved_sets(data_dir: Path) -> list[str]:
    """The names of the saved sets, the demo first when it has an edited copy."""
    folder = _folder(data_dir)
    names = sorted(p.stem for p in folder.glob("*.jsonl")) if folder.is_dir() else []
    return sorted(names, key=lambda n: (n != DEMO, n.casefold()))


def load_set(data_dir: Path, name: str) -> list[Question]:
    """The saved set `name`; the demo set falls back on the shipped file."""
    path = set_path(data_dir, name)
    if path.exists():
        return load_questions(path)
    if name == DEMO:
        return load_questions(QUESTIONS_PATH)
    raise QuestionSetError(t("qsets.no_set", name=repr(name), path=str(path)))


def to_jsonl(questions: Iterable[Question]) -> str:
    """The questions in the contract's format: one object a line, empty optional fields left out."""
    lines = []
    for q in questions:
        data: dict[str, Any] = {"id": q.id, "question": q.question, "expected_source": q.expected_source,
                                "expected_answer": q.expected_answer, "in_base": q.in_base,
                                "category": q.category, "also_in": list(q.also_in)}
        lines.append(json.dumps({k: v for k, v in data.items() if v not in (None, [])}, ensure_ascii=False))
    return "\n".join(lines) + ("\n" if lines else "")


def save_set(data_dir: Path, name: str, questions: Sequence[Question]) -> Path:
    """Write the set (validated as a hand-written one would be) in one step: a crash leaves the
    previous version whole. A write the disk refuses (full, read-only) is a QuestionSetError that
    says so, for the page to show: the edits are still on screen to save again."""
    text = to_jsonl(questions)
    parse_jsonl(text, name)  # the same checks as loading: duplicate ids, in_base without a source...
    path = set_path(data_dir, name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        owner_only.replace(path, text.encode("utf-8"))
    except OSError as exc:
        raise QuestionSetError(t("qsets.not_written", name=repr(name), path=str(path),
                                 error=exc.strerror or exc)) from exc
    return path


def _same_text(a: str, b: str) -> bool:
    def fold(text: str) -> str:
        return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return fold(a) == fold(b)


def next_id(questions: Sequence[Question], prefix: str = "journal") -> str:
    taken = {q.id for q in questions}
    n = 1 + sum(q.id.startswith(f"{prefix}-") for q in questions)
    while f"{prefix}-{n:02d}" in taken:
        n += 1
    return f"{prefix}-{n:02d}"


def add_question(data_dir: Path, name: str, question: str, *, in_base: bool, expected_source: str | None = None,
                 expected_answer: str | None = None, category: str | None = None) -> Question:
    """Add one question to the set `name` (created when new; the demo set from the shipped one) and
    save it. A question already in the set is refused, so a double click does not count it twice."""
    try:
        questions = load_set(data_dir, name)
    except QuestionSetError:
        if set_path(data_dir, name).exists():
            raise
        questions = []
    for q in questions:
        if _same_text(q.question, question):
            raise QuestionSetError(t("qsets.already", name=repr(name), id=q.id))
    added = Question(id=next_id(questions), question=question.strip(), in_base=in_base,
                     expected_source=(expected_source or None) if in_base else None,
                     expected_answer=(expected_answer or None) if in_base else None,
                     category=category or None)
    save_set(data_dir, name, [*questions, added])
    return added


def article_titles(store: Any, collection: str) -> dict[str, str]:
    """url -> title of every article of `collection`, by title, to pick an expected article."""
    found: dict[str, str] = {}
    for point in store.scroll(collection, payload=["url", "title"]):
        url = point.payload.get("url")
        if url and url not in found:
            found[url] = point.payload.get("title") or url
    return dict(sorted(found.items(), key=lambda item: item[1].casefold()))


def _cell(value: Any) -> Any:
    # A table's empty cell arrives as None, NaN or "": all mean "not given".
    if value is None or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, str):
        return value.strip() or None
    return value


def questions_from_rows(rows: Sequence[dict[str, Any]], name: str) -> list[Question]:
    """The questions of an edited table (one dict a row, the contract's columns; `also_in` as
    "url; url"), checked as a hand-written set is: a problem names its row. A row with no
    question is dropped; a new row without an id gets the next free one."""
    kept = [{k: _cell(v) for k, v in row.items()} for row in rows]
    kept = [row for row in kept if row.get("question")]
    objects = []
    used = {str(row["id"]) for row in kept if row.get("id") is not None}
    for row in kept:
        if row.get("id") is None:
            n = len(used) + 1
            while f"q-{n:02d}" in used:
                n += 1
            row["id"] = f"q-{n:02d}"
            used.add(row["id"])
        also = row.get("also_in")
        row["also_in"] = [u.strip() for u in str(also).split(";") if u.strip()] if also else []
        row["in_base"] = bool(row.get("in_base"))
        objects.append(json.dumps({k: v for k, v in row.items() if k in _COLUMNS}, ensure_ascii=False, default=str))
    return parse_jsonl("\n".join(objects), name)


_COLUMNS = ("id", "question", "expected_source", "expected_answer", "in_base", "category", "also_in")


def rows_of(questions: Iterable[Question]) -> list[dict[str, Any]]:
    """The questions as table rows (the inverse of questions_from_rows)."""
    return [{"id": q.id, "question": q.question, "in_base": q.in_base, "expected_source": q.expected_source or "",
             "expected_answer": q.expected_answer or "", "category": q.category or "",
             "also_in": "; ".join(q.also_in)} for q in questions]
