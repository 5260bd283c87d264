"""Where documents come from: a WordPress site (http/https URL) or local files (a folder or one file)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any, Iterator

import httpx

from rag.bounded_http import bounded, deadline_transport
from rag.i18n import t
from rag.i18n.numbers import decimal
from rag.documents import Document, Problem
from rag.errors import SourceError
from rag.sources.html import html_title_and_main, html_to_markdown
from rag.sources.files import SUFFIXES, first_h1, iter_folder, load_file
from rag.sources.limits import max_document_bytes, not_text, too_big
from rag.sources.wordpress import WordPressSource

__all__ = ["open_source", "load_one", "is_url"]

_URL = re.compile(r"^https?://", re.I)


def is_url(source: str) -> bool:
    return bool(_URL.match(str(source).strip()))


def _accepted(func: Any, opts: dict[str, Any]) -> dict[str, Any]:
    # Callers pass one bag of options for any kind of source; each source takes what it knows.
    names = set(inspect.signature(func).parameters)
    return {key: value for key, value in opts.items() if key in names and value is not None}


def open_source(source: str, **opts: Any) -> Iterator[Document | Problem]:
    """Documents (and Problems) of a WordPress site URL, a folder, or a single file.

    Options a source does not know are ignored, so callers can pass e.g. username, app_password,
    modified_after, private_group, timeout (WordPress), default_access (files) and max_bytes (both)
    together.
    """
    text = str(source).strip()
    if is_url(text):
        return WordPressSource(text, **_accepted(WordPressSource.__init__, opts)).iter_documents()
    path = Path(text).expanduser()
    if not path.exists():
        hint = t("src.url_hint") if re.match(r"^[\w-]+(\.[\w-]+)+(/|$)", text) else ""
        raise SourceError(t("src.no_such_path", path=text, hint=hint))
    if path.is_file() and path.suffix.lower() not in SUFFIXES:
        raise SourceError(t("src.not_a_document", path=text))
    return iter_folder(path, **_accepted(iter_folder, opts))


def load_one(file_or_url: str, timeout: float = 30.0, max_bytes: int | None = None) -> Document:
    """One document for a preview: a local file, or a single web page (its article/main/body)."""
    text = str(file_or_url).strip()
    limit = max_document_bytes() if max_bytes is None else max_bytes
    if not is_url(text):
        path = Path(text).expanduser()
        if path.is_dir():
            raise SourceError(t("src.preview_folder", path=text))
        if not path.is_file():
            raise SourceError(t("src.no_such_file", path=text))
        result = load_file(path, path.parent, max_bytes=limit)
        if isinstance(result, Problem):
            raise SourceError(str(result))
        return result
    try:
        with httpx.Client(timeout=timeout, follow_redirects=True, headers={"User-Agent": "rag-workbench"},
                          transport=deadline_transport()) as client:
            # One byte past the limit is enough to say the page is too big (below).
            response = bounded(client, "GET", text, limit + 1, SourceError, truncate=True)
    except httpx.TimeoutException:
        raise SourceError(t("src.url_timeout", url=text, seconds=decimal(timeout, 1, trim=True))) from None
    except httpx.HTTPError as exc:
        raise SourceError(t("src.url_failed", url=text, error=f"{type(exc).__name__}: {exc}")) from None
    if response.status_code >= 400:
        raise SourceError(t("src.url_status", url=text, status=response.status_code))
    oversized = too_big(len(response.content), limit)
    if oversized:
        raise SourceError(f"{text} {oversized}")
    content_type = response.headers.get("content-type", "")
    body = response.text
    url = str(response.url)
    if "html" in content_type or body.lstrip().startswith("<"):
        title, main_html = html_title_and_main(body)
        markdown = html_to_markdown(main_html)
    else:
        title, markdown = "", body.strip()
    if not markdown.strip():
        raise SourceError(t("src.nothing_to_preview", url=text))
    encoded = not_text(markdown)
    if encoded:
        raise SourceError(f"{text} {encoded}")
    return Document(
        url=url,
        title=title or first_h1(markdown) or url,
        markdown=markdown,
        modified=response.headers.get("last-modified"),
        source="web",
    )
