"""The one Chunk type and the small base class every strategy builds on."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from rag.chunking._checks import overlap_below, positive, unit_name
from rag.chunking._measure import CHARS, TokenCount, TokenMeasure, measure_for

# Warning names are part of the contract (preview JSON, dashboard, tests).
CODE_BLOCK_SPLIT = "code_block_split"
TABLE_SPLIT = "table_split"
NO_HEADING_CONTEXT = "no_heading_context"
OVERSIZED = "oversized"
TINY = "tiny"

# A body with fewer non-blank characters than this is flagged `tiny`: too little to retrieve well.
TINY_CHARS = 50
# The section of the text before a document's first section heading (the seed articles' name;
# the same word in French and English).
INTRODUCTION = "Introduction"


@dataclass
class Chunk:
    index: int
    start: int
    end: int
    text: str  # the body: exactly markdown[start:end]
    header: str = ""  # context prefix kept apart from the body, e.g. "Article: ...\nSection: ..."
    heading_path: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # The section a citation names; the strategies that put a section in the header name the same.
    section: str = ""

    @property
    def chars(self) -> int:
        return self.end - self.start

    @property
    def embedding_text(self) -> str:
        """What is embedded: the context header, then the body."""
        return f"{self.header}\n\n{self.text}" if self.header else self.text

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["chars"] = self.chars
        return data


class Chunker(ABC):
    """A chunking strategy. Subclasses set `name` and implement `chunk`.

    `unit`: what its sizes count, "chars" (the default) or "tokens"; in tokens, `count` is the
    embedding model's tokenizer (set by whoever knows the model: rag.chunking.token_cap's
    indexed_chunks), else the documented estimate (rag.chunking._measure.CHARS_PER_TOKEN).
    """

    name: ClassVar[str]
    unit: str = CHARS
    count: TokenCount | None = None

    _words: dict[str, int] | None = None
    _words_counted_by: TokenCount | None = None

    def measure(self, markdown: str) -> TokenMeasure | None:
        """How this chunker sizes spans of `markdown` (None: in characters). Words counted for
        one document are not counted again for the next, while the tokenizer stays the same."""
        if self._words is None or self._words_counted_by != self.count:
            self._words, self._words_counted_by = {}, self.count
        return measure_for(markdown, self.unit, self.count, self._words)

    def unit_setting(self) -> dict[str, Any]:
        """{"unit": "tokens"} in tokens; nothing in characters, so that a collection built before
        the unit existed records the same settings as one built in characters today."""
        return {} if self.unit == CHARS else {"unit": self.unit}

    @abstractmethod
    def settings(self) -> dict[str, Any]:
        """The parameters this instance runs with (shown in previews and stored in the collection)."""

    @abstractmethod
    def chunk(self, markdown: str, title: str = "") -> list[Chunk]:
        """Cut `markdown` into chunks whose bodies are exact slices of it."""


class SizedChunker(Chunker):
    """A strategy set by a chunk size and an overlap (`recursive`, `markdown`).

    chunk_size: most characters (or tokens, with unit "tokens") in a chunk (default 1000).
    overlap: most characters (tokens) repeated from the previous chunk, in whole pieces (default 200).
    """

    def __init__(self, chunk_size: int = 1000, overlap: int = 200, unit: str = CHARS) -> None:
        self.chunk_size = positive(self.name, "chunk_size", chunk_size)
        self.overlap = overlap_below(self.name, overlap, "chunk_size", chunk_size)
        self.unit = unit_name(self.name, unit)

    def settings(self) -> dict[str, Any]:
        return {"chunk_size": self.chunk_size, "overlap": self.overlap, **self.unit_setting()}
