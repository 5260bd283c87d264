"""Evaluation results in sentences a non-developer can read (CLI output, dashboard captions)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from rag.i18n import t, tn
from rag.evaluate.compare import chat_model_down
from rag.evaluate.results import Comparison, GateFigures, MetricDelta, Results, RunSide, Summary, ThresholdShares
from rag.evaluate.runs import run_date
from rag.i18n.numbers import decimal, duration, integer, percent, threshold_text


# Metric names as shown; hit@k and MRR are the field's own words in both languages.
_LABELS = {
    "hit_at_1": "hit@1", "hit_at_3": "hit@3", "hit_at_k": "hit@k", "mrr": "MRR",
    "answer_in_context": "report.l.answer_in_context", "in_base_accepted": "report.l.in_base_accepted",
    "out_of_base_refused": "report.l.out_of_base_refused", "threshold": "report.l.threshold",
    "suggested_threshold": "report.l.suggested_threshold", "answer_contains_expected": "report.l.answer_contains_expected",
    "refusal_rate_out_of_base": "report.l.refusal_rate_out_of_base", "refusal_rate_in_base": "report.l.refusal_rate_in_base",
    "invalid_citation_rate": "report.l.invalid_citation_rate", "uncited_rate": "report.l.uncited_rate",
    "prompt_tokens_mean": "report.l.prompt_tokens_mean", "first_token_seconds_median": "report.l.first_token_seconds_median",
}
_SCORES = {"mrr", "threshold", "suggested_threshold"}
_THRESHOLDS = {"threshold", "suggested_threshold"}
_AMOUNTS = {"prompt_tokens_mean", "first_token_seconds_median"}  # not shares: shown as numbers


def _label(key: str) -> str:
    label = _LABELS.get(key, key)
    return t(label) if label.startswith("report.") else label


def _pct(value: float | None) -> str:
    return t("report.na") if value is None else percent(value)


def _num(value: float | None) -> str:
    return t("report.na") if value is None else decimal(value, 2)


def _setting(value: float | None) -> str:
    """A gate setting as saved (0.833, 0.4): two decimals would show 0.833 as the current 0.83."""
    return t("report.na") if value is None else threshold_text(value)


# A retrieval mode in a sentence: the word of the reader's language ('recherche hybride'), while
# `--mode hybrid` and results.json keep the mode's name.
_MODES = {"hybrid": "report.mode_hybrid", "dense": "report.mode_dense"}


def _mode(mode: Any) -> str:
    return t(_MODES[mode]) if mode in _MODES else str(mode)


def _build_line(s: Summary) -> str:
    parts = [t("report.model", model=s.model), t("report.strategy", strategy=s.strategy)]
    if s.mode:
        parts.append(t("report.mode", mode=_mode(s.mode)))
    parts.append(f"top {s.k}")
    return t("report.collection", name=s.collection, parts=", ".join(parts))


def incomplete_notes(summary: Summary | Mapping[str, Any]) -> list[str]:
    """Sentences saying which questions were not scored, why the run stopped (if it did) and which
    expected articles the collection lacks; the summary marks them as warnings, the dashboard shows
    them in its own warning boxes."""
    s = Summary.of(summary)
    notes = []
    if s.failed_questions:
        notes.append(tn("report.failed", len(s.failed_questions), ids=_ids([f.id for f in s.failed_questions], 5)))
    if s.stopped:
        notes.append(t("report.stopped", done=s.questions, total=s.question_set_size, why=s.stopped))
    if s.unknown_sources:  # their questions count as misses whatever the chunking
        notes.append(tn("report.unknown_sources", len(s.unknown_sources), ids=_ids(s.unknown_sources, 5)))
    return notes


def category_lines(summary: Summary | Mapping[str, Any]) -> list[str]:
    """One line a category of question (results.json's `categories`), when the set has several."""
    s = Summary.of(summary)
    if len(s.categories) < 2:
        return []
    lines = [t("report.categories")]
    for kind in s.categories:
        parts = []
        if kind.in_base:
            parts.append(t("report.category_in", first=kind.first, found=kind.found, answered=kind.answered,
                           n_in=kind.in_base, k=s.k))
        if kind.out_of_base:
            parts.append(t("report.category_out", refused=kind.refused, n_out=kind.out_of_base))
        lines.append(t("report.category", name=kind.category or t("report.category_none"),
                       questions=kind.questions, parts=", ".join(parts)))
    return lines


def format_summary(results: Results | Mapping[str, Any]) -> str:
    """A summary a non-developer can read."""
    run = Results.of(results)
    s, c = run.summary, run.summary.counts
    n_in, n_out, k = s.in_base, s.out_of_base, s.k
    lines = [_build_line(s), tn("report.questions", s.questions, n_in=n_in, n_out=n_out)]
    lines += [t("report.warning", message=note) for note in incomplete_notes(s)]
    if n_in:
        lines += [
            t("report.hit1", pct=_pct(s.hit_at_1), n=c.hit_at_1, total=n_in),
            t("report.hit3", pct=_pct(s.hit_at_3), n=c.hit_at_3, total=n_in),
            t("report.hitk", k=k, pct=_pct(s.hit_at_k), n=c.hit_at_k, total=n_in),
            t("report.mrr", value=_num(s.mrr)),
        ]
    else:
        lines.append(t("report.no_in_base"))
    if s.answer_in_context is None:
        lines.append(t("report.context_na"))
    else:
        lines.append(t("report.context", pct=_pct(s.answer_in_context), n=c.answer_in_context,
                       total=c.with_expected_answer))
    gate = s.gate or GateFigures()
    if s.threshold is not None:
        # The shares count the question's words too, unless the checks are off (RAG_MIN_COVERAGE=0):
        # then say so. The coverage itself is a switch, not a figure a reader can weigh.
        setting = _setting(s.threshold) + (t("report.words_off") if gate.terms and not gate.words_checked else "")
        lines.append(t("report.at_threshold", threshold=setting, accepted=c.in_base_accepted,
                       n_in=n_in, accepted_pct=_pct(s.in_base_accepted), refused=c.out_of_base_refused,
                       n_out=n_out, refused_pct=_pct(s.out_of_base_refused)))
    lines += category_lines(s)
    cal = s.calibration
    suggested_gate = gate.suggested
    if suggested_gate:
        # The gate's suggestion is what --save-threshold records: its own figures, not the
        # cosine-alone calibration's (another threshold, other counts).
        coverage = t("report.words_off") if gate.terms and suggested_gate.min_coverage == 0 else ""
        lines.append(t("report.gate_suggested", threshold=_setting(suggested_gate.min_cosine), coverage=coverage,
                       accepted=suggested_gate.in_base_answered_count, n_in=n_in,
                       refused=suggested_gate.off_topic_refused_count, n_out=n_out))
    elif s.suggested_threshold is not None:
        at = cal.at_suggested or ThresholdShares()
        now = cal.at_current.balanced_accuracy if cal.at_current else None
        versus = t("report.versus", value=_num(now)) if now is not None else ""
        lines.append(t("report.suggested", threshold=_setting(s.suggested_threshold),
                       accepted=at.in_base_accepted_count, n_in=n_in,
                       refused=at.out_of_base_refused_count, n_out=n_out,
                       accuracy=_num(cal.balanced_accuracy), versus=versus))
    elif cal.reason:
        lines.append(t("report.no_suggested", reason=cal.reason))
    # With word statistics the prompt only sees what the gate lets through: count that, not the cosine alone.
    overlap_sentence = (gate.calibration.overlap_sentence if suggested_gate and gate.terms
                        else cal.overlap_sentence)
    if overlap_sentence and n_in and n_out:
        lines.append(overlap_sentence)
    if chat_model_down(run):
        lines.append(t("report.llm_down", n=c.llm_errors, asked=len(run.asked)))
    elif s.llm:
        if c.with_expected_answer:
            lines.append(t("report.contains", pct=_pct(s.answer_contains_expected),
                           n=c.answer_contains_expected, total=c.with_expected_answer))
        if n_out:
            lines.append(t("report.refused", pct=_pct(s.refusal_rate_out_of_base),
                           n=c.out_of_base_answer_refused, total=n_out))
        lines.append(t("report.invalid", pct=_pct(s.invalid_citation_rate),
                       n=c.with_invalid_citations, total=c.answered))
        lines.append(t("report.uncited", pct=_pct(s.uncited_rate), n=c.uncited, total=c.answered))
        tokens, first = s.prompt_tokens_mean, s.first_token_seconds_median
        if tokens is not None or first is not None:
            lines.append(
                t("report.cost")
                + (t("report.tokens", n=integer(tokens)) if tokens is not None else t("report.no_tokens"))
                + (t("report.first_word", time=duration(first, 2)) if first is not None else "")
            )
        if c.llm_errors:
            lines.append(t("report.no_answer", n=c.llm_errors))
    return "\n".join(lines)


def _amount(key: str, value: float, signed: bool = False) -> str:
    if key == "prompt_tokens_mean":
        return integer(value, signed=signed)
    return decimal(value, 2, signed=signed) + " s"  # a signed change of time: not a duration


def _delta(key: str, d: MetricDelta) -> str:
    if key in _AMOUNTS:
        a, b = ((t("report.na") if v is None else _amount(key, v)) for v in (d.a, d.b))
        return f"{a} -> {b}" + ("" if d.delta is None else f" ({_amount(key, d.delta, signed=True)})")
    # A threshold as saved (0.833), so that two thresholds that differ never read the same.
    fmt = _setting if key in _THRESHOLDS else _num if key in _SCORES else _pct
    text = f"{fmt(d.a)} -> {fmt(d.b)}"
    if d.delta is None:
        return text
    if key in _THRESHOLDS:  # a change as small as the third decimal it is written with
        same = abs(d.delta) < 0.0005
        return f"{text} ({t('report.same')})" if same else f"{text} ({threshold_text(d.delta, signed=True)})"
    if key in _SCORES:
        return f"{text} ({decimal(d.delta, 2, signed=True)})" if abs(d.delta) >= 0.005 else f"{text} ({t('report.same')})"
    points = round(d.delta * 100)
    return f"{text} ({t('report.points', n=integer(points, signed=True))})" if points else f"{text} ({t('report.same')})"


def _ids(ids: Iterable[str], limit: int = 12) -> str:
    ids = list(ids)
    shown = ", ".join(ids[:limit])
    return shown + (f" ... (+{len(ids) - limit})" if len(ids) > limit else "")


def format_comparison(comparison: Comparison | Mapping[str, Any]) -> str:
    """A readable diff of two runs."""
    cmp = Comparison.of(comparison)
    a = cmp.a.collection or "A"
    b = cmp.b.collection or "B"
    if a == b:
        a, b = f"{a} ({run_date(cmp.a)})", f"{b} ({run_date(cmp.b)})"

    def side(label: str, name: str, info: RunSide) -> str:
        return t("report.side", label=label, name=name, strategy=info.strategy, model=info.model,
                 mode=_mode(info.mode), k=info.k)

    lines = [side("A", a, cmp.a), side("B", b, cmp.b)]
    thresholds = cmp.metric("threshold")
    if thresholds.a is not None and thresholds.a == thresholds.b:
        lines.append(t("report.same_threshold", threshold=_setting(thresholds.a)))
    elif thresholds.a is not None and thresholds.b is not None:
        lines.append(t("report.two_thresholds", a=_setting(thresholds.a), b=_setting(thresholds.b)))
    if not cmp.same_question_set:
        lines.append(t("report.sets_differ", n=cmp.common_questions))
    for key, d in cmp.metrics.items():
        label = _label(key)
        if key == "hit_at_k" and cmp.a.k == cmp.b.k and cmp.a.k:
            label = f"hit@{cmp.a.k}"
        lines.append(t("report.metric_line", label=label, change=_delta(key, d)))
    found = cmp.found
    lines.append(t("report.found", both=len(found.both), a=len(found.a_only), b=len(found.b_only),
                   neither=len(found.neither)))
    if found.a_only:
        lines.append(t("report.a_only", ids=_ids(found.a_only)))
    if found.b_only:
        lines.append(t("report.b_only", ids=_ids(found.b_only)))
    changes = cmp.rank_changes
    if changes:
        better = sum(1 for c in changes if c.better)
        lines.append(t("report.rank_changed", n=len(changes), better=better, worse=len(changes) - better))
        for c in changes[:12]:
            ra = c.rank_a if c.rank_a is not None else t("report.missed")
            rb = c.rank_b if c.rank_b is not None else t("report.missed")
            lines.append(t("report.rank_line", id=c.id, a=ra, b=rb))
    return "\n".join(lines)
