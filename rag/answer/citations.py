"""Citations in an answer, and the sources list built from them.

Recognised forms: `[2]`, `[1][3]`, `[1, 3]`, `[1; 3]` and ranges `[1-3]` / `[1–3]` (expanded; a
range wider than 20 counts as its two ends only). Not citations: brackets right after a letter or
digit (`args[1]`), a Markdown link text (`[1](...)`), anything inside inline code or a fenced code
block (commands are copied verbatim and may contain brackets).
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

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
# One character class after a fixed prefix: linear on any text. No word boundary before it:
# Markdown's autolinker also links an address right after "_" or a letter's escape ("\\_https://").
URL_PATTERN = re.compile(r"(?:https?://|www\.)[^\s<>\"'`\[\]()]+", re.IGNORECASE)
URL_TAIL = ".,;:!?*_~"  # punctuation after an address ends the sentence, not the address
# An e-mail address (the autolinker makes it a mailto: link): found from its "@", the domain read
# forwards by one unambiguous pattern, the name backwards by hand, never past the previous address.
_EMAIL_DOMAIN = re.compile(r"[-\w]+(?:\.[-\w]+)+")
# What Markdown turns into another character before its autolinker reads the text: a backslash
# escape of punctuation and a character reference (https&#58;// is https://).
_DECODED = re.compile(r"\\[!-/:-@\[-`{-~]|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});")


class _Reading:
    """`text` as Markdown reads it (escapes and character references decoded), with the way back
    from a place in that reading to the place in `text` where it starts."""

    def __init__(self, text: str) -> None:
        self.size = len(text)
        pieces: list[str] = []
        # each decoded token: where it starts and ends in the reading, where it starts and ends in text
        self._read: list[int] = []
        self._tokens: list[tuple[int, int, int]] = []
        last = length = 0
        for match in _DECODED.finditer(text):
            pieces.append(text[last:match.start()])
            length += match.start() - last
            token = match.group(0)
            char = token[1] if token[0] == "\\" else html.unescape(token)
            pieces.append(char)
            self._read.append(length)
            self._tokens.append((length + len(char), match.start(), match.end()))
            length += len(char)
            last = match.end()
        pieces.append(text[last:])
        self.text = "".join(pieces)

    def where(self, at: int) -> int:
        """Where the reading's character `at` (or its end) starts in the text."""
        k = bisect.bisect_right(self._read, at) - 1
        if k < 0:
            return at
        read_end, raw_start, raw_end = self._tokens[k]
        return raw_start if at < read_end else raw_end + at - read_end


def _emails(read: str) -> Iterator[tuple[int, int]]:
    after = 0  # no address starts before the end of the previous one
    at = read.find("@")
    while at >= 0:
        domain = _EMAIL_DOMAIN.match(read, at + 1)
        start = at
        if domain:
            # Read back by hand: a pattern searched backwards retries every start of a long word.
            while start > after and (read[start - 1].isalnum() or read[start - 1] in "-.+_"):
                start -= 1
        if domain and start < at:
            yield start, domain.end()
            after = domain.end()
        at = read.find("@", max(at + 1, after))


def address_spans(text: str) -> list[tuple[int, int, str]]:
    """Every web or e-mail address Markdown's autolinker could make a link of in `text`, whatever
    its form (after an underscore, escaped, written with character references): (start, end) in
    `text` and the address as a reader sees it, in order, none overlapping.

    Broader than the autolinker on purpose: what it might link is found, and more.
    """
    reading = _Reading(text)
    read = reading.text
    found = []
    for match in URL_PATTERN.finditer(read):
        url = match.group(0).rstrip(URL_TAIL)
        found.append((match.start(), match.start() + len(url)))
    urls = iter(found[:])
    url = next(urls, None)
    for start, end in _emails(read):
        while url is not None and url[1] <= start:
            url = next(urls, None)
        if url is None or end <= url[0]:
            found.append((start, end))
    found.sort()
    return [(reading.where(start), reading.where(end), read[start:end]) for start, end in found if end > start]


def answer_urls(answer: str | None) -> list[str]:
    """Every web or e-mail address written in the answer, code included, each once, in order.

    The prompt forbids URLs: the model invents plausible ones, so each is a warning sign, like a
    citation of a passage that was not given. The sources list never comes from these.
    """
    found: list[str] = []
    for _, _, address in address_spans(answer or ""):
        if address not in found:
            found.append(address)
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
