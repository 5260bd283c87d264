"""What an editor may index: their groups bound it, as they bound what they read.

An editor who is not an administrator (RAG_ADMINS) may write a document only when everyone it
opens to is in their groups, and may never replace a document they cannot read: it is held back
as a Problem, before the replacement check, so that they do not even learn who reads it. An
administrator (groups None) and the command line are not bounded.
"""

from __future__ import annotations

from typing import Any, Sequence

from rag.documents import Document, Problem
from rag.i18n import t


def _readable(access: Any, groups: Sequence[str]) -> bool:
    return isinstance(access, list) and bool(set(access) & set(groups))


def within_groups(items: Sequence[Document | Problem], groups: Sequence[str] | None, store: Any,
                  collection: str) -> list[Document | Problem]:
    """`items` with each document outside `groups` turned into a Problem that says why."""
    if groups is None:
        return list(items)
    allowed = set(groups)
    exists = bool(collection) and store.exists(collection)
    bounded: list[Document | Problem] = []
    for item in items:
        if isinstance(item, Document) and not set(item.access) <= allowed:
            outside = sorted(set(item.access) - allowed)
            item = Problem(item.url, t("bounds.outside", groups=", ".join(outside)))
        elif isinstance(item, Document) and exists:
            points = store.points_for_url(collection, item.url, payload=["access"])[:1]
            if points and not _readable(points[0].payload.get("access"), groups):
                item = Problem(item.url, t("bounds.hidden"))
        bounded.append(item)
    return bounded
