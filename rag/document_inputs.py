"""Documents the ingest page gets from uploads or pasted text, and what it shows of them
(pure: no streamlit here).

Uploads go through the same loader as a folder (front matter, HTML to Markdown, encodings,
binary and empty files), so a file behaves the same uploaded or ingested with `rag ingest`.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Sequence

from rag.chunking.base import Chunk, Chunker
from rag.chunking.stats import first_line, summarize, warnings_text
from rag.commands.preview import ALL, chunkers, preview
from rag.documents import Document, Problem
from rag.sources.files import first_h1, iter_folder
from rag.sources.frontmatter import split_front_matter

PASTED_URL = "pasted-text"

WARNING_SENTENCES = {
    "code_block_split": "{n} chunk(s) cut through a fenced code block: a command is split in two",
    "table_split": "{n} chunk(s) hold table rows without the header row",
    "no_heading_context": "{n} chunk(s) carry no heading: retrieved alone, they do not say what they are about",
    "oversized": "{n} chunk(s) are larger than the size asked for",
    "tiny": "{n} chunk(s) are tiny: too little text to be retrieved well",
}


def _upload_name(name: str, taken: set[str]) -> str:
    # Browsers send a bare file name; keep only that, made safe as a file name and unique.
    base = PurePosixPath(name.replace("\\", "/")).name or "upload.md"
    base = re.sub(r"[^\w.\- ]+", "_", base).lstrip(".") or "upload.md"
    candidate, n = base, 2
    while candidate.lower() in taken:
        stem, dot, suffix = base.rpartition(".")
        candidate = f"{stem}-{n}.{suffix}" if dot else f"{base}-{n}"
        n += 1
    taken.add(candidate.lower())
    return candidate


def _has_front_matter_date(data: bytes) -> bool:
    try:
        meta, _, _ = split_front_matter(data.decode("utf-8-sig", errors="replace"))
    except Exception:  # noqa: BLE001 - only a hint; the loader reports real problems
        return False
    return bool(meta.get("modified"))


def documents_from_uploads(files: Sequence[tuple[str, bytes]]) -> list[Document | Problem]:
    """Uploaded (name, bytes) pairs as Documents (url = file name) or Problems."""
    if not files:
        return []
    taken: set[str] = set()
    dated: dict[str, bool] = {}
    with tempfile.TemporaryDirectory(prefix="rag-upload-") as folder:
        for name, data in files:
            safe = _upload_name(name, taken)
            (Path(folder) / safe).write_bytes(data)
            dated[safe] = _has_front_matter_date(data)
        items = list(iter_folder(folder))
    for item in items:
        # A temporary file's date says nothing: without a front matter date, the content hash
        # alone decides whether a re-upload changed.
        if isinstance(item, Document) and not dated.get(item.url, False):
            item.modified = None
    return items


def pasted_document(text: str, title: str = "") -> Document:
    markdown = (text or "").replace("\r\n", "\n").strip("\n")
    return Document(
        url=PASTED_URL,
        title=(title or "").strip() or first_h1(markdown) or "Pasted text",
        markdown=markdown,
        source="pasted",
    )


def split_items(items: Iterable[Document | Problem]) -> tuple[list[Document], list[Problem]]:
    documents: list[Document] = []
    problems: list[Problem] = []
    for item in items:
        (problems if isinstance(item, Problem) else documents).append(item)
    return documents, problems


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


def preview_chunks(document: Document, given: dict[str, Any]) -> list[tuple[Chunker, list[Chunk]]]:
    """Every strategy's chunks for `document`, with the settings given (None = the default)."""
    return [(c, c.chunk(document.markdown, title=document.title)) for c in chunkers(ALL, given)]


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


def preview_json(document: Document, given: dict[str, Any]) -> dict[str, Any]:
    """Exactly what `rag preview FILE --json` prints for this document and these settings."""
    return preview(document, ALL, **given)
