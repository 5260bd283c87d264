"""Numbers that describe one strategy's chunks; the preview command and the dashboard share them."""

from __future__ import annotations

from statistics import median
from typing import Any, Sequence

from rag.i18n import t, tn
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


def header_repeated(chunk: Chunk) -> bool:
    """A piece of a cut table whose header rows travel with it (the strategies that repeat them
    put them in the chunk's header, which is indexed with the body)."""
    return TABLE_SPLIT in chunk.warnings and any(line.lstrip().startswith("|") for line in chunk.header.splitlines())


def warning_word(name: str, chunk: Chunk) -> str:
    """One chunk's warning in a few words ("table without header", "no heading")."""
    if name == TABLE_SPLIT and header_repeated(chunk):
        return t("wshort.table_split_repeated")
    return t(f"wshort.{name}") if name in WARNING_NAMES else name


def warning_sentences(chunks: Sequence[Chunk]) -> list[str]:
    """One sentence a kind of warning, with its count ("2 chunks cut a code block: ..."); the
    pieces of a cut table that repeat its header are said to, not to lack it."""
    counts = {name: n for name, n in summarize(chunks)["warnings"].items() if n}
    repeated = sum(1 for c in chunks if header_repeated(c))
    lines = [_sentence(name, n - repeated if name == TABLE_SPLIT else n) for name, n in counts.items()
             if not (name == TABLE_SPLIT and repeated == n)]
    if repeated:
        lines.append(tn("warn.table_split_repeated", repeated))
    return lines


def _sentence(name: str, n: int) -> str:
    return tn(f"warn.{name}", n) if name in WARNING_NAMES else tn("warn.other", n, name=name)


def warnings_text(chunks: Sequence[Chunk]) -> str:
    """The warnings of one strategy's chunks in sentences ("1 chunk with no heading: ..."), or `none`."""
    return "; ".join(warning_sentences(chunks)) or t("preview.none")
