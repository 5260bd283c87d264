"""What the store layer reads and writes, the same for every backend: points, hits, ids."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, UTC
from typing import Any

DENSE = "dense"
SPARSE = "bm25"
DISTANCE = "Cosine"
# Filtered on by every query (access) and every re-ingest (url): indexed from creation.
INDEXED_FIELDS = ("url", "access", "terms")  # terms: the answerability gate counts chunks by term
INDEX_KINDS = ("keyword", "integer", "float", "bool")  # payload index types both backends create
METADATA_KEYS = (
    "embedding_model", "dimension", "distance", "strategy", "chunk_settings", "threshold", "created", "updated",
)

Sparse = tuple[list[int], list[float]]


def point_id(url: str, index: int) -> str:
    """Deterministic point id of chunk `index` of the document at `url`."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{url}#{index}"))


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def shown_time(stamp: Any) -> str:
    """A stored ISO 8601 time as a reader reads it: this machine's local time, to the minute
    (2026-11-30 15:28 for 2026-11-30T14:28:05+00:00 in Paris); a stamp without a zone or that
    is not a time stays as written, without its seconds."""
    text = str(stamp or "")
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return text.replace("T", " ")[:16]
    if when.tzinfo is not None:
        when = when.astimezone()
    return when.strftime("%Y-%m-%d %H:%M") if "T" in text or " " in text else text


@dataclass
class PointRecord:
    """One point to write: its id, dense vector, sparse (indices, values) and payload."""

    id: str
    dense: list[float]
    sparse: Sparse | None
    payload: dict[str, Any]


@dataclass
class Hit:
    id: str
    score: float
    payload: dict[str, Any]
    vector: list[float] | None = None
    rrf_score: float | None = None


@dataclass
class StoredPoint:
    """A point read back (payload selection, optional dense and sparse vectors)."""

    id: str
    payload: dict[str, Any] = field(default_factory=dict)
    vector: list[float] | None = None
    sparse: Sparse | None = None


def check_index_kind(kind: str) -> str:
    if kind not in INDEX_KINDS:
        from rag.errors import StoreError
        from rag.i18n import t

        raise StoreError(t("store.index_kind", kind=repr(kind), kinds=", ".join(INDEX_KINDS)))
    return kind
