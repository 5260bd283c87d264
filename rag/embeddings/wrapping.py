"""An embedder around another one (shipped vectors replayed, vectors recorded, cached or timed):
what ingestion asks of an embedder besides vectors is the inner model's."""

from __future__ import annotations

from typing import Callable

from rag.embeddings.base import Embedder


class WrappingEmbedder(Embedder):
    """The inner model's id, window and tokenizer (ingestion cuts chunks to them,
    rag.embeddings.base.tokenizer_and_window) and description; the vectors are the subclass's."""

    def __init__(self, inner: Embedder, expected_dimension: int | None = None,
                 expected_model: str | None = None) -> None:
        super().__init__(expected_dimension, expected_model)
        self.inner = inner
        self.model_id = inner.model_id

    @property
    def max_tokens(self) -> int | None:
        return getattr(self.inner, "max_tokens", None)

    @property
    def token_count(self) -> Callable[[str], int] | None:  # the inner model's tokenizer, when it has one
        return getattr(self.inner, "token_count", None)

    def describe(self) -> str:
        return self.inner.describe()
