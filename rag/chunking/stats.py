"""Numbers that describe one strategy's chunks; the preview command and the dashboard share them."""

from __future__ import annotations

from statistics import median
from typing import Any, Sequence

from rag.i18n import t
from rag.chunking.base import CODE_BLOCK_SPLIT, NO_HEADING_CONTEXT, OVERSIZED, TABLE_SPLIT, TINY, Chunk

WARNING_NAMES = (CODE_BLOCK_SPLIT, TABLE_SPLIT, NO_HEADING_CONTEXT, OVERSIZED, TINY)


def summarize(chunks: Sequence[Chunk]) -> dict[str, Any]:
    """Chunk count, min/median/max body size in characters, and how many chunks carry each warning.

    Every warning name is present (0 when absent) so tables line up across strategies.
    """
    sizes = [c.chars for c in chunks]
    counts = dict.fromkeys(WARNING_NAMES, 0)
    for chunk in chunks:
        for name in chunk.warnings:
            counts[name] = counts.get(name, 0) + 1
    return {
        "chunks": len(chunks),
        "min_chars": min(sizes) if sizes else 0,
        "median_chars": median(sizes) if sizes else 0,
        "max_chars": max(sizes) if sizes else 0,
        "warnings": counts,
        "chunks_with_warnings": sum(1 for c in chunks if c.warnings),
    }


def first_line(chunk: Chunk, width: int = 72) -> str:
    """The first non-blank line of a chunk's body, shortened to `width` characters."""
    line = next((line.strip() for line in chunk.text.splitlines() if line.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"


def warnings_text(counts: dict[str, int]) -> str:
    """`table_split 2, tiny 1`, or `none`."""
    shown = [f"{name} {count}" for name, count in counts.items() if count]
    return ", ".join(shown) or t("preview.none")
