"""What the ingest page shows of documents and their chunks, as plain rows (no streamlit here)."""

from __future__ import annotations

from typing import Any, Sequence

from rag.chunking.base import Chunk, Chunker
from rag.chunking.stats import first_line, summarize, warnings_text
from rag.documents import Document, Problem

WARNING_SENTENCES = {
    "code_block_split": "{n} chunk(s) cut through a fenced code block: a command is split in two",
    "table_split": "{n} chunk(s) hold table rows without the header row",
    "no_heading_context": "{n} chunk(s) carry no heading: retrieved alone, they do not say what they are about",
    "oversized": "{n} chunk(s) are larger than the size asked for",
    "tiny": "{n} chunk(s) are tiny: too little text to be retrieved well",
}


def document_rows(documents: Sequence[Document], problems: Sequence[Problem] = ()) -> list[dict[str, Any]]:
    """The table of what a source holds: one row a document, then one a skipped item."""
    notes: dict[str, list[str]] = {}
    for p in problems:
        notes.setdefault(p.item, []).append(p.message)
    rows = [
        {"title": d.title, "url": d.url, "characters": len(d.markdown), "access": ", ".join(d.access),
         "problems": "; ".join(notes.pop(d.url, []))}
        for d in documents
    ]
    for item, messages in notes.items():
        rows.append({"title": "", "url": item, "characters": None, "access": "", "problems": "; ".join(messages)})
    return rows


def stats_rows(previews: Sequence[tuple[Chunker, list[Chunk]]]) -> list[dict[str, Any]]:
    """One row a strategy: chunk count, min / median / max characters, warnings."""
    rows = []
    for chunker, chunks in previews:
        s = summarize(chunks)
        rows.append({
            "strategy": chunker.name,
            "settings": ", ".join(f"{k}={v}" for k, v in chunker.settings().items()),
            "chunks": s["chunks"],
            "min chars": s["min_chars"],
            "median chars": s["median_chars"],
            "max chars": s["max_chars"],
            "warnings": warnings_text(s["warnings"]),
        })
    return rows


def warning_sentences(chunks: Sequence[Chunk]) -> list[str]:
    counts = summarize(chunks)["warnings"]
    return [
        WARNING_SENTENCES.get(name, "{n} chunk(s): " + name).format(n=n) + f" ({name})"
        for name, n in counts.items() if n
    ]


def chunk_rows(chunks: Sequence[Chunk]) -> list[dict[str, Any]]:
    return [
        {"#": c.index, "start": c.start, "end": c.end, "chars": c.chars, "section": c.section,
         "warnings": ", ".join(c.warnings), "begins with": first_line(c)}
        for c in chunks
    ]
