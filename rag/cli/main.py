"""`rag` command line: one module per command in this package."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from rag.cli.argparse_language import speaking
from rag.errors import RagError
from rag.environment import raw_from_env
from rag.i18n import cli_language, language, t
from rag.redact import RedactingFilter, install_redaction, known_secrets, redact

# Order is the order `rag --help` lists them.
COMMANDS = ["preview", "fetch", "ingest", "ask", "chat", "eval", "journal", "status", "migrate"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of `rag` and its commands; built inside `speaking(lang)`, argparse's own words
    (usage, section titles, errors) are in that language too."""
    parser = argparse.ArgumentParser(prog="rag", description=t("cli.description"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"rag.cli.{name}").register(sub)
    return parser


def _redact_logs() -> None:
    """One RedactingFilter on the root logger and its handlers, with the secrets set now."""
    root = logging.getLogger()
    for owner in [root, *root.handlers]:
        for old in [f for f in owner.filters if isinstance(f, RedactingFilter)]:
            owner.removeFilter(old)
    install_redaction(root)


def main(argv: list[str] | None = None) -> int:
    """Run one command in the CLI's language: RAG_UI_LANG, else the shell's locale, else French."""
    lang = cli_language(raw_from_env()["ui_lang"])
    with language(lang), speaking(lang):
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # Warnings from rag and the libraries go to stderr, with every configured secret masked.
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(name)s: %(message)s")
    _redact_logs()
    try:
        return int(args.func(args) or 0)
    except RagError as exc:
        secrets = known_secrets() + [getattr(args, "app_password", None) or ""]
        print(t("cli.error", message=redact(str(exc), secrets)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(t("cli.interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
