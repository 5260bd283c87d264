"""When an embedded collection has grown past the sizes the embedded store was measured with."""

from __future__ import annotations

from rag.i18n import t
from rag.i18n.numbers import integer

# Measured (benchmarks/README.md, "The embedded store"): Qdrant Edge answers hybrid searches
# under the access filter in milliseconds up to 100k chunks, the largest size measured.
EMBEDDED_COMFORT_LIMIT = 100_000


def embedded_size_note(points: int) -> str | None:
    """What to tell the user of an embedded collection larger than the sizes measured; else None."""
    if points <= EMBEDDED_COMFORT_LIMIT:
        return None
    return t("index.size_note", points=integer(points), limit=integer(EMBEDDED_COMFORT_LIMIT))
