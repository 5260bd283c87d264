"""Two runs side by side (two collections, or a run and an earlier one): the measures' deltas, who
finds the expected article, how ranks moved (comparison.json), and the one cosine floor two
collections are measured at."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

COMPARISON_FILE = "comparison.json"


COMPARED_METRICS = (
    "hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context", "in_base_accepted",
    "out_of_base_refused", "threshold", "suggested_threshold", "answer_contains_expected",
    "refusal_rate_out_of_base", "refusal_rate_in_base", "invalid_citation_rate", "uncited_rate",
    "prompt_tokens_mean", "first_token_seconds_median",
)
_SIDE_KEYS = ("collection", "date", "model", "strategy", "chunk_settings", "mode", "k", "llm", "path")


# Measures of the chat model's answers: a run that never reached it has none (0 % would read as
# a verdict on answers that were never written).
ANSWER_METRICS = ("answer_contains_expected", "refusal_rate_out_of_base", "refusal_rate_in_base",
                  "invalid_citation_rate", "uncited_rate", "prompt_tokens_mean", "first_token_seconds_median")


def chat_model_down(results: Mapping[str, Any]) -> bool:
    """A run with the chat model in which every question the gate let through got no answer
    (the server could not be reached): its answer measures mean nothing."""
    asked = [r for r in results.get("questions", []) if not r.get("refused")]
    return bool(results["summary"].get("llm")) and bool(asked) and all(r.get("llm_error") for r in asked)


def _measured(results: Mapping[str, Any]) -> dict[str, Any]:
    summary = dict(results["summary"])
    if chat_model_down(results):
        summary.update(dict.fromkeys(ANSWER_METRICS))
    return summary


def compare(results_a: Mapping[str, Any], results_b: Mapping[str, Any]) -> dict[str, Any]:
    """A against B: metric deltas (B - A) and, for in-base questions asked in both, who finds
    the expected article (A only, B only, both, neither) and how its rank moved."""
    sa, sb = _measured(results_a), _measured(results_b)
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
