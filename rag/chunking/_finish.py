"""Turn spans into Chunks: heading path, context header and the warnings every strategy reports."""

from __future__ import annotations

from typing import Callable, Iterable

from rag.chunking._measure import TokenMeasure
from rag.chunking._structure import CODE, Structure
from rag.chunking.base import (
    CODE_BLOCK_SPLIT,
    NO_HEADING_CONTEXT,
    OVERSIZED,
    TABLE_SPLIT,
    TINY,
    INTRODUCTION,
    TINY_CHARS,
    Chunk,
)

# (body start, the chunk's section) -> context header
HeaderFor = Callable[[int, str], str]
# (body start, heading path at the body's first character) -> the chunk's section
SectionFor = Callable[[int, list[str]], str]


def section_label(path: list[str], *titles: str) -> str:
    """The section a chunk belongs to: the deepest heading in effect, or "Introduction" before
    the first section heading (no heading yet, or only the article's own title)."""
    if not path or (len(path) == 1 and path[0] in titles):
        return INTRODUCTION
    return path[-1]


TRAIL_SEPARATOR = " · "


def section_trail(structure: Structure, section: str, first: int, end: int, title: str) -> str:
    """`section`, then each section whose heading starts inside the body [first, end)."""
    names = [section]
    for offset in structure.heading_starts(first, end, (1, 2, 3, 4, 5, 6)):
        name = section_label(structure.heading_path_at(offset), title, structure.title)
        if name != names[-1]:
            names.append(name)
    return TRAIL_SEPARATOR.join(names)


def context_header(title: str, section: str) -> str:
    lines = []
    if title:
        lines.append(f"Article: {title}")
    if section:
        lines.append(f"Section: {section}")
    return "\n".join(lines)


def finish(
    structure: Structure,
    spans: Iterable[tuple[int, int]],
    *,
    max_size: int,
    title: str = "",
    header_for: HeaderFor | None = None,
    section_for: SectionFor | None = None,
    repeat_table_header: bool = False,
    name_every_section: bool = False,
    measure: TokenMeasure | None = None,
) -> list[Chunk]:
    """`name_every_section`: a chunk that holds several sections (short ones merged) names them
    all, in order ("Introduction · Purger le cache"), in its section and so in its header: a
    citation then names every section the passage quotes, not the first one only.
    `measure`: max_size counts tokens (None: characters)."""
    text = structure.text
    # Bound once: this loop runs per chunk, and these lookups are all it does besides slicing.
    first_content, path_at = structure.first_content, structure.heading_path_at
    block_around, has_heading_in = structure.block_around, structure.has_heading_in
    content_start = structure.content_start
    chunks: list[Chunk] = []
    for start, end in spans:
        first = first_content(start, end)
        if first >= end:
            continue  # whitespace only: nothing to embed
        path = path_at(first)
        section = section_for(start, path) if section_for else section_label(path, title, structure.title)
        if name_every_section:
            section = section_trail(structure, section, first, end, title)
        header = header_for(start, section) if header_for else ""
        warnings: list[str] = []
        block = block_around(start)
        if block is not None:
            if block.kind == CODE:
                warnings.append(CODE_BLOCK_SPLIT)
            else:
                warnings.append(TABLE_SPLIT)
                if repeat_table_header:
                    # The body must stay a slice, so the table's header rows travel in the header.
                    rows = text[block.start : block.header_end]
                    header = f"{header}\n\n{rows}" if header else rows
        block = block_around(end)
        # A table cut at the end keeps its header row: `table_split` marks the pieces without it.
        if block is not None and block.kind == CODE and CODE_BLOCK_SPLIT not in warnings:
            warnings.append(CODE_BLOCK_SPLIT)
        if not header and start > content_start and not has_heading_in(start, end):
            warnings.append(NO_HEADING_CONTEXT)
        if (end - start > max_size) if measure is None else not measure.fits(start, end, max_size):
            warnings.append(OVERSIZED)
        # The body starts with content at `first`; when it also ends with content, its stripped
        # length is end - first and no stripped copy is needed.
        stripped = end - first if not text[end - 1].isspace() else len(text[first:end].rstrip())
        if stripped < TINY_CHARS:
            warnings.append(TINY)
        chunks.append(Chunk(len(chunks), start, end, text[start:end], header, path, warnings, section))
    return chunks
