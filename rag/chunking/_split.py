"""The recursive character splitter, on offsets.

Pieces are (start, end) spans of the one document string: nothing is copied or joined, so a
chunk body is always an exact slice and a 1 MB document is cut in linear time per separator
level. Separators stay attached to the piece they end (a heading starts the piece it opens),
which is why pieces laid end to end give back the text.

Merging follows the common recursive splitter: pieces that fit are packed greedily; when a chunk
is full, whole pieces from its end are carried into the next one while they fit in `overlap`.
A piece too big for a chunk is split again with the next separator, and its chunks are emitted
on their own, so a higher-level boundary (a blank line) is preferred over a lower one.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import Callable

from rag.chunking._measure import TokenMeasure
from rag.chunking._structure import Structure
from rag.chunking.base import TINY_CHARS

Span = tuple[int, int]
# A separator level: the cut points strictly inside [start, end), ascending.
Level = Callable[[int, int], list[int]]

BLANK_LINE = re.compile(r"\n(?:[ \t\r]*+\n)+")
NEWLINE = re.compile(r"\n")
# Latin sentence ends need the following space; CJK ones (。！？) do not use spaces at all.
SENTENCE_END = re.compile(r"[.!?][ \t]+|[。！？]+[ \t]*")
SPACE = re.compile(r"[ \t]+")
NON_SPACE = re.compile(r"\S")


def regex_level(text: str, pattern: re.Pattern[str]) -> Level:
    finditer = pattern.finditer
    match_end = re.Match.end

    def points(start: int, end: int) -> list[int]:
        # Matches are never empty, so only the last one can end at `end`. (map() over the
        # unbound method keeps the per-match loop in C.)
        found = list(map(match_end, finditer(text, start, end)))
        if found and found[-1] >= end:
            found.pop()
        return found

    return points


def heading_level(structure: Structure, levels: tuple[int, ...]) -> Level:
    def points(start: int, end: int) -> list[int]:
        return structure.heading_starts(start, end, levels)

    return points


def plain_levels(text: str) -> list[Level]:
    """Blank line, newline, sentence end, space (the character level is built in)."""
    return [regex_level(text, p) for p in (BLANK_LINE, NEWLINE, SENTENCE_END, SPACE)]


def heading_levels(structure: Structure, levels: range) -> list[Level]:
    return [heading_level(structure, (n,)) for n in levels]


class RecursiveSplitter:
    """Cut spans of `text` into chunks of at most `chunk_size` characters (or tokens, with a
    token `measure`: sizes are then read from its running total and every chunk is checked by
    its count, a chunk still over it cut again).

    With a `structure`, no cut falls inside a fenced code block or a table of at most
    `chunk_size`; bigger blocks are cut like any text (the caller warns about it).
    """

    def __init__(
        self,
        text: str,
        chunk_size: int,
        overlap: int,
        levels: list[Level],
        structure: Structure | None = None,
        measure: TokenMeasure | None = None,
    ) -> None:
        self.text = text
        self.size = chunk_size
        self.overlap = overlap
        self.levels = levels
        self.structure = structure
        self.measure = measure
        # Character-level pieces: small enough that overlap can still be made of whole pieces.
        self.grain = max(1, (measure.chars_for(chunk_size) if measure else chunk_size) // 20)

    def split(self, start: int, end: int) -> list[Span]:
        if self._fits(start, end):
            return [(start, end)] if end > start else []
        spans = self._absorb_blank_chunks(self._split(start, end, 0))
        return spans if self.measure is None else self._counted(spans)

    def _fits(self, start: int, end: int) -> bool:
        return end - start <= self.size if self.measure is None else self.measure.fits(start, end, self.size)

    def _counted(self, spans: list[Span]) -> list[Span]:
        """Each span the count finds over the size (the running total only estimates a span's
        tokens at its edges) cut again, a little smaller, until it fits."""
        measure = self.measure
        assert measure is not None
        out: list[Span] = []
        for start, end in spans:
            if measure.fits(start, end, self.size) or self.size <= measure.overhead + 1:
                out.append((start, end))
                continue
            # Smaller by what it is over (a word cut at an edge), at least a little: a few rounds.
            excess = max(1, measure.tokens(start, end) - self.size)
            smaller = max(measure.overhead + 1, min(self.size - excess, int(self.size * 0.97)))
            inner = RecursiveSplitter(self.text, smaller, 0, self.levels, self.structure, measure)
            out.extend(inner.split(start, end))
        return out

    def _absorb_blank_chunks(self, chunks: list[Span]) -> list[Span]:
        """A run of whitespace longer than a chunk can still yield a blank chunk: it joins the
        chunk before it (or after it, at the start). The body grows past chunk_size only by
        that whitespace, and the text still concatenates back."""
        search, text = NON_SPACE.search, self.text
        kept: list[Span] = []
        carry = None  # start of blank chunks met before any real one
        for left, right in chunks:
            if text[left].isspace() and search(text, left, right) is None:
                if kept:
                    kept[-1] = (kept[-1][0], right)
                elif carry is None:
                    carry = left
                continue
            if carry is not None:
                left, carry = min(carry, left), None
            kept.append((left, right))
        return kept or chunks

    def _split(self, start: int, end: int, level: int) -> list[Span]:
        points: list[int] = []
        while level < len(self.levels):
            found = self._allowed(self.levels[level](start, end))
            points = self._without_blank_pieces(found, start, end)
            level += 1
            if points:
                break
        if not points:
            bounds = self._characters(start, end)
            return self._merge(bounds, 0, len(bounds) - 1)
        # bounds[k]..bounds[k+1] is piece k; runs of pieces that fit are merged, a piece too
        # big is split again at the next level.
        bounds = [start, *points, end]
        size = self.size
        chunks: list[Span] = []
        run = 0
        if self.measure is None:
            too_big = [k for k, (a, b) in enumerate(zip(bounds, bounds[1:])) if b - a > size]
        else:
            measured = self.measure.size
            too_big = [k for k, (a, b) in enumerate(zip(bounds, bounds[1:])) if measured(a, b) > size]
        for k in too_big:
            lead = k
            while lead > run and self._leads_in(bounds[lead - 1], bounds[lead]):
                lead -= 1
            if lead > run:
                chunks.extend(self._merge(bounds, run, lead))
            chunks.extend(self._split(bounds[lead], bounds[k + 1], level))
            run = k + 1
        if run < len(bounds) - 1:
            chunks.extend(self._merge(bounds, run, len(bounds) - 1))
        return chunks

    def _leads_in(self, start: int, end: int) -> bool:
        """A heading or a short line just before a piece too big to fit belongs to that piece
        ("### Parameters" before its table, "Type:" before its command), not to a chunk of its own.
        The baseline (no structure) keeps the common splitter's behaviour."""
        if self.structure is None:
            return False
        if self.structure.is_heading_only(start, end):
            return True
        return len(self.text[start:end].strip()) < TINY_CHARS

    def _allowed(self, points: list[int]) -> list[int]:
        if self.structure is None or not points:
            return points
        cuttable, measure = self.structure.cuttable, self.measure
        return [p for p in points if cuttable(p, self.size, measure)]

    def _without_blank_pieces(self, points: list[int], start: int, end: int) -> list[int]:
        """Drop cuts that would leave a whitespace-only piece: it joins the piece before it
        (or, at the start, the one after), so no chunk is blank and none of the text is lost."""
        if not points:
            return points
        text = self.text
        search = NON_SPACE.search
        # Only a piece that starts with whitespace can be blank: check those alone.
        # (map() keeps this per-point test in C: it runs on every cut of every level.)
        if not text[start].isspace() and not any(map(str.isspace, map(text.__getitem__, points))):
            return points
        cuts: list[int] = []
        left = start
        # text[left:clear] is known to be whitespace: while leading blank pieces are dropped, left
        # stays at the start, and searching from there again for every cut was quadratic
        # (' \n' * N before any text: 13 s at 100 KB, 309 s at 400 KB).
        clear = start
        for point in points:
            blank = text[left].isspace() and search(text, clear, point) is None
            if blank:
                clear = point
                if not cuts:
                    continue
                cuts[-1] = point
            else:
                cuts.append(point)
            left = clear = point
        if cuts and text[left].isspace() and search(text, clear, end) is None:
            cuts.pop()
        return cuts

    def _characters(self, start: int, end: int) -> list[int]:
        bounds = [start]
        left = start
        while end - left > self.grain:
            right = left + self.grain
            if self.structure is not None:
                right = self.structure.snap(right, left, self.size, self.measure)
            if right >= end:
                break
            bounds.append(right)
            left = right
        bounds.append(end)
        return bounds

    def _merge(self, bounds: list[int], lo: int, hi: int) -> list[Span]:
        """Greedy packing of pieces lo..hi-1 (each fits), carrying whole pieces as overlap.

        Pieces are contiguous, so a chunk's reach and the next chunk's first piece are found
        by bisection on the boundaries instead of piece by piece."""
        size, overlap = self.size, self.overlap
        keys = bounds
        if self.measure is not None:
            # In tokens: bisection on the running total at each boundary (keys[i] for bounds[i]),
            # with the room the model's own additions (and a trailing space's token) take kept free.
            keys = [0.0] * lo + self.measure.keys(bounds[lo:hi + 1])
            size = max(1, size - self.measure.overhead - self.measure.trailing)
        chunks: list[Span] = []
        first = lo
        while True:
            last = max(first + 1, bisect_right(keys, keys[first] + size, first + 1, hi + 1) - 1)
            chunks.append((bounds[first], bounds[last]))
            if last >= hi:
                return chunks
            # Keep the trailing pieces that fit in the overlap and leave room for the next piece.
            floor = max(keys[last] - overlap, keys[last + 1] - size)
            first = bisect_left(keys, floor, first + 1, last + 1)
