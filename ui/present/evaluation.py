"""What the evaluate page shows of a run, as plain data and tables (pure: no streamlit here).

A run is read as rag.evaluate.results' types (a dict of results.json is read once, on the way in). Verdicts that depend on the
threshold take it as an argument, so a slider can move it without re-running anything. Tables are
pandas DataFrames, in the reader's words, with a blank where a value is missing: never "None",
never "NaN".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import pandas as pd

from rag.evaluate.calibration import accepted_refused, compared_score, gate_shares, row_answers
from rag.evaluate.results import (Comparison, GateShares, MetricDelta, QuestionRow, Summary, ThresholdShares,
                                  rows_of)
from rag.i18n.numbers import decimal, duration, integer, percent, threshold_text
from ui.i18n import t
from ui.present.safe_markdown import escape_link_text
from ui.present.times import browser_zone, local_minute

ALL, MISSED, WRONGLY_REFUSED, WRONGLY_ACCEPTED = "all", "missed", "wrongly_refused", "wrongly_accepted"
FILTERS = (ALL, MISSED, WRONGLY_REFUSED, WRONGLY_ACCEPTED)
SCORES = {"mrr", "threshold", "suggested_threshold", "prompt_tokens_mean", "first_token_seconds_median"}  # numbers, not shares
THRESHOLDS = {"threshold", "suggested_threshold"}
CATEGORIES = ("identifier", "code_then_explanation", "paraphrase", "table", "procedure", "near_domain_out",
              "near_domain", "out_of_base", "off_topic")
# A results.json row, read or still a dict: each function reads it once (QuestionRow.of).
Row = QuestionRow | Mapping[str, Any]


def filter_help(which: str) -> str:
    return t(f"filter.{which}_help")


def _pct(value: float | None) -> str:
    return t("card.na") if value is None else percent(value)


def llm_failure(summary: Summary | Mapping[str, Any], rows: Sequence[Row]) -> tuple[str, int, int] | None:
    """("down" | "some", failed, asked) when the chat model gave no answer to some questions it was
    asked (the threshold refuses the others before any call); None otherwise."""
    if not Summary.of(summary).llm:
        return None
    asked = [r for r in rows_of(rows) if not r.refused]
    failed = sum(1 for r in asked if r.llm_error)
    if not failed:
        return None
    return ("down" if failed >= len(asked) else "some"), failed, len(asked)


def metric_cards(summary: Summary | Mapping[str, Any], with_answers: bool = True) -> list[dict[str, str]]:
    """(label, value, caption) for st.metric, in plain words with the counts behind them.

    `with_answers` False: no answer card even for a run with the model (it could not be reached:
    0 % would read as a verdict on the answers).
    """
    s = Summary.of(summary)
    c, n_in, n_out, k, mrr = s.counts, s.in_base, s.out_of_base, s.k, s.mrr
    cards = [
        {"label": t("card.hit1"), "value": _pct(s.hit_at_1),
         "caption": t("card.hit1_cap", n=c.hit_at_1, total=n_in)},
        {"label": t("card.hitk", k=k), "value": _pct(s.hit_at_k),
         "caption": t("card.hitk_cap", n=c.hit_at_k, total=n_in, k=k)},
        {"label": t("card.mrr"), "value": mean_rank_text(mrr, c.hit_at_1, n_in),
         "caption": t("card.mrr_cap", rank=mean_rank_text(mrr, c.hit_at_1, n_in), first=c.hit_at_1, total=n_in)},
        {"label": t("card.context"), "value": _pct(s.answer_in_context),
         "caption": t("card.context_cap", n=c.answer_in_context, total=c.with_expected_answer)},
        {"label": t("card.accepted"), "value": _pct(s.in_base_accepted),
         "caption": t("card.accepted_cap", n=c.in_base_accepted, total=n_in,
                      missed=max(0, n_in - c.in_base_accepted))},
        {"label": t("card.refused"), "value": _pct(s.out_of_base_refused),
         "caption": t("card.refused_cap", n=c.out_of_base_refused, total=n_out)},
    ]
    if s.llm and with_answers:
        cards += [
            {"label": t("card.contains"), "value": _pct(s.answer_contains_expected),
             "caption": t("card.contains_cap")},
            {"label": t("card.model_refused"), "value": _pct(s.refusal_rate_out_of_base),
             "caption": t("card.model_refused_cap")},
            {"label": t("card.invalid"), "value": _pct(s.invalid_citation_rate),
             "caption": t("card.invalid_cap")},
        ]
    return cards


def mean_rank_text(mrr: float | None, first: int, total: int) -> str:
    """The average rank (1 / MRR), never written "1.0" unless every question found its article
    first: 52 of 54 first reads "1.02", not a perfect score."""
    if not mrr:
        return t("card.na")
    rank = 1 / mrr
    if first >= total:
        return decimal(rank, 1)
    for digits in (2, 3, 4):
        if round(rank, digits) > 1:
            break
    return decimal(rank, digits)


def top1_scores(rows: Sequence[Row]) -> tuple[list[float], list[float]]:
    """(in-base top-1 scores, off-topic top-1 scores)."""
    rows = rows_of(rows)
    scores_in = [float(r.top1_score) for r in rows if r.in_base and r.top1_score is not None]
    scores_out = [float(r.top1_score) for r in rows if not r.in_base and r.top1_score is not None]
    return scores_in, scores_out


def chart_rows(rows: Sequence[Row], words: WordChecks | None) -> list[dict[str, Any]]:
    """The calibration chart's points: with the gate's word statistics (`words`), each question at
    the cosine the gate compares with the threshold (rag.evaluate.calibration.compared_score);
    without, the top-1 score the cosine alone is judged by."""
    rows = rows_of(rows)
    if words is None:
        return [r.to_dict() for r in rows]
    return [{**r.to_dict(), "top1_score": compared_score(r)}
            for r in rows]


def same_counts(summary: Summary | Mapping[str, Any], rows: Sequence[Row], one: float, other: float,
                words: WordChecks | None = None) -> ThresholdShares | None:
    """The counts both thresholds give when they are the same (a suggestion that changes nothing
    on this set must say so), else None."""
    a = ThresholdShares.of(threshold_counts(summary, rows, one, words))
    b = ThresholdShares.of(threshold_counts(summary, rows, other, words))
    keys = ("in_base_accepted_count", "in_base_count", "out_of_base_refused_count", "out_of_base_count")
    return a if all(getattr(a, k) == getattr(b, k) for k in keys) else None


def counts_at(rows: Sequence[Row], threshold: float) -> dict[str, Any]:
    """Accepted / refused counts and shares at `threshold` (rag.evaluate.calibration.accepted_refused)."""
    scores_in, scores_out = top1_scores(rows)
    return accepted_refused(scores_in, scores_out, threshold)


@dataclass(frozen=True)
class WordChecks:
    """The gate's word checks a threshold is counted with (gate_words), and what the run's
    calibration said of them."""

    min_coverage: float
    refuse_unknown_names: bool
    suggested: GateShares | None = None
    criterion: str | None = None
    overlap_sentence: str | None = None
    reason: str | None = None


def gate_words(summary: Summary | Mapping[str, Any]) -> WordChecks | None:
    """The word checks the threshold is counted with, when the run has word statistics: the
    gate's suggested coverage and names rule (else the run's), the settings a saved threshold
    goes with. None without word statistics or with the checks off: the cosine alone decides."""
    gate = Summary.of(summary).gate
    if gate is None or not gate.words_checked:
        return None
    calibration = gate.calibration
    source = calibration.suggested or gate.params
    return WordChecks(min_coverage=float(source.min_coverage or 0.0),
                      refuse_unknown_names=bool(source.refuse_unknown_names),
                      suggested=calibration.suggested, criterion=calibration.criterion,
                      overlap_sentence=calibration.overlap_sentence, reason=calibration.reason)


def threshold_counts(summary: Summary | Mapping[str, Any], rows: Sequence[Row], threshold: float,
                     words: WordChecks | None = None) -> dict[str, Any]:
    """What a threshold does on this question set: the gate's decisions at that cosine floor with
    its word checks (`words`, else gate_words) when the run has word statistics, else the cosine
    alone. The keys of both (rag.evaluate.results.ThresholdShares and GateShares)."""
    words = words if words is not None else gate_words(summary)
    if words is None:
        return counts_at(rows, threshold)
    at = gate_shares(rows_of(rows), threshold, words.min_coverage, words.refuse_unknown_names)
    shares = GateShares.of(at)
    return {**at, "in_base_accepted_count": shares.in_base_answered_count,
            "out_of_base_refused_count": shares.off_topic_refused_count, "out_of_base_count": shares.off_topic_count}


def _refused_at(row: Row, threshold: float, words: WordChecks | None = None) -> bool:
    """Whether the app refuses this question at `threshold`: the gate's decision at that cosine
    floor with `words` (gate_words), as threshold_counts counts it; the score alone without."""
    r = QuestionRow.of(row)
    if words is not None:
        return not row_answers(r, threshold, words.min_coverage, words.refuse_unknown_names)
    return r.top1_score is None or r.top1_score < threshold


def filter_rows(rows: Sequence[Row], which: str, threshold: float,
                words: WordChecks | None = None) -> list[Row]:
    """The rows a filter shows (those given, as given); refused or accepted as threshold_counts
    counts them (`words`)."""
    if which not in FILTERS:
        raise ValueError(f"unknown filter {which!r}: use one of {', '.join(FILTERS)}")
    if which == ALL:
        return list(rows)

    def shown(r: QuestionRow) -> bool:
        if which == MISSED:
            return r.in_base and r.rank is None
        if which == WRONGLY_REFUSED:
            return r.in_base and _refused_at(r, threshold, words)
        return not r.in_base and not _refused_at(r, threshold, words)

    return [given for given, r in zip(rows, rows_of(rows)) if shown(r)]


def _frame(records: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> pd.DataFrame:
    """A table to show: a cell some rows lack (the answer of a run without the model) is blank."""
    return pd.DataFrame.from_records(list(records), columns=columns).fillna("")


def questions_frame(rows: Sequence[Row], threshold: float, words: WordChecks | None = None) -> pd.DataFrame:
    """The per-question table: verdict at `threshold` (with the word checks `words`, if any), and
    the retrieved sources in rank order."""
    table = []
    for r in rows_of(rows):
        table.append({
            t("col.id"): r.id,
            t("col.question"): r.question,
            t("col.category"): category_label(r.category),
            t("col.in_base"): t("yes") if r.in_base else t("no"),
            t("col.expected"): r.expected_source or "",
            t("col.rank"): "" if not r.in_base else str(r.rank) if r.rank else t("eval.not_found"),
            t("col.best"): "" if r.top1_score is None else decimal(float(r.top1_score), 2),
            t("col.verdict"): t("verdict.refused") if _refused_at(r, threshold, words) else t("verdict.answered"),
            t("col.retrieved"): "\n".join(
                f"{i}. {item.url} ({decimal(float(item.score or 0), 2)})"
                for i, item in enumerate(r.retrieved or [], start=1)
            ),
            # A run with the model has the column (an answer may be empty); one without has none.
            **({t("col.answer"): r.answer or ""} if r.has("answer") else {}),
        })
    # No row (a filter nothing matches): the table keeps its headers, so it reads as empty.
    columns = None if table else [t(k) for k in ("col.id", "col.question", "col.category", "col.in_base",
                                                 "col.expected", "col.rank", "col.best", "col.verdict",
                                                 "col.retrieved")]
    return _frame(table, columns)


def category_code(text: str | None) -> str | None:
    """The code a category's label in the page's language stands for ("hors base, domaine
    voisin" -> near_domain_out); any other text is a category of the editor's own, kept as typed."""
    if not text:
        return text
    by_label = {t(f"cat.{c}"): c for c in CATEGORIES}
    return by_label.get(text.strip(), text)


def category_label(category: str | None) -> str:
    if not category:
        return t("cat.none")
    return t(f"cat.{category}") if category in CATEGORIES else category.replace("_", " ")


def handled_well(row: Row, threshold: float, words: WordChecks | None = None) -> bool:
    """What a reader wants from a question: an article question finds its article and is
    answered; a trick question is refused."""
    r = QuestionRow.of(row)
    if r.in_base:
        return r.found and not _refused_at(r, threshold, words)
    return _refused_at(r, threshold, words)


def categories_frame(rows: Sequence[Row], threshold: float, words: WordChecks | None = None) -> pd.DataFrame:
    """One row a kind of question (the set's `category`), in the set's order: how many, and how
    each fared at `threshold` (with the word checks `words`, if any, as threshold_counts)."""
    facts = pd.DataFrame.from_records([{
        "category": r.category or "",
        "in_base": bool(r.in_base),
        "out": not r.in_base,
        "found": bool(r.in_base) and r.found,
        "first": bool(r.in_base) and r.rank == 1,
        "answered": bool(r.in_base) and not _refused_at(r, threshold, words),
        "refused": not r.in_base and _refused_at(r, threshold, words),
        "well": handled_well(r, threshold, words),
    } for r in rows_of(rows)], columns=["category", "in_base", "out", "found", "first", "answered", "refused", "well"])
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


def _metric_delta(key: str, d: MetricDelta) -> str:
    if d.delta is None:
        return ""
    if key == "mrr":  # a change of average rank: negative means the right article comes sooner
        return decimal(1 / d.b - 1 / d.a, 1, signed=True) if d.a and d.b else ""
    if key in THRESHOLDS:
        return threshold_text(d.delta, signed=True)
    if key in SCORES:
        return decimal(d.delta, 2, signed=True)
    points = round(d.delta * 100)
    return f"{integer(points, signed=True)} pts" if points else "="


def comparison_frame(comparison: Comparison | Mapping[str, Any]) -> pd.DataFrame:
    """Measure by measure, in words: A, B and B - A."""
    return _frame([
        {t("col.metric"): t(f"metric.{key}") if f"metric.{key}" in _METRICS else key,
         "A": _metric_value(key, d.a), "B": _metric_value(key, d.b), "B - A": _metric_delta(key, d)}
        for key, d in Comparison.of(comparison).metrics.items()
    ], columns=[t("col.metric"), "A", "B", "B - A"])


def rank_changes_frame(comparison: Comparison | Mapping[str, Any]) -> pd.DataFrame:
    """The questions whose article moved between A and B, with both ranks."""
    def rank(value: Any) -> str:
        return str(value) if value else t("eval.not_found")

    return _frame([{t("col.id"): c.id, t("col.question"): c.question,
                    f"{t('col.rank')} A": rank(c.rank_a), f"{t('col.rank')} B": rank(c.rank_b)}
                   for c in Comparison.of(comparison).rank_changes])


_METRICS = {f"metric.{k}" for k in ("hit_at_1", "hit_at_3", "hit_at_k", "mrr", "answer_in_context", "in_base_accepted",
                                     "out_of_base_refused", "threshold", "suggested_threshold",
                                     "answer_contains_expected", "refusal_rate_out_of_base", "refusal_rate_in_base",
                                     "invalid_citation_rate", "uncited_rate", "prompt_tokens_mean",
                                     "first_token_seconds_median")}


def run_date(run: Any) -> str:
    """When a saved run ran, on the browser's clock, as the reader writes it: 1 déc. 2026, 20:04
    (the run's own file keeps ISO 8601)."""
    return local_minute((Summary.of(run) if isinstance(run, Mapping) else run).date or "", browser_zone())


def run_label(run: Summary | Mapping[str, Any]) -> str:
    entry = Summary.of(run)
    return f"{run_date(entry)} · {entry.collection} ({entry.strategy})"


def runs_frame(runs: Sequence[Summary | Mapping[str, Any]]) -> pd.DataFrame:
    """The saved runs (history entries, rag.evaluate.runs.list_runs), newest first as listed, in
    words and rounded values."""
    def share(value: Any) -> str:
        return "" if value is None else _pct(value)

    def number(value: Any) -> str:
        return "" if value is None else decimal(value, 2)

    return _frame([{
        t("col.date"): run_date(run),
        t("col.collection"): run.collection or "",
        t("col.strategy"): run.strategy or "",
        t("col.questions"): run.questions or 0,
        t("col.with_model"): t("yes") if run.llm else t("no"),
        t("card.hit1"): share(run.hit_at_1),
        t("col.k"): str(run.k or ""),
        t("col.threshold"): "" if run.threshold is None else threshold_text(run.threshold),
        t("col.suggested"): "" if run.suggested_threshold is None else threshold_text(run.suggested_threshold),
        t("col.prompt_tokens"): "" if run.prompt_tokens_mean is None else integer(run.prompt_tokens_mean),
        t("col.first_word"): number(run.first_token_seconds_median),
    } for run in map(Summary.of, runs)])


def slider_options(low: float, high: float, step: float, places: int, keep: Sequence[float | None] = ()) -> list[float]:
    """The values a threshold slider offers: `low` to `high` by `step`, rounded to `places`, plus
    the exact values in `keep` that fall in range (a saved 0.8333, a suggested 0.8325), each
    replacing the step it would be shown as, so that no two options read the same."""
    count = round((high - low) / step)
    options = {f"{v:.{places}f}": v for v in (round(low + i * step, places) for i in range(count + 1))}
    options.update({f"{v:.{places}f}": float(v) for v in keep if v is not None and low <= v <= high})
    return sorted(options.values())


# Per question, when no earlier run on this machine tells. Retrieval: the demo set's 68 questions
# took 50.7 s from the dashboard on two shared cores (0.75 s each), 7 s from `rag eval --no-llm`
# on an idle machine; the former 0.15 s said "about 10 s" for the dashboard's run. Too long a
# guess is said as a guess and corrected by the first run; too short a one left people waiting.
# A local chat model writes an answer in several seconds.
RETRIEVAL_SECONDS, ANSWER_SECONDS = 0.75, 8.0


@dataclass(frozen=True)
class Estimate:
    """How long a run will take: `seconds` in all, `chat_seconds` of them the chat model's answers
    (None without answers); `learnt`: the pace is this machine's, from an earlier run of the same kind."""

    seconds: float
    chat_seconds: float | None
    learnt: bool


def _pace(runs: Sequence[Mapping[str, Any]], with_llm: bool) -> float | None:
    """Seconds a question in the latest saved run of that kind (with answers or not), if any."""
    for run in map(Summary.of, runs):
        if bool(run.llm) == with_llm and run.seconds and run.questions:
            return float(run.seconds) / int(run.questions)
    return None


def estimate_seconds(runs: Sequence[Mapping[str, Any]], questions: int, collections: int, with_llm: bool) -> Estimate:
    """How long a run will take: the pace of the latest saved run of the same kind, else a default
    said as such; with answers, the chat model's part apart (a run's time less its retrieval)."""
    count = questions * collections
    retrieval = _pace(runs, False)
    if not with_llm:
        return Estimate((retrieval or RETRIEVAL_SECONDS) * count, None, retrieval is not None)
    whole = _pace(runs, True)
    if whole is None:
        per_question = (retrieval or RETRIEVAL_SECONDS) + ANSWER_SECONDS
        return Estimate(per_question * count, ANSWER_SECONDS * count, False)
    chat = max(0.0, whole - (retrieval or RETRIEVAL_SECONDS))
    return Estimate(whole * count, chat * count, True)


def duration_text(seconds: float) -> str:
    """An estimate: whole seconds under a minute and a half, whole minutes past it (2 min, 1 h 05 min)."""
    if seconds < 90:
        return duration(max(1, round(seconds)))
    return duration(round(seconds / 60) * 60)


def why_no_run(has_set: bool, chosen: Sequence[str], names: Sequence[str], session_collection: str) -> list[str]:
    """Why "Run the evaluation" is greyed out, and what to do, one sentence a missing piece
    (empty when it can run): a button greyed out with no word reads as broken."""
    reasons = []
    if not chosen:
        if not names:
            reasons.append(t("eval.why_no_collection", ingest=t("nav.ingest"), ask=t("nav.ask")))
        elif session_collection not in names:
            reasons.append(t("eval.why_session_empty", name=escape_link_text(session_collection),
                             ingest=t("nav.ingest"), ask=t("nav.ask")))
        else:
            reasons.append(t("eval.why_choose_collection"))
    if not has_set:
        reasons.append(t("eval.why_no_set"))
    return reasons
