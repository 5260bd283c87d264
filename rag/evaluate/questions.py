"""Question sets: JSON Lines (the contract) or CSV (the same columns, edited in a spreadsheet).

Every problem is reported with its line number and what to change, all at once, so a
spreadsheet can be fixed in one pass instead of one error per run.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

# Retrieval refuses a longer question (a pasted document, or a broken CSV row), so a question
# set holding one is refused before anything runs.
from rag.i18n import t, tn
from rag.i18n.numbers import integer
from rag.answer.retrieve import MAX_QUESTION_CHARS
from rag.errors import QuestionSetError

FIELDS = ["id", "question", "expected_source", "expected_answer", "in_base", "category", "also_in"]
REQUIRED = ["id", "question", "in_base"]

_TRUE = {"true", "1", "oui", "yes", "vrai", "y", "o"}
_FALSE = {"false", "0", "non", "no", "faux", "n"}
_MAX_REPORTED = 20


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    in_base: bool
    expected_source: str | None = None
    expected_answer: str | None = None
    category: str | None = None
    also_in: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)
    previous: str | None = None  # the question asked before it: a follow-up, replayed as a turn after it

    @property
    def accepted_urls(self) -> set[str]:
        """The urls whose retrieval counts as a hit."""
        urls = set(self.also_in)
        if self.expected_source:
            urls.add(self.expected_source)
        return urls

    def to_dict(self) -> dict[str, Any]:
        """The contract's fields, as written in results.json."""
        return {
            "id": self.id,
            "question": self.question,
            "expected_source": self.expected_source,
            "expected_answer": self.expected_answer,
            "in_base": self.in_base,
            "category": self.category,
            "also_in": list(self.also_in),
            **({"previous": self.previous} if self.previous else {}),
        }


class _Problems:
    def __init__(self, source: str | None) -> None:
        self.source = source or t("qs.default_source")
        self.items: list[str] = []

    def add(self, line: int, message: str) -> None:
        self.items.append(t("qs.line", line=line, message=message) if line else message)

    def raise_if_any(self) -> None:
        if not self.items:
            return
        shown = self.items[:_MAX_REPORTED]
        more = len(self.items) - len(shown)
        head = tn("qs.problems", len(self.items), source=self.source)
        body = "\n  ".join(shown + ([t("qs.more", n=more)] if more else []))
        error = QuestionSetError(f"{head}\n  {body}\n" + t("qs.fix"))
        error.problems = list(self.items)  # type: ignore[attr-defined]
        raise error


def _optional_text(value: Any, name: str, line: int, problems: _Problems) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        problems.add(line, t("qs.text_or_null", name=name, kind=_type_name(value), value=repr(value)))
        return None
    value = value.strip()
    return value or None


def json_problem(exc: json.JSONDecodeError) -> str:
    """What json found wrong, in the run's language: json words it in English ("Expecting ','
    delimiter" in a French sentence), which the English catalogue keeps word for word; a message
    not known here as json wrote it."""
    words = {"Expecting ',' delimiter": t("qs.json_comma"), "Expecting ':' delimiter": t("qs.json_colon"),
             "Expecting property name enclosed in double quotes": t("qs.json_name"),
             "Expecting value": t("qs.json_value"), "Unterminated string starting at": t("qs.json_string"),
             "Extra data": t("qs.json_extra"), "Invalid control character at": t("qs.json_control")}
    return words.get(exc.msg, exc.msg)


def _type_name(value: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__
    )


def question_from_mapping(
    obj: Mapping[str, Any], line: int, problems: _Problems
) -> Question | None:
    """Validate one question; record problems and return None when it is unusable."""
    before = len(problems.items)
    for name in REQUIRED:
        if name not in obj or obj[name] is None or obj[name] == "":
            problems.add(line, t("qs.missing", name=name))
    if len(problems.items) > before:
        return None

    raw_id = obj["id"]
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        problems.add(line, t("qs.text", name="id", kind=_type_name(raw_id), value=repr(raw_id)))
        qid = ""
    else:
        qid = str(raw_id).strip()
        if not qid:
            problems.add(line, t("qs.missing", name="id"))

    text = obj["question"]
    if not isinstance(text, str):
        problems.add(line, t("qs.text", name="question", kind=_type_name(text), value=repr(text)))
        text = ""
    elif not text.strip():
        problems.add(line, t("qs.empty_question"))
    elif len(text.strip()) > MAX_QUESTION_CHARS:
        problems.add(
            line,
            t("qs.too_long", n=integer(len(text.strip())), limit=integer(MAX_QUESTION_CHARS)),
        )

    in_base = obj["in_base"]
    if not isinstance(in_base, bool):
        problems.add(line, t("qs.in_base", kind=_type_name(in_base), value=repr(in_base)))
        in_base = False

    source = _optional_text(obj.get("expected_source"), "expected_source", line, problems)
    answer = _optional_text(obj.get("expected_answer"), "expected_answer", line, problems)
    category = _optional_text(obj.get("category"), "category", line, problems)
    previous = _optional_text(obj.get("previous"), "previous", line, problems)

    also_raw = obj.get("also_in")
    also: list[str] = []
    if also_raw is not None:
        if not isinstance(also_raw, list) or not all(isinstance(u, str) for u in also_raw):
            problems.add(line, t("qs.also_in", kind=_type_name(also_raw), value=repr(also_raw)))
        else:
            also = [u.strip() for u in also_raw if u.strip()]

    if obj["in_base"] is True and not source:
        problems.add(line, t("qs.in_base_no_source"))
    if obj["in_base"] is False and source:
        problems.add(line, t("qs.off_topic_with_source"))

    if len(problems.items) > before:
        return None
    return Question(
        id=qid,
        question=text.strip(),
        in_base=in_base,
        expected_source=source,
        expected_answer=answer,
        category=category,
        also_in=tuple(dict.fromkeys(u for u in also if u != source)),
        line=line,
        previous=previous,
    )


