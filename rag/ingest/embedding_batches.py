"""A document's chunks embedded in batches (progress moves within a long document), each batch's
vectors checked before they are kept (rag.ingest.vector_checks)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from rag.chunking.base import Chunk
from rag.documents import Document
from rag.embeddings.embedded import over_limit_note
from rag.errors import EmbeddingError
from rag.i18n import t
from rag.ingest.vector_checks import batch_problem

EMBED_BATCH = 16  # chunks per embedding call, once the run is under way
# The first calls of a document are smaller: the bar moves and the rate (hence the time left) is
# known after a few passages, not after the first 16 (a minute on a slow machine).
_FIRST_BATCHES = (4, 8)


def batch_bounds(count: int) -> list[tuple[int, int]]:
    """(start, end) of each embedding call for `count` chunks: 4, 8, then 16 at a time."""
    bounds, start = [], 0
    sizes = iter(_FIRST_BATCHES)
    while start < count:
        end = min(count, start + next(sizes, EMBED_BATCH))
        bounds.append((start, end))
        start = end
    return bounds


@dataclass
class EmbedTally:
    """What a run embedded so far: chunks, and the seconds the embedder took for them."""

    chunks: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.chunks / self.seconds if self.seconds > 0 else 0.0


def embed_chunks(embedder: Any, doc: Document, chunks: list[Chunk], texts: list[str], tally: EmbedTally,
                 progress: Callable[[int], None], warn: Callable[[str], None]) -> list[list[float]]:
    """The vectors of `texts` (the embedded text of each of `chunks`). `progress` is called with
    the number of chunks embedded so far before each call of the embedder and once at the end,
    `warn` with each chunk it cut at its window. Raises EmbeddingError when a batch's vectors are
    unfit (the document is then not written)."""
    dimension = embedder.dimension
    vectors: list[list[float]] = []
    for start, end in batch_bounds(len(chunks)):
        progress(start)
        batch = chunks[start:end]
        labels = [f"{doc.url}#{c.index}" for c in batch]
        began = time.monotonic()
        got = embedder.embed_documents(texts[start:end], labels=labels)
        tally.seconds += time.monotonic() - began
        truncated = getattr(embedder, "last_truncated", None) or []
        for label in truncated:
            warn(t("doc.about", item=label, note=over_limit_note()))
        problem = batch_problem(got, labels, dimension)
        if problem is not None:
            raise EmbeddingError(problem)
        vectors.extend(got)
        tally.chunks += len(batch)
    progress(len(chunks))
    return vectors
