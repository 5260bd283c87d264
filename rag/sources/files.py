"""Documents from a local folder of .md/.markdown/.html/.htm files (recursive).

A document's url is its path relative to the folder with / separators, unless its front matter
gives a `url:` (files written by `rag fetch` do, so re-ingesting them keeps the site's links).
"""

from __future__ import annotations

import codecs
import os
import re
from datetime import datetime, UTC
from pathlib import Path
from typing import Iterable, Iterator

from rag.i18n import t
from rag.documents import SKIPPED, Document, Problem
from rag.errors import SourceError
from rag.markdown_structure import headings
from rag.sources.addresses import is_web_address
from rag.sources.html import html_title_and_main, html_to_markdown
from rag.sources.access_rule import AccessValueError, declared_access, effective_access
from rag.sources.frontmatter import as_text, split_front_matter
from rag.sources.limits import max_document_bytes, not_text, too_big
from rag.sources.notext import no_text_reason

MARKDOWN_SUFFIXES = (".md", ".markdown")
HTML_SUFFIXES = (".html", ".htm")
SUFFIXES = MARKDOWN_SUFFIXES + HTML_SUFFIXES
FETCHED_SOURCE = "wordpress"  # front-matter `source` written by `rag fetch`

_TAG = re.compile(r"<[^<>]+>")


def _decode(raw: bytes, item: str, problems: list[Problem]) -> str:
    if raw.startswith(codecs.BOM_UTF8):
        return raw[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(
            Problem(
                item,
                t("src.cp1252", byte=f"{raw[exc.start]:02x}", offset=exc.start),
                level="warning",
            )
        )
        return raw.decode("cp1252", errors="replace")


def first_h1(markdown: str) -> str | None:
    """The text of the first `# ` heading outside code blocks, without inline HTML tags."""
    for _, heading in headings(markdown):
        if heading.level == 1:
            text = " ".join(_TAG.sub("", heading.text).split())
            if text:
                return text
    return None


def _mtime_iso(path: Path) -> str | None:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC).isoformat(timespec="seconds")
    except OSError:
        return None


def relative_url(path: Path, root: Path) -> str:
    # abspath, not resolve: a symlinked file keeps the name it has in the folder.
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return path.name


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _link_problem(path: Path, root: Path, item: str) -> Problem | None:
    """A symbolic link whose target leaves the folder is not followed (say where it points)."""
    if not path.is_symlink():
        return None
    target = os.path.realpath(path)
    if _inside(target, os.path.realpath(root)):
        return None
    return Problem(
        item, t("src.link_outside", target=target), withdraw=True
    )


