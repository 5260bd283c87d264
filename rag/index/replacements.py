"""Documents an ingestion would replace although they came from elsewhere.

A document's url is its identity in a collection: a file uploaded under the name of a document
indexed from a folder, a site or another group's upload would replace it, and with it who may
read it. Such a replacement needs an explicit confirmation; until then the document is held back
as a Problem that says why, and the others are indexed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from rag.documents import Document, Problem


@dataclass(frozen=True)
class Replacement:
    url: str
    old_source: str
    old_access: tuple[str, ...]
    new_source: str
    new_access: tuple[str, ...]

    def sentence(self) -> str:
        old = f"from {self.old_source or 'an unknown source'}, readable by {', '.join(self.old_access) or 'nobody'}"
        new = f"from {self.new_source or 'an unknown source'}, readable by {', '.join(self.new_access) or 'nobody'}"
        return f"{self.url}: the indexed document ({old}) would be replaced by this one ({new})"


def differs(payload: dict[str, Any], doc: Document) -> bool:
    """True when the indexed point's source or access groups are not the document's."""
    old_access = payload.get("access")
    old_access = sorted(old_access) if isinstance(old_access, list) else old_access
    return payload.get("source") != doc.source or old_access != sorted(doc.access)


def replacements(store: Any, collection: str, documents: Iterable[Document]) -> list[Replacement]:
    """The documents that would replace an indexed one from another source or other groups.

    Unfiltered on purpose: an editor must hear of a document they could not read before they
    overwrite it."""
    if not store.exists(collection):
        return []
    found = []
    for doc in documents:
        points = store.points_for_url(collection, doc.url, payload=["source", "access"])[:1]
        if points and differs(points[0].payload, doc):
            old = points[0].payload
            access = old.get("access") if isinstance(old.get("access"), list) else []
            found.append(Replacement(doc.url, str(old.get("source") or ""), tuple(access), doc.source,
                                     tuple(doc.access)))
    return found


def hold_back(items: Sequence[Document | Problem], found: Sequence[Replacement]) -> list[Document | Problem]:
    """`items` with each document of `found` turned into a Problem saying what it would replace."""
    by_url = {r.url: r for r in found}
    return [Problem(item.url, f"not indexed: {by_url[item.url].sentence()}; confirm to replace it")
            if isinstance(item, Document) and item.url in by_url else item for item in items]
