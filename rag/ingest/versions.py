"""Is a stored document this version of it? The build fingerprint, and the completeness check.

A document is skipped only when *all* its stored points describe the same version (modified,
content hash, access, strategy + chunk settings + model) and there are exactly as many as that
version had chunks, so a run killed in the middle of a document's writes redoes that document.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rag.documents import Document
from rag.enrich import NONE
from rag.store.points import StoredPoint, point_id

# The payload keys a run reads back from every stored point to decide what changed.
VERSION_KEYS = ["url", "order", "modified", "content_hash", "access", "build", "chunks"]


def build_key(strategy: str, chunk_settings: dict[str, Any], model: str, enrichment: str = NONE) -> str:
    """Short fingerprint of how chunks were made and embedded; a change means re-embedding."""
    parts: list[Any] = [strategy, chunk_settings, model]
    if enrichment != NONE:  # unenriched collections keep the key they always had
        parts.append(enrichment)
    raw = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]


def is_unchanged(doc: Document, points: list[StoredPoint], build: str) -> bool:
    """True when the stored points are exactly one complete copy of this version of `doc`."""
    if not points:
        return False
    expected = {
        "modified": doc.modified, "content_hash": doc.content_hash, "build": build,
        "access": sorted(doc.access),
    }
    chunks = points[0].payload.get("chunks")
    if not isinstance(chunks, int) or chunks != len(points):
        return False
    for p in points:
        got = {k: p.payload.get(k) for k in expected}
        got["access"] = sorted(got["access"] or [])
        if got != expected or p.payload.get("chunks") != chunks:
            return False
    return {p.id for p in points} == {point_id(doc.url, i) for i in range(chunks)}
