"""`sections`: one chunk per `## ` section, each prefixed with its article and section names."""

from __future__ import annotations

from typing import Any

from rag.chunking._checks import overlap_below, positive, unit_name
from rag.chunking._measure import CHARS
from rag.chunking._finish import context_header, finish
from rag.chunking._split import RecursiveSplitter, heading_levels, plain_levels
from rag.chunking._structure import Structure
from rag.chunking.base import INTRODUCTION, Chunk, Chunker


class SectionsChunker(Chunker):
    """Split before each `## ` heading (never one inside a code block).

    Every chunk's header is `Article: {title}` / `Section: {section}`, and its citations name the
    same section: the `## ` heading, or "Introduction" for the text before the first one (as in
    the seed article). A section longer than
    max_size (default 2000) is split recursively, deeper headings first, with `overlap`
    (default 200), never inside a code block or table that fits; each piece keeps the header.
    Sizes count characters, or tokens with unit "tokens".
    """

    name = "sections"

    def __init__(self, max_size: int = 2000, overlap: int = 200, unit: str = CHARS) -> None:
        self.max_size = positive(self.name, "max_size", max_size)
        self.overlap = overlap_below(self.name, overlap, "max_size", max_size)
        self.unit = unit_name(self.name, unit)

    def settings(self) -> dict[str, Any]:
        return {"max_size": self.max_size, "overlap": self.overlap, **self.unit_setting()}

    def chunk(self, markdown: str, title: str = "") -> list[Chunk]:
        structure = Structure(markdown)
        title = title or structure.title
        levels = heading_levels(structure, range(3, 7)) + plain_levels(markdown)
        measure = self.measure(markdown)
        splitter = RecursiveSplitter(markdown, self.max_size, self.overlap, levels, structure, measure)
        h2 = structure.headings_of((2,))
        ends = [h.start for h in h2[1:]] + [len(markdown)]
        sections = [(h.start, end, h.text) for h, end in zip(h2, ends)]
        if not h2 or h2[0].start > 0:
            sections.insert(0, (0, h2[0].start if h2 else len(markdown), INTRODUCTION))
        spans: list[tuple[int, int]] = []
        owner: dict[int, str] = {}  # chunk start -> its section name
        for start, end, name in sections:
            for span in splitter.split(start, end):
                spans.append(span)
                owner[span[0]] = name
        return finish(
            structure,
            spans,
            max_size=self.max_size,
            title=title,
            section_for=lambda start, _path: owner[start],
            header_for=lambda _start, section: context_header(title, section),
            repeat_table_header=True,
            measure=measure,
        )
