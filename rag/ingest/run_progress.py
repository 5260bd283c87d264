"""What a run tells its progress callback: documents done of the total (when the source knows
it), chunks embedded and how fast, the time left, the chat model's cost of the contexts."""

from __future__ import annotations

import time
from collections.abc import Sized
from typing import Any

from rag.documents import WARNING, Problem
from rag.ingest.embedding_batches import EmbedTally
from rag.ingest.report import IngestProgress, ProgressCallback


class RunProgress:
    def __init__(self, items: Any, callback: ProgressCallback | None) -> None:
        self.items = items
        self.callback = callback
        self.started = time.monotonic()
        self._sized_total: int | None = None

    def total(self) -> int | None:
        """The documents the source holds: counted once in a list, else as the source says so far."""
        if isinstance(self.items, Sized):
            if self._sized_total is None:
                # Warnings accompany a document; they are not documents themselves.
                self._sized_total = sum(
                    1 for x in self.items if not (isinstance(x, Problem) and x.level == WARNING)
                )
            return self._sized_total
        total = getattr(self.items, "total", None)
        return total if isinstance(total, int) else None

    def tell(self, docs_done: int, embedded: EmbedTally, current: str, phase: str, outcome: str,
             enrich_stats: Any) -> None:
        if self.callback is None:
            return
        elapsed = time.monotonic() - self.started
        total = self.total()
        eta = None
        if total is not None and docs_done:
            eta = max(0.0, (total - docs_done) * elapsed / docs_done)
        self.callback(
            IngestProgress(docs_done, total, embedded.chunks, embedded.rate, eta, current, phase, outcome,
                           enrich_stats.prompt_tokens + enrich_stats.completion_tokens, enrich_stats.seconds)
        )
