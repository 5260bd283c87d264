"""Where the fenced code blocks and the headings of a Markdown text are: one rule for every scan.

Chunking (no cut inside a block, sections by heading), HTML conversion (blank lines kept inside
code), the files' first heading, citations (brackets in code are not citations) and the
dashboard's safe Markdown (code left as written, prose escaped) and passages (headings shown as
bold lines) must agree on what is code and what is a heading, or one of them shows as prose what
another keeps as code, or names a section another does not see. The fence rule, after CommonMark:

- a fence opens on a line of three or more backticks or tildes, after any indentation (fences
  often sit in list items); a backtick fence's info string holds no backtick, so that inline
  ```code``` opens nothing;
- it closes on a line of the same character, at least as long, with only blanks around it;
- an indented fence also ends before the first non-blank line indented less than its opening
  line (the list item, and its code, end there);
- an unclosed fence runs to the end of the text.

The heading rule (ATX headings; setext underlines are not read as headings anywhere):

- up to three spaces, one to six `#`, then a blank and the title, or nothing;
- the title loses its closing hashes when they follow a blank (`## Title ##`; `C#` stays),
  inline `<a>` anchors, and runs of blanks;
- inside a fenced code block a `#` line is code (a shell comment), never a heading.

Every pattern here is linear: one pass, no nested repetition. A heading's title runs to the end
of its line and its closing hashes are trimmed with string methods: a pattern such as
`(.+?)[ \t]*#*[ \t]*$` retries its tail at every character (minutes on a long line of spaces).
"""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple

FENCE_OPENING = r"[ \t]*(?:`{3,}|~{3,})"
# A heading line, to compose into a larger pattern (chunking's one-pass scan) or match alone.
# Possessive blanks never give back what they took, so a long run of them is read once.
HEADING_LINE = r"(?P<hashes> {0,3}#{1,6})(?:[ \t]++(?P<title>[^\n]*))?\r?$"
_HEADING = re.compile(HEADING_LINE)
# [^<>]: an unclosed "<a" stops at the next "<" instead of rescanning the rest of the line.
_ANCHOR_TAG = re.compile(r"</?a\b[^<>]*>", re.IGNORECASE)
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


class HeadingLine(NamedTuple):
    """An ATX heading: its level (the number of `#`) and its title as readers see it."""

    level: int
    text: str


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


# -- headings ------------------------------------------------------------------------------------


def strip_closing_sequence(text: str) -> str:
    """`Title ##` -> `Title`; `C#` stays (CommonMark: closing hashes follow a space, or are all)."""
    text = text.strip()
    if text.endswith("#"):
        bare = text.rstrip("#")
        if not bare or bare[-1] in " \t":
            text = bare.rstrip(" \t")
    return text


def heading_text(raw: str) -> str:
    """The title after the `#` marks as readers see it: `<a name="x"></a>Title ##` -> `Title`."""
    text = strip_closing_sequence(raw)
    if "<" in text:
        text = _ANCHOR_TAG.sub("", text)
    return " ".join(text.split())


def heading(line: str) -> HeadingLine | None:
    """The heading `line` (no newline) is, else None. Says nothing of code: see headings()."""
    found = _HEADING.match(line)
    if found is None:
        return None
    return HeadingLine(found.group("hashes").count("#"), heading_text(found.group("title") or ""))


def headings(text: str) -> Iterator[tuple[int, HeadingLine]]:
    """(line number from 0, heading) for every heading of `text` outside fenced code."""
    for number, (line, fence) in enumerate(lines_in_code(text)):
        found = heading(line) if fence is None else None
        if found is not None:
            yield number, found
