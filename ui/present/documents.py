"""What the ingest page shows of documents and their chunks, as plain rows (no streamlit here).

Column names and words come from the catalogue (ui.i18n), in the reader's language; no cell
holds None (an empty cell says nothing, "None" reads as a bug).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from rag.chunking._measure import estimate_tokens
from rag.chunking.base import Chunk, Chunker
from rag.chunking.stats import first_line, summarize, warning_sentences, warning_word
from rag.documents import Document, Problem
from ui.i18n import t, tn

SETTING_WORDS = {"chunk_size": "ing.chunk_size", "overlap": "ing.overlap", "min_size": "ing.min_size",
                 "max_size": "ing.max_size"}


def document_rows(documents: Sequence[Document], problems: Sequence[Problem] = ()) -> list[dict[str, Any]]:
    """The table of what a source holds: one row a document, then one a skipped item."""
    notes: dict[str, list[str]] = {}
    for p in problems:
        notes.setdefault(p.item, []).append(p.message)
    rows = [
        {t("col.title"): d.title, t("col.url"): d.url, t("col.characters"): str(len(d.markdown)),
         t("col.access"): ", ".join(d.access), t("col.problems"): "; ".join(notes.pop(d.url, []))}
        for d in documents
    ]
    for item, messages in notes.items():
        rows.append({t("col.title"): "", t("col.url"): item, t("col.characters"): "", t("col.access"): "",
                     t("col.problems"): "; ".join(messages)})
    return rows


def settings_words(settings: Mapping[str, Any]) -> str:
    """`chunk size 1000, overlap 200`: a strategy's settings as the inputs name them (`in tokens`
    after them when they count tokens)."""
    words = ", ".join(f"{t(SETTING_WORDS[k]).lower() if k in SETTING_WORDS else k} {v}"
                      for k, v in settings.items() if k != "unit")
    return f"{words} {t('ing.in_tokens')}" if settings.get("unit") == "tokens" else words


def stats_rows(previews: Sequence[tuple[Chunker, list[Chunk]]]) -> list[dict[str, Any]]:
    """One row a strategy: its settings, chunk count, smallest / median / largest in characters, warnings."""
    rows = []
    for chunker, chunks in previews:
        s = summarize(chunks)
        rows.append({
            t("col.strategy"): chunker.name,
            t("col.settings"): settings_words(chunker.settings()),
            t("col.chunks"): s["chunks"],
            t("col.min"): s["min_chars"],
            t("col.median"): round(s["median_chars"]),
            t("col.max"): s["max_chars"],
            t("col.warnings"): sum(n for n in s["warnings"].values()),
        })
    return rows


def warning_block(strategy: str, chunks: Sequence[Chunk]) -> str | None:
    """One block a strategy: a title with the count, one line a kind of warning (Markdown)."""
    lines = warning_sentences(chunks)
    if not lines:
        return None
    total = sum(len(c.warnings) for c in chunks)  # what warning_sentences counted, not counted again
    return f"**{tn('ing.warnings_title', total, strategy=strategy)}**\n\n" + "\n".join(f"- {line}" for line in lines)


# A table cell's text in pixels per character, with the cell's padding: generous, so that a
# narrow table scrolls sideways rather than cut "code coupé, tableau coupé" to "code coup…".
_PIXELS_PER_CHARACTER, _CELL_PADDING = 8, 32


def warnings_width(rows: Sequence[Mapping[str, Any]]) -> int:
    """The pixel width the warnings column of `rows` (chunk_rows) needs to be read whole."""
    column = t("col.warnings")
    longest = max([len(column)] + [len(str(r.get(column, ""))) for r in rows])
    return longest * _PIXELS_PER_CHARACTER + _CELL_PADDING


def chunk_rows(chunks: Sequence[Chunk], count: Callable[[str], int] | None = None) -> list[dict[str, Any]]:
    """The chunk table; with the embedding model's tokenizer, each chunk's tokens beside its
    characters (a column named as estimated when `count` is the estimate, for a server's model)."""
    tokens = t("col.tokens_estimated" if count is estimate_tokens else "col.tokens")
    return [
        # The warnings next to the number: in a pane of the side-by-side view the table is
        # narrower than its columns, and what lies to the right is out of sight.
        {"#": c.index + 1, t("col.warnings"): ", ".join(warning_word(w, c) for w in c.warnings),
         t("col.start"): c.start, t("col.end"): c.end, t("col.characters"): c.chars,
         **({tokens: count(c.embedding_text)} if count else {}),
         t("col.section"): c.section or "",
         t("col.begins"): first_line(c)}
        for c in chunks
    ]
