"""The summary of a replay's rows: the contract's measures, the shares at the threshold, the cosine
floor's calibration and the answerability gate's figures (results.json's `summary`)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rag.evaluate.calibration import calibrate
from rag.evaluate.metrics import category_metrics, cost_metrics, llm_metrics, retrieval_metrics, threshold_shares

CONTRACT_SUMMARY_KEYS = (
    "questions", "in_base", "out_of_base", "k", "hit_at_1", "hit_at_3", "hit_at_k", "mrr",
    "answer_in_context", "threshold", "suggested_threshold", "in_base_accepted", "out_of_base_refused",
)
LLM_SUMMARY_KEYS = ("answer_contains_expected", "refusal_rate_out_of_base", "invalid_citation_rate")


def summarize(
    rows: Sequence[Mapping[str, Any]],
    k: int,
    threshold: float | None,
    with_llm: bool,
    gate_params: Any | None = None,
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
        summary.update(cost_metrics(rows))
    summary["calibration"] = cal.to_dict()
    if gate_params is not None:
        summary["gate"] = gate_summary(rows, gate_params, threshold, cal)
        suggested = (summary["gate"]["calibration"].get("suggested") or {}).get("min_cosine")
        if suggested is not None:
            summary["suggested_threshold"] = suggested  # the cosine floor `--save-threshold` records
    summary["counts"] = counts
    summary["categories"] = category_metrics(rows, k)
    return summary


def gate_summary(rows: Sequence[Mapping[str, Any]], params: Any, threshold: float | None, cal: Any) -> dict[str, Any]:
    """The gate's figures: at the current settings, at the suggested ones, and the cosine alone."""
    from rag.evaluate.calibration import calibrate_gate, gate_shares

    signal_rows = [dict(r) for r in rows]
    current = gate_shares(signal_rows, params.min_cosine, params.min_coverage, params.refuse_unknown_names,
                          source=params.source)
    cosine_only = (cal.at_current or {}) if threshold is not None else {}
    return {
        "params": params.to_dict(),
        "terms": any(r.get("coverage") is not None for r in rows),
        "in_base_answered": current["in_base_answered"],
        "off_topic_refused": current["off_topic_refused"],
        "at_current": current,
        "calibration": calibrate_gate(signal_rows, min_coverage=params.min_coverage),
        "cosine_only": {
            "threshold": threshold,
            "in_base_accepted": cosine_only.get("in_base_accepted"),
            "out_of_base_refused": cosine_only.get("out_of_base_refused"),
            "suggested_threshold": cal.suggested,
            "at_suggested": cal.at_suggested,
        },
    }


__all__ = ["CONTRACT_SUMMARY_KEYS", "LLM_SUMMARY_KEYS", "gate_summary", "summarize"]
