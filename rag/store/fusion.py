"""Fusing the dense and the BM25 candidates by their scores (convex combination).

RRF (the store's own fusion) reads only ranks. The convex combination reads the scores: each
branch's scores are min-max normalised over its candidates, then weighted,

    fused = weight * dense + (1 - weight) * bm25

a candidate absent from a branch counting 0 there. Pure functions; the store does the queries.
"""

from __future__ import annotations

from typing import Sequence

Scored = Sequence[tuple[str, float]]  # (point id, score), any order


def normalised(scored: Scored) -> dict[str, float]:
    """Each id's score mapped onto 0..1 over these candidates (all 1 when they tie)."""
    if not scored:
        return {}
    low = min(s for _, s in scored)
    high = max(s for _, s in scored)
    span = high - low
    return {i: (s - low) / span if span > 0 else 1.0 for i, s in scored}


def convex(dense: Scored, sparse: Scored, weight: float, limit: int) -> list[tuple[str, float]]:
    """The `limit` best ids by `weight` x normalised dense + (1 - weight) x normalised BM25, best
    first (ties: the dense order, then the id, so that a result never depends on set order)."""
    d, s = normalised(dense), normalised(sparse)
    order = {i: n for n, (i, _) in enumerate(sorted(dense, key=lambda x: -x[1]))}
    fused = {i: weight * d.get(i, 0.0) + (1.0 - weight) * s.get(i, 0.0) for i in {*d, *s}}
    ranked = sorted(fused.items(), key=lambda x: (-x[1], order.get(x[0], len(order)), x[0]))
    return ranked[:limit]
