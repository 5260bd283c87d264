"""A document's chunks as ingestion writes them: cut to the embedding model's window, in its tokens.

The cut itself is rag.chunking.token_cap's (the one path the preview shares). What is decided here
is what the run says about it before anything of the document is written: where a server model's
window was cut by the estimate, and where a piece still stands over it.
"""

from __future__ import annotations

from typing import Callable

from rag.chunking._measure import estimate_tokens
from rag.chunking.base import Chunk, Chunker
from rag.chunking.token_cap import indexed_chunks
from rag.documents import Document
from rag.i18n import t

Window = tuple[Callable[[str], int], int | None]  # the model's token count and its window (None: no cut)


def window_chunks(chunker: Chunker, doc: Document, window: Window) -> tuple[list[Chunk], list[str]]:
    """`doc`'s chunks cut to `window` (rag.embeddings.base.tokenizer_and_window), and the warnings
    the cut gives. A RagError of the chunker propagates."""
    pieces = indexed_chunks(chunker, doc.markdown, doc.title, *window)
    return [c for c, _ in pieces], window_warnings(doc.url, pieces, window)


def window_warnings(url: str, pieces: list[tuple[Chunk, int | None]], window: Window) -> list[str]:
    """What the reader is told of `pieces` (rag.chunking.token_cap.window_pieces) cut to `window`:
    only where the count was the estimate (the bundled model's own cut is exact, and the preview
    shows it)."""
    count, max_tokens = window
    warnings: list[str] = []
    if count is not estimate_tokens:
        return warnings
    cut_from = {source for _, source in pieces if source is not None}
    if cut_from:
        warnings.append(t("chunk.window_cut", url=url, chunks=len(cut_from), n=max_tokens,
                          pieces=sum(1 for _, source in pieces if source is not None)))
    if max_tokens:
        # A header alone near the window (a small window, a table's repeated header rows)
        # leaves a piece over it: the server would truncate it, so it is said now.
        over = sum(1 for c, _ in pieces if estimate_tokens(c.embedding_text) > max_tokens)
        if over:
            warnings.append(t("chunk.window_over", url=url, chunks=over, n=max_tokens))
    return warnings
