"""The Embedder interface and the checks every model's answer goes through."""

from __future__ import annotations

import math
import threading
from abc import ABC, abstractmethod
from typing import Callable, Sequence

import numpy as np

from rag.i18n import t
from rag.chunking._measure import estimate_tokens
from rag.errors import EmbeddingError

# A short text whose only job is to reveal the vector size the model really returns.
PROBE_TEXT = "dimension probe"


def vector_problem(values: Sequence[float]) -> str | None:
    """Why a vector cannot be stored, or None.

    Qdrant keeps 32-bit floats and normalises for cosine: a value like 1e308 is finite here but
    becomes infinite there, and the stored point is NaN. So the check is made the store's way.
    """
    array = np.asarray(values, dtype=np.float64)
    if array.size == 0:
        return t("vec.empty")
    if not np.isfinite(array).all():
        return t("vec.nan")
    if not array.any():
        return t("vec.zero")
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        stored = array.astype(np.float32)
        norm = np.sqrt(np.dot(stored, stored))
    if not (np.isfinite(stored).all() and np.isfinite(norm) and norm > 0):
        return t("vec.float32")
    return None


def tokenizer_and_window(embedder: object) -> tuple[Callable[[str], int], int | None]:
    """How ingestion and the preview count an embedder's tokens and the window they cut chunks
    to: its own tokenizer (the bundled model's), else the documented estimate
    (`estimate_tokens`); its window, where known (the bundled model's cap, a server's own word)."""
    count = getattr(embedder, "token_count", None) or estimate_tokens
    window = getattr(embedder, "max_tokens", None)
    return count, (int(window) if window else None)


def label_for(labels: Sequence[str] | None, i: int) -> str:
    """How an input is named in errors: the caller's label (e.g. "url#3"), else its position."""
    if labels is not None and i < len(labels) and labels[i]:
        return labels[i]
    return t("vec.input", i=i)


class Embedder(ABC):
    """Turns texts into dense vectors. One instance per model."""

    model_id: str = ""

    def __init__(self, expected_dimension: int | None = None, expected_model: str | None = None) -> None:
        # What the collection was built with, so that a mismatch can name both models.
        self.expected_dimension = expected_dimension
        self.expected_model = expected_model
        self._dimension: int | None = None
        self._dimension_lock = threading.Lock()
        # Labels of the inputs of the last embed_documents call that the model could not read
        # whole, for ingestion to report as warnings (a server that cannot fails instead).
        self.last_over_limit: list[str] = []

    @property
    def last_truncated(self) -> list[str]:
        """Alias of last_over_limit (the embedded model averages windows rather than cutting)."""
        return self.last_over_limit

    @property
    def dimension(self) -> int:
        """The vector size measured from a real answer (a model card can be wrong)."""
        if self._dimension is None:
            with self._dimension_lock:
                if self._dimension is None:
                    self.embed_query(PROBE_TEXT)
        assert self._dimension is not None
        return self._dimension

    @abstractmethod
    def embed_documents(self, texts: list[str], labels: list[str] | None = None) -> list[list[float]]:
        """One vector per text, in order. `labels` name the texts in errors."""

    @abstractmethod
    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query (with the model's query prefix, if it has one)."""

    @abstractmethod
    def describe(self) -> str:
        """One sentence for the UI and the CLI: which model, where."""

    def check_vectors(
        self,
        vectors: Sequence[Sequence[float]],
        count: int,
        labels: Sequence[str] | None = None,
        offset: int = 0,
    ) -> list[list[float]]:
        """Reject answers that would silently poison a collection.

        `offset` is the position of vectors[0] among the caller's labels (batches).
        """
        if len(vectors) != count:
            first, last = label_for(labels, offset), label_for(labels, offset + count - 1)
            raise EmbeddingError(t("emb.count", model=repr(self.model_id), n=len(vectors), count=count,
                                   first=first, last=last))
        checked: list[list[float]] = []
        for i, vector in enumerate(vectors):
            label = label_for(labels, offset + i)
            values = [float(x) for x in vector]
            if not values:
                raise EmbeddingError(t("emb.empty", model=repr(self.model_id), label=label))
            if not all(math.isfinite(x) for x in values):
                raise EmbeddingError(t("emb.nan", model=repr(self.model_id), label=label))
            if not any(values):
                raise EmbeddingError(t("emb.zero", model=repr(self.model_id), label=label))
            problem = vector_problem(values)
            if problem is not None:
                raise EmbeddingError(t("emb.problem", model=repr(self.model_id), problem=problem, label=label))
            self._check_dimension(len(values), label)
            checked.append(values)
        return checked

    def _check_dimension(self, size: int, label: str) -> None:
        if self.expected_dimension is not None and size != self.expected_dimension:
            if self.expected_model and self.expected_model != self.model_id:
                raise EmbeddingError(t("emb.other_model", expected=self.expected_model,
                                       expected_dim=self.expected_dimension, model=self.model_id, size=size,
                                       label=label)
                )
            raise EmbeddingError(t("emb.dimension", model=repr(self.model_id), size=size, label=label,
                                   expected=self.expected_dimension))
        if self._dimension is None:
            self._dimension = size
        elif size != self._dimension:
            raise EmbeddingError(t("emb.size_changed", model=repr(self.model_id), old=self._dimension, size=size,
                                   label=label))
