"""`rag ask "QUESTION"`: answer from the indexed articles, with citations and sources."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TextIO

from rag.cli import Commands
from rag.cli.argparse_language import number, whole_number
from rag.answer.engine import ask
from rag.journal.recorder import journal_recorder
from rag.answer.pipeline import AskResult, refusal_line
from rag.answer.citations import source_label
from rag.answer.ordering import order_note
from rag.answer.threshold import source_words
from rag.config import Settings
from rag.i18n import t
from rag.i18n.numbers import decimal, score_text

def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "ask",
        help=t("help.ask"),
        description=t("help.ask.description"),
    )
    parser.add_argument("question", metavar="QUESTION", help=t("help.ask.question"))
    answer_options(parser)
    parser.set_defaults(func=run)


def answer_options(parser: argparse.ArgumentParser) -> None:
    """The options of every command that answers (`rag ask`, `rag chat`)."""
    parser.add_argument("--collection", help=t("help.ask.collection"))
    parser.add_argument("--json", action="store_true", help=t("help.ask.json"))
    parser.add_argument("--top-k", type=whole_number, dest="top_k", help=t("help.ask.top_k"))
    parser.add_argument(
        "--threshold", type=number,
        help=t("help.ask.threshold"),
    )
    parser.add_argument(
        "--min-coverage", type=number, dest="min_coverage", metavar="SHARE",
        help=t("help.ask.min_coverage"),
    )
    parser.add_argument("--mode", choices=("auto", "dense", "hybrid"), default="auto",
                        help=t("help.ask.mode"))
    parser.add_argument("--groups", nargs="+", metavar="GROUP",
                        help=t("help.ask.groups"))
    parser.add_argument("--no-llm", action="store_true", dest="no_llm",
                        help=t("help.ask.no_llm"))


def settings_from(args: argparse.Namespace) -> Settings:
    settings = Settings.from_env()
    if args.min_coverage is not None:
        settings = settings.replace(min_coverage=args.min_coverage)
    return settings


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    out = sys.stdout
    streamed: list[str] = []

    def on_token(piece: str) -> None:
        streamed.append(piece)
        out.write(piece)
        out.flush()

    result = ask(
        args.question, settings, on_token=None if args.json else on_token,
        collection=args.collection, top_k=args.top_k, mode=args.mode, threshold=args.threshold,
        groups=args.groups, with_llm=not args.no_llm, recorders=[journal_recorder(settings)],
    )
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print_result(result, out, already_streamed=bool(streamed), passages=args.no_llm)
    # No answer could be written (LM Studio down, no model...): the caller should know.
    return 1 if result.llm_error else 0


def print_result(result: AskResult, out: TextIO, already_streamed: bool = False, passages: bool = False,
                 error_said: bool = False) -> None:
    """The answer (or refusal) and its sources; the passages too when no answer was written or
    when `passages` is asked for (retrieval only)."""
    def say(line: str = "") -> None:
        out.write(line + "\n")

    if result.refused and result.raw_answer and not already_streamed:
        say(result.raw_answer)
    elif result.answer is not None and not already_streamed:
        say(result.raw_answer or "")
    elif already_streamed:
        say()
    if result.refused:
        say(refusal_line(result))
    for note in result.notes:
        say()
        say(note)
    if result.llm_error:
        say(t("ask.no_answer_again") if error_said else t("ask.no_answer", error=result.llm_error))
    if result.llm_error or passages:
        if result.passages:
            say()
            source = source_words(result.threshold_source)
            say(t("ask.passages", threshold=decimal(result.threshold, 3), source=source))
            note = order_note(result.passages, result.ordering)  # why a lower score can come first
            if note:
                say("  " + note)
            for p in result.passages:
                mark = "" if p.n in result.accepted else "  " + t("ask.below")
                say(f"  [{p.n}] {score_text(p.score)}  {source_label(p)} - {p.url}{mark}")
                say(textwrap.indent(textwrap.shorten(p.text, 240, placeholder=" …"), "        "))
    if result.answer_urls:
        say()
        say(t("ask.answer_urls", urls=", ".join(result.answer_urls)))
    if result.sources:
        say()
        say(t("ask.sources"))
        for line in result.source_lines():
            say(f"  {line}")
    if result.invalid_citations:
        say()
        say(t("ask.invalid", numbers=", ".join(f"[{n}]" for n in result.invalid_citations)))
    if result.uncited and not result.llm_error:
        say()
        say(t("ask.uncited"))
    if result.dropped_passages and not result.notes:
        say()
        say(t("ask.dropped", numbers=", ".join(f"[{n}]" for n in result.dropped_passages)))
    for warning in result.warnings:
        say()
        say(t("cli.warning", message=warning))
