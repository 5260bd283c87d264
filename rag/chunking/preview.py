"""Where each chunking strategy cuts a document: the chunkers to compare and their chunks.

`rag preview` and the ingest page both show this; nothing is indexed.
"""

from __future__ import annotations

from typing import Any

from rag.i18n import t
from rag.chunking import STRATEGIES, default_settings, make_chunker, relevant_settings
from rag.chunking.base import Chunk, Chunker
from rag.documents import Document
from rag.errors import ConfigError

ALL = "all"


def chunkers(strategy: str, given: dict[str, Any]) -> list[Chunker]:
    """The chunkers to preview, each with the given settings it uses.

    A default that no longer makes sense next to a size the user gave (overlap 200 with
    --max-size 150, min_size 400 with --max-size 300) is scaled down instead of refused;
    values the user typed are checked as given.
    """
    if strategy != ALL and strategy not in STRATEGIES:
        raise ConfigError(t("chunk.unknown_or_all", name=repr(strategy), names=", ".join(STRATEGIES), all=ALL))
    names = list(STRATEGIES) if strategy == ALL else [strategy]
    result = []
    for name in names:
        settings = {**default_settings(name), **relevant_settings(name, given)}
        size = settings.get("chunk_size") or settings.get("max_size")
        if given.get("overlap") is None and settings.get("overlap", 0) >= size:
            settings["overlap"] = size // 5
        if given.get("min_size") is None and settings.get("min_size", 0) > size:
            settings["min_size"] = size * 2 // 5
        result.append(make_chunker(name, **settings))
    return result


def preview(document: Document, strategy: str = ALL, **given: Any) -> dict[str, Any]:
    """The JSON document `rag preview --json` prints."""
    strategies = {}
    for chunker in chunkers(strategy, given):
        chunks = chunker.chunk(document.markdown, title=document.title)
        strategies[chunker.name] = {"settings": chunker.settings(), "chunks": [c.to_dict() for c in chunks]}
    return {
        "url": document.url,
        "title": document.title,
        "markdown": document.markdown,
        "strategies": strategies,
    }


def preview_chunks(document: Document, given: dict[str, Any]) -> list[tuple[Chunker, list[Chunk]]]:
    """Every strategy's chunks for `document`, with the settings given (None = the default)."""
    return [(c, c.chunk(document.markdown, title=document.title)) for c in chunkers(ALL, given)]


def preview_json(document: Document, given: dict[str, Any]) -> dict[str, Any]:
    """Exactly what `rag preview FILE --json` prints for this document and these settings."""
    return preview(document, ALL, **given)
