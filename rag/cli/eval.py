"""`rag eval`: replay a question set against a collection and report, in plain words."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rag.cli import Commands
from rag.cli.argparse_language import whole_number
from rag.config import Settings
from rag.errors import RagError
from rag.i18n import t
from rag.i18n.numbers import decimal
from rag.evaluate.calibration import small_sample_warning
from rag.evaluate.runs import _slug
from rag.evaluate.report import format_comparison, format_summary
from rag.evaluate.compare import compare, write_comparison
from rag.evaluate.results import Results, SavedGate, Summary
from rag.evaluate.session import EvalSession
from rag.evaluate.runs import list_runs, load_run, new_run_dir, record_history, write_results
from rag.evaluate.saving import save_suggestion
from rag.evaluate.questions import load_questions


def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "eval",
        help=t("help.eval"),
        description=t("help.eval.description"),
    )
    parser.add_argument("--questions", required=True, metavar="FILE", help=t("help.eval.questions"))
    parser.add_argument("--collection", help=t("help.eval.collection"))
    parser.add_argument("--no-llm", action="store_true", help=t("help.eval.no_llm"))
    parser.add_argument(
        "--out", metavar="DIR", help=t("help.eval.out")
    )
    parser.add_argument(
        "--compare", metavar="COLLECTION2", help=t("help.eval.compare")
    )
    parser.add_argument(
        "--compare-run",
        metavar="RUN",
        help=t("help.eval.compare_run"),
    )
    parser.add_argument(
        "--save-threshold",
        action="store_true",
        help=t("help.eval.save_threshold"),
    )
    parser.add_argument("--mode", choices=["auto", "dense", "hybrid"], default="auto", help=t("help.eval.mode"))
    parser.add_argument("--top-k", type=whole_number, metavar="K", help=t("help.eval.top_k"))
    parser.add_argument("--json", action="store_true", help=t("help.eval.json"))
    parser.add_argument("--groups", nargs="+", metavar="GROUP",
                        help=t("help.eval.groups"))
    parser.set_defaults(func=run)


class _Progress:
    """Progress on stderr: rewritten in place on a terminal, a few lines otherwise."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, total: int, question_id: str) -> None:
        line = t("eval.progress", label=self.label, done=done, total=total, id=question_id)
        if self.tty:
            end = "\n" if done == total else ""
            print(f"\r{line}\033[K", end=end, file=sys.stderr, flush=True)
        elif done == total or done % 10 == 0:
            print(line, file=sys.stderr, flush=True)


def _run_one(
    settings: Settings,
    store: Any,
    questions: list,
    collection: str,
    args: argparse.Namespace,
    out_dir: Path,
    shared: tuple[float, str] | None = None,
) -> Results:
    session = EvalSession(settings, store, questions, question_set=str(Path(args.questions).resolve()),
                          with_llm=not args.no_llm, top_k=args.top_k, mode=args.mode, groups=args.groups,
                          on_embedder=lambda sentence: print(sentence, file=sys.stderr))
    results = Results.of(session.run(collection, shared, progress=_Progress(collection)))
    summary = results.summary
    if args.save_threshold and summary.complete:
        record, summary.saved_threshold = save_suggestion(store, collection, summary, Path(args.questions).name)
        summary.saved_gate = SavedGate.of(record) if record else None
    path = write_results(results.to_dict(), out_dir)
    summary.path = str(out_dir)
    record_history(settings, path)
    return results


def _previous_run(settings: Settings, spec: str, current: Results) -> dict[str, Any]:
    if spec != "latest":
        return load_run(spec)
    here = Path(current.summary.path).resolve()
    collection = current.summary.collection
    for run in map(Summary.of, list_runs(settings)):
        if run.collection != collection or Path(run.path).resolve() == here:
            continue
        if (Path(run.path) / "origin.txt").is_file() and (
            Path(run.path) / "origin.txt"
        ).read_text(encoding="utf-8").strip() == str(here):
            continue  # the history copy of this very run
        return load_run(run.path)
    raise RagError(t("eval.no_earlier_run", name=repr(collection), path=settings.evals_dir))


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if args.top_k is not None and args.top_k < 1:
        raise RagError(t("eval.top_k", value=args.top_k))
    if args.compare and args.compare_run:
        raise RagError(t("eval.compare_both"))
    questions = load_questions(args.questions)
    collection = args.collection or settings.collection

    from rag.store.store import Store

    store = Store(settings)
    session = EvalSession(settings, store, questions)
    for name in filter(None, (collection, args.compare)):
        session.info(name)  # a missing collection stops here, before the history gets an empty run folder
    label = f"{collection}-vs-{args.compare}" if args.compare else collection
    out_dir = Path(args.out) if args.out else new_run_dir(settings, label)
    # Two collections are measured at one threshold, decided before either run can save a new one.
    shared = session.shared_floor([collection, args.compare]) if args.compare else None
    results = _run_one(settings, store, questions, collection, args, out_dir, shared)

    comparison = None
    if args.compare:
        other_dir = out_dir / f"compare-{_slug(args.compare)}"
        other = _run_one(settings, store, questions, args.compare, args, other_dir, shared)
        comparison = compare(results, other)
        write_comparison(comparison, out_dir)
    elif args.compare_run:
        comparison = compare(_previous_run(settings, args.compare_run, results), results)
        write_comparison(comparison, out_dir)

    summary = results.summary
    if args.json:
        print(json.dumps({"summary": summary.to_dict(), "comparison": comparison}, ensure_ascii=False, indent=2))
    else:
        print(format_summary(results))
        if comparison is not None:
            print()
            print(format_comparison(comparison))
        print("\n" + t("eval.results", path=out_dir / "results.json"))

    status = 0
    for failure in summary.failed_questions:
        print(t("eval.question_failed", id=failure.id, line=failure.line, error=failure.error), file=sys.stderr)
        status = 1
    if summary.stopped:
        print(t("eval.stopped", done=summary.questions, total=summary.question_set_size,
                why=summary.stopped, path=out_dir / "results.json"), file=sys.stderr)
        status = 2
    if args.save_threshold:
        if summary.saved_threshold is not None:
            saved = summary.saved_gate
            extra = t("eval.words_off") if saved and saved.min_coverage == 0 else ""
            print(t("eval.saved", threshold=decimal(summary.saved_threshold, 4, trim=True), extra=extra,
                    name=repr(collection)), file=sys.stderr)
            few = small_sample_warning(summary.in_base, summary.out_of_base)
            if few:
                print(few, file=sys.stderr)
        else:
            reason = summary.calibration.reason or t("eval.no_suggestion")
            if not summary.complete:
                reason = t("eval.partial")
            print(t("eval.not_saved", reason=reason), file=sys.stderr)
            status = max(status, 1)
    if summary.counts.llm_errors:
        print(t("eval.llm_errors", n=summary.counts.llm_errors), file=sys.stderr)
        status = max(status, 1)
    return status
