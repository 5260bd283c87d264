"""Where the fenced code blocks of a Markdown text are: one rule for every place that scans text.

Chunking (no cut inside a block), HTML conversion (blank lines kept inside code), the files'
first heading, citations (brackets in code are not citations) and the dashboard's safe Markdown
(code left as written, prose escaped) must agree on what is code, or one of them shows as prose
what another keeps as code. The rule, after CommonMark:

- a fence opens on a line of three or more backticks or tildes, after any indentation (fences
  often sit in list items); a backtick fence's info string holds no backtick, so that inline
  ```code``` opens nothing;
- it closes on a line of the same character, at least as long, with only blanks around it;
- an indented fence also ends before the first non-blank line indented less than its opening
  line (the list item, and its code, end there);
- an unclosed fence runs to the end of the text.

Every pattern here is linear: one pass, no nested repetition.
"""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple

FENCE_OPENING = r"[ \t]*(?:`{3,}|~{3,})"
_OPENING = re.compile(r"^([ \t]*)(`{3,}|~{3,})([^\n]*)$", re.M)
_CLOSERS: dict[str, re.Pattern[str]] = {}
_OUTDENTS: dict[int, re.Pattern[str]] = {}


class Fence(NamedTuple):
    """A fenced code block: `start` is where its opening line starts, `end` where its last line
    ends (before the newline, a "\\r" included)."""

    start: int
    end: int
    marker: str  # the opening run, e.g. "```" or "~~~~"
    indent: int  # blanks before the marker


def _closer(marker: str) -> re.Pattern[str]:
    closer = _CLOSERS.get(marker)
    if closer is None:
        # Starting at the newline lets the engine jump from line to line.
        closer = _CLOSERS[marker] = re.compile(rf"\n[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*\r?$", re.M)
    return closer


def _outdent(indent: int) -> re.Pattern[str]:
    outdent = _OUTDENTS.get(indent)
    if outdent is None:
        outdent = _OUTDENTS[indent] = re.compile(rf"\n[ \t]{{0,{indent - 1}}}[^ \t\r\n]")
    return outdent


def block_end(text: str, opening_end: int, marker: str, indent: int) -> int:
    """Where the block opened by the line ending at `opening_end` ends (see Fence.end)."""
    close = _closer(marker).search(text, opening_end)
    end = close.end() if close else len(text)
    if indent:
        outdent = _outdent(indent).search(text, opening_end, end)
        if outdent:
            end = outdent.start()
    return end


def opening(line: str) -> tuple[int, str] | None:
    """(indent, marker) when `line` (no newline) opens a fence, else None."""
    found = _OPENING.match(line)
    if found is None or (found.group(2)[0] == "`" and "`" in found.group(3)):
        return None
    return len(found.group(1)), found.group(2)


def fences(text: str) -> list[Fence]:
    """Every fenced code block of `text`, in order."""
    found: list[Fence] = []
    pos, size = 0, len(text)
    while pos <= size:
        line = _OPENING.search(text, pos)
        if line is None:
            break
        indent, marker, info = line.groups()
        if marker[0] == "`" and "`" in info:
            pos = line.end() + 1
            continue
        end = block_end(text, line.end(), marker, len(indent))
        found.append(Fence(line.start(), end, marker, len(indent)))
        pos = end + 1
    return found


def split_code(text: str) -> list[tuple[bool, str]]:
    """The text cut into (is_code, piece), pieces joining back to it; a code piece holds whole
    lines, its last newline included."""
    pieces: list[tuple[bool, str]] = []
    last = 0
    for fence in fences(text):
        if fence.start > last:
            pieces.append((False, text[last:fence.start]))
        end = min(fence.end + 1, len(text))
        pieces.append((True, text[fence.start:end]))
        last = end
    if last < len(text):
        pieces.append((False, text[last:]))
    return pieces


def lines_in_code(text: str) -> Iterator[tuple[str, Fence | None]]:
    """Each line of `text` (split on "\\n") with the fenced code block it belongs to, or None."""
    spans = iter(fences(text))
    fence = next(spans, None)
    pos = 0
    for line in text.split("\n"):
        while fence is not None and fence.end < pos:
            fence = next(spans, None)
        yield line, fence if fence is not None and fence.start <= pos <= fence.end else None
        pos += len(line) + 1


def blank_code(text: str) -> str:
    """`text` with every fenced code block turned into spaces (offsets kept)."""
    return "".join(" " * len(piece) if is_code else piece for is_code, piece in split_code(text))
