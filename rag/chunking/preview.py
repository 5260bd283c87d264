"""Where each chunking strategy cuts a document: the chunkers to compare and their chunks.

`rag preview` and the ingest page both show this; nothing is indexed.
"""

from __future__ import annotations

from typing import Any, Callable

from rag.i18n import t
from rag.chunking import STRATEGIES, default_settings, make_chunker, relevant_settings
from rag.chunking.base import Chunk, Chunker
from rag.documents import Document
from rag.chunking._measure import CHARS_PER_TOKEN, TOKENS
from rag.chunking._measure import estimate_tokens
from rag.chunking.token_cap import indexed_chunks
from rag.errors import ConfigError

TokenCount = Callable[[str], int]

ALL = "all"


def chunkers(strategy: str, given: dict[str, Any]) -> list[Chunker]:
    """The chunkers to preview, each with the given settings it uses.

    A default that no longer makes sense next to a size the user gave (overlap 200 with
    --max-size 150, min_size 400 with --max-size 300) is scaled down instead of refused;
    values the user typed are checked as given. In tokens (`unit` "tokens"), a size not given
    is the strategy's default in characters turned into tokens at the documented estimate
    (1000 characters: 290 tokens), so that a chunk stays about as long as the default's.
    """
    if strategy != ALL and strategy not in STRATEGIES:
        raise ConfigError(t("chunk.unknown_or_all", name=repr(strategy), names=", ".join(STRATEGIES), all=ALL))
    names = list(STRATEGIES) if strategy == ALL else [strategy]
    result = []
    for name in names:
        defaults = default_settings(name)
        if given.get("unit") == TOKENS:
            defaults = {k: _in_tokens(v) for k, v in defaults.items()}
        settings = {**defaults, **relevant_settings(name, given)}
        size = settings.get("chunk_size") or settings.get("max_size")
        if given.get("overlap") is None and settings.get("overlap", 0) >= size:
            settings["overlap"] = size // 5
        if given.get("min_size") is None and settings.get("min_size", 0) > size:
            settings["min_size"] = size * 2 // 5
        result.append(make_chunker(name, **settings))
    return result


def _in_tokens(characters: int) -> int:
    return max(1, int(round(characters / CHARS_PER_TOKEN, -1)))


def indexed_rows(chunker: Chunker, document: Document, count: TokenCount | None = None,
               window: int | None = None) -> list[dict[str, Any]]:
    """A strategy's chunks exactly as ingestion indexes them with this model, each with its
    token count (`tokens`, what is embedded; `body_tokens`, the body alone, what a size in tokens
    counts; `tokens_estimated` when the model has no tokenizer) and, for a piece
    the model's window cut, `window_cut_from`: the strategy's chunk it comes from."""
    rows = []
    for chunk, source in indexed_chunks(chunker, document.markdown, document.title, count, window):
        row = chunk.to_dict()
        row["tokens"] = (count or estimate_tokens)(chunk.embedding_text)
        # What a size in tokens counts: the body alone (`tokens` adds the context header).
        row["body_tokens"] = (count or estimate_tokens)(chunk.text)
        row["tokens_estimated"] = count is None or count is estimate_tokens
        row["window_cut_from"] = source
        rows.append(row)
    return rows


def preview(document: Document, strategy: str = ALL, count: TokenCount | None = None,
            window: int | None = None, **given: Any) -> dict[str, Any]:
    """The JSON document `rag preview --json` prints: `count` and `window` are the embedding
    model's tokenizer (None or `estimate_tokens`: counts estimated) and window (None: nothing cut)."""
    strategies = {}
    for chunker in chunkers(strategy, given):
        strategies[chunker.name] = {"settings": chunker.settings(),
                                    "chunks": indexed_rows(chunker, document, count, window)}
    return {
        "url": document.url,
        "title": document.title,
        "markdown": document.markdown,
        "window_tokens": window if count else None,
        "strategies": strategies,
    }


def preview_chunks(document: Document, given: dict[str, Any], count: TokenCount | None = None,
                   window: int | None = None) -> list[tuple[Chunker, list[Chunk]]]:
    """Every strategy's chunks for `document` as ingestion indexes them with this model's
    tokenizer and window (None: the strategy's chunks), with the settings given (None = the default)."""
    return [(c, [chunk for chunk, _ in indexed_chunks(c, document.markdown, document.title, count, window)])
            for c in chunkers(ALL, given)]


def preview_json(document: Document, given: dict[str, Any], count: TokenCount | None = None,
                 window: int | None = None) -> dict[str, Any]:
    """Exactly what `rag preview FILE --json` prints for this document and these settings."""
    return preview(document, ALL, count, window, **given)
