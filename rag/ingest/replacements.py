"""Documents an ingestion would replace although they came from elsewhere.

A document's url is its identity in a collection: a file uploaded under the name of a document
indexed from a folder, a site or another group's upload would replace it, and with it who may
read it. Such a replacement needs an explicit confirmation; until then the document is held back
as a Problem that says why, and the others are indexed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from rag.i18n import t
from rag.documents import Document, Problem


@dataclass(frozen=True)
class Replacement:
    url: str
    old_source: str
    old_access: tuple[str, ...]
    new_source: str
    new_access: tuple[str, ...]

    def sentence(self) -> str:
        def origin(source: str, access: tuple[str, ...]) -> str:
            return t("replace.origin", source=source or t("replace.unknown_source"),
                     groups=", ".join(access) or t("replace.nobody"))

        return t("replace.sentence", url=self.url, old=origin(self.old_source, self.old_access),
                 new=origin(self.new_source, self.new_access))


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
    return [Problem(item.url, t("replace.held_back", sentence=by_url[item.url].sentence()))
            if isinstance(item, Document) and item.url in by_url else item for item in items]


def holds_others(store: Any, collection: str, documents: Iterable[Document],
                 groups: Sequence[str] | None) -> bool:
    """Whether `collection` holds a document other than `documents` that a reader of `groups` may
    read (None: any): sample articles added there would answer its readers beside their own."""
    from rag.store.filters import Where, both, match, readable_by

    urls = tuple(d.url for d in documents)
    if not urls or collection not in store.list_collections():
        return False
    others = both(Where(must_not=(match("url", *urls),)), readable_by(groups))
    return next(iter(store.scroll(collection, payload=False, flt=others, limit=1)), None) is not None
