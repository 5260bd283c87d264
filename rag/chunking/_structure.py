"""One pass over a Markdown document: fenced code blocks, tables and headings, with offsets.

Every strategy asks the same questions many times (is this offset inside a block? which heading
is in effect here?), so the answers are precomputed once and looked up with bisect.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import NamedTuple, Protocol

from rag.markdown_structure import FENCE_OPENING, HEADING_LINE, block_end, heading_text

CODE = "code"
TABLE = "table"

_NON_SPACE = re.compile(r"\S")
_FRONT_MATTER_END = re.compile(r"^(?:---|\.\.\.)[ \t]*+\r?$", re.M)
# A line that opens a fence, is a heading (both rules are rag.markdown_structure's), or may be
# a table delimiter row.
# Linear on any line: possessive runs (*+, ++) never give back what they took, so a long run of
# spaces or tabs is read once, not once per split point (it was quadratic: 120 KB took 50 s).
_EVENT_LINE = (
    rf"(?:(?P<fence>{FENCE_OPENING})(?P<info>[^\n]*)"
    rf"|{HEADING_LINE}"
    r"|[ \t]*+\|?+[ \t]*+:?+-++:?+[ \t]*+(?:\|[ \t]*+:?+-++:?+[ \t]*+)*+\|?+[ \t]*+\r?$)"
)
_EVENT = re.compile(_EVENT_LINE, re.M)
# The lookahead is implied by the alternatives (their first character is one of these): it only
# lets the engine reject most lines after one character instead of trying all three alternatives.
_NEXT_EVENT = re.compile("\n(?=[ \t`~#|:-])" + _EVENT_LINE, re.M)
# Rows after the delimiter row: each following line that holds a "|" and does not open a fence
# (rag.markdown_structure's opening rule).
_TABLE_ROWS = re.compile(rf"(?:\n(?!{FENCE_OPENING})[^\n|]*+\|[^\n]*+)*+")


class SpanSize(Protocol):
    def size(self, start: int, end: int) -> float: ...


def _size(start: int, end: int, measure: SpanSize | None) -> float:
    return end - start if measure is None else measure.size(start, end)


def _trim_cr(text: str, end: int) -> int:
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


class Block(NamedTuple):
    """A fenced code block or a table: [start, end) from its first character to the end of its
    last line (the final newline excluded). `header_end` is where a table's header rows stop."""

    kind: str
    start: int
    end: int
    header_end: int = 0

    @property
    def size(self) -> int:
        return self.end - self.start


class Heading(NamedTuple):
    start: int  # offset of the heading line
    level: int
    text: str  # without the # marks, anchors or closing hashes
    line: str  # the heading line as written, for repeating it


