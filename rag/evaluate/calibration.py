"""Threshold calibration, pure: where to put the score threshold between the top-1 scores
of questions the blog answers (in-base) and questions it does not (off-topic).

A question is accepted when its top-1 dense cosine score is >= the threshold.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from itertools import pairwise, takewhile
from typing import Any, Iterator, Mapping, Sequence

from rag.answer.threshold import COLLECTION
from rag.evaluate.results import QuestionRow, rows_of
from rag.i18n import t, tn
from rag.i18n.numbers import decimal, percent



def accepted_refused(in_scores: Sequence[float], out_scores: Sequence[float], t: float) -> dict[str, Any]:
    """Shares at threshold t: in-base accepted (score >= t) and off-topic refused (score < t).

    A share is None when its group is empty; balanced_accuracy then uses the group that exists.
    """
    accepted = sum(1 for s in in_scores if s >= t)
    refused = sum(1 for s in out_scores if s < t)
    in_share = accepted / len(in_scores) if in_scores else None
    out_share = refused / len(out_scores) if out_scores else None
    present = [s for s in (in_share, out_share) if s is not None]
    return {
        "threshold": t,
        "in_base_accepted": in_share,
        "out_of_base_refused": out_share,
        "in_base_accepted_count": accepted,
        "in_base_count": len(in_scores),
        "out_of_base_refused_count": refused,
        "out_of_base_count": len(out_scores),
        "balanced_accuracy": sum(present) / len(present) if present else None,
    }


@dataclass(frozen=True)
class Calibration:
    suggested: float | None
    criterion: str
    balanced_accuracy: float | None
    overlap_count: int
    overlap_sentence: str
    at_current: dict[str, Any] | None
    at_suggested: dict[str, Any] | None
    reason: str | None = None  # why there is no suggestion, when there is none

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _tidy(value: float, low: float, high: float) -> float:
    """The shortest decimal strictly between low and high, near value (0.8 rather than 0.80125)."""
    for digits in range(1, 8):
        rounded = round(value, digits)
        if low < rounded < high:
            return rounded
    return value


def overlap(in_scores: Sequence[float], out_scores: Sequence[float]) -> tuple[int, str]:
    """How many in-base questions score at or below the best off-topic one, said plainly."""
    if not in_scores or not out_scores:
        return 0, t("cal.no_overlap")
    best_out = max(out_scores)
    worst_in = min(in_scores)
    below = [s for s in in_scores if s < best_out]
    ties = [s for s in in_scores if s == best_out]
    count = len(below) + len(ties)
    if count == 0:
        return 0, t("cal.separated", worst_in=decimal(worst_in), best_out=decimal(best_out))
    above = sum(1 for s in out_scores if s >= worst_in)
    sentence = (
        tn("cal.in_tied" if ties else "cal.in_below", count, best_out=decimal(best_out)) + ", "
        + tn("cal.out_above", above, worst_in=decimal(worst_in))
    )
    return count, sentence


def calibrate(
    in_scores: Sequence[float], out_scores: Sequence[float], current: float | None = None
) -> Calibration:
    """Suggest the threshold that best separates the two groups of top-1 scores."""
    in_scores = [float(s) for s in in_scores if s is not None]
    out_scores = [float(s) for s in out_scores if s is not None]
    count, sentence = overlap(in_scores, out_scores)
    at_current = accepted_refused(in_scores, out_scores, current) if current is not None else None

    reason = None
    if not in_scores and not out_scores:
        reason = t("cal.no_scores")
    elif not out_scores:
        reason = t("cal.no_out")
    elif not in_scores:
        reason = t("cal.no_in")
    if reason:
        return Calibration(None, t("cal.criterion"), None, count, sentence, at_current, None, reason)

    distinct = sorted(set(in_scores) | set(out_scores))
    candidates = [distinct[0]]
    candidates += [_tidy((a + b) / 2, a, b) for a, b in pairwise(distinct)]
    candidates.append(distinct[-1])

    best_t, best_ba = None, -1.0
    for candidate in sorted(candidates):
        ba = accepted_refused(in_scores, out_scores, candidate)["balanced_accuracy"]
        if ba > best_ba + 1e-12:  # strictly better only: ties stay at the lower threshold
            best_t, best_ba = candidate, ba
    at_suggested = accepted_refused(in_scores, out_scores, best_t)
    return Calibration(best_t, t("cal.criterion"), best_ba, count, sentence, at_current, at_suggested)


# -- the answerability gate: cosine, coverage and unknown names together ---------------------

# Below these counts a threshold follows one or two questions: it can be saved, with a warning.
ENOUGH_IN_BASE = 20
ENOUGH_OFF_TOPIC = 10


def small_sample_warning(in_base: int, off_topic: int) -> str | None:
    """What to say when a threshold is saved from fewer than 20 in-base and 10 off-topic
    questions (either one short is enough to warn); None when there are enough."""
    if in_base >= ENOUGH_IN_BASE and off_topic >= ENOUGH_OFF_TOPIC:
        return None
    return t("cal.small_sample", n_in=in_base, n_out=off_topic, min_in=ENOUGH_IN_BASE, min_out=ENOUGH_OFF_TOPIC)


KEEP_IN_BASE = 0.95
# How sure the calibration must be that KEEP_IN_BASE of the readers' answerable questions (not only
# the set's) are let through: a floor that refuses a few of a small set's in-base questions refuses
# more of the next ones (the customary 90% of a one-sided binomial bound).
CONFIDENCE = 0.90


def _refused_share_bound(in_base: int, keep: float, confidence: float) -> Iterator[bool]:
    """For r = 0, 1, ...: whether r refusals of `in_base` questions still vouch, at `confidence`,
    for at least `keep` of all such questions let through: P(Binomial(in_base, 1 - keep) <= r) <=
    1 - confidence (the one-sided Clopper-Pearson bound), summed once, in logs, so that a large
    set cannot overflow."""
    log_term, total = in_base * math.log(keep), 0.0  # log P(none refused)
    for r in range(in_base + 1):
        total += math.exp(log_term)
        yield total <= 1.0 - confidence
        if r < in_base:
            log_term += math.log((in_base - r) / (r + 1) * (1.0 - keep) / keep)


def refusals_allowed(in_base: int, keep: float = KEEP_IN_BASE, confidence: float = CONFIDENCE) -> int:
    """How many of `in_base` answerable questions a floor may refuse while still vouching, at
    `confidence`, that at least `keep` of all such questions are let through: 0 for a set too small
    to allow one (fewer than 77 questions at 95% and 90%; under 45 not even none vouches for it),
    1 of 100, 5 of 200."""
    vouched = list(takewhile(bool, _refused_share_bound(in_base, keep, confidence)))
    return max(0, len(vouched) - 1)


def gate_criterion(reachable: int, allowed: int, keep: float = KEEP_IN_BASE) -> str:
    """The calibration's criterion, said plainly: `allowed` refusals (refusals_allowed) of
    `reachable` in-base questions some floor lets through."""
    values = {"share": percent(keep), "confidence": percent(CONFIDENCE)}
    if allowed:
        return tn("cal.gate_criterion", allowed, n_in=reachable, **values)
    if next(_refused_share_bound(reachable, keep, CONFIDENCE)):  # refusing none still vouches
        return t("cal.gate_criterion_none", n_in=reachable, **values)
    return t("cal.gate_criterion_few", n_in=reachable, **values)


def row_signals(row: QuestionRow | Mapping[str, Any]) -> Any:
    """A results.json row's gate signals (rag.answer.gate_signals.Signals), as the live gate had them."""
    from rag.answer.gate_signals import Signals

    return Signals.of(QuestionRow.of(row).to_dict())


