"""Are these vectors fit to store, and did the stored ones come back whole? (Pure: no store.)

Checked whatever the embedder: a vector the store turns into NaN would stay there looking indexed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.embeddings.base import vector_problem
from rag.index.points import StoredPoint

def batch_problem(vectors: Sequence[Sequence[float]], labels: Sequence[str], dimension: int) -> str | None:
    """What is wrong with the vectors an embedder returned for the chunks `labels`; None when fit."""
    if len(vectors) != len(labels):
        return f"the embedding model returned {len(vectors)} vectors for {len(labels)} chunks"
    for label, vector in zip(labels, vectors):
        if len(vector) != dimension:
            return (
                f"the embedding model returned {len(vector)} dimensions for {label}, "
                f"the collection has {dimension}"
            )
        problem = vector_problem(vector)
        if problem is not None:
            return f"the embedding model returned {problem} for {label}: not stored"
    return None


def stored_vectors_usable(points: Sequence[StoredPoint], expected: int, dimension: int) -> bool:
    """Are the `expected` points read back all there, each with a usable vector of `dimension`?"""
    return len(points) == expected and all(
        len(p.vector or []) == dimension and vector_problem(p.vector or []) is None for p in points
    )


def sample_problem(sample: Sequence[StoredPoint], expected: int, dimension: int) -> str | None:
    """What is wrong with a sample of stored points read back, vectors included; None when sound."""
    if len(sample) != expected:
        return f"{expected - len(sample)} of {expected} sampled points could not be read back"
    for point in sample:
        vector = point.vector or []
        if len(vector) != dimension:
            return f"point {point.id} ({point.payload.get('url')}) has {len(vector)} dimensions, expected {dimension}"
        problem = vector_problem(vector)
        if problem is not None:
            return (
                f"point {point.id} ({point.payload.get('url')}) has an unusable vector ({problem}); "
                "the next run re-embeds that document"
            )
    return None

