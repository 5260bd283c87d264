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

EMBED_BATCH = 16  # chunks per embedding call, at most
FIRST_BATCH = 2  # a document's first call, before the rate is known
# A call every few seconds at the rate measured so far: the bar moves and the time left is known
# after a few passages, not after 16 (half a minute on a busy machine), while a fast server still
# gets full batches.
_SECONDS_PER_CALL = 2.0


def batch_size(rate: float) -> int:
    """The chunks of the next embedding call, given the chunks embedded a second so far (0: unknown)."""
    if rate <= 0:
        return FIRST_BATCH
    return max(1, min(EMBED_BATCH, round(rate * _SECONDS_PER_CALL)))


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
    start = 0
    while start < len(chunks):
        progress(start)
        end = min(len(chunks), start + batch_size(tally.rate))
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
        start = end
    progress(len(chunks))
    return vectors
