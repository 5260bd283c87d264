"""Replay a question set against a collection, write results.json / results.csv, keep a
history of runs, and compare two runs (two collections, or a run and an earlier one).

The index and the chat model are reached through callables so the dashboard, the CLI and
the tests share one runner; the metrics themselves are pure (rag.metrics, rag.calibration).
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import time
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from rag.calibration import calibrate
from rag.config import Settings
from rag.errors import RagError
from rag.metrics import contains_answer, hit_rank, llm_metrics, retrieval_metrics, threshold_shares
from rag.questions import Question, load_questions

__all__ = [
    "CONTRACT_SUMMARY_KEYS",
    "LLM_SUMMARY_KEYS",
    "calibrate",
    "compare",
    "embedder_for_collection",
    "format_comparison",
    "format_summary",
    "list_runs",
    "load_questions",
    "load_run",
    "make_answer_fn",
    "new_run_dir",
    "record_history",
    "replay",
    "run_eval",
    "write_comparison",
    "write_results",
]

CONTRACT_SUMMARY_KEYS = (
    "questions", "in_base", "out_of_base", "k", "hit_at_1", "hit_at_3", "hit_at_k", "mrr",
    "answer_in_context", "threshold", "suggested_threshold", "in_base_accepted", "out_of_base_refused",
)
LLM_SUMMARY_KEYS = ("answer_contains_expected", "refusal_rate_out_of_base", "invalid_citation_rate")
RESULTS_FILE = "results.json"
CSV_FILE = "results.csv"
COMPARISON_FILE = "comparison.json"

ProgressFn = Callable[[int, int, str], None]
# (question text, passages) -> passages, in rank order; each has .url, .score, .text
RetrieveFn = Callable[[str], Sequence[Any]]
# (question text, passages, threshold) -> an AskResult-like object
AnswerFn = Callable[[str, Sequence[Any], "float | None"], Any]


# -- running -------------------------------------------------------------------------------


def _top1(passages: Sequence[Any]) -> float | None:
    # The threshold applies to the dense cosine; in hybrid mode the RRF order may put a lower
    # cosine first, and the ask path refuses only when no passage reaches the threshold.
    scores = [p.score for p in passages if getattr(p, "score", None) is not None]
    return max(scores) if scores else None


def _citations(result: Any) -> list[int]:
    """Every extract number the answer cites, valid or not."""
    cited = getattr(result, "cited", None)
    if cited is None:
        cited = [s.get("n") if isinstance(s, Mapping) else getattr(s, "n", None)
                 for s in (getattr(result, "sources", None) or [])]
        cited += list(getattr(result, "invalid_citations", None) or [])
    return sorted({int(n) for n in cited if n is not None})


def question_row(
    q: Question,
    passages: Sequence[Any],
    threshold: float | None,
    result: Any | None = None,
) -> dict[str, Any]:
    """The results.json row of one question, from its retrieved passages (and its answer)."""
    top1 = _top1(passages)
    rank = hit_rank([p.url for p in passages], q.accepted_urls) if q.in_base else None
    row: dict[str, Any] = q.to_dict()
    row.update(
        {
            "top1_score": top1,
            "top1_url": passages[0].url if passages else None,
            "rank": rank,
            "retrieved": [{"url": p.url, "score": p.score} for p in passages],
            # Refused at the threshold: no passage reaches it (what the ask path does).
            "refused": top1 is None or (threshold is not None and top1 < threshold),
            "answer_in_context": contains_answer(q.expected_answer, [p.text for p in passages]),
        }
    )
    if result is not None:
        # The model's own text: notes appended for the reader are not part of what it wrote.
        answer = getattr(result, "raw_answer", None) or getattr(result, "answer", None) or ""
        refused = bool(getattr(result, "refused", False))
        invalid = sorted(int(n) for n in (getattr(result, "invalid_citations", None) or []))
        citations = _citations(result)
        uncited = getattr(result, "uncited", None)
        if uncited is None:  # an answer that cites no extract it was given
            uncited = bool(answer.strip()) and not refused and not (set(citations) - set(invalid))
        row.update(
            {
                "answer": answer,
                "answer_refused": refused,
                "citations": citations,
                "invalid_citations": invalid,
                "uncited": bool(uncited),
                "answer_contains_expected": (
                    None if not q.expected_answer
                    else not refused and bool(contains_answer(q.expected_answer, [answer]))
                ),
                "dropped_passages": list(getattr(result, "dropped_passages", None) or []),
                "llm_error": getattr(result, "llm_error", None),
            }
        )
    return row


def summarize(
    rows: Sequence[Mapping[str, Any]],
    k: int,
    threshold: float | None,
    with_llm: bool,
) -> dict[str, Any]:
    """The summary block: contract metrics, shares at the threshold and the calibration."""
    metrics = retrieval_metrics(rows, k)
    counts = dict(metrics.pop("counts"))
    shares = threshold_shares(rows)
    counts.update(shares.pop("counts"))
    in_scores = [r["top1_score"] for r in rows if r.get("in_base") and r.get("top1_score") is not None]
    out_scores = [r["top1_score"] for r in rows if not r.get("in_base") and r.get("top1_score") is not None]
    cal = calibrate(in_scores, out_scores, current=threshold)
    summary: dict[str, Any] = dict(metrics)
    summary.update(
        {
            "threshold": threshold,
            "suggested_threshold": cal.suggested,
            **shares,
        }
    )
    if with_llm:
        llm = llm_metrics(rows)
        counts.update(llm.pop("counts"))
        summary.update(llm)
    summary["calibration"] = cal.to_dict()
    summary["counts"] = counts
    return summary


def replay(
    questions: Sequence[Question],
    retrieve_fn: RetrieveFn,
    *,
    k: int,
    threshold: float | None,
    answer_fn: AnswerFn | None = None,
    progress: ProgressFn | None = None,
    context: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Replay `questions`: retrieval for each, the answer too when `answer_fn` is given.

    `context` (collection, model, strategy, chunk_settings, mode...) is merged into the summary
    so a results file says how the collection it measured was built.
    Returns {"summary": {...}, "questions": [...]}.
    """
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    total = len(questions)
    for done, q in enumerate(questions, start=1):
        passages = list(retrieve_fn(q.question))
        result = answer_fn(q.question, passages, threshold) if answer_fn is not None else None
        rows.append(question_row(q, passages, threshold, result))
        if progress is not None:
            progress(done, total, q.id)
    summary = summarize(rows, k, threshold, with_llm=answer_fn is not None)
    summary.update(dict(context or {}))
    summary["llm"] = answer_fn is not None
    summary.setdefault("date", datetime.now().astimezone().isoformat(timespec="seconds"))
    summary["seconds"] = round(time.monotonic() - started, 2)
    return {"summary": summary, "questions": rows}


