"""`auto`, the default of a new collection: `lead` for the documents that have sections, nothing
for those that have none.

Measured (benchmarks/README.md, 4c, "`lead` or not, by the documents"): `lead` helps articles cut
into sections (the demo, the Windows Server pages: a chunk from the middle of a long article gains
the article's subject) and hurts short pages without sections (the CNIL FAQ: the lead is the
page's own answer, repeated into each of its one or two chunks, which then all look alike). Read
inside each set, sections decide; the number of chunks and the lead's word overlap with the chunk
do not. In one collection holding both kinds, `lead` for the sectioned documents only is ahead
of, or level with, `lead` and `none` for all on every figure of both question sets, and it needs
no first documents to decide on: each document is judged by its own shape, the same way at every
run, so a collection's later runs stay consistent with its first.
"""

from __future__ import annotations

from typing import Any, Iterable

from rag.documents import Document
from rag.markdown_structure import headings

AUTO = "auto"
_SCAN_CHARS = 200_000  # a section heading is near the top of any article that has one


def has_sections(markdown: str) -> bool:
    """True when the document has a heading of level 2 or deeper outside fenced code."""
    return any(found.level >= 2 for _, found in headings(markdown[:_SCAN_CHARS]))


def sectioned_count(items: Iterable[Any]) -> tuple[int, int]:
    """(documents with sections, documents) among `items` (problems are not documents)."""
    documents = [item for item in items if isinstance(item, Document)]
    return sum(1 for doc in documents if has_sections(doc.markdown)), len(documents)
