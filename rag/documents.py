"""The unit every source yields and every later stage consumes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Iterable

from rag.i18n import t


@dataclass
class Document:
    """One document. Its identity is its `source` and `origin` plus its `doc_id` (a WordPress post:
    the site and the post's REST id, "https://blog.example#42"; a file: its folder, then its path
    in it, which is also its url); the url is an attribute that may change (a site's permalinks)."""

    url: str
    title: str
    markdown: str
    modified: str | None = None
    access: list[str] = field(default_factory=lambda: ["public"])
    source: str = ""
    doc_id: str = ""
    # Which source of that kind: a folder's absolute path ("" when the kind says it all: a site's
    # posts carry it in their doc_id, uploads are one source). Two folders' `coffre.md` are two
    # documents, and one never replaces the other's without --replace.
    origin: str = ""

    def __post_init__(self) -> None:
        if not self.doc_id:
            self.doc_id = self.url

    @property
    def content_hash(self) -> str:
        # The title is part of every chunk header, so a renamed post must be re-embedded.
        digest = hashlib.sha256()
        digest.update(self.title.encode("utf-8"))
        digest.update(b"\0")
        digest.update(self.markdown.encode("utf-8"))
        return digest.hexdigest()


ERROR, SKIPPED, WARNING = "error", "skipped", "warning"


@dataclass
class Problem:
    """An item a source could not use (or used with a caveat). Reported, never fatal."""

    item: str
    message: str
    # "error": the item could not be used (a failure); "skipped": it has nothing to index (no
    # text, only a redirect or a link), which is not a failure; "warning": used with a caveat.
    level: str = "error"
    # An item refused for safety (a link leaving the folder, unreadable front matter) also loses
    # what an earlier run indexed under its name; an unreadable file keeps it.
    withdraw: bool = False

    def __str__(self) -> str:
        return t("doc.about", item=self.item, note=self.message)


def split_items(items: Iterable[Document | Problem]) -> tuple[list[Document], list[Problem]]:
    """A source's output sorted into the documents and the problems, each in order."""
    documents: list[Document] = []
    problems: list[Problem] = []
    for item in items:
        (problems if isinstance(item, Problem) else documents).append(item)
    return documents, problems
