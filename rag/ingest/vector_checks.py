"""Are these vectors fit to store, and did the stored ones come back whole? (Pure: no store.)

Checked whatever the embedder: a vector the store turns into NaN would stay there looking indexed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.i18n import t
from rag.embeddings.base import vector_problem
from rag.store.points import StoredPoint

def batch_problem(vectors: Sequence[Sequence[float]], labels: Sequence[str], dimension: int) -> str | None:
    """What is wrong with the vectors an embedder returned for the chunks `labels`; None when fit."""
    if len(vectors) != len(labels):
        return t("vec.batch_count", n=len(vectors), count=len(labels))
    for label, vector in zip(labels, vectors):
        if len(vector) != dimension:
            return t("vec.batch_dimension", n=len(vector), label=label, dimension=dimension)
        problem = vector_problem(vector)
        if problem is not None:
            return t("vec.batch_problem", problem=problem, label=label)
    return None


def stored_vectors_usable(points: Sequence[StoredPoint], expected: int, dimension: int) -> bool:
    """Are the `expected` points read back all there, each with a usable vector of `dimension`?"""
    return len(points) == expected and all(
        len(p.vector or []) == dimension and vector_problem(p.vector or []) is None for p in points
    )


def sample_problem(sample: Sequence[StoredPoint], expected: int, dimension: int) -> str | None:
    """What is wrong with a sample of stored points read back, vectors included; None when sound."""
    if len(sample) != expected:
        return t("vec.unread", n=expected - len(sample), expected=expected)
    for point in sample:
        vector = point.vector or []
        if len(vector) != dimension:
            return t("vec.point_dimension", id=point.id, url=point.payload.get("url"), n=len(vector), dimension=dimension)
        problem = vector_problem(vector)
        if problem is not None:
            return t("vec.point_problem", id=point.id, url=point.payload.get("url"), problem=problem)
    return None

