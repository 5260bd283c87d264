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
from rag.chunking.base import OVERSIZED, Chunk, Chunker

_MARGIN = 16  # tokens kept free: the model's own prefix ("passage: ") and special tokens

__all__ = ["cap_tokens", "indexed_chunks", "window_pieces"]


def cap_tokens(chunks: Sequence[Chunk], markdown: str, count: Callable[[str], int], max_tokens: int) -> list[Chunk]:
    """`chunks` with every one over `max_tokens` (header included) cut into pieces that fit."""
    return [c for c, _ in window_pieces(chunks, markdown, count, max_tokens)]


def window_pieces(chunks: Sequence[Chunk], markdown: str, count: Callable[[str], int],
                  max_tokens: int) -> list[tuple[Chunk, int | None]]:
    """Each chunk as indexed, renumbered, with the index of the strategy's chunk the model's
    window cut it from (None: the chunk fits and is indexed as the strategy made it)."""
    out: list[tuple[Chunk, int | None]] = []
    levels = None
    for chunk in chunks:
        tokens = count(chunk.embedding_text)
        if tokens <= max_tokens or markdown[chunk.start:chunk.end] != chunk.text:
            out.append((chunk, None))  # fits, or a piece that is not a plain slice (a repeated table header)
            continue
        levels = levels or plain_levels(markdown)
        room = max(32, max_tokens - (count(chunk.header) if chunk.header else 0) - _MARGIN)
        out.extend((piece, chunk.index) for piece in _pieces(chunk, markdown, count, room, tokens, levels))
    return [(replace(c, index=i), source) for i, (c, source) in enumerate(out)]


def indexed_chunks(chunker: Chunker, markdown: str, title: str, count: Callable[[str], int] | None,
                   max_tokens: int | None) -> list[tuple[Chunk, int | None]]:
    """The chunks ingestion writes for a document, as `window_pieces` gives them: the one path
    the preview and the index share, so that what is previewed is what is indexed.

    `count` is the model's tokenizer (`estimate_tokens` for a server model, which gives none):
    a chunker sized in tokens counts with it, and a window cuts by it."""
    chunker.count = count
    chunks = chunker.chunk(markdown, title=title)
    if count is None or not max_tokens:
        return [(c, None) for c in chunks]
    return window_pieces(chunks, markdown, count, int(max_tokens))


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