def row_verdict(row: QuestionRow | Mapping[str, Any], min_cosine: float, min_coverage: float | None = None,
                model: Any = None, source: str = COLLECTION) -> str:
    """The live gate's verdict (rag.answer.gate.decide_verdict) on this row's signals at these
    settings: by default a floor chosen for the collection (what a calibration or a threshold
    tried on the Evaluate page would be); `source` the model's default replays the default gate."""
    return row_decision(row, min_cosine, min_coverage, model, source)[0]


def row_decision(row: QuestionRow | Mapping[str, Any], min_cosine: float, min_coverage: float | None = None,
                 model: Any = None, source: str = COLLECTION) -> tuple[str, float | None]:
    """The verdict (as `row_verdict`) and the model's probability that the articles answer, at
    these settings (None when the cosine alone decides): what the gate chart places each row by."""
    from rag.answer.gate import DEFAULT_MIN_COVERAGE, GateParams, decide_verdict

    coverage = DEFAULT_MIN_COVERAGE if min_coverage is None else min_coverage
    verdict, _, score = decide_verdict(row_signals(row), GateParams(min_cosine, coverage, source=source), model)
    return verdict, score


def row_answers(row: QuestionRow | Mapping[str, Any], min_cosine: float, min_coverage: float | None = None,
                refuse_unknown_names: bool = True, model: Any = None, source: str = COLLECTION) -> bool:
    """Whether the gate lets this row's question through (verdict answer or unsure) at these settings."""
    return row_verdict(row, min_cosine, min_coverage, model, source) != "refuse"


