"""What the evaluate page shows of a run, as plain data and tables (pure: no streamlit here).

A run is the `{"summary", "questions"}` dict of rag.evaluate.runner. Verdicts that depend on the
threshold take it as an argument, so a slider can move it without re-running anything. Tables are
pandas DataFrames, in the reader's words, with a blank where a value is missing: never "None",
never "NaN".
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import pandas as pd

from rag.evaluate.calibration import accepted_refused, compared_score, gate_shares, is_exact_match, row_answers
from rag.evaluate.runs import run_date
from rag.i18n.numbers import decimal, duration, integer, percent, threshold_text
from ui.i18n import t

ALL, MISSED, WRONGLY_REFUSED, WRONGLY_ACCEPTED = "all", "missed", "wrongly_refused", "wrongly_accepted"
FILTERS = (ALL, MISSED, WRONGLY_REFUSED, WRONGLY_ACCEPTED)
SCORES = {"mrr", "threshold", "suggested_threshold", "prompt_tokens_mean", "first_token_seconds_median"}  # numbers, not shares
THRESHOLDS = {"threshold", "suggested_threshold"}
CATEGORIES = ("identifier", "code_then_explanation", "paraphrase", "table", "procedure", "near_domain_out",
              "near_domain", "out_of_base", "off_topic")


def filter_help(which: str) -> str:
    return t(f"filter.{which}_help")


def _pct(value: float | None) -> str:
    return t("card.na") if value is None else percent(value)


def llm_failure(summary: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> tuple[str, int, int] | None:
    """("down" | "some", failed, asked) when the chat model gave no answer to some questions it was
    asked (the threshold refuses the others before any call); None otherwise."""
    if not summary.get("llm"):
        return None
    asked = [r for r in rows if not r.get("refused")]
    failed = sum(1 for r in asked if r.get("llm_error"))
    if not failed:
        return None
    return ("down" if failed >= len(asked) else "some"), failed, len(asked)


def metric_cards(summary: Mapping[str, Any], with_answers: bool = True) -> list[dict[str, str]]:
    """(label, value, caption) for st.metric, in plain words with the counts behind them.

    `with_answers` False: no answer card even for a run with the model (it could not be reached:
    0 % would read as a verdict on the answers).
    """
    c = summary.get("counts") or {}
    n_in, n_out, k = summary.get("in_base", 0), summary.get("out_of_base", 0), summary.get("k")
    mrr = summary.get("mrr")
    cards = [
        {"label": t("card.hit1"), "value": _pct(summary.get("hit_at_1")),
         "caption": t("card.hit1_cap", n=c.get("hit_at_1", 0), total=n_in)},
        {"label": t("card.hitk", k=k), "value": _pct(summary.get("hit_at_k")),
         "caption": t("card.hitk_cap", n=c.get("hit_at_k", 0), total=n_in, k=k)},
        {"label": t("card.mrr"), "value": t("card.na") if not mrr else decimal(1 / mrr, 1),
         "caption": t("card.mrr_cap", rank=t("card.na") if not mrr else decimal(1 / mrr, 1))},
        {"label": t("card.context"), "value": _pct(summary.get("answer_in_context")),
         "caption": t("card.context_cap", n=c.get("answer_in_context", 0), total=c.get("with_expected_answer", 0))},
        {"label": t("card.accepted"), "value": _pct(summary.get("in_base_accepted")),
         "caption": t("card.accepted_cap", n=c.get("in_base_accepted", 0), total=n_in)},
        {"label": t("card.refused"), "value": _pct(summary.get("out_of_base_refused")),
         "caption": t("card.refused_cap", n=c.get("out_of_base_refused", 0), total=n_out)},
    ]
    if summary.get("llm") and with_answers:
        cards += [
            {"label": t("card.contains"), "value": _pct(summary.get("answer_contains_expected")),
             "caption": t("card.contains_cap")},
            {"label": t("card.model_refused"), "value": _pct(summary.get("refusal_rate_out_of_base")),
             "caption": t("card.model_refused_cap")},
            {"label": t("card.invalid"), "value": _pct(summary.get("invalid_citation_rate")),
             "caption": t("card.invalid_cap")},
        ]
    return cards


def top1_scores(rows: Sequence[Mapping[str, Any]]) -> tuple[list[float], list[float]]:
    """(in-base top-1 scores, off-topic top-1 scores)."""
    scores_in = [float(r["top1_score"]) for r in rows if r.get("in_base") and r.get("top1_score") is not None]
    scores_out = [float(r["top1_score"]) for r in rows if not r.get("in_base") and r.get("top1_score") is not None]
    return scores_in, scores_out


def chart_rows(rows: Sequence[Mapping[str, Any]], words: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The calibration chart's points: with the gate's word statistics (`words`), each question at
    the score the gate compares with the threshold (rag.evaluate.calibration.compared_score: an
    exact match carries its allowance), so that the dots right of the line are the ones the
    counts can answer; without, the top-1 score the cosine alone is judged by."""
    if words is None:
        return [dict(r) for r in rows]
    return [{**r, "top1_score": compared_score(r), "exact_match": is_exact_match(r)} for r in rows]


