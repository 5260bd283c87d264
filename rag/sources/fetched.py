"""The files `rag fetch` wrote: which of them belong to posts the site no longer lists.

Only files that `rag fetch` itself wrote (front matter `source: wordpress` and a `wordpress_id`),
for a site this run read and a content type it read, are ever candidates: a folder may also
hold notes of its own, or the files of another site.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable
from urllib.parse import urlsplit

from rag.sources.files import FETCHED_SOURCE
from rag.sources.frontmatter import as_text, split_front_matter

_HEAD_BYTES = 64 * 1024  # front matter sits at the top; a fetched file's is a few lines


def fetched_identity(path: Path) -> tuple[str, str, str] | None:
    """(wordpress id, content type, url host) of a file `rag fetch` wrote, else None."""
    found = _fetched(path)
    return found[:3] if found else None


def _fetched(path: Path) -> tuple[str, str, str, bool] | None:
    """fetched_identity's, and whether the file says its post is public."""
    if path.is_symlink() or not path.is_file() or path.suffix.lower() != ".md":
        return None
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return None
    meta, _body, error = split_front_matter(head)
    if error or as_text(meta.get("source")) != FETCHED_SOURCE:
        return None
    post_id, url = as_text(meta.get("wordpress_id")), as_text(meta.get("url"))
    if not post_id or not url:
        return None
    # The REST base it was read from; files written before pages could be fetched are posts.
    kind = as_text(meta.get("wordpress_type")) or "posts"
    return post_id, kind, urlsplit(url).netloc.lower(), meta.get("access") == ["public"]


def stale_files(
    folder: Path,
    written: Iterable[str],
    keep_ids: Iterable[object],
    types: Iterable[str],
    hosts: Iterable[str],
    public_only: bool = False,
) -> list[Path]:
    """Files of `folder` (not its subfolders) that `rag fetch` wrote for a post of one of
    `hosts` and `types` (REST bases: posts, pages), that this run did not write (`written`
    file names) and whose post did not merely fail to convert (`keep_ids`). `public_only`: the
    run read the site anonymously, so it never listed private posts: their files stay."""
    written_names = set(written)
    kept = {str(i) for i in keep_ids}
    kinds = set(types)
    host_set = {h.lower() for h in hosts}
    stale: list[Path] = []
    for path in sorted(folder.glob("*.md")):
        if path.name in written_names:
            continue
        identity = _fetched(path)
        if identity is None:
            continue
        post_id, kind, host, public = identity
        if post_id in kept or kind not in kinds or host not in host_set or (public_only and not public):
            continue
        stale.append(path)
    return stale
