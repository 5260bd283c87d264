"""`rag journal`: the questions readers asked, newest first, or the subjects no article covers."""

from __future__ import annotations

from collections import Counter

import argparse
import json
import sys
import textwrap
from datetime import UTC, datetime, timedelta

from rag.cli import Commands
from rag.cli.argparse_language import whole_number
from rag.config import Settings
from rag.i18n import t, tn
from rag.journal import report
from rag.journal.answers import reason_text
from rag.journal.readers import reader_labels
from rag.journal.records import OUTCOMES
from rag.journal.store import FILE, FOLDER, Journal
from rag.redact import known_secrets


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser("journal", help=t("help.journal"), description=t("help.journal.description"))
    parser.add_argument("view", nargs="?", choices=("list", "subjects"), default="list",
                        help=t("help.journal.view"))
    parser.add_argument("--outcome", choices=(*OUTCOMES, "refused"), help=t("help.journal.outcome"))
    parser.add_argument("--collection", help=t("help.journal.collection"))
    parser.add_argument("--days", type=whole_number, help=t("help.journal.days"))
    parser.add_argument("--search", help=t("help.journal.search"))
    parser.add_argument("--limit", type=whole_number, default=50, help=t("help.journal.limit"))
    parser.add_argument("--json", action="store_true", help=t("help.journal.json"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    path = settings.data_dir / FOLDER / FILE
    try:
        missing = not path.exists()
    except PermissionError:
        missing = False  # opening it says why it cannot be read
    if missing:
        print(json.dumps({"total": 0, "entries": []} if args.view == "list" else {"subjects": []})
              if args.json else t("journal.missing", path=str(path)))
        return 0
    # Never created here: reading a journal that is not there, or not ours, is an error.
    journal = Journal.open(settings.data_dir, secrets=known_secrets(settings), create=False)
    journal.purge(settings.journal_days)  # the retention, applied at each start
    outcome = report.REFUSED if args.outcome == "refused" or args.view == "subjects" else args.outcome
    since = datetime.now(UTC) - timedelta(days=args.days) if args.days else None
    entries = journal.entries(outcome=outcome, collection=args.collection, since=since, text=args.search)
    labels = reader_labels(journal.readers(), settings.journal_names, lambda n: t("journal.reader_n", n=n),
                           t("journal.no_account"), lambda n: t("journal.editor_n", n=n))
    out = sys.stdout
    if args.view == "subjects":
        subjects = report.subjects_of(entries, journal.rechecks())
        rows = [report.subject_row(s, labels) for s in subjects[: args.limit]]
        if args.json:
            print(json.dumps({"subjects": rows}, ensure_ascii=False, indent=2))
        else:
            _print_subjects(rows, out)
        return 0
    shown = entries[: args.limit]
    if args.json:
        print(json.dumps({"total": len(entries), "entries": [report.row(e, labels.get(e.reader, e.reader))
                                                              for e in shown]}, ensure_ascii=False, indent=2))
        return 0
    if not entries:
        print(t("journal.empty"))
        return 0
    print(tn("journal.count", len(entries), shown=len(shown)))
    for entry in shown:
        up, down = report.votes(entry)
        line = f"{entry.time[:16].replace('T', ' ')}  {labels.get(entry.reader, entry.reader)}  " \
               f"[{report.outcome_label(entry.outcome)}]  {entry.question}"
        print(line)
        why = reason_text(entry)
        if why:
            print(f"    {t('journal.why', reason=why)}")
        if entry.passages:
            print(f"    {t('journal.articles', titles=', '.join(report.articles(entry)[:3]))}")
        if up or down:
            print(f"    {t('journal.votes', up=up, down=down)}")
    return 0


def _print_subjects(rows: list[dict], out) -> None:  # noqa: ANN001 - a text stream
    if not rows:
        out.write(t("journal.no_subjects") + "\n")
        return
    for i, subject in enumerate(rows, 1):
        out.write(f"{i}. {subject['subject']}  ({tn('journal.readers', subject['readers'])}, "
                  f"{tn('journal.questions', len(subject['questions']))})\n")
        if subject["answered_now"]:
            out.write("   " + t("journal.answered_now", n=subject["answered_now"],
                                  titles=", ".join(subject["answered_by"])) + "\n")
        # A question asked again is one line with its count, not the same line twice.
        asked = Counter(q["question"] for q in subject["questions"])
        for question, times in list(asked.items())[:5]:
            again = f" (×{times})" if times > 1 else ""
            out.write(textwrap.shorten(f"   - {question}", 110 - len(again), placeholder=" …") + again + "\n")
