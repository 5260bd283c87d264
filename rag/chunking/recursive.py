"""`recursive`: the common default (n8n "Simple", LangChain's recursive character splitter).

It knows nothing about Markdown and may cut anywhere; it is kept as the baseline, and it reports
what its cuts cost (a split code block or table, a chunk with no heading to situate it).
"""

from __future__ import annotations

from typing import Any

from rag.chunking._checks import overlap_below, positive
from rag.chunking._finish import finish
from rag.chunking._split import RecursiveSplitter, plain_levels
from rag.chunking._structure import Structure
from rag.chunking.base import Chunk, Chunker


class RecursiveChunker(Chunker):
    """Blank line, newline, sentence end (`. ! ? 。 ！ ？`), space, character; no context header.

    chunk_size: most characters in a chunk (default 1000).
    overlap: most characters repeated from the previous chunk, in whole pieces (default 200).
    """

    name = "recursive"

    def __init__(self, chunk_size: int = 1000, overlap: int = 200) -> None:
        self.chunk_size = positive(self.name, "chunk_size", chunk_size)
        self.overlap = overlap_below(self.name, overlap, "chunk_size", chunk_size)

    def settings(self) -> dict[str, Any]:
        return {"chunk_size": self.chunk_size, "overlap": self.overlap}

    def chunk(self, markdown: str, title: str = "") -> list[Chunk]:
        structure = Structure(markdown)
        splitter = RecursiveSplitter(markdown, self.chunk_size, self.overlap, plain_levels(markdown))
        return finish(structure, splitter.split(0, len(markdown)), max_size=self.chunk_size, title=title)