def collection_context(info: Mapping[str, Any], mode: str, embedder_id: str | None = None) -> dict[str, Any]:
    """How the measured collection was built, from Store.collection_info()."""
    return {
        "collection": info.get("name"),
        "model": info.get("embedding_model"),
        "dimension": info.get("dimension"),
        "strategy": info.get("strategy"),
        "chunk_settings": info.get("chunk_settings") or {},
        "points": info.get("points"),
        "collection_updated": info.get("updated"),
        "mode": mode,
        "query_embedder": embedder_id,
    }


def unknown_sources(store: Any, collection: str, questions: Sequence[Question]) -> list[str]:
    """Expected urls with no point in the collection: a typo, or an article not ingested.

    Such questions can never be hits, whatever the chunking: worth saying before reading hit@k.
    """
    from qdrant_client import models as qm

    urls = sorted({u for q in questions if q.in_base for u in q.accepted_urls})
    missing = []
    for url in urls:
        flt = qm.Filter(must=[qm.FieldCondition(key="url", match=qm.MatchValue(value=url))])
        if next(iter(store.scroll(collection, payload=False, flt=flt, limit=1)), None) is None:
            missing.append(url)
    return missing


def run_eval(
    questions: Sequence[Question],
    store: Any,
    embedder: Any,
    collection: str,
    *,
    top_k: int = 6,
    mode: str = "auto",
    threshold: float | None = None,
    answer_fn: AnswerFn | None = None,
    progress: ProgressFn | None = None,
    groups: Sequence[str] | None = None,
    question_set: str | None = None,
    threshold_source: str | None = None,
) -> dict[str, Any]:
    """Replay `questions` against a real collection through rag.retrieve.

    `threshold` None: the collection's calibrated value, else the model's default (as `rag ask`).
    `answer_fn` (see make_answer_fn) adds the chat model's answers and their checks.
    `progress(done, total, question_id)` is called after each question.
    """
    from rag.retrieve import resolve_mode, retrieve
    from rag.threshold import SETTING, resolve_threshold

    info = store.collection_info(collection)
    if info is None:
        raise RagError(
            f"The collection {collection!r} does not exist; ingest a source into it first "
            f"(rag ingest SOURCE --collection {collection})."
        )
    effective_mode = resolve_mode(mode, info)
    if threshold is None:
        threshold, threshold_source = resolve_threshold(None, info, info.get("embedding_model"))
    elif threshold_source is None:
        threshold_source = SETTING

    def retrieve_fn(text: str) -> Sequence[Any]:
        return retrieve(text, store, embedder, collection, top_k=top_k, mode=mode, groups=groups)

    context = collection_context(info, effective_mode, getattr(embedder, "model_id", None))
    context["unknown_sources"] = unknown_sources(store, collection, questions)
    context["threshold_source"] = threshold_source
    if question_set:
        context["question_set"] = question_set
    return replay(
        questions, retrieve_fn, k=top_k, threshold=threshold, answer_fn=answer_fn,
        progress=progress, context=context,
    )


