"""`sections_min_max`: sections at headings 1 to 3, small ones merged, long ones cut at paragraphs."""

from __future__ import annotations

from typing import Any

from rag.i18n import t
from rag.chunking._checks import positive, unit_name
from rag.chunking._measure import CHARS
from rag.chunking._finish import finish
from rag.chunking._split import RecursiveSplitter, plain_levels
from rag.chunking._structure import Structure
from rag.chunking.base import Chunk, Chunker
from rag.errors import ConfigError


class SectionsMinMaxChunker(Chunker):
    """Split before each heading of level 1 to 3 (never one inside a code block).

    min_size (default 400): a shorter section joins the next one while the whole stays within
    max_size (default 1000). A section over max_size is cut between paragraphs (then lines,
    sentences, words if a paragraph alone is too long), never inside a code block or table that
    fits; every piece after the first repeats the section's heading line in its header, since
    the body must stay an exact slice of the document. No overlap: pieces start at a boundary.
    Sizes count characters, or tokens with unit "tokens".
    """

    name = "sections_min_max"

    def __init__(self, min_size: int = 400, max_size: int = 1000, unit: str = CHARS) -> None:
        self.min_size = positive(self.name, "min_size", min_size)
        self.max_size = positive(self.name, "max_size", max_size)
        if min_size > max_size:
            raise ConfigError(t("chunk.min_max", strategy=self.name, min=min_size, max=max_size))
        self.unit = unit_name(self.name, unit)

    def settings(self) -> dict[str, Any]:
        return {"min_size": self.min_size, "max_size": self.max_size, **self.unit_setting()}

    def chunk(self, markdown: str, title: str = "") -> list[Chunk]:
        structure = Structure(markdown)
        headings = {h.start: h for h in structure.headings_of((1, 2, 3))}
        bounds = sorted({0, len(markdown), *headings})
        measure = self.measure(markdown)
        splitter = RecursiveSplitter(markdown, self.max_size, 0, plain_levels(markdown), structure, measure)
        max_size, min_size = self.max_size, self.min_size
        if measure is None:
            def fits(a: int, b: int) -> bool:
                return b - a <= max_size

            def long_enough(a: int, b: int) -> bool:
                return b - a >= min_size
        else:
            def fits(a: int, b: int) -> bool:
                return measure.fits(a, b, max_size)

            def long_enough(a: int, b: int) -> bool:
                return measure.size(a, b) >= min_size
        spans: list[tuple[int, int]] = []
        repeated: dict[int, str] = {}  # piece start -> heading line it repeats
        pending: tuple[int, int] | None = None  # small sections waiting to be joined

        for start, end in zip(bounds, bounds[1:]):
            if fits(start, end):
                if pending and not fits(pending[0], end):
                    spans.append(pending)
                    pending = None
                pending = (pending[0] if pending else start, end)
                if long_enough(pending[0], pending[1]):
                    spans.append(pending)
                    pending = None
                continue
            if pending:
                spans.append(pending)
                pending = None
            heading = headings.get(start)
            for i, piece in enumerate(splitter.split(start, end)):
                spans.append(piece)
                if i and heading:
                    repeated[piece[0]] = heading.line
        if pending:
            spans.append(pending)
        return finish(
            structure,
            spans,
            max_size=self.max_size,
            title=title,
            header_for=lambda start, _section: repeated.get(start, ""),
            repeat_table_header=True,
            measure=measure,
        )