def gate_shares(rows: Sequence[QuestionRow | Mapping[str, Any]], min_cosine: float, min_coverage: float | None = None,
                refuse_unknown_names: bool = True, model: Any = None, source: str = COLLECTION) -> dict[str, Any]:
    """In-base answered and off-topic refused by the gate at these settings, from each row's signals."""
    from rag.answer.gate import DEFAULT_MIN_COVERAGE

    typed = rows_of(rows)
    inside = [r for r in typed if r.in_base]
    outside = [r for r in typed if not r.in_base]
    answered = sum(1 for r in inside if row_answers(r, min_cosine, min_coverage, model=model, source=source))
    refused = sum(1 for r in outside if not row_answers(r, min_cosine, min_coverage, model=model, source=source))
    return {
        "min_cosine": min_cosine,
        "min_coverage": DEFAULT_MIN_COVERAGE if min_coverage is None else min_coverage,
        "refuse_unknown_names": refuse_unknown_names,
        "in_base_answered": answered / len(inside) if inside else None,
        "off_topic_refused": refused / len(outside) if outside else None,
        "in_base_answered_count": answered, "in_base_count": len(inside),
        "off_topic_refused_count": refused, "off_topic_count": len(outside),
    }


def compared_score(row: QuestionRow | Mapping[str, Any]) -> float | None:
    """The score the gate compares with its cosine floor for this row: the best passage's cosine;
    the top-1 score for a run without the gate's signals."""
    r = QuestionRow.of(row)
    if r.cosine is None:
        return None if r.top1_score is None else float(r.top1_score)
    return float(r.cosine)


def _cuts(values: Sequence[float]) -> list[float]:
    """A tidy value between each pair of distinct values, and one under the lowest."""
    distinct = sorted(set(values))
    return [round(distinct[0] - 0.001, 3)] + [_tidy((a + b) / 2, a, b) for a, b in pairwise(distinct)]


def calibrate_gate(rows: Sequence[dict[str, Any]], keep: float = KEEP_IN_BASE, model: Any = None,
                   min_coverage: float | None = None) -> dict[str, Any]:
    """The collection's cosine floor for the gate, from a question set's signals (results rows):
    the floor the gate's model measures the passages' closeness from. Every floor between two
    questions' cosines is tried with the live decision; the one refusing the most off-topic
    questions while refusing no more in-base ones than the set can vouch for (`refusals_allowed`:
    none of fewer than 77, counted among those some floor lets through) wins (the lowest on a
    tie). `min_coverage`: the run's word checks (0: off, the cosine alone decides; None: the
    default).
    Returns {"suggested": shares at the suggestion | None, "criterion", "reason"}."""
    typed = rows_of(rows)
    inside = [r for r in typed if r.in_base]
    outside = [r for r in typed if not r.in_base]
    if not outside or not [r for r in inside if r.cosine is not None]:
        reason = t("cal.gate_no_out") if not outside else t("cal.gate_no_in")
        return {"suggested": None, "reason": reason,
                "criterion": gate_criterion(len(inside), refusals_allowed(len(inside), keep), keep)}
    tried = [(floor, sum(row_answers(r, floor, min_coverage, model=model) for r in inside)) for floor in
             _cuts([r.cosine for r in typed if r.cosine is not None])]
    # An in-base question refused at every floor (no passage, or the model's refusal whatever the
    # floor) is no floor's doing: the bound counts the questions some floor lets through.
    reachable = max(answered for _, answered in tried)
    allowed = refusals_allowed(reachable, keep)
    criterion = gate_criterion(reachable, allowed, keep)
    need = reachable - allowed
    best: tuple[int, float] | None = None
    for floor, answered in tried:
        if answered < need:
            continue
        refused = sum(not row_answers(r, floor, min_coverage, model=model) for r in outside)
        if best is None or refused > best[0]:
            best = (refused, floor)
    assert best is not None  # the floor letting `reachable` through qualifies
    suggested = gate_shares(rows, best[1], min_coverage, model=model)
    return {"suggested": suggested, "criterion": criterion, "reason": None,
            "overlap_sentence": gate_overlap(suggested)}


def gate_overlap(shares: dict[str, Any]) -> str:
    """What the gate lets through at these settings, said plainly: the off-topic questions it
    answers are the ones the prompt's refusal rule must catch (not those the cosine alone lets by)."""
    through = shares["off_topic_count"] - shares["off_topic_refused_count"]
    refused_in = shares["in_base_count"] - shares["in_base_answered_count"]
    if not through:
        return tn("cal.gate_all_refused", refused_in, outside=shares["off_topic_count"])
    return tn("cal.gate_through", through, outside=shares["off_topic_count"]) + tn("cal.gate_in_refused", refused_in)
