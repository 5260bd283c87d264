"""Threshold calibration, pure: where to put the score threshold between the top-1 scores
of questions the blog answers (in-base) and questions it does not (off-topic).

A question is accepted when its top-1 dense cosine score is >= the threshold.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from itertools import pairwise
from typing import Any, Sequence

CRITERION = (
    "best balanced accuracy: (share of in-base questions accepted + share of off-topic "
    "questions refused) / 2; among equally good thresholds the lowest, so the workbench "
    "answers rather than refuses"
)


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


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def overlap(in_scores: Sequence[float], out_scores: Sequence[float]) -> tuple[int, str]:
    """How many in-base questions score at or below the best off-topic one, said plainly."""
    if not in_scores or not out_scores:
        return 0, "no overlap to measure: the question set needs both in-base and off-topic questions"
    best_out = max(out_scores)
    worst_in = min(in_scores)
    below = [s for s in in_scores if s < best_out]
    ties = [s for s in in_scores if s == best_out]
    count = len(below) + len(ties)
    if count == 0:
        return 0, (
            "the two groups are fully separated: every in-base question scores above every "
            f"off-topic one (lowest in-base {worst_in:.2f}, highest off-topic {best_out:.2f})"
        )
    where = "at or below" if ties else "below"
    verb = "scores" if count == 1 else "score"
    above = sum(1 for s in out_scores if s >= worst_in)
    sentence = (
        f"{_plural(count, 'in-base question', 'in-base questions')} {verb} {where} the best "
        f"off-topic one ({best_out:.2f}), and {_plural(above, 'off-topic question', 'off-topic questions')} "
        f"{'scores' if above == 1 else 'score'} at or above the worst in-base one ({worst_in:.2f}): "
        "no threshold separates them all; the prompt's refusal rule has to catch the rest"
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
        reason = "no scores: the question set has no question with a retrieved passage"
    elif not out_scores:
        reason = (
            "no off-topic questions (in_base false) in the set: add about ten questions the "
            "blog does not answer so a threshold can be placed between the two groups"
        )
    elif not in_scores:
        reason = "no in-base questions in the set: add questions the blog answers, with their article"
    if reason:
        return Calibration(None, CRITERION, None, count, sentence, at_current, None, reason)

    distinct = sorted(set(in_scores) | set(out_scores))
    candidates = [distinct[0]]
    candidates += [_tidy((a + b) / 2, a, b) for a, b in pairwise(distinct)]
    candidates.append(distinct[-1])

    best_t, best_ba = None, -1.0
    for t in sorted(candidates):
        ba = accepted_refused(in_scores, out_scores, t)["balanced_accuracy"]
        if ba > best_ba + 1e-12:  # strictly better only: ties stay at the lower threshold
            best_t, best_ba = t, ba
    at_suggested = accepted_refused(in_scores, out_scores, best_t)
    return Calibration(best_t, CRITERION, best_ba, count, sentence, at_current, at_suggested)
