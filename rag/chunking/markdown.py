"""`markdown`: a recursive splitter whose first separators are the Markdown headings."""

from __future__ import annotations


from rag.chunking._finish import context_header, finish
from rag.chunking._split import RecursiveSplitter, heading_levels, plain_levels
from rag.chunking._structure import Structure
from rag.chunking.base import Chunk, SizedChunker


class MarkdownChunker(SizedChunker):
    """Separators: headings level 1, 2, ... 6 (at line start, outside code), then blank line,
    newline, sentence end, space, character. Several short sections share a chunk while they fit
    in chunk_size (default 1000); overlap (default 200) repeats whole pieces. No cut inside a
    code block or table that fits. Header: `Article: {title}` / `Section: {sections}`: the section
    at the start ("Introduction" before the first section heading), then each one whose heading
    starts in the chunk, joined by " · ": the sections its citations name.
    """

    name = "markdown"

    def chunk(self, markdown: str, title: str = "") -> list[Chunk]:
        structure = Structure(markdown)
        title = title or structure.title
        levels = heading_levels(structure, range(1, 7)) + plain_levels(markdown)
        measure = self.measure(markdown)
        splitter = RecursiveSplitter(markdown, self.chunk_size, self.overlap, levels, structure, measure)
        return finish(
            structure,
            splitter.split(0, len(markdown)),
            max_size=self.chunk_size,
            title=title,
            header_for=lambda _start, section: context_header(title, section),
            repeat_table_header=True,
            name_every_section=True,
            measure=measure,
        )
