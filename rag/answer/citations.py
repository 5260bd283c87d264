"""Citations in an answer, and the sources list built from them.

Recognised forms: `[2]`, `[1][3]`, `[1, 3]`, `[1; 3]` and ranges `[1-3]` / `[1–3]` (expanded; a
range wider than 20 counts as its two ends only). Not citations: brackets right after a letter or
digit (`args[1]`), a Markdown link text (`[1](...)`), anything inside inline code or a fenced code
block (commands are copied verbatim and may contain brackets).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from rag.markdown_structure import blank_code

MAX_RANGE = 20

_NUMBER_OR_RANGE = r"\d{1,4}(?:\s*[-–]\s*\d{1,4})?"
# group 1: what the brackets hold, for citation_numbers
CITATION = re.compile(rf"(?<![\w\[])\[\s*({_NUMBER_OR_RANGE}(?:\s*[,;]\s*{_NUMBER_OR_RANGE})*)\s*\](?!\()")
_INLINE_CODE = re.compile(r"`[^`\n]*`")


def _without_code(text: str) -> str:
    text = blank_code(text)
    return _INLINE_CODE.sub(lambda m: " " * len(m.group(0)), text)


def _expand(item: str) -> list[int]:
    # Split on the character, then strip: "\s*[-–]\s*" retried at every space of a long run.
    parts = [part.strip() for part in re.split("[-–]", item.strip())]
    if len(parts) == 1:
        return [int(parts[0])]
    start, end = int(parts[0]), int(parts[1])
    if start <= end and end - start <= MAX_RANGE:
        return list(range(start, end + 1))
    return [start, end]


# A web address the model wrote: scheme or "www.", then anything up to a space or a delimiter.
# One character class after a fixed prefix: linear on any text.
URL_PATTERN = re.compile(r"(?:\bhttps?://|\bwww\.)[^\s<>\"'`\[\]()]+", re.IGNORECASE)
URL_TAIL = ".,;:!?*_~"  # punctuation after an address ends the sentence, not the address


def answer_urls(answer: str | None) -> list[str]:
    """Every web address written in the answer, code included, each once, in order.

    The prompt forbids URLs: the model invents plausible ones, so each is a warning sign, like a
    citation of a passage that was not given. The sources list never comes from these.
    """
    found: list[str] = []
    for match in URL_PATTERN.finditer(answer or ""):
        url = match.group(0).rstrip(URL_TAIL)
        if url and url not in found:
            found.append(url)
    return found


def citation_numbers(inside: str) -> list[int]:
    """The numbers one citation's brackets hold (CITATION's group 1), in order, ranges expanded."""
    return [number for item in re.split("[,;]", inside) for number in _expand(item)]


def parse_citations(answer: str) -> list[int]:
    """Cited numbers, each once, in order of first appearance."""
    seen: list[int] = []
    for match in CITATION.finditer(_without_code(answer or "")):
        for number in citation_numbers(match.group(1)):
            if number not in seen:
                seen.append(number)
    return seen


@dataclass
class CitationCheck:
    cited: list[int] = field(default_factory=list)
    valid: list[int] = field(default_factory=list)
    invalid: list[int] = field(default_factory=list)


def check_citations(answer: str, available: Iterable[int]) -> CitationCheck:
    """Split the cited numbers into those that match an extract sent to the model and the rest."""
    allowed = set(available)
    cited = parse_citations(answer)
    return CitationCheck(
        cited=cited,
        valid=[n for n in cited if n in allowed],
        invalid=[n for n in cited if n not in allowed],
    )


def source_label(passage: Any) -> str:
    label = f"{passage.title}"
    if getattr(passage, "section", ""):
        label += f" / {passage.section}"
    return label


def source_line(passage: Any) -> str:
    """`[n] title / section - url`, as the CLI prints it (the dashboard: ui.present.answer)."""
    url = getattr(passage, "url", "") or ""
    return f"[{passage.n}] {source_label(passage)}" + (f" - {url}" if url else "")


def sources(passages: Sequence[Any], cited: Iterable[int]) -> list[Any]:
    """The cited passages, in citation order."""
    by_number = {p.n: p for p in passages}
    return [by_number[n] for n in cited if n in by_number]
