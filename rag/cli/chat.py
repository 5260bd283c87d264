"""`rag chat [FILE]`: a conversation, one question a line (standard input, or a file), each turn
played as the Ask page plays it (rag.answer.engine.AnswerEngine.chat): small talk, follow-ups judged
as asked then made standalone, the gate before any answer call. `--json`: one turn a line, with the
keys of `rag ask --json`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Iterable, TextIO

from rag.answer.engine import AnswerEngine
from rag.answer.turn import Turn
from rag.cli import Commands
from rag.cli.ask import answer_options, print_result, settings_from
from rag.errors import RagError
from rag.i18n import t
from rag.journal.recorder import journal_recorder
from rag.journal.records import new_id

MAX_QUESTION_CHARS = 4000  # one line of a conversation: a question, a pasted log at most
MAX_FILE_BYTES = 1_000_000  # a conversation file: questions, not a dump


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser("chat", help=t("help.chat"), description=t("help.chat.description"))
    parser.add_argument("file", metavar="FILE", nargs="?", help=t("help.chat.file"))
    answer_options(parser)
    parser.set_defaults(func=run)


def questions(lines: Iterable[str]) -> Iterable[str]:
    """The conversation's questions: one a line, blank lines skipped."""
    for number, line in enumerate(lines, 1):
        question = line.strip()
        if not question:
            continue
        if len(question) > MAX_QUESTION_CHARS:
            raise RagError(t("chat.too_long", line=number, chars=MAX_QUESTION_CHARS))
        yield question


def _read(path: str | None) -> Iterable[str]:
    if path is None or path == "-":
        return sys.stdin
    file = Path(path)
    try:
        if file.stat().st_size > MAX_FILE_BYTES:
            raise RagError(t("chat.file_too_big", path=path, mb=MAX_FILE_BYTES // 1_000_000))
        return file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise RagError(t("chat.unreadable", path=path, error=str(exc))) from exc


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    engine = AnswerEngine(settings, collection=args.collection, top_k=args.top_k, mode=args.mode,
                          threshold=args.threshold, groups=args.groups, with_llm=not args.no_llm,
                          recorders=[journal_recorder(settings, conversation_id=new_id())])
    out = sys.stdout
    history: list[Turn] = []
    failed = False
    said: set[str] = set()  # the chat model's errors already printed whole in this conversation
    for question in questions(_read(args.file)):
        turn = engine.chat(question, history)
        if args.json:
            print(json.dumps(turn.to_json(), ensure_ascii=False), file=out, flush=True)
        else:
            print_turn(turn, out, passages=args.no_llm, error_said=turn.result.llm_error in said)
        if turn.result.llm_error:
            said.add(turn.result.llm_error)
        failed = failed or bool(turn.result.llm_error)
        history.append(turn)
    if not history:
        raise RagError(t("chat.no_question"))
    return 1 if failed else 0


def print_turn(turn: Turn, out: TextIO, passages: bool = False, error_said: bool = False) -> None:
    """The question, what was searched when it was not the question as asked, then the answer
    as it streams, as `rag ask` prints it; the chat model's error said whole once a conversation
    (`error_said`: printed at an earlier turn, now said in a line)."""
    out.write(f"> {turn.question}\n")
    if turn.small_talk:
        out.write(t("chat.small_talk") + "\n\n")
        return
    if turn.understood.rewritten:
        out.write(t("chat.understood", question=turn.understood.standalone) + "\n")
    streamed = False
    for piece in turn:
        streamed = True
        out.write(piece)
        out.flush()
    print_result(turn.result, out, already_streamed=streamed, passages=passages, error_said=error_said)
    out.write("\n")

