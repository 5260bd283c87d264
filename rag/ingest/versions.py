"""Is a stored document this version of it? The build fingerprint, and the completeness check.

A document is skipped only when *all* its stored points describe the same version (content
hash, access, strategy + chunk settings + model) and there are exactly as many as that version had
chunks, numbered 0..n-1, so a run killed in the middle of a document's writes redoes that
document. Its url and modification date are attributes: a permalink change or a save that only
changed a post's tags updates them in place (`needs_relink`), without embedding again.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rag.documents import Document
from rag.enrich import NONE
from rag.store.points import StoredPoint, point_id

# The payload keys a run reads back from every stored point to decide what changed.
VERSION_KEYS = ["url", "doc_id", "source", "origin", "order", "modified", "content_hash", "access", "build",
                "chunks"]


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
    expected = {"content_hash": doc.content_hash, "build": build, "access": sorted(doc.access)}
    chunks = points[0].payload.get("chunks")
    if not isinstance(chunks, int) or chunks != len(points):
        return False
    for p in points:
        got = {k: p.payload.get(k) for k in expected}
        got["access"] = sorted(got["access"] or [])
        if got != expected or p.payload.get("chunks") != chunks:
            return False
    # Ids are those of the identity the points were written under (earlier versions: the url), so
    # completeness is read from their positions.
    orders = [p.payload.get("order") for p in points]
    if all(isinstance(o, int) and not isinstance(o, bool) for o in orders):
        return sorted(orders) == list(range(chunks))
    ids = {p.id for p in points}
    return any(ids == {point_id(key, i) for i in range(chunks)} for key in (doc.doc_id, doc.url))


def needs_relink(doc: Document, points: list[StoredPoint]) -> bool:
    """Do the points of an unchanged document carry another url, date or identity than it (points
    written before they carried their folder get it)?"""
    return any(p.payload.get("url") != doc.url or p.payload.get("modified") != doc.modified
               or p.payload.get("doc_id") != doc.doc_id or (p.payload.get("origin") or "") != doc.origin
               for p in points)
