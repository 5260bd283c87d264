"""Turn spans into Chunks: heading path, context header and the warnings every strategy reports."""

from __future__ import annotations

from typing import Callable, Iterable

from rag.chunking._structure import CODE, TABLE, Structure
from rag.chunking.base import (
    CODE_BLOCK_SPLIT,
    NO_HEADING_CONTEXT,
    OVERSIZED,
    TABLE_SPLIT,
    TINY,
    TINY_CHARS,
    Chunk,
)

# (body start, heading path at the body's first character) -> context header
HeaderFor = Callable[[int, list[str]], str]


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
    header_for: HeaderFor | None = None,
    repeat_table_header: bool = False,
) -> list[Chunk]:
    text = structure.text
    chunks: list[Chunk] = []
    for start, end in spans:
        first = structure.first_content(start, end)
        if first >= end:
            continue  # whitespace only: nothing to embed
        path = structure.heading_path_at(first)
        header = header_for(start, path) if header_for else ""
        warnings: list[str] = []
        for offset in (start, end):
            block = structure.block_around(offset)
            if block is None:
                continue
            if block.kind == TABLE and offset == end:
                continue  # this piece keeps the header row: `table_split` marks the pieces without it
            name = CODE_BLOCK_SPLIT if block.kind == CODE else TABLE_SPLIT
            if name not in warnings:
                warnings.append(name)
            if block.kind == TABLE and offset == start and repeat_table_header:
                # The body must stay a slice, so the table's header rows travel in the header.
                rows = text[block.start : block.header_end]
                header = f"{header}\n\n{rows}" if header else rows
        if not header and start > structure.content_start and not structure.has_heading_in(start, end):
            warnings.append(NO_HEADING_CONTEXT)
        if end - start > max_size:
            warnings.append(OVERSIZED)
        body = text[start:end]
        if len(body.strip()) < TINY_CHARS:
            warnings.append(TINY)
        chunks.append(Chunk(len(chunks), start, end, body, header, path, warnings))
    return chunks
