"""`rag fetch SITE --out DIR`: save every post of a WordPress site as a Markdown file.

Each file carries front matter (title, url, modified, access), so ingesting the folder later
gives the same documents as ingesting the site.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

from rag.auth import owner_only
from rag.cli import Commands
from rag.cli.argparse_language import number
from rag.documents import SKIPPED, WARNING, Document, Problem
from rag.environment import raw_from_env, secrets_from_env
from rag.errors import SourceError
from rag.i18n import t, tn
from rag.sources.fetched import stale_files
from rag.sources.files import FETCHED_SOURCE
from rag.sources.frontmatter import render_front_matter
from rag.sources.limits import DEFAULT_MAX_DOC_MB, MAX_DOC_MB_ENV, max_document_bytes
from rag.sources.wordpress import KNOWN_TYPES, WordPressSource, parse_types, post_slug


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "fetch",
        help=t("help.fetch"),
        description=t("help.fetch.description"),
    )
    parser.add_argument("site", metavar="SITE", help=t("help.fetch.site"))
    parser.add_argument("--out", required=True, type=Path, help=t("help.fetch.out"))
    parser.add_argument("--user", help=t("help.fetch.user"))
    parser.add_argument(
        "--app-password", dest="app_password",
        help=t("help.fetch.app_password"),
    )
    parser.add_argument("--modified-after", dest="modified_after", help=t("help.fetch.modified_after"))
    parser.add_argument(
        "--private-group", dest="private_group", default="private",
        help=t("help.fetch.private_group"),
    )
    parser.add_argument("--timeout", type=number, default=30.0, help=t("help.fetch.timeout"))
    parser.add_argument("--max-doc-mb", metavar="MB", type=number, default=None,
                        help=t("help.fetch.max_doc_mb", env=MAX_DOC_MB_ENV, mb=f"{DEFAULT_MAX_DOC_MB:g}"))
    parser.add_argument(
        "--types", default="posts", metavar="TYPES",
        help=t("help.fetch.types", types=", ".join(KNOWN_TYPES)),
    )
    parser.add_argument(
        "--prune", action="store_true",
        help=t("help.fetch.prune"),
    )
    parser.set_defaults(func=run)


def document_file_text(document: Document, post_id: object = None, rest_base: str | None = None) -> str:
    # `source: wordpress` tells the folder loader to keep the post's link as its url.
    meta: dict[str, object] = {"title": document.title, "url": document.url, "source": FETCHED_SOURCE}
    if document.modified:
        meta["modified"] = document.modified
    meta["access"] = list(document.access)
    if post_id is not None:
        meta["wordpress_id"] = post_id
    if rest_base:
        meta["wordpress_type"] = rest_base  # which listing it came from: --prune compares by type
    return render_front_matter(meta) + "\n" + document.markdown + "\n"


def _prune(out_dir: Path, written: list[str], failed_ids: list[object], types: tuple[str, ...],
           hosts: set[str], public_only: bool = False) -> int:
    """Delete the files of posts the site no longer lists; the number deleted."""
    if not hosts:
        # A site that answers an empty list by mistake must not empty the folder.
        print(t("fetch.no_post_listed"), file=sys.stderr, flush=True)
        return 0
    removed = 0
    for path in stale_files(out_dir, written, failed_ids, types, hosts, public_only):
        try:
            path.unlink()
        except OSError as exc:
            print(t("fetch.cannot_remove", name=path.name, error=exc.strerror or exc), file=sys.stderr, flush=True)
            continue
        removed += 1
        print(t("fetch.removed", name=path.name), flush=True)
    return removed


def run(args: argparse.Namespace) -> int:
    out_dir: Path = args.out
    if out_dir.exists() and not out_dir.is_dir():
        raise SourceError(t("fetch.out_is_file", path=out_dir))
    if args.prune and args.modified_after:
        raise SourceError(t("fetch.prune_modified_after"))
    types = parse_types(args.types)
    out_dir.mkdir(parents=True, exist_ok=True)
    username = args.user or raw_from_env()["wp_user"]
    password = args.app_password or secrets_from_env()["wp_app_password"]

    def on_page(page: int, total_pages: int | None, total_posts: int | None) -> None:
        of = f"/{total_pages}" if total_pages else ""
        posts = " " + tn("fetch.posts", total_posts) if total_posts is not None else ""
        kind = f"{source.current_type}: " if len(types) > 1 else ""
        print(f"{kind}{t('fetch.page', page=page)}{of}{posts}", file=sys.stderr, flush=True)

    source = WordPressSource(
        args.site,
        username=username,
        app_password=password,
        timeout=args.timeout,
        modified_after=args.modified_after,
        private_group=args.private_group,
        progress=on_page,
        max_bytes=max_document_bytes(args.max_doc_mb),
        types=types,
    )
    names: dict[str, object] = {}
    written = failed = warned = skipped = 0
    written_names: list[str] = []
    failed_ids: list[object] = []
    hosts: set[str] = set()
    for post, item in source.iter_items():
        if isinstance(post, dict) and isinstance(post.get("link"), str):
            hosts.add(urlsplit(post["link"]).netloc)
        if isinstance(item, Problem):
            stream_label = {WARNING: "fetch.warning", SKIPPED: "fetch.skipped"}.get(item.level, "fetch.problem")
            print(t(stream_label, problem=item), file=sys.stderr, flush=True)
            if item.level == WARNING:
                warned += 1
            elif item.level == SKIPPED:
                skipped += 1
            else:
                failed += 1
                if isinstance(post, dict):
                    failed_ids.append(post.get("id"))  # its earlier file stays: the failure may pass
            continue
        post_id = post.get("id") if isinstance(post, dict) else None
        name = post_slug(post) if isinstance(post, dict) else "post"
        if name in names and names[name] != post_id:
            name = f"{name}-{post_id}"
        names[name] = post_id
        target = out_dir / f"{name}.md"
        # A reader never sees half a file; not synced: a post lost in a crash is fetched again.
        owner_only.replace(target, document_file_text(item, post_id, source.current_type).encode("utf-8"), sync=False)
        written_names.append(target.name)
        written += 1
        print(t("fetch.wrote", name=target.name, title=item.title), flush=True)
    removed = _prune(out_dir, written_names, failed_ids, types, hosts, not source.authenticated) if args.prune else 0
    summary = tn("fetch.written", written, path=out_dir)
    if args.prune:
        summary += tn("fetch.n_removed", removed)
    if skipped:
        summary += tn("fetch.n_skipped", skipped)
    if failed:
        summary += tn("fetch.n_failed", failed)
    if warned:
        summary += tn("fetch.n_warnings", warned)
    print(summary, flush=True)
    return 1 if failed else 0
