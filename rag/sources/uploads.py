"""Documents the ingest page gets from uploads or pasted text.

Uploads go through the same loader as a folder (front matter, HTML to Markdown, encodings,
binary and empty files), so a file behaves the same uploaded or ingested with `rag ingest`.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path, PurePosixPath
from typing import Callable, Sequence

from rag.i18n import t
from rag.documents import Document, Problem
from rag.sources.files import first_h1, iter_folder
from rag.sources.access_rule import PUBLIC, AccessValueError, declared_access, effective_access
from rag.sources.frontmatter import as_text, split_front_matter

PASTED_URL = "pasted-text"
UPLOAD_SOURCE = "upload"
# What a file name may weigh: file systems stop at 255 bytes, and a name taken twice gets "-2".
MAX_NAME_BYTES = 240


def _unique(base: str, taken: set[str], key: Callable[[str], str]) -> str:
    candidate, n = base, 2
    while key(candidate) in taken:
        stem, dot, suffix = base.rpartition(".")
        candidate = f"{stem}-{n}.{suffix}" if dot else f"{base}-{n}"
        n += 1
    taken.add(key(candidate))
    return candidate


def _upload_name(name: str, shown: set[str], on_disk: set[str]) -> tuple[str, str]:
    """(the document's name, its file's name). Browsers send a bare file name: only that is kept,
    made safe as a file name; a name sent twice gets "-2". The file's name differs from the
    document's by more than case too, since a temporary folder may ignore case: "CUMSUM.html" and
    "cumsum.html" are two documents under their own names."""
    base = PurePosixPath(name.replace("\\", "/")).name or "upload.md"
    base = re.sub(r"[^\w.\- ]+", "_", base).lstrip(".") or "upload.md"
    document = _unique(base, shown, str)
    return document, _unique(document, on_disk, str.lower)


def _has_front_matter_date(data: bytes) -> bool:
    try:
        meta, _, _ = split_front_matter(data.decode("utf-8-sig", errors="replace"))
    except Exception:  # noqa: BLE001 - only a hint; the loader reports real problems
        return False
    return bool(meta.get("modified"))


def _refused_name(name: str) -> str | None:
    """Why an upload's name cannot be a file's (None when it can): nothing before its extension
    (`.md`), or longer than a file system allows once made safe."""
    base = PurePosixPath(name.replace("\\", "/")).name
    head, dot, _ = base.rpartition(".")
    if dot and not head.strip(". "):
        return t("src.upload_no_name")
    size = len(base.encode("utf-8"))
    if size > MAX_NAME_BYTES:
        return t("src.upload_name_long", size=size, limit=MAX_NAME_BYTES)
    return None


def documents_from_uploads(files: Sequence[tuple[str, bytes]]) -> list[Document | Problem]:
    """Uploaded (name, bytes) pairs as Documents (url = file name) or Problems. A file that cannot
    be read under its name is a Problem naming it; the others are read."""
    if not files:
        return []
    shown: set[str] = set()
    on_disk: set[str] = set()
    names: dict[str, str] = {}  # file's name -> document's
    dated: dict[str, bool] = {}
    refused: list[Document | Problem] = []
    with tempfile.TemporaryDirectory(prefix="rag-upload-") as folder:
        for name, data in files:
            why = _refused_name(name)
            if why is None:
                document, safe = _upload_name(name, shown, on_disk)
                names[safe] = document
                try:
                    (Path(folder) / safe).write_bytes(data)
                except OSError as exc:
                    why = t("src.upload_not_written", error=exc.strerror or type(exc).__name__)
                else:
                    dated[safe] = _has_front_matter_date(data)
            if why is not None:
                refused.append(Problem(name or "?", why))
        items = list(iter_folder(folder)) if dated else []
    for item in items:
        if isinstance(item, Document):
            # An upload is its own source: replacing a document indexed from a folder or a site
            # under the same name needs a confirmation (rag.ingest.replacements).
            item.source = UPLOAD_SOURCE
            item.origin = ""  # the temporary folder it was read from says nothing
        # A temporary file's date says nothing: without a front matter date, the content hash
        # alone decides whether a re-upload changed.
        if isinstance(item, Document) and not dated.get(item.url, False):
            item.modified = None
        if isinstance(item, Document) and item.url in names:
            item.url = item.doc_id = names[item.url]
        elif isinstance(item, Problem) and item.item in names:
            item.item = names[item.item]
    return refused + items


def pasted_document(text: str, title: str = "") -> Document | Problem:
    """Pasted text as a Document, read like a file: a YAML front matter gives the title and the
    access groups and is not body text; one that cannot be read refuses the text, as a file's does."""
    text = (text or "").replace("\r\n", "\n").lstrip("\ufeff")
    meta, body, error = split_front_matter(text)
    if error:
        return Problem(PASTED_URL, t("src.front_matter", error=error))
    try:
        declared = declared_access(meta)
    except AccessValueError as exc:
        return Problem(PASTED_URL, t("src.not_indexed", error=exc))
    markdown = body.strip("\n").rstrip()
    title = (title or "").strip() or as_text(meta.get("title")) or first_h1(markdown) or t("src.pasted_title")
    return Document(
        url=PASTED_URL,
        title=" ".join(title.split()),
        markdown=markdown,
        modified=as_text(meta.get("modified")),
        access=effective_access([PUBLIC], declared),  # `access: []` stays nobody's but editors'
        source="pasted",
    )
