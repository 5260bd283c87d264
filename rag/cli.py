"""`rag` command line: one module per command under rag/commands/."""

from __future__ import annotations

import argparse
import importlib
import sys

from rag.errors import RagError

# Order is the order `rag --help` lists them.
COMMANDS = ["preview", "fetch", "ingest", "ask", "eval", "status", "migrate"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rag",
        description="Local RAG workbench: ingest a blog, preview chunking, ask with citations, evaluate.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"rag.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except RagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: run the same command again to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