# -- writing and history -------------------------------------------------------------------

CSV_COLUMNS = [
    "id", "question", "in_base", "category", "expected_source", "also_in", "expected_answer",
    "top1_score", "top1_url", "rank", "refused", "answer_in_context", "retrieved",
]
CSV_LLM_COLUMNS = [
    "answer", "answer_refused", "answer_contains_expected", "citations", "invalid_citations",
    "uncited", "llm_error",
]


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, (list, tuple)):
        parts = []
        for item in value:
            if isinstance(item, Mapping) and "url" in item:
                score = item.get("score")
                parts.append(f"{item['url']} ({score:.4f})" if isinstance(score, (int, float)) else str(item["url"]))
            else:
                parts.append(str(item))
        return "; ".join(parts)
    return value


def write_results(results: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write results.json and results.csv into out_dir; return the results.json path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / RESULTS_FILE
    path.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    columns = CSV_COLUMNS + (CSV_LLM_COLUMNS if results["summary"].get("llm") else [])
    # utf-8-sig: a spreadsheet opening the file then shows accents correctly.
    with (out / CSV_FILE).open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for row in results["questions"]:
            writer.writerow([_csv_cell(row.get(c)) for c in columns])
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "run"


def new_run_dir(settings: Settings, collection: str, now: datetime | None = None) -> Path:
    """A fresh folder $RAG_DATA_DIR/evals/<timestamp>-<collection>/ (suffixed if taken)."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = Path(settings.evals_dir) / f"{stamp}-{_slug(collection)}"
    path, n = base, 2
    while path.exists():
        path = base.with_name(f"{base.name}-{n}")
        n += 1
    path.mkdir(parents=True)
    return path


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def record_history(settings: Settings, results_path: str | Path) -> Path:
    """Keep a run in the history: a run written outside $RAG_DATA_DIR/evals is copied there."""
    results_path = Path(results_path)
    if _inside(results_path, Path(settings.evals_dir)):
        return results_path
    summary = json.loads(results_path.read_text(encoding="utf-8"))["summary"]
    folder = new_run_dir(settings, str(summary.get("collection") or "run"))
    shutil.copy2(results_path, folder / RESULTS_FILE)
    csv_path = results_path.with_name(CSV_FILE)
    if csv_path.exists():
        shutil.copy2(csv_path, folder / CSV_FILE)
    (folder / "origin.txt").write_text(f"{results_path.parent.resolve()}\n", encoding="utf-8")
    return folder / RESULTS_FILE


HISTORY_KEYS = (
    "date", "collection", "model", "strategy", "chunk_settings", "mode", "k", "llm", "questions",
    "in_base", "out_of_base", "hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context",
    "threshold", "suggested_threshold", "question_set",
)


def list_runs(settings: Settings) -> list[dict[str, Any]]:
    """Every run kept under $RAG_DATA_DIR/evals, newest first: its folder and build settings."""
    root = Path(settings.evals_dir)
    if not root.is_dir():
        return []
    runs = []
    for path in root.rglob(RESULTS_FILE):
        try:
            summary = json.loads(path.read_text(encoding="utf-8"))["summary"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a half-written or foreign file is not a run
        entry = {key: summary.get(key) for key in HISTORY_KEYS}
        entry["path"] = str(path.parent)
        runs.append(entry)
    runs.sort(key=lambda r: (str(r.get("date") or ""), r["path"]), reverse=True)
    return runs


def load_run(path: str | Path) -> dict[str, Any]:
    """Load results.json from a run folder (or the file itself)."""
    path = Path(path)
    file = path / RESULTS_FILE if path.is_dir() else path
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise RagError(f"No results at {file}: give a run folder from `rag eval` or its results.json") from exc
    except ValueError as exc:
        raise RagError(f"{file} is not valid JSON ({exc}); run `rag eval` again to rewrite it") from exc
    if not isinstance(data, dict) or "summary" not in data or "questions" not in data:
        raise RagError(f"{file} is not a `rag eval` results file (no summary/questions)")
    data["summary"].setdefault("path", str(file.parent))
    return data


# -- comparison ----------------------------------------------------------------------------

COMPARED_METRICS = (
    "hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context", "in_base_accepted",
    "out_of_base_refused", "threshold", "suggested_threshold", "answer_contains_expected",
    "refusal_rate_out_of_base", "refusal_rate_in_base", "invalid_citation_rate", "uncited_rate",
)
_SIDE_KEYS = ("collection", "date", "model", "strategy", "chunk_settings", "mode", "k", "llm", "path")


def compare(results_a: Mapping[str, Any], results_b: Mapping[str, Any]) -> dict[str, Any]:
    """A against B: metric deltas (B - A) and, for in-base questions asked in both, who finds
    the expected article (A only, B only, both, neither) and how its rank moved."""
    sa, sb = results_a["summary"], results_b["summary"]
    metrics = {}
    for key in COMPARED_METRICS:
        if key not in sa and key not in sb:
            continue
        a, b = sa.get(key), sb.get(key)
        delta = b - a if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None
        metrics[key] = {"a": a, "b": b, "delta": delta}

    rows_a = {r["id"]: r for r in results_a["questions"]}
    rows_b = {r["id"]: r for r in results_b["questions"]}
    common = [i for i in rows_a if i in rows_b]
    groups: dict[str, list[str]] = {"a_only": [], "b_only": [], "both": [], "neither": []}
    rank_changes = []
    for qid in common:
        ra, rb = rows_a[qid], rows_b[qid]
        if not (ra.get("in_base") and rb.get("in_base")):
            continue
        found_a, found_b = ra.get("rank") is not None, rb.get("rank") is not None
        key = "both" if found_a and found_b else "a_only" if found_a else "b_only" if found_b else "neither"
        groups[key].append(qid)
        if ra.get("rank") != rb.get("rank"):
            rank_changes.append(
                {"id": qid, "question": ra.get("question"), "rank_a": ra.get("rank"), "rank_b": rb.get("rank")}
            )
    return {
        "a": {k: sa.get(k) for k in _SIDE_KEYS},
        "b": {k: sb.get(k) for k in _SIDE_KEYS},
        "same_question_set": set(rows_a) == set(rows_b),
        "common_questions": len(common),
        "only_in_a": [i for i in rows_a if i not in rows_b],
        "only_in_b": [i for i in rows_b if i not in rows_a],
        "metrics": metrics,
        "found": groups,
        "rank_changes": rank_changes,
    }


def write_comparison(comparison: Mapping[str, Any], out_dir: str | Path) -> Path:
    path = Path(out_dir) / COMPARISON_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(comparison, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


# -- plain-language reports ----------------------------------------------------------------

_LABELS = {
    "hit_at_1": "hit@1", "hit_at_3": "hit@3", "hit_at_k": "hit@k", "mrr": "MRR",
    "answer_in_context": "answer in context", "in_base_accepted": "in-base accepted",
    "out_of_base_refused": "off-topic refused", "threshold": "threshold",
    "suggested_threshold": "suggested threshold", "answer_contains_expected": "answer contains expected",
    "refusal_rate_out_of_base": "off-topic refusals", "refusal_rate_in_base": "in-base refusals",
    "invalid_citation_rate": "invalid citations", "uncited_rate": "uncited answers",
}
_SCORES = {"mrr", "threshold", "suggested_threshold"}


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.0f}%"


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _of(n: int, total: int, what: str) -> str:
    return f"{n} of {total} {what}"


def _build_line(s: Mapping[str, Any]) -> str:
    parts = [f"model {s.get('model')}", f"strategy {s.get('strategy')}"]
    if s.get("mode"):
        parts.append(f"{s['mode']} retrieval")
    parts.append(f"top {s.get('k')}")
    return f"Collection {s.get('collection')} ({', '.join(parts)})"


def format_summary(results: Mapping[str, Any]) -> str:
    """A summary a non-developer can read."""
    s = results["summary"]
    c = s.get("counts", {})
    n_in, n_out, k = s["in_base"], s["out_of_base"], s["k"]
    lines = [_build_line(s), f"{s['questions']} questions: {n_in} in-base, {n_out} off-topic"]
    unknown = s.get("unknown_sources") or []
    if unknown:
        lines.append(
            f"warning: {len(unknown)} expected source url(s) are not in the collection, so their questions "
            f"cannot be found (a typo, or the article was not ingested): {_ids(unknown, 5)}"
        )
    if n_in:
        lines += [
            f"hit@1 {_pct(s['hit_at_1'])} ({_of(c.get('hit_at_1', 0), n_in, 'in-base questions')} "
            "find the right article first)",
            f"hit@3 {_pct(s['hit_at_3'])} ({c.get('hit_at_3', 0)} of {n_in} find it in the first 3 passages)",
            f"hit@{k} {_pct(s['hit_at_k'])} ({c.get('hit_at_k', 0)} of {n_in} find it among the {k} "
            "passages retrieved)",
            f"MRR {_num(s['mrr'])} (1.00 = always first, 0.50 = second on average)",
        ]
    else:
        lines.append("no in-base question: retrieval quality cannot be measured")
    if s.get("answer_in_context") is None:
        lines.append("answer in context n/a (no in-base question has an expected_answer)")
    else:
        lines.append(
            f"answer in context {_pct(s['answer_in_context'])} ({c.get('answer_in_context', 0)} of "
            f"{c.get('with_expected_answer', 0)} expected answers appear word for word in the passages)"
        )
    if s.get("threshold") is not None:
        lines.append(
            f"at threshold {_num(s['threshold'])}: {c.get('in_base_accepted', 0)} of {n_in} in-base questions "
            f"answered ({_pct(s['in_base_accepted'])}), {c.get('out_of_base_refused', 0)} of {n_out} "
            f"off-topic refused ({_pct(s['out_of_base_refused'])})"
        )
    cal = s.get("calibration") or {}
    if s.get("suggested_threshold") is not None:
        at = cal.get("at_suggested") or {}
        now = (cal.get("at_current") or {}).get("balanced_accuracy")
        versus = f"; {_num(now)} at the current threshold" if now is not None else ""
        lines.append(
            f"suggested threshold {_num(s['suggested_threshold'])}: {at.get('in_base_accepted_count')} of {n_in} "
            f"answered, {at.get('out_of_base_refused_count')} of {n_out} refused "
            f"(balanced accuracy {_num(cal.get('balanced_accuracy'))}{versus})"
        )
    elif cal.get("reason"):
        lines.append(f"no suggested threshold: {cal['reason']}")
    if cal.get("overlap_sentence") and n_in and n_out:
        lines.append(cal["overlap_sentence"])
    if s.get("llm"):
        answered = c.get("answered", 0)
        if c.get("with_expected_answer"):
            lines.append(
                f"answers containing the expected text {_pct(s.get('answer_contains_expected'))} "
                f"({c.get('answer_contains_expected', 0)} of {c.get('with_expected_answer', 0)})"
            )
        if n_out:
            lines.append(
                f"off-topic questions refused {_pct(s.get('refusal_rate_out_of_base'))} "
                f"({c.get('out_of_base_answer_refused', 0)} of {n_out})"
            )
        lines.append(
            f"answers citing an extract that does not exist {_pct(s.get('invalid_citation_rate'))} "
            f"({c.get('with_invalid_citations', 0)} of {answered} answers)"
        )
        lines.append(
            f"answers with no citation {_pct(s.get('uncited_rate'))} ({c.get('uncited', 0)} of {answered} answers)"
        )
        if c.get("llm_errors"):
            lines.append(f"{c['llm_errors']} questions got no answer from the chat model (see llm_error in the CSV)")
    return "\n".join(lines)


def _delta(key: str, d: Mapping[str, Any]) -> str:
    fmt = _num if key in _SCORES else _pct
    text = f"{fmt(d['a'])} -> {fmt(d['b'])}"
    if d["delta"] is None:
        return text
    if key in _SCORES:
        return f"{text} ({d['delta']:+.2f})" if abs(d["delta"]) >= 0.005 else f"{text} (same)"
    points = round(d["delta"] * 100)
    return f"{text} ({points:+d} points)" if points else f"{text} (same)"


def _ids(ids: Iterable[str], limit: int = 12) -> str:
    ids = list(ids)
    shown = ", ".join(ids[:limit])
    return shown + (f" ... (+{len(ids) - limit})" if len(ids) > limit else "")


def format_comparison(cmp: Mapping[str, Any]) -> str:
    """A readable diff of two runs."""
    a = cmp["a"].get("collection") or "A"
    b = cmp["b"].get("collection") or "B"
    if a == b:
        a, b = f"{a} ({cmp['a'].get('date')})", f"{b} ({cmp['b'].get('date')})"
    def side(label: str, name: str, info: Mapping[str, Any]) -> str:
        return (f"{label} = {name} (strategy {info.get('strategy')}, model {info.get('model')}, "
                f"{info.get('mode')} retrieval, top {info.get('k')})")

    lines = [side("A", a, cmp["a"]), side("B", b, cmp["b"])]
    if not cmp["same_question_set"]:
        lines.append(
            f"the question sets differ: {cmp['common_questions']} questions in common "
            "(only those are compared question by question)"
        )
    for key, d in cmp["metrics"].items():
        label = _LABELS.get(key, key)
        if key == "hit_at_k" and cmp["a"].get("k") == cmp["b"].get("k") and cmp["a"].get("k"):
            label = f"hit@{cmp['a']['k']}"
        lines.append(f"  {label}: {_delta(key, d)}")
    found = cmp["found"]
    lines.append(
        f"found by both {len(found['both'])}, by A only {len(found['a_only'])}, "
        f"by B only {len(found['b_only'])}, by neither {len(found['neither'])}"
    )
    if found["a_only"]:
        lines.append(f"  found by A only: {_ids(found['a_only'])}")
    if found["b_only"]:
        lines.append(f"  found by B only: {_ids(found['b_only'])}")
    changes = cmp["rank_changes"]
    if changes:
        better = sum(
            1 for c in changes if c["rank_a"] is None or (c["rank_b"] is not None and c["rank_b"] < c["rank_a"])
        )
        lines.append(f"rank changed for {len(changes)} questions ({better} better in B, {len(changes) - better} worse)")
        for c in changes[:12]:
            ra = c["rank_a"] if c["rank_a"] is not None else "missed"
            rb = c["rank_b"] if c["rank_b"] is not None else "missed"
            lines.append(f"  {c['id']}: {ra} -> {rb}")
    return "\n".join(lines)


def make_answer_fn(settings: Settings, threshold_source: str = "setting", llm: Any = None) -> AnswerFn:
    """Answers through rag.answer, from the passages the runner already retrieved."""
    from rag.answer import answer_passages
    from rag.llm import LLMClient
    from rag.threshold import default_threshold

    client = llm if llm is not None else LLMClient.from_settings(settings)

    def answer_fn(question: str, passages: Sequence[Any], threshold: float | None) -> Any:
        value = threshold if threshold is not None else default_threshold(None)
        return answer_passages(question, passages, client, value, threshold_source, log_dir=settings.logs_dir)

    return answer_fn


def embedder_for_collection(settings: Settings, info: Mapping[str, Any]) -> tuple[Any, str]:
    """The embedder that can query this collection: the model that built it.

    Two collections built with two models are compared with one embedder each; any other
    model would score nonsense, so the collection's recorded model wins over RAG_EMBED_MODEL.
    """
    from rag.embeddings import embedder_for_collection as for_collection

    return for_collection(settings, info, follow_collection=True)
