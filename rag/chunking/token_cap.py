"""No chunk longer than the embedding model's window, counted in the model's own tokens.

A chunk the model cannot read whole is embedded as the average of its windows: a diluted vector
that retrieves worse. Where the model has a tokenizer (the bundled one: `token_count`), such a
chunk is cut again, between paragraphs, lines or sentences, into pieces that fit; each piece keeps
the chunk's context header and heading path, and its body stays an exact slice of the document.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from rag.chunking._split import RecursiveSplitter, plain_levels
from rag.chunking.base import OVERSIZED, Chunk

_MARGIN = 16  # tokens kept free: the model's own prefix ("passage: ") and special tokens


def cap_tokens(chunks: Sequence[Chunk], markdown: str, count: Callable[[str], int], max_tokens: int) -> list[Chunk]:
    """`chunks` with every one over `max_tokens` (header included) cut into pieces that fit."""
    out: list[Chunk] = []
    levels = None
    for chunk in chunks:
        tokens = count(chunk.embedding_text)
        if tokens <= max_tokens or markdown[chunk.start:chunk.end] != chunk.text:
            out.append(chunk)  # fits, or a piece that is not a plain slice (a repeated table header)
            continue
        levels = levels or plain_levels(markdown)
        room = max(32, max_tokens - (count(chunk.header) if chunk.header else 0) - _MARGIN)
        out.extend(_pieces(chunk, markdown, count, room, tokens, levels))
    return [replace(c, index=i) for i, c in enumerate(out)]


def _pieces(chunk: Chunk, markdown: str, count: Callable[[str], int], room: int, tokens: int,
            levels: list) -> list[Chunk]:
    size = max(50, int(len(chunk.text) * room / max(1, tokens) * 0.9))
    while True:
        spans = RecursiveSplitter(markdown, size, 0, levels).split(chunk.start, chunk.end)
        bodies = [markdown[a:b] for a, b in spans]
        if size <= 50 or all(count(b) <= room for b in bodies):
            break
        size = int(size * 0.8)  # dense text (code, identifiers): more tokens per character
    warnings = [w for w in chunk.warnings if w != OVERSIZED]
    return [replace(chunk, start=a, end=b, text=body, warnings=list(warnings))
            for (a, b), body in zip(spans, bodies)]
