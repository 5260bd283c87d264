"""The Embedder interface and the checks every model's answer goes through."""

from __future__ import annotations

import math
import threading
from abc import ABC, abstractmethod
from typing import Sequence

import numpy as np

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
        return "an empty vector"
    if not np.isfinite(array).all():
        return "NaN or infinite values"
    if not array.any():
        return "an all-zero vector"
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        stored = array.astype(np.float32)
        norm = np.sqrt(np.dot(stored, stored))
    if not (np.isfinite(stored).all() and np.isfinite(norm) and norm > 0):
        return "values too large or too small for 32-bit floats (they would be stored as infinite or NaN)"
    return None


def label_for(labels: Sequence[str] | None, i: int) -> str:
    """How an input is named in errors: the caller's label (e.g. "url#3"), else its position."""
    if labels is not None and i < len(labels) and labels[i]:
        return labels[i]
    return f"input #{i}"


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
            raise EmbeddingError(
                f"The embedding model {self.model_id!r} returned {len(vectors)} vectors for {count} "
                f"texts ({first} .. {last}): the server is misbehaving; restart it or try another model."
            )
        checked: list[list[float]] = []
        for i, vector in enumerate(vectors):
            label = label_for(labels, offset + i)
            values = [float(x) for x in vector]
            if not values:
                raise EmbeddingError(
                    f"The embedding model {self.model_id!r} returned an empty vector for {label}."
                )
            if not all(math.isfinite(x) for x in values):
                raise EmbeddingError(
                    f"The embedding model {self.model_id!r} returned NaN or infinite values for {label}: "
                    "the model is broken or misconfigured; reload it or use another embedding model."
                )
            if not any(values):
                raise EmbeddingError(
                    f"The embedding model {self.model_id!r} returned an all-zero vector for {label}: "
                    "check that the loaded model is an embedding model and that the server answers floats; "
                    "reload the model or use another one."
                )
            problem = vector_problem(values)
            if problem is not None:
                raise EmbeddingError(
                    f"The embedding model {self.model_id!r} returned {problem} for {label}: the model or "
                    "server is broken or misconfigured; reload it or use another embedding model."
                )
            self._check_dimension(len(values), label)
            checked.append(values)
        return checked

    def _check_dimension(self, size: int, label: str) -> None:
        if self.expected_dimension is not None and size != self.expected_dimension:
            if self.expected_model and self.expected_model != self.model_id:
                raise EmbeddingError(
                    f"The collection was built with the embedding model {self.expected_model} "
                    f"({self.expected_dimension} dimensions), but the current embedding model is "
                    f"{self.model_id} ({size} dimensions, measured on {label}). Vectors of two models "
                    "cannot be compared: use the original model (RAG_EMBED_MODEL), re-index into a new "
                    "collection (--collection NAME), or rebuild this one with --full."
                )
            raise EmbeddingError(
                f"The embedding model {self.model_id!r} returned {size} dimensions for {label}, but the "
                f"collection expects {self.expected_dimension}: it was built with another model or "
                "setting; use that model, or re-ingest into a new collection."
            )
        if self._dimension is None:
            self._dimension = size
        elif size != self._dimension:
            raise EmbeddingError(
                f"The embedding model {self.model_id!r} changed its vector size from {self._dimension} "
                f"to {size} (at {label}): another model was probably loaded on the server meanwhile; "
                "load the same model again and re-run."
            )
