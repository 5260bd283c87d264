"""`auto`: a new collection's enrichment decided by its first documents.

Measured on three sets (benchmarks/README.md, "lead enrichment"): `lead` helps collections whose
articles are cut into sections (the demo, the Windows Server pages: a chunk from the middle of a
long article gains the article's subject) and hurts collections of short pages without sections
(the CNIL FAQ: the lead is the page's own answer, repeated into each of its one or two chunks,
which then all look alike). Within each set, what the bucket of the expected article changes is
the same: sections decide, chunk counts and the lead's word overlap with the chunk do not (both
are alike across the three sets). So the rule is the share of documents with at least one section
heading (level 2 or deeper, outside code) among the first documents read.

The choice is made once, on the first AUTO_SAMPLE documents of the first run, and recorded in the
collection's metadata like an explicit `--enrich`: later runs follow the recorded mode.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from rag.documents import Document
from rag.i18n import t
from rag.markdown_structure import headings

AUTO = "auto"
AUTO_SAMPLE = 50  # documents read before deciding: a site's first page or two, a folder's first files
SECTIONED_SHARE = 0.5  # lead when at least half of them have sections (demo 1.0, docs-fr 0.93, CNIL 0.0)
_SCAN_CHARS = 200_000  # a section heading is near the top of any article that has one


def has_sections(markdown: str) -> bool:
    """True when the document has a heading of level 2 or deeper outside fenced code."""
    return any(found.level >= 2 for _, found in headings(markdown[:_SCAN_CHARS]))


@dataclass(frozen=True)
class AutoChoice:
    """What `auto` chose, and on what: recorded with the collection, said by the run and status."""

    mode: str
    documents: int
    with_sections: int

    def to_dict(self) -> dict[str, Any]:
        return {"by": AUTO, "mode": self.mode, "documents": self.documents, "with_sections": self.with_sections}

    @classmethod
    def from_dict(cls, data: Any) -> AutoChoice | None:
        """The recorded choice, or None (an explicit choice, or a collection made before `auto`)."""
        if not isinstance(data, dict) or data.get("by") != AUTO:
            return None
        try:
            return cls(str(data["mode"]), int(data["documents"]), int(data["with_sections"]))
        except (KeyError, TypeError, ValueError):
            return None

    def reason(self) -> str:
        """Why, in one sentence: "lead chosen from the documents: 13 of 14 have sections"."""
        key = "enrich.auto_lead" if self.mode == "lead" else "enrich.auto_none"
        return t(key, k=self.with_sections, n=self.documents)


def choose_mode(documents: list[Document]) -> AutoChoice:
    """`lead` when at least SECTIONED_SHARE of `documents` have sections, else `none`."""
    with_sections = sum(1 for doc in documents if has_sections(doc.markdown))
    sectioned = bool(documents) and with_sections >= SECTIONED_SHARE * len(documents)
    return AutoChoice("lead" if sectioned else "none", len(documents), with_sections)


class _ReadAhead:
    """The documents read ahead, then the rest of the source; whatever else the source tells the
    run (a site's post count, what may be pruned) is the source's own."""

    def __init__(self, head: list[Any], rest: Iterator[Any], source: Iterable[Any]) -> None:
        self._items = itertools.chain(head, rest)
        self._source = source

    def __iter__(self) -> Iterator[Any]:
        return self._items

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)


def choose_from(items: Iterable[Any]) -> tuple[Iterable[Any], AutoChoice]:
    """Read the first AUTO_SAMPLE documents of `items` (problems pass through, not counted) and
    decide; the items come back whole, in order, for the run to index."""
    if isinstance(items, Sequence):
        return items, choose_mode([i for i in items if isinstance(i, Document)][:AUTO_SAMPLE])
    iterator = iter(items)
    head: list[Any] = []
    sample: list[Document] = []
    for item in iterator:
        head.append(item)
        if isinstance(item, Document):
            sample.append(item)
            if len(sample) >= AUTO_SAMPLE:
                break
    return _ReadAhead(head, iterator, items), choose_mode(sample)