def counts_at(rows: Sequence[Mapping[str, Any]], threshold: float) -> dict[str, Any]:
    """Accepted / refused counts and shares at `threshold` (rag.evaluate.calibration.accepted_refused)."""
    scores_in, scores_out = top1_scores(rows)
    return accepted_refused(scores_in, scores_out, threshold)


def gate_words(summary: Mapping[str, Any]) -> dict[str, Any] | None:
    """The word checks the threshold is counted with, when the run has word statistics: the
    gate's suggested coverage and names rule (else the run's), the settings a saved threshold
    goes with. None without word statistics: the cosine alone decides."""
    gate = summary.get("gate") or {}
    if not gate.get("terms"):
        return None
    calibration = gate.get("calibration") or {}
    source = calibration.get("suggested") or gate.get("params") or {}
    return {"min_coverage": float(source.get("min_coverage") or 0.0),
            "refuse_unknown_names": bool(source.get("refuse_unknown_names", True)),
            "suggested": calibration.get("suggested"), "criterion": calibration.get("criterion"),
            "overlap_sentence": calibration.get("overlap_sentence"), "reason": calibration.get("reason")}


def threshold_counts(summary: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], threshold: float,
                     words: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a threshold does on this question set: the gate's decisions at that cosine floor with
    its word checks (`words`, else gate_words) when the run has word statistics, else the cosine alone."""
    words = words if words is not None else gate_words(summary)
    if words is None:
        return counts_at(rows, threshold)
    at = gate_shares([dict(r) for r in rows], threshold, words["min_coverage"], words["refuse_unknown_names"])
    return {**at, "in_base_accepted_count": at["in_base_answered_count"],
            "out_of_base_refused_count": at["off_topic_refused_count"], "out_of_base_count": at["off_topic_count"]}


def _refused_at(row: Mapping[str, Any], threshold: float, words: Mapping[str, Any] | None = None) -> bool:
    """Whether the app refuses this question at `threshold`: the gate's decision at that cosine
    floor with `words` (gate_words), as threshold_counts counts it; the score alone without."""
    if words is not None:
        return not row_answers(dict(row), threshold, words["min_coverage"], words["refuse_unknown_names"])
    score = row.get("top1_score")
    return score is None or score < threshold


def filter_rows(rows: Sequence[Mapping[str, Any]], which: str, threshold: float,
                words: Mapping[str, Any] | None = None) -> list[Mapping[str, Any]]:
    """The rows a filter shows; refused or accepted as threshold_counts counts them (`words`)."""
    if which == ALL:
        return list(rows)
    if which == MISSED:
        return [r for r in rows if r.get("in_base") and r.get("rank") is None]
    if which == WRONGLY_REFUSED:
        return [r for r in rows if r.get("in_base") and _refused_at(r, threshold, words)]
    if which == WRONGLY_ACCEPTED:
        return [r for r in rows if not r.get("in_base") and not _refused_at(r, threshold, words)]
    raise ValueError(f"unknown filter {which!r}: use one of {', '.join(FILTERS)}")


def _frame(records: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> pd.DataFrame:
    """A table to show: a cell some rows lack (the answer of a run without the model) is blank."""
    return pd.DataFrame.from_records(list(records), columns=columns).fillna("")


def questions_frame(rows: Sequence[Mapping[str, Any]], threshold: float,
                    words: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The per-question table: verdict at `threshold` (with the word checks `words`, if any), and
    the retrieved sources in rank order."""
    table = []
    for r in rows:
        score = r.get("top1_score")
        table.append({
            t("col.id"): r.get("id"),
            t("col.question"): r.get("question"),
            t("col.category"): category_label(r.get("category")),
            t("col.in_base"): t("yes") if r.get("in_base") else t("no"),
            t("col.expected"): r.get("expected_source") or "",
            t("col.rank"): "" if not r.get("in_base") else str(r["rank"]) if r.get("rank") else t("eval.not_found"),
            t("col.best"): "" if score is None else decimal(float(score), 2),
            t("col.verdict"): t("verdict.refused") if _refused_at(r, threshold, words) else t("verdict.answered"),
            t("col.retrieved"): "\n".join(
                f"{i}. {item.get('url')} ({decimal(float(item.get('score') or 0), 2)})"
                for i, item in enumerate(r.get("retrieved") or [], start=1)
            ),
            **({t("col.answer"): r.get("answer") or ""} if "answer" in r else {}),
        })
    # No row (a filter nothing matches): the table keeps its headers, so it reads as empty.
    columns = None if table else [t(k) for k in ("col.id", "col.question", "col.category", "col.in_base",
                                                 "col.expected", "col.rank", "col.best", "col.verdict",
                                                 "col.retrieved")]
    return _frame(table, columns)


