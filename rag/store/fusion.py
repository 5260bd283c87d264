"""Fusing the dense and the BM25 candidates: by their scores (convex combination), by their ranks
(RRF with any constant), and by documents.

RRF (the store's own fusion) reads only ranks. The convex combination reads the scores: each
branch's scores are min-max normalised over its candidates, then weighted,

    fused = weight * dense + (1 - weight) * bm25

a candidate absent from a branch counting 0 there. Pure functions; the store does the queries.
"""

from __future__ import annotations

from typing import Callable, Sequence

Scored = Sequence[tuple[str, float]]  # (point id, score), any order


def _best_first(scored: tuple[str, float]) -> tuple[float, str]:
    # Equal scores by id: a store returns them in the order it holds its points, which the
    # points a reader may not see change.
    return -scored[1], scored[0]


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
    order = {i: n for n, (i, _) in enumerate(sorted(dense, key=_best_first))}
    fused = {i: weight * d.get(i, 0.0) + (1.0 - weight) * s.get(i, 0.0) for i in {*d, *s}}
    ranked = sorted(fused.items(), key=lambda x: (-x[1], order.get(x[0], len(order)), x[0]))
    return ranked[:limit]


def rrf(dense: Scored, sparse: Scored, k: float, limit: int | None = None) -> list[tuple[str, float]]:
    """Reciprocal rank fusion computed here, with any constant `k`: each id scores the sum of
    1 / (k + rank) over the branches that hold it, rank 0 first (Qdrant's formula, whose own
    fusion has k fixed at 2 on the server API). A branch's equal scores rank by id; equal fused
    scores: the dense order, then the id."""
    fused: dict[str, float] = {}
    for branch in (dense, sparse):
        for rank, (i, _) in enumerate(sorted(branch, key=_best_first)):
            fused[i] = fused.get(i, 0.0) + 1.0 / (k + rank)
    order = {i: n for n, (i, _) in enumerate(sorted(dense, key=_best_first))}
    ranked = sorted(fused.items(), key=lambda x: (-x[1], order.get(x[0], len(order)), x[0]))
    return ranked if limit is None else ranked[:limit]


def by_documents(fused: Scored, dense: Scored, sparse: Scored, document: dict[str, str],
                 fuse: Callable[[Scored, Scored], list[tuple[str, float]]]) -> list[tuple[str, float]]:
    """The fused chunks ordered by their document's fused score first: each branch ranks the
    documents by their best chunk, `fuse` fuses those two lists, and a document's chunks follow
    in their own fused order. A document strong in one branch through one chunk and in the other
    through another is no longer split between two middling ranks."""

    def best(branch: Scored) -> list[tuple[str, float]]:
        top: dict[str, float] = {}
        for i, s in branch:
            url = document.get(i)
            if url is not None and s > top.get(url, float("-inf")):
                top[url] = s
        return list(top.items())

    rank = {url: n for n, (url, _) in enumerate(fuse(best(dense), best(sparse)))}
    within = {i: n for n, (i, _) in enumerate(fused)}
    return sorted(fused, key=lambda x: (rank.get(document.get(x[0], ""), len(rank)), within[x[0]]))
