"""`rag migrate`: move the embedded store to Qdrant Edge, or copy collections to a Qdrant server."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from rag.cli import Commands
from rag.cli.argparse_language import whole_number
from rag.config import Settings
from rag.errors import StoreError
from rag.i18n import t
from rag.store.migrate import copy_collection
from rag.store.store import Store
from rag.redact import redact, strip_userinfo


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "migrate",
        help=t("help.migrate"),
        description=t("help.migrate.description"),
    )
    parser.add_argument("--to", metavar="URL",
                        help=t("help.migrate.to"))
    parser.add_argument("--from", dest="source", metavar="URL_OR_DIR",
                        help=t("help.migrate.from"))
    parser.add_argument("--collection", action="append", metavar="C",
                        help=t("help.migrate.collection"))
    parser.add_argument("--api-key", metavar="KEY",
                        help=t("help.migrate.api_key"))
    parser.add_argument("--replace", action="store_true",
                        help=t("help.migrate.replace"))
    parser.add_argument("--batch", type=whole_number, default=256, metavar="N", help=t("help.migrate.batch"))
    parser.set_defaults(func=run)


def _is_url(location: str) -> bool:
    return bool(re.match(r"^https?://", location.strip(), re.IGNORECASE))


def _open(location: str | None, base: Settings, api_key: str | None) -> Store:
    if location is None:
        return Store(base.replace(qdrant_url=None))
    if _is_url(location):
        return Store(base.replace(qdrant_url=location.strip().rstrip("/"), qdrant_api_key=api_key))
    return Store(base.replace(qdrant_url=None, data_dir=Path(location)))


def upgrade(settings: Settings) -> int:
    """Open the embedded store, which moves an older local-mode folder to Qdrant Edge, and say so."""
    path = settings.qdrant_path.resolve()
    store = Store(settings.replace(qdrant_url=None))
    try:
        report = store.upgraded
        if report is None:
            print(t("migrate.already_edge", path=path))
        else:
            for name, points in sorted(report.collections.items()):
                print(t("migrate.moved", name=name, points=points))
            print(t("migrate.backup", path=report.backup))
    finally:
        store.close()
    return 0


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if args.to is None:
        if args.source is not None or args.collection or args.replace:
            raise StoreError(t("migrate.need_to"))
        return upgrade(settings)
    api_key = args.api_key or settings.qdrant_api_key
    secrets = [api_key]
    if args.source is None and not settings.qdrant_path.is_dir():
        raise StoreError(t("migrate.no_store", path=settings.qdrant_path))
    if args.source is not None and not _is_url(args.source) and not (Path(args.source) / "qdrant").is_dir():
        raise StoreError(t("migrate.not_a_store", path=args.source))
    src = _open(args.source, settings, api_key)
    dst = _open(args.to, settings, api_key)
    try:
        names = args.collection or src.list_collections()
        if not names:
            print(t("migrate.empty", store=src.describe()))
            return 0
        print(redact(t("migrate.copying", source=src.describe(), target=dst.describe()), secrets))
        for name in names:
            def show(copied: int, total: int, name: str = name) -> None:
                print("\r" + t("migrate.progress", name=name, copied=copied, total=total), end="", file=sys.stderr, flush=True)

            report = copy_collection(src, dst, name, batch=args.batch, replace=args.replace, progress=show)
            print(file=sys.stderr)
            print(t("migrate.copied", name=report.name, points=report.points))
    finally:
        src.close()
        dst.close()
    if _is_url(args.to):
        print(t("migrate.use_server", url=strip_userinfo(args.to.strip().rstrip("/"))))
    return 0
