"""Threshold calibration, pure: where to put the score threshold between the top-1 scores
of questions the blog answers (in-base) and questions it does not (off-topic).

A question is accepted when its top-1 dense cosine score is >= the threshold.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from itertools import pairwise
from typing import Any, Mapping, Sequence

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


def row_signals(row: QuestionRow | Mapping[str, Any]) -> Any:
    """A results.json row's gate signals (rag.answer.gate_words.Signals)."""
    from rag.answer.gate_words import Signals

    r = QuestionRow.of(row)
    return Signals(cosine=r.cosine, coverage=r.coverage, passage_coverage=r.passage_coverage,
                   unknown_names=list(r.unknown_names or []), known_names=list(r.known_names or []),
                   context_words=list(r.context_words or []), unknown_subject=list(r.unknown_subject or []),
                   core_coverage=r.core_coverage, core_passage_coverage=r.core_passage_coverage,
                   cosine_core=r.cosine_core, ordinary_words=list(r.ordinary_words or []),
                   specific_coverage=r.specific_coverage, specific_passage_coverage=r.specific_passage_coverage,
                   subject_words=list(r.subject_words or []))


def row_answers(row: QuestionRow | Mapping[str, Any], min_cosine: float, min_coverage: float, refuse_unknown_names: bool = True) -> bool:
    """Whether the gate answers this row's question at these settings (rag.gate.decide)."""
    from rag.answer.gate import GateParams, decide

    return decide(row_signals(row), GateParams(min_cosine, min_coverage, refuse_unknown_names))[0]


def gate_shares(rows: Sequence[QuestionRow | Mapping[str, Any]], min_cosine: float, min_coverage: float,
                refuse_unknown_names: bool = True) -> dict[str, Any]:
    """In-base answered and off-topic refused by the gate at these settings, from each row's
    signals (`in_base`, `cosine`, `coverage` (None = not measured), `unknown_names`...)."""
    typed = rows_of(rows)
    inside = [r for r in typed if r.in_base]
    outside = [r for r in typed if not r.in_base]
    answered = sum(1 for r in inside if row_answers(r, min_cosine, min_coverage, refuse_unknown_names))
    refused = sum(1 for r in outside if not row_answers(r, min_cosine, min_coverage, refuse_unknown_names))
    return {
        "min_cosine": min_cosine, "min_coverage": min_coverage, "refuse_unknown_names": refuse_unknown_names,
        "in_base_answered": answered / len(inside) if inside else None,
        "off_topic_refused": refused / len(outside) if outside else None,
        "in_base_answered_count": answered, "in_base_count": len(inside),
        "off_topic_refused_count": refused, "off_topic_count": len(outside),
    }


def _effective_cosine(row: QuestionRow | Mapping[str, Any]) -> float:
    """The cosine the floor is compared with: an exact match gets the gate's slack."""
    from rag.answer.gate import LEXICAL_SLACK

    return QuestionRow.of(row).cosine + (LEXICAL_SLACK if is_exact_match(row) else 0.0)


def is_exact_match(row: QuestionRow | Mapping[str, Any]) -> bool:
    """Every word of the row's question, a name among them, is in its passages (rag.gate.exact_match)."""
    from rag.answer.gate import exact_match

    return exact_match(row_signals(row))


def compared_score(row: QuestionRow | Mapping[str, Any]) -> float | None:
    """The score the gate compares with its cosine floor for this row: the best passage's cosine,
    plus the gate's slack for an exact match; the top-1 score for a run without the gate's signals."""
    r = QuestionRow.of(row)
    if r.cosine is None:
        return None if r.top1_score is None else float(r.top1_score)
    return _effective_cosine(r)


def _core(row: dict[str, Any]) -> float | None:
    """The coverage the gate compares with its floor: without the context words when measured."""
    return row["core_coverage"] if row.get("core_coverage") is not None else row.get("coverage")


def _subject(row: dict[str, Any]) -> list[str]:
    return list(row.get("unknown_subject") or []) if row.get("core_coverage") is not None \
        else list(row.get("unknown_names") or [])


def _cuts(values: Sequence[float]) -> list[float]:
    """0, then a tidy value between each pair of distinct values."""
    distinct = sorted(set(values))
    return [0.0] + [_tidy((a + b) / 2, a, b) for a, b in pairwise(distinct)]


def calibrate_gate(rows: Sequence[dict[str, Any]], keep: float = KEEP_IN_BASE) -> dict[str, Any]:
    """The gate's settings for this collection, from a question set's signals (results rows).

    Every coverage cut and every cosine floor between two questions' scores is tried, with and
    without refusing unknown names. Returns {"suggested": shares at the suggestion | None,
    "criterion", "reason"}.
    """
    from bisect import bisect_left

    scored = [r for r in rows if r.get("cosine") is not None]
    inside_all = [r for r in rows if r.get("in_base")]
    outside = [r for r in rows if not r.get("in_base")]
    criterion = t("cal.gate_criterion", share=percent(keep))
    if not outside or not [r for r in inside_all if r.get("cosine") is not None]:
        reason = t("cal.gate_no_out") if not outside else t("cal.gate_no_in")
        return {"suggested": None, "criterion": criterion, "reason": reason}
    need = max(1, math.ceil(keep * len(inside_all) - 1e-9))
    effective = {id(r): _effective_cosine(r) for r in scored}
    every = sorted(set(effective.values()))
    best_key: tuple | None = None
    best: tuple[float, float, bool] | None = None
    coverages = [_core(r) for r in rows if _core(r) is not None]
    for names in (True, False):
        for min_coverage in _cuts(coverages) if coverages else [0.0]:
            def passes(r: dict[str, Any], names: bool = names, min_coverage: float = min_coverage) -> bool:
                return (id(r) in effective and not (names and _subject(r))
                        and (_core(r) is None or _core(r) >= min_coverage))

            ins = sorted(effective[id(r)] for r in inside_all if passes(r))
            outs = sorted(effective[id(r)] for r in outside if passes(r))
            if len(ins) < need:
                continue
            for floor in sorted(set(ins[: len(ins) - need + 1])):  # floors answering >= need
                i = bisect_left(every, floor)
                cosine = _tidy((floor + every[i - 1]) / 2, every[i - 1], floor) if i else 0.0
                answered = len(ins) - bisect_left(ins, cosine)
                refused = len(outside) - (len(outs) - bisect_left(outs, cosine))
                key = (refused, answered, -cosine, -min_coverage, names)
                if best_key is None or key > best_key:
                    best_key, best = key, (cosine, min_coverage, names)
    if best is None:
        return {"suggested": None, "criterion": criterion,
                "reason": t("cal.gate_none", share=percent(keep))}
    suggested = gate_shares(rows, *best)
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
