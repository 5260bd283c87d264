"""BM25 statistics that count only what the reader may see.

Qdrant computes a sparse query's IDF over the whole collection (Modifier.Idf), the documents the
reader may not see included: whether staff documents use a word changed the order of two public
passages, and told a reader something of documents they cannot open. So, for a reader who does not
see everything, each query term's weight is rescaled from the collection's IDF to the IDF among
the points the reader may see, with the same formula:

    idf = ln(1 + (N - df + 0.5) / (df + 0.5))

N and df counted under the reader's access filter (df: the points holding the term, found by the
sparse index itself). The collection's IDF for the term is read back from the store (the score of
a one-term query divided by the stored weight it multiplied), so the rescaling is exact whatever
Qdrant's own counts are. The gate counts its document frequencies under the same filter
(rag.answer.gate.document_frequencies).
"""

from __future__ import annotations

from typing import Any, Sequence

from rag.store.filters import readable_by
from rag.store.points import Sparse
from rag.textnorm import idf  # BM25's IDF, Qdrant's formula


def _collection_idf(backend: Any, name: str, index: int) -> float | None:
    """The IDF the store applies to term `index`: a one-term query's score over the weight it hit."""
    found = backend.sparse_search(name, ([index], [1.0]), 1, None, with_sparse=True)
    if not found or found[0][2] is None:
        return None
    _, score, (indices, values) = found[0]
    stored = dict(zip(indices, values)).get(index)
    return score / stored if stored else None


def reader_sparse(backend: Any, name: str, sparse: Sparse, groups: Sequence[str] | None) -> Sparse:
    """`sparse` (a query) with each term's weight rescaled to the IDF among what readers of
    `groups` may see; unchanged for a reader who sees every point (None: the CLI, an editor)."""
    if groups is None or not sparse or not sparse[0]:
        return sparse
    where = readable_by(groups)
    seen, every = backend.count(name, where), backend.count(name, None)
    if seen == every:
        return sparse  # the collection's statistics are the reader's
    indices: list[int] = []
    values: list[float] = []
    for index, weight in zip(*sparse):
        df = len(backend.sparse_search(name, ([index], [1.0]), seen, where)) if seen else 0
        applied = _collection_idf(backend, name, index) if df else None
        if not df or not applied:
            continue  # no point the reader may see holds it: it weighs nothing for them
        indices.append(index)
        values.append(weight * idf(df, seen) / applied)
    return indices, values