class Structure:
    """Blocks and headings of one document, found once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.blocks: list[Block] = []
        self.headings: list[Heading] = []
        self._scan()
        self._block_starts = [b.start for b in self.blocks]
        self._heading_starts = [h.start for h in self.headings]
        self._paths = self._heading_paths()
        first = _NON_SPACE.search(text)
        self.content_start = first.start() if first else len(text)
        self.title = next((h.text for h in self.headings if h.level == 1), "")

    # -- scanning ---------------------------------------------------------------------------

    def _scan(self) -> None:
        # One regex walks the lines that matter (fences, headings, table delimiter rows);
        # the text between them is never looked at line by line.
        text = self.text
        size = len(text)
        pos = free_from = self._front_matter_end()
        while True:
            # Searching from a newline lets the regex engine skip ordinary lines at C speed.
            if pos >= size:
                return
            found = _EVENT.match(text, pos) if pos == 0 else None
            if found is None:
                # From the newline that ends the previous line, so the line at `pos` is seen too.
                found = _NEXT_EVENT.search(text, pos - 1 if pos and text[pos - 1] == "\n" else pos)
                if found is None:
                    return
                line_start = found.start() + 1
            else:
                line_start = found.start()
            # Every alternative runs to the end of its line, so the match ends where the line does.
            line_end = found.end()
            fence, info, hashes, title = found.groups()  # one call instead of a lookup per name
            if fence is not None:
                marker = fence.lstrip(" \t")
                if marker[0] == "`" and "`" in info:
                    pos = line_end + 1  # inline ```code```, not a fence
                    continue
                end = _trim_cr(text, block_end(text, line_end, marker, len(fence) - len(marker)))
                start = line_start + len(fence) - len(marker)
                self.blocks.append(Block(CODE, start, max(end, start + 1)))
                pos = free_from = end + 1
            elif hashes is not None:
                self.headings.append(
                    Heading(line_start, hashes.count("#"), heading_text(title or ""),
                            text[line_start:line_end].strip())
                )
                pos = line_end + 1
            else:
                pos = self._take_table(line_start, line_end, free_from)
                if pos > line_end + 1:
                    free_from = pos

    def _front_matter_end(self) -> int:
        # YAML comments start with '#': front matter must not be read as headings.
        text = self.text
        first_end = text.find("\n")
        if first_end < 0 or text[:first_end].lstrip("\ufeff").rstrip() != "---":
            return 0
        close = _FRONT_MATTER_END.search(text, first_end + 1)
        return close.end() + 1 if close else 0

    def _take_table(self, delimiter_start: int, delimiter_end: int, free_from: int) -> int:
        """A table whose delimiter row is the line at `delimiter_start`, if the line above is its
        header; returns where scanning resumes."""
        text = self.text
        header_start = text.rfind("\n", 0, max(delimiter_start - 1, 0)) + 1
        header = text[header_start : max(delimiter_start - 1, header_start)]
        if delimiter_start == 0 or header_start < free_from or "|" not in header or not header.strip() \
                or "|" not in text[delimiter_start:delimiter_end]:
            return delimiter_end + 1
        if self.headings and self.headings[-1].start == header_start:
            self.headings.pop()  # "# a | b" over a delimiter row is a table header
        last_end = _TABLE_ROWS.match(text, delimiter_end).end()
        start = header_start + len(header) - len(header.lstrip(" \t"))
        self.blocks.append(Block(TABLE, start, _trim_cr(text, last_end), _trim_cr(text, delimiter_end)))
        return last_end + 1

    def _heading_paths(self) -> list[tuple[str, ...]]:
        paths: list[tuple[str, ...]] = []
        # (level, path up to and including that heading): a path extends its parent's tuple
        # instead of being rebuilt from the whole stack.
        stack: list[tuple[int, tuple[str, ...]]] = []
        for heading in self.headings:
            level = heading.level
            while stack and stack[-1][0] >= level:
                stack.pop()
            path = (stack[-1][1] if stack else ()) + (heading.text,)
            stack.append((level, path))
            paths.append(path)
        return paths

    # -- lookups ----------------------------------------------------------------------------

    def block_around(self, offset: int) -> Block | None:
        """The block that `offset` falls strictly inside (a cut there would split it)."""
        i = bisect_left(self._block_starts, offset) - 1
        if i >= 0:
            block = self.blocks[i]
            if offset < block.end:
                return block
        return None

    def cuttable(self, offset: int, protect_up_to: int, measure: SpanSize | None = None) -> bool:
        """May a chunk boundary fall at `offset`? Not inside a block of at most `protect_up_to`
        characters (or of its `measure`: tokens)."""
        block = self.block_around(offset)
        if block is None:
            return True
        if _size(block.start, block.end, measure) <= protect_up_to:
            return False
        # Even in a table too big to keep whole, its header rows stay with the first data row.
        header = _size(block.start, block.header_end + 1, measure)
        return not (block.kind == TABLE and offset <= block.header_end + 1 and header <= protect_up_to)

    def snap(self, offset: int, floor: int, protect_up_to: int, measure: SpanSize | None = None) -> int:
        """Move a forced cut out of a protected block: to its start if that is past `floor`, else its end."""
        block = self.block_around(offset)
        if block is None or _size(block.start, block.end, measure) > protect_up_to:
            return offset
        return block.start if block.start > floor else block.end

    def is_heading_only(self, start: int, end: int) -> bool:
        """Is the text in [start, end) one heading line and whitespace?"""
        first = self.first_content(start, end)
        i = bisect_left(self._heading_starts, start)
        if first >= end or i >= len(self.headings) or self.headings[i].start > first:
            return False
        line_end = self.text.find("\n", first, end)
        return line_end < 0 or _NON_SPACE.search(self.text, line_end, end) is None

    def heading_starts(self, start: int, end: int, levels: tuple[int, ...]) -> list[int]:
        """Offsets of headings of the given levels strictly after `start` and before `end`."""
        lo = bisect_right(self._heading_starts, start)
        hi = bisect_left(self._heading_starts, end)
        return [h.start for h in self.headings[lo:hi] if h.level in levels]

    def headings_of(self, levels: tuple[int, ...]) -> list[Heading]:
        return [h for h in self.headings if h.level in levels]

    def heading_path_at(self, offset: int) -> list[str]:
        """Headings in effect at `offset` (a heading starting exactly there counts)."""
        i = bisect_right(self._heading_starts, offset) - 1
        return list(self._paths[i]) if i >= 0 else []

    def has_heading_in(self, start: int, end: int) -> bool:
        i = bisect_left(self._heading_starts, start)
        return i < len(self._heading_starts) and self._heading_starts[i] < end

    def first_content(self, start: int, end: int) -> int:
        """First non-whitespace offset in [start, end), or `end`."""
        found = _NON_SPACE.search(self.text, start, end)
        return found.start() if found else end
