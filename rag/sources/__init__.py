"""Where documents come from: a WordPress site (http/https URL) or local files (a folder or one file)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any, Iterator

import httpx

from rag.documents import Document, Problem
from rag.errors import SourceError
from rag.sources.html import html_title_and_main, html_to_markdown
from rag.sources.files import SUFFIXES, first_h1, iter_folder, load_file
from rag.sources.limits import max_document_bytes, not_text, too_big
from rag.sources.wordpress import WordPressSource

__all__ = ["open_source", "load_one", "is_url", "WordPressSource", "iter_folder", "load_file"]

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
        hint = " (a web address must start with https:// or http://)" if re.match(r"^[\w-]+(\.[\w-]+)+(/|$)", text) else ""
        raise SourceError(
            f"No such file or folder: {text}{hint}. Give a WordPress site URL (https://...) "
            "or a folder of .md, .markdown, .html or .htm files."
        )
    if path.is_file() and path.suffix.lower() not in SUFFIXES:
        raise SourceError(f"{text} is not a .md, .markdown, .html or .htm file")
    return iter_folder(path, **_accepted(iter_folder, opts))


def load_one(file_or_url: str, timeout: float = 30.0, max_bytes: int | None = None) -> Document:
    """One document for a preview: a local file, or a single web page (its article/main/body)."""
    text = str(file_or_url).strip()
    limit = max_document_bytes() if max_bytes is None else max_bytes
    if not is_url(text):
        path = Path(text).expanduser()
        if not path.is_file():
            raise SourceError(f"No such file: {text}. Give a .md, .markdown, .html or .htm file, or a page URL.")
        result = load_file(path, path.parent, max_bytes=limit)
        if isinstance(result, Problem):
            raise SourceError(str(result))
        return result
    try:
        response = httpx.get(text, timeout=timeout, follow_redirects=True, headers={"User-Agent": "rag-workbench"})
    except httpx.TimeoutException:
        raise SourceError(f"{text} did not answer within {timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise SourceError(f"Could not fetch {text}: {type(exc).__name__}: {exc}") from None
    if response.status_code >= 400:
        raise SourceError(f"{text} answered HTTP {response.status_code}: check the address")
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
        raise SourceError(f"{text} has no text to preview")
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
