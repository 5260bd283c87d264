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
             enrich_stats: Any, passages: tuple[int, int] = (0, 0)) -> None:
        """`passages`: the current document's passages embedded so far, of its total."""
        if self.callback is None:
            return
        elapsed = time.monotonic() - self.started
        total = self.total()
        self.callback(
            IngestProgress(docs_done, total, embedded.chunks, embedded.rate,
                           time_left(elapsed, docs_done, total, passages, embedded.rate), current, phase, outcome,
                           enrich_stats.prompt_tokens + enrich_stats.completion_tokens, enrich_stats.seconds,
                           passages[0], passages[1])
        )


def time_left(elapsed: float, docs_done: int, docs_total: int | None, passages: tuple[int, int],
              rate: float) -> float | None:
    """Seconds left, when they can be told: the current document's passages left at the
    embedding rate so far, then each remaining document at the time a document took so far
    (the current one's projected time while none is done). None before anything is measured."""
    done, of = passages
    within = (of - done) / rate if of and rate > 0 else None
    if docs_total is None:
        return within
    others = max(0, docs_total - docs_done - (1 if of else 0))
    if docs_done:
        per_document = elapsed / docs_done
    elif within is not None:
        per_document = elapsed + within  # the first document's whole time, projected
    else:
        return None
    return max(0.0, (within or 0.0) + others * per_document)
