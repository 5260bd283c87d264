"""What the evaluate page shows of a run, as plain data (pure: no streamlit here).

A run is the `{"summary", "questions"}` dict of rag.evaluate.runner. Verdicts that depend on the
threshold take it as an argument, so a slider can move it without re-running anything.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rag.evaluate.calibration import accepted_refused

ALL, MISSED, WRONGLY_REFUSED, WRONGLY_ACCEPTED = "all", "missed", "wrongly refused", "wrongly accepted"
FILTERS = (ALL, MISSED, WRONGLY_REFUSED, WRONGLY_ACCEPTED)
FILTER_HELP = {
    ALL: "every question",
    MISSED: "in-base questions whose article is not among the retrieved passages",
    WRONGLY_REFUSED: "in-base questions whose best score is below the threshold: the app would refuse them",
    WRONGLY_ACCEPTED: "off-topic questions whose best score reaches the threshold: the app would answer them",
}


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.0f}%"


def metric_cards(summary: Mapping[str, Any]) -> list[dict[str, str]]:
    """(label, value, caption) for st.metric, captions in plain words with the counts behind them."""
    c = summary.get("counts") or {}
    n_in, n_out, k = summary.get("in_base", 0), summary.get("out_of_base", 0), summary.get("k")
    cards = [
        {"label": "hit@1", "value": _pct(summary.get("hit_at_1")),
         "caption": f"{c.get('hit_at_1', 0)} of {n_in} questions find the right article first"},
        {"label": f"hit@{k}", "value": _pct(summary.get("hit_at_k")),
         "caption": f"{c.get('hit_at_k', 0)} of {n_in} find it among the {k} passages retrieved"},
        {"label": "MRR", "value": "n/a" if summary.get("mrr") is None else f"{summary['mrr']:.2f}",
         "caption": "1.00 = always first, 0.50 = second on average"},
        {"label": "answer in context", "value": _pct(summary.get("answer_in_context")),
         "caption": (f"{c.get('answer_in_context', 0)} of {c.get('with_expected_answer', 0)} expected answers "
                     "appear word for word in the passages")},
        {"label": "in-base answered", "value": _pct(summary.get("in_base_accepted")),
         "caption": f"{c.get('in_base_accepted', 0)} of {n_in} reach the threshold and get an answer"},
        {"label": "off-topic refused", "value": _pct(summary.get("out_of_base_refused")),
         "caption": f"{c.get('out_of_base_refused', 0)} of {n_out} stay below the threshold and are refused"},
    ]
    if summary.get("llm"):
        cards += [
            {"label": "answer contains expected", "value": _pct(summary.get("answer_contains_expected")),
             "caption": "answers that contain the expected text"},
            {"label": "off-topic refusals (model)", "value": _pct(summary.get("refusal_rate_out_of_base")),
             "caption": "off-topic questions the app or the model refused"},
            {"label": "invalid citations", "value": _pct(summary.get("invalid_citation_rate")),
             "caption": "answers citing a passage number that was not given (lower is better)"},
        ]
    return cards


def top1_scores(rows: Sequence[Mapping[str, Any]]) -> tuple[list[float], list[float]]:
    """(in-base top-1 scores, off-topic top-1 scores)."""
    scores_in = [float(r["top1_score"]) for r in rows if r.get("in_base") and r.get("top1_score") is not None]
    scores_out = [float(r["top1_score"]) for r in rows if not r.get("in_base") and r.get("top1_score") is not None]
    return scores_in, scores_out


def counts_at(rows: Sequence[Mapping[str, Any]], threshold: float) -> dict[str, Any]:
    """Accepted / refused counts and shares at `threshold` (rag.evaluate.calibration.accepted_refused)."""
    scores_in, scores_out = top1_scores(rows)
    return accepted_refused(scores_in, scores_out, threshold)


def _refused_at(row: Mapping[str, Any], threshold: float) -> bool:
    score = row.get("top1_score")
    return score is None or score < threshold


def filter_rows(rows: Sequence[Mapping[str, Any]], which: str, threshold: float) -> list[Mapping[str, Any]]:
    if which == ALL:
        return list(rows)
    if which == MISSED:
        return [r for r in rows if r.get("in_base") and r.get("rank") is None]
    if which == WRONGLY_REFUSED:
        return [r for r in rows if r.get("in_base") and _refused_at(r, threshold)]
    if which == WRONGLY_ACCEPTED:
        return [r for r in rows if not r.get("in_base") and not _refused_at(r, threshold)]
    raise ValueError(f"unknown filter {which!r}: use one of {', '.join(FILTERS)}")


def table_rows(rows: Sequence[Mapping[str, Any]], threshold: float) -> list[dict[str, Any]]:
    """The per-question table: verdict at `threshold`, and the retrieved sources in rank order."""
    table = []
    for r in rows:
        score = r.get("top1_score")
        table.append({
            "id": r.get("id"),
            "question": r.get("question"),
            "in base": bool(r.get("in_base")),
            "expected source": r.get("expected_source") or "",
            "rank": r.get("rank"),
            "top-1 score": None if score is None else round(float(score), 4),
            "at threshold": "refused" if _refused_at(r, threshold) else "answered",
            "retrieved": "\n".join(
                f"{i}. {item.get('url')} ({float(item.get('score') or 0):.3f})"
                for i, item in enumerate(r.get("retrieved") or [], start=1)
            ),
            **({"answer": r.get("answer")} if "answer" in r else {}),
        })
    return table


def comparison_rows(cmp: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Metric by metric: A, B and B - A."""
    rows = []
    for key, d in cmp.get("metrics", {}).items():
        rows.append({"metric": key, "A": d.get("a"), "B": d.get("b"), "B - A": d.get("delta")})
    return rows


RUN_COLUMNS = ("date", "collection", "strategy", "model", "mode", "k", "llm", "questions",
               "hit_at_1", "hit_at_k", "mrr", "threshold", "suggested_threshold",
               "prompt_tokens_mean", "first_token_seconds_median", "path")


def run_label(run: Mapping[str, Any]) -> str:
    return f"{run.get('date')} · {run.get('collection')} ({run.get('strategy')})"


def runs_table(runs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{key: run.get(key) for key in RUN_COLUMNS} for run in runs]