def _check_duplicates(questions: list[Question], problems: _Problems) -> None:
    first_line: dict[str, int] = {}
    for q in questions:
        if q.id in first_line:
            problems.add(q.line, t("qs.duplicate", id=repr(q.id), first=first_line[q.id]))
        else:
            first_line[q.id] = q.line


def parse_jsonl(text: str, source: str | None = None) -> list[Question]:
    """Parse JSON Lines text: one question object a line, blank lines ignored."""
    problems = _Problems(source)
    questions: list[Question] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            problems.add(number, t("qs.bad_json", error=json_problem(exc), column=exc.colno))
            continue
        if not isinstance(obj, dict):
            problems.add(number, t("qs.not_object", kind=_type_name(obj)))
            continue
        q = question_from_mapping(obj, number, problems)
        if q is not None:
            questions.append(q)
    return _finish(questions, problems)


def _cell_bool(value: str) -> bool | str:
    lowered = value.strip().casefold()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    return value


def _cell_list(value: str, line: int, problems: _Problems) -> list[str] | None:
    value = value.strip()
    if not value:
        return None
    if value.startswith("["):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError as exc:
            problems.add(line, t("qs.also_in_json", error=json_problem(exc)))
            return None
        return parsed
    return [part.strip() for part in value.split(";") if part.strip()]


def parse_csv(text: str, source: str | None = None) -> list[Question]:
    """Parse CSV with a header row naming the contract's columns (comma, semicolon or tab)."""
    problems = _Problems(source)
    first_line = text.split("\n", 1)[0]
    try:
        dialect: Any = csv.Sniffer().sniff(first_line, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = [h.strip().lstrip("\ufeff").casefold() for h in next(reader)]
    except StopIteration:
        header = []
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        problems.add(
            1,
            tn("qs.header", len(missing), missing=", ".join(missing), expected=", ".join(FIELDS)),
        )
        problems.raise_if_any()

    questions: list[Question] = []
    start = reader.line_num + 1
    for row in reader:
        line = start
        start = reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header) and any(cell.strip() for cell in row[len(header):]):
            problems.add(line, t("qs.cells", n=len(row), columns=len(header)))
            continue
        cells = {name: (row[i] if i < len(row) else "") for i, name in enumerate(header) if name}
        obj: dict[str, Any] = {}
        for name in FIELDS:
            value = cells.get(name, "")
            if name == "in_base":
                obj[name] = _cell_bool(value) if value.strip() else None
                if isinstance(obj[name], str):
                    problems.add(line, t("qs.in_base_csv", value=repr(value)))
                    obj[name] = None
            elif name == "also_in":
                obj[name] = _cell_list(value, line, problems)
            else:
                obj[name] = value.strip() or None
        if obj["in_base"] is None and "in_base" in cells and not cells["in_base"].strip():
            problems.add(line, t("qs.missing_in_base"))
            continue
        if obj["in_base"] is None:
            continue
        q = question_from_mapping(obj, line, problems)
        if q is not None:
            questions.append(q)
    return _finish(questions, problems)


def _finish(questions: list[Question], problems: _Problems) -> list[Question]:
    _check_duplicates(questions, problems)
    problems.raise_if_any()
    if not questions:
        raise QuestionSetError(t("qs.empty", source=problems.source))
    return questions


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise QuestionSetError(t("qs.not_utf8", source=source, line=line)) from exc


def parse_questions(text: str, fmt: str, source: str | None = None) -> list[Question]:
    """Parse text as "jsonl" or "csv"."""
    if fmt == "csv":
        return parse_csv(text, source)
    if fmt == "jsonl":
        return parse_jsonl(text, source)
    raise QuestionSetError(t("qs.format", fmt=repr(fmt)))


def detect_format(path: Path, text: str) -> str:
    suffix = path.suffix.casefold()
    if suffix in {".csv", ".tsv", ".txt"}:
        return "csv"
    if suffix in {".jsonl", ".ndjson", ".json"}:
        return "jsonl"
    return "jsonl" if text.lstrip().startswith("{") else "csv"


def load_questions(path: str | Path) -> list[Question]:
    """Load and validate a question set (.jsonl, or .csv with the same columns)."""
    path = Path(path)
    source = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise QuestionSetError(t("qs.no_file", source=source)) from exc
    except OSError as exc:
        raise QuestionSetError(t("qs.unreadable", source=source, error=exc.strerror)) from exc
    return questions_from_bytes(data, source)


def questions_from_bytes(data: bytes, name: str) -> list[Question]:
    """A question set as JSON Lines or CSV (told by the name's suffix, else by the content), from
    a file or an upload called `name`."""
    text = _decode(data, name)
    return parse_questions(text, detect_format(Path(name), text), name)