def category_label(category: str | None) -> str:
    if not category:
        return t("cat.none")
    return t(f"cat.{category}") if category in CATEGORIES else category.replace("_", " ")


def handled_well(row: Mapping[str, Any], threshold: float, words: Mapping[str, Any] | None = None) -> bool:
    """What a reader wants from a question: an article question finds its article and is
    answered; a trick question is refused."""
    if row.get("in_base"):
        return row.get("rank") is not None and not _refused_at(row, threshold, words)
    return _refused_at(row, threshold, words)


def categories_frame(rows: Sequence[Mapping[str, Any]], threshold: float,
                     words: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """One row a kind of question (the set's `category`), in the set's order: how many, and how
    each fared at `threshold` (with the word checks `words`, if any, as threshold_counts)."""
    facts = pd.DataFrame.from_records([{
        "category": r.get("category") or "",
        "in_base": bool(r.get("in_base")),
        "out": not r.get("in_base"),
        "found": bool(r.get("in_base")) and r.get("rank") is not None,
        "first": bool(r.get("in_base")) and r.get("rank") == 1,
        "answered": bool(r.get("in_base")) and not _refused_at(r, threshold, words),
        "refused": not r.get("in_base") and _refused_at(r, threshold, words),
        "well": handled_well(r, threshold, words),
    } for r in rows], columns=["category", "in_base", "out", "found", "first", "answered", "refused", "well"])
    kinds = facts.groupby("category", sort=False)
    counts = kinds.sum().astype(int)  # True counts 1: the questions of each kind that did so
    counts["questions"] = kinds.size()

    def of(n: str, total: str) -> list[str]:
        return [t("eval.of", n=a, total=b) if b else "" for a, b in zip(counts[n], counts[total])]

    return pd.DataFrame({
        t("col.category"): [category_label(c) for c in counts.index],
        t("col.questions"): counts["questions"].tolist(),
        t("col.found"): of("found", "in_base"),
        t("col.first"): of("first", "in_base"),
        t("col.answered"): of("answered", "in_base"),
        t("col.refused"): of("refused", "out"),
        t("col.well"): [round(100 * w / n) for w, n in zip(counts["well"], counts["questions"])],
    })


def _metric_value(key: str, value: Any) -> str:
    if value is None:
        return t("card.na")
    if key == "mrr":  # shown as the average rank it stands for, like the metric card
        return decimal(1 / value, 1) if value else t("card.na")
    if key in THRESHOLDS:
        return threshold_text(value)
    return decimal(value, 2) if key in SCORES else _pct(value)


def _metric_delta(key: str, d: Mapping[str, Any]) -> str:
    delta = d.get("delta")
    if delta is None:
        return ""
    if key == "mrr":  # a change of average rank: negative means the right article comes sooner
        a, b = d.get("a"), d.get("b")
        return decimal(1 / b - 1 / a, 1, signed=True) if a and b else ""
    if key in THRESHOLDS:
        return threshold_text(delta, signed=True)
    if key in SCORES:
        return decimal(delta, 2, signed=True)
    points = round(delta * 100)
    return f"{integer(points, signed=True)} pts" if points else "="


def comparison_frame(cmp: Mapping[str, Any]) -> pd.DataFrame:
    """Measure by measure, in words: A, B and B - A."""
    return _frame([
        {t("col.metric"): t(f"metric.{key}") if f"metric.{key}" in _METRICS else key,
         "A": _metric_value(key, d.get("a")), "B": _metric_value(key, d.get("b")),
         "B - A": _metric_delta(key, d)}
        for key, d in cmp.get("metrics", {}).items()
    ], columns=[t("col.metric"), "A", "B", "B - A"])


def rank_changes_frame(cmp: Mapping[str, Any]) -> pd.DataFrame:
    """The questions whose article moved between A and B, with both ranks."""
    def rank(value: Any) -> str:
        return str(value) if value else t("eval.not_found")

    return _frame([{t("col.id"): c["id"], t("col.question"): c["question"],
                    f"{t('col.rank')} A": rank(c["rank_a"]), f"{t('col.rank')} B": rank(c["rank_b"])}
                   for c in cmp.get("rank_changes") or []])


_METRICS = {f"metric.{k}" for k in ("hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context", "in_base_accepted",
                                     "out_of_base_refused", "threshold", "suggested_threshold",
                                     "answer_contains_expected", "refusal_rate_out_of_base", "refusal_rate_in_base",
                                     "invalid_citation_rate", "uncited_rate", "prompt_tokens_mean",
                                     "first_token_seconds_median")}


def run_label(run: Mapping[str, Any]) -> str:
    return f"{run_date(run)} · {run.get('collection')} ({run.get('strategy')})"


def runs_frame(runs: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The saved runs, newest first as listed, in words and rounded values."""
    def share(value: Any) -> str:
        return "" if value is None else _pct(value)

    def number(value: Any) -> str:
        return "" if value is None else decimal(value, 2)

    return _frame([{
        t("col.date"): run_date(run),
        t("col.collection"): run.get("collection") or "",
        t("col.strategy"): run.get("strategy") or "",
        t("col.questions"): run.get("questions") or 0,
        t("col.with_model"): t("yes") if run.get("llm") else t("no"),
        t("card.hit1"): share(run.get("hit_at_1")),
        t("col.k"): str(run.get("k") or ""),
        t("col.threshold"): "" if run.get("threshold") is None else threshold_text(run["threshold"]),
        t("col.suggested"): "" if run.get("suggested_threshold") is None else threshold_text(run["suggested_threshold"]),
        t("col.prompt_tokens"): "" if run.get("prompt_tokens_mean") is None else integer(run["prompt_tokens_mean"]),
        t("col.first_word"): number(run.get("first_token_seconds_median")),
    } for run in runs])


def slider_options(low: float, high: float, step: float, places: int, keep: Sequence[float | None] = ()) -> list[float]:
    """The values a threshold slider offers: `low` to `high` by `step`, rounded to `places`, plus
    the exact values in `keep` that fall in range (a saved 0.8333, a suggested 0.8325), each
    replacing the step it would be shown as, so that no two options read the same."""
    count = round((high - low) / step)
    options = {f"{v:.{places}f}": v for v in (round(low + i * step, places) for i in range(count + 1))}
    options.update({f"{v:.{places}f}": float(v) for v in keep if v is not None and low <= v <= high})
    return sorted(options.values())


# Per question, when no earlier run on this machine tells: the embedded model retrieves in about
# a tenth of a second; a local chat model writes an answer in several seconds.
RETRIEVAL_SECONDS, ANSWER_SECONDS = 0.15, 8.0


def estimate_seconds(runs: Sequence[Mapping[str, Any]], questions: int, collections: int, with_llm: bool) -> float:
    """How long a run will take: the pace of the latest saved run of the same kind, else a default."""
    for run in runs:
        seconds, count = run.get("seconds"), run.get("questions")
        if bool(run.get("llm")) == with_llm and seconds and count:
            return float(seconds) / int(count) * questions * collections
    per_question = RETRIEVAL_SECONDS + (ANSWER_SECONDS if with_llm else 0.0)
    return per_question * questions * collections


def duration_text(seconds: float) -> str:
    """An estimate: whole seconds under a minute and a half, whole minutes past it (2 min, 1 h 05 min)."""
    if seconds < 90:
        return duration(max(1, round(seconds)))
    return duration(round(seconds / 60) * 60)
