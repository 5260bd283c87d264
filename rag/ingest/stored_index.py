"""What a collection already holds, by document (pure: the run reads the points in and writes).

Each identity (Document.doc_id; points written before they carried one: their url) has its stored
points, and each url the identities stored under it. From these: which stored points are a
document's, earlier ones included (`earlier_points`), and whose document another source's would
replace (`replaced`).
"""

from __future__ import annotations

from rag.documents import Document
from rag.ingest.replacements import Replacement
from rag.store.points import StoredPoint


def source_label(source: str, origin: str) -> str:
    """A source as a sentence names it: its kind, and its folder when it has one."""
    return f"{source} {origin}" if origin else source


def _elsewhere(payload: dict, access: list, doc: Document) -> bool:
    """Whether a stored point comes from another source than `doc`: another kind, or another
    folder. A point written before points carried their folder is taken for the same folder's
    only when its groups are the document's: a file never takes another's place with other
    readers without --replace."""
    if str(payload.get("source") or "") != doc.source:
        return True
    origin = payload.get("origin")
    if origin is None:
        return bool(doc.origin) and sorted(map(str, access)) != sorted(doc.access)
    return origin != doc.origin


class StoredIndex:
    def __init__(self) -> None:
        self.points: dict[str, list[StoredPoint]] = {}  # identity -> its stored points
        self.by_url: dict[str, set[str]] = {}  # url -> identities stored under it
        self._by_content: dict[tuple[str, str], str] | None = None  # (source, hash) -> an id-less identity

    def add(self, point: StoredPoint) -> None:
        """One point read back from the collection (its VERSION_KEYS)."""
        url = point.payload.get("url")
        key = point.payload.get("doc_id") or url
        if isinstance(key, str):
            self.points.setdefault(key, []).append(point)
            if isinstance(url, str):
                self.by_url.setdefault(url, set()).add(key)

    def others_at(self, doc: Document) -> list[str]:
        """The other identities stored under `doc`'s url."""
        return sorted(self.by_url.get(doc.url, set()) - {doc.doc_id})

    def earlier_points(self, doc: Document, seen: set[str]) -> list[StoredPoint]:
        """The points of `doc` written before points carried their identity (keyed by url): under
        its url, else (its url changed since) a same-source document of the same content, not one
        this run has `seen`. They move to its identity, so that neither this run nor --prune takes
        them for another's."""
        if doc.doc_id == doc.url:
            return []
        legacy = self.points.get(doc.url)
        if not legacy or legacy[0].payload.get("doc_id") or legacy[0].payload.get("source") != doc.source:
            if self._by_content is None:
                self._by_content = {}
                for k, points in self.points.items():
                    first = points[0].payload
                    if not first.get("doc_id") and isinstance(first.get("content_hash"), str):
                        self._by_content.setdefault((str(first.get("source") or ""), first["content_hash"]), k)
            found = self._by_content.pop((doc.source, doc.content_hash), None)
            legacy = self.points.get(found) if found and found not in seen else None
            if not legacy:
                return []
        old_key = str(legacy[0].payload.get("url"))
        self.points.pop(old_key, None)
        self.by_url.get(old_key, set()).discard(old_key)
        self.points[doc.doc_id] = legacy
        self.by_url.setdefault(old_key, set()).add(doc.doc_id)
        return legacy

    def replaced(self, doc: Document, old: list[StoredPoint]) -> Replacement | None:
        """Another source's document that `doc` would replace: the same identity from another
        source (another kind, or another folder), or its url held by another source's document."""
        others = [self.points[k][0] for k in self.others_at(doc) if k in self.points]
        for point in ([old[0]] if old else []) + others:
            access = point.payload.get("access") if isinstance(point.payload.get("access"), list) else []
            if _elsewhere(point.payload, access, doc):
                source, origin = str(point.payload.get("source") or ""), str(point.payload.get("origin") or "")
                return Replacement(doc.url, source_label(source, origin), tuple(access),
                                   source_label(doc.source, doc.origin), tuple(doc.access))
        return None

    def relinked(self, doc: Document, points: list[StoredPoint]) -> list[str]:
        """`doc`'s points now stored under its url: the other urls they were under."""
        moved = sorted({str(p.payload.get("url")) for p in points} - {doc.url})
        for old_url in moved:
            self.by_url.get(old_url, set()).discard(doc.doc_id)
        self.by_url.setdefault(doc.url, set()).add(doc.doc_id)
        return moved
