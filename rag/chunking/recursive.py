"""`recursive`: the common default (n8n "Simple", LangChain's recursive character splitter).

It knows nothing about Markdown and may cut anywhere; it is kept as the baseline, and it reports
what its cuts cost (a split code block or table, a chunk with no heading to situate it).
"""

from __future__ import annotations


from rag.chunking._finish import finish
from rag.chunking._split import RecursiveSplitter, plain_levels
from rag.chunking._structure import Structure
from rag.chunking.base import Chunk, SizedChunker


class RecursiveChunker(SizedChunker):
    """Blank line, newline, sentence end (`. ! ? 。 ！ ？`), space, character; no context header."""

    name = "recursive"

    def chunk(self, markdown: str, title: str = "") -> list[Chunk]:
        structure = Structure(markdown)
        measure = self.measure(markdown)
        splitter = RecursiveSplitter(markdown, self.chunk_size, self.overlap, plain_levels(markdown), measure=measure)
        return finish(structure, splitter.split(0, len(markdown)), max_size=self.chunk_size, title=title,
                      measure=measure)
