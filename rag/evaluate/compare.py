"""Two runs side by side (two collections, or a run and an earlier one): the measures' deltas, who
finds the expected article, how ranks moved (comparison.json), and the one cosine floor two
collections are measured at."""

from __future__ import annotations

import json
from pathlib import Path
from dataclasses import fields
from typing import Any, Mapping

from rag.evaluate.metrics import chat_model_down as model_down
from rag.evaluate.results import Comparison, Found, MetricDelta, RankChange, Results, RunSide, Summary

COMPARISON_FILE = "comparison.json"


COMPARED_METRICS = (
    "hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context", "in_base_accepted",
    "out_of_base_refused", "threshold", "suggested_threshold", "answer_contains_expected",
    "refusal_rate_out_of_base", "refusal_rate_in_base", "invalid_citation_rate", "uncited_rate",
    "prompt_tokens_mean", "first_token_seconds_median",
)


# Measures of the chat model's answers: a run that never reached it has none (0 % would read as
# a verdict on answers that were never written).
ANSWER_METRICS = ("answer_contains_expected", "refusal_rate_out_of_base", "refusal_rate_in_base",
                  "invalid_citation_rate", "uncited_rate", "prompt_tokens_mean", "first_token_seconds_median")


def chat_model_down(results: Results | Mapping[str, Any]) -> bool:
    """A run with the chat model that never reached it (rag.evaluate.metrics.chat_model_down): its
    answer measures mean nothing, in a results.json written before they were recorded as null too."""
    run = Results.of(results)
    return run.summary.llm and model_down([r.to_dict() for r in run.questions])


def _measured(run: Results) -> dict[str, Any]:
    """The compared measures a run has (a measure an older file lacks is left out, not None)."""
    down = chat_model_down(run)
    return {key: None if down and key in ANSWER_METRICS else getattr(run.summary, key, None)
            for key in COMPARED_METRICS if run.summary.has(key)}


def compare(results_a: Results | Mapping[str, Any], results_b: Results | Mapping[str, Any]) -> dict[str, Any]:
    """A against B: metric deltas (B - A) and, for in-base questions asked in both, who finds
    the expected article (A only, B only, both, neither) and how its rank moved (comparison.json)."""
    run_a, run_b = Results.of(results_a), Results.of(results_b)
    sa, sb = _measured(run_a), _measured(run_b)
    metrics = {}
    for key in COMPARED_METRICS:
        if key not in sa and key not in sb:
            continue
        a, b = sa.get(key), sb.get(key)
        delta = b - a if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None
        metrics[key] = MetricDelta(a=a, b=b, delta=delta)

    rows_a = {r.id: r for r in run_a.questions}
    rows_b = {r.id: r for r in run_b.questions}
    common = [i for i in rows_a if i in rows_b]
    found = Found()
    rank_changes = []
    for qid in common:
        ra, rb = rows_a[qid], rows_b[qid]
        if not (ra.in_base and rb.in_base):
            continue
        group = (found.both if ra.found and rb.found else found.a_only if ra.found
                 else found.b_only if rb.found else found.neither)
        group.append(qid)
        if ra.rank != rb.rank:
            rank_changes.append(RankChange(id=qid, question=ra.question, rank_a=ra.rank, rank_b=rb.rank))
    return Comparison(
        a=_side(run_a.summary), b=_side(run_b.summary), same_question_set=set(rows_a) == set(rows_b),
        common_questions=len(common), only_in_a=[i for i in rows_a if i not in rows_b],
        only_in_b=[i for i in rows_b if i not in rows_a], metrics=metrics, found=found, rank_changes=rank_changes,
    ).to_dict()


def _side(summary: Summary) -> RunSide:
    return RunSide(**{f.name: getattr(summary, f.name) if summary.has(f.name) else None
                      for f in fields(RunSide) if f.name != "extra"})


def shared_threshold(
    explicit: float | None,
    info_a: Mapping[str, Any] | None,
    info_b: Mapping[str, Any] | None,
) -> tuple[float, str] | None:
    """The one threshold two compared collections are measured at, and where it comes from.

    Otherwise a threshold saved on one side (0.87) against a default on the other (0.83) reads
    as a strategy effect. The explicit setting, else A's own (calibrated, else its model's
    default); None when the two use different embedding models, whose scores are not on one
    scale: each keeps its own and the comparison says so.
    """
    from rag.answer.threshold import resolve_threshold

    if explicit is not None:
        return resolve_threshold(explicit, info_a, None)
    model_a = (info_a or {}).get("embedding_model")
    if not model_a or model_a != (info_b or {}).get("embedding_model"):
        return None
    return resolve_threshold(None, info_a, model_a)


def write_comparison(comparison: Mapping[str, Any], out_dir: str | Path) -> Path:
    path = Path(out_dir) / COMPARISON_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(comparison, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


__all__ = ["ANSWER_METRICS", "COMPARED_METRICS", "COMPARISON_FILE", "chat_model_down", "compare", "shared_threshold",
           "write_comparison"]