def load_file(
    path: str | Path,
    root: str | Path,
    default_access: Iterable[str] = ("public",),
    problems: list[Problem] | None = None,
    max_bytes: int | None = None,
) -> Document | Problem:
    """One file as a Document, or a Problem saying why it was skipped.

    Warnings about a file that was still used (cp1252 text, no access group left) are appended to
    `problems` when a list is given. A file whose front matter cannot be read is refused, never
    indexed with default settings: its access is unknown. See access_rule for how `default_access`
    and the front matter's `access` combine. `max_bytes` defaults to RAG_MAX_DOC_MB.
    """
    path, root = Path(path), Path(root)
    warnings: list[Problem] = problems if problems is not None else []
    item = relative_url(path, root)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        return Problem(item, t("src.not_a_document_skipped"))
    refused = _link_problem(path, root, item)
    if refused is not None:
        return refused
    limit = max_document_bytes() if max_bytes is None else max_bytes
    try:
        with open(os.path.realpath(path), "rb") as handle:
            raw = handle.read(limit + 1)  # never more than the cap in memory, whatever the size
    except OSError as exc:
        return Problem(item, t("src.unreadable", error=exc.strerror or exc))
    if len(raw) > limit:
        size = max(len(raw), _size(path))
        return Problem(item, too_big(size, limit) or t("src.over_limit"))
    if b"\x00" in raw:
        return Problem(item, t("src.binary"))
    text = _decode(raw, item, warnings).replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    if not text.strip():
        return Problem(item, t("src.empty"), level=SKIPPED)
    meta, body, front_matter_error = split_front_matter(text)
    if front_matter_error:
        return Problem(
            item,
            t("src.front_matter", error=front_matter_error),
            withdraw=True,
        )
    try:
        declared = declared_access(meta)
    except AccessValueError as exc:
        return Problem(item, t("src.not_indexed", error=exc), withdraw=True)

    title = as_text(meta.get("title"))
    if suffix in HTML_SUFFIXES:
        try:
            page_title, main_html = html_title_and_main(body)
            markdown = html_to_markdown(main_html)
        except Exception as exc:  # noqa: BLE001 - a converter failure concerns this file only
            return Problem(item, t("src.html_failed", error=f"{type(exc).__name__}: {exc}"))
    else:
        page_title = None
        markdown = body.strip("\n").rstrip()
    no_text = no_text_reason(markdown, as_text(meta.get("redirect_url")))
    if no_text:
        return Problem(item, no_text, level=SKIPPED)
    encoded = not_text(markdown)
    if encoded:
        return Problem(item, encoded)
    folder_access = list(default_access)
    access = effective_access(folder_access, declared)
    if not access and declared:
        warnings.append(Problem(
            item,
            t("src.no_common_group", declared=", ".join(declared), folder=", ".join(folder_access)),
            level="warning",
        ))
    # The contract's order: front matter, then the first `# ` heading; an HTML <title> often
    # carries a site suffix, so it only comes before the file name.
    title = title or first_h1(markdown) or page_title or path.stem
    # A folder document's url is its relative path, except in `rag fetch` output, whose files
    # keep the post's link so that ingesting the folder reproduces the site.
    fetched = as_text(meta.get("source")) == FETCHED_SOURCE
    given_url = as_text(meta.get("url")) if fetched else None
    if given_url and not is_web_address(given_url):
        # Only a site's address may stand for a file: "url: staff.md" would pass this file off as
        # another document of the folder.
        return Problem(item, t("src.bad_url", url=repr(given_url[:200])))
    return Document(
        url=given_url or item,
        title=" ".join(title.split()),
        markdown=markdown,
        modified=as_text(meta.get("modified")) or _mtime_iso(path),
        access=access,
        source="files",
        origin=os.path.abspath(root),
    )


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def iter_files(root: str | Path) -> Iterator[Path]:
    """Supported files under root in a stable order, hidden files and folders left out.

    Links to folders are yielded too (never descended into), so the caller can say it skipped them.
    """
    root = Path(root)
    for folder, dirnames, filenames in os.walk(root):
        visible = sorted(d for d in dirnames if not d.startswith("."))
        dirnames[:] = [d for d in visible if not os.path.islink(os.path.join(folder, d))]
        for name in visible:
            if name not in dirnames:
                yield Path(folder) / name
        for name in sorted(filenames):
            if name.startswith(".") or not name.lower().endswith(SUFFIXES):
                continue
            yield Path(folder) / name


def _folder_link(path: Path, root: Path) -> Problem:
    item = relative_url(path, root)
    target = os.path.realpath(path)
    if _inside(target, os.path.realpath(root)):
        return Problem(item, t("src.folder_link_inside", target=target), level="warning")
    return Problem(item, t("src.folder_link_outside", target=target))


def iter_folder(
    path: str | Path, default_access: Iterable[str] = ("public",), max_bytes: int | None = None,
) -> Iterator[Document | Problem]:
    """Every supported file under `path` as a Document; unusable files as Problems (and skipped).

    A symbolic link is followed only when its target is inside the folder.
    """
    root = Path(path)
    if not root.exists():
        raise SourceError(t("src.no_such_folder", path=root))
    limit = max_document_bytes() if max_bytes is None else max_bytes
    if root.is_file():
        problems: list[Problem] = []
        result = load_file(root, root.parent, default_access, problems, limit)
        yield from problems
        yield result
        return
    access = list(default_access)
    found = 0
    for file in iter_files(root):
        found += 1
        if os.path.isdir(file) and os.path.islink(file):
            yield _folder_link(file, root)
            continue
        problems = []
        result = load_file(file, root, access, problems, limit)
        yield from problems
        yield result
    if not found:
        raise SourceError(t("src.empty_folder", path=root))
