"""`rag status`: LM Studio, its models, the Qdrant backend and every collection."""

from __future__ import annotations

import argparse
import json

from rag.cli import Commands
from rag.i18n import t
from rag.config import Settings
from rag.status import format_status, gather_status


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "status",
        help=t("help.status"),
        description=t("help.status.description"),
    )
    parser.add_argument("--json", action="store_true", help=t("help.status.json"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = gather_status(Settings.from_env())
    if args.json:
        print(json.dumps(status, indent=2, ensure_ascii=False, default=str))
    else:
        print(format_status(status))
    # Reporting that something is down is this command's job, not a failure; an unusable
    # store is, since nothing else works without it.
    return 0 if status["qdrant"]["reachable"] else 1
