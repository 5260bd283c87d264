"""The unit every source yields and every later stage consumes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


@dataclass
class Document:
    url: str
    title: str
    markdown: str
    modified: str | None = None
    access: list[str] = field(default_factory=lambda: ["public"])
    source: str = ""

    @property
    def content_hash(self) -> str:
        # The title is part of every chunk header, so a renamed post must be re-embedded.
        digest = hashlib.sha256()
        digest.update(self.title.encode("utf-8"))
        digest.update(b"\0")
        digest.update(self.markdown.encode("utf-8"))
        return digest.hexdigest()


@dataclass
class Problem:
    """An item a source could not use (or used with a caveat). Reported, never fatal."""

    item: str
    message: str
    level: str = "error"  # "error": the item was skipped; "warning": used with a caveat

    def __str__(self) -> str:
        return f"{self.item}: {self.message}"
