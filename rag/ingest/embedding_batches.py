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

EMBED_BATCH = 16  # chunks per embedding call


@dataclass
class EmbedTally:
    """What a run embedded so far: chunks, and the seconds the embedder took for them."""

    chunks: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.chunks / self.seconds if self.seconds > 0 else 0.0


def embed_chunks(embedder: Any, doc: Document, chunks: list[Chunk], texts: list[str], tally: EmbedTally,
                 before_batch: Callable[[], None], warn: Callable[[str], None]) -> list[list[float]]:
    """The vectors of `texts` (the embedded text of each of `chunks`). `before_batch` is called
    before each call of the embedder, `warn` with each chunk it cut at its window. Raises
    EmbeddingError when a batch's vectors are unfit (the document is then not written)."""
    dimension = embedder.dimension
    vectors: list[list[float]] = []
    for start in range(0, len(chunks), EMBED_BATCH):
        before_batch()
        batch = chunks[start : start + EMBED_BATCH]
        labels = [f"{doc.url}#{c.index}" for c in batch]
        began = time.monotonic()
        got = embedder.embed_documents(texts[start : start + EMBED_BATCH], labels=labels)
        tally.seconds += time.monotonic() - began
        truncated = getattr(embedder, "last_truncated", None) or []
        for label in truncated:
            warn(t("doc.about", item=label, note=over_limit_note()))
        problem = batch_problem(got, labels, dimension)
        if problem is not None:
            raise EmbeddingError(problem)
        vectors.extend(got)
        tally.chunks += len(batch)
    return vectors
