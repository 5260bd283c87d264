"""The reader's details set aside may lift a question over the cosine floor only clearly.

The gate compares the floor with the better of the question's cosine and its core's (the
question without the reader's details, `cosine_core`). An everyday off-topic question whose
details are set aside ("Quel temps fera-t-il à Lyon ce week-end ?") scores under the floor as
written and just over it without "Lyon": what lifts it is only that the details are gone. The
core must then clear the floor by CLEAR_MARGIN; a question over the floor as written, or a core
clearly over it, is decided as before.
"""

from __future__ import annotations

from rag.answer.gate import (
    ANSWER, CLEAR_MARGIN, REFUSE, UNKNOWN_NAMES, Decision, GateParams, decide_verdict, explain,
)
from rag.answer.gate_words import Signals

PARAMS = GateParams(0.83, 0.6, True, "model default")


def _with_details(cosine: float, cosine_core: float | None, details: tuple[str, ...] = ("Lyon",)) -> Signals:
    return Signals(cosine=cosine, coverage=0.5, passage_coverage=0.5, unknown_names=list(details),
                   missing=list(details), context_words=list(details), core_coverage=1.0,
                   core_passage_coverage=0.55, cosine_core=cosine_core, specific_coverage=1.0,
                   specific_passage_coverage=0.55)


def test_a_core_just_over_the_floor_does_not_lift_the_question_and_the_refusal_names_the_details():
    signals = _with_details(0.798, 0.831)
    verdict, reason = decide_verdict(signals, PARAMS)
    assert (verdict, reason) == (REFUSE, UNKNOWN_NAMES)
    assert "Lyon" in explain(Decision(False, reason, signals, PARAMS, verdict=verdict), "fr")


def test_a_core_clearly_over_the_floor_lifts_the_question():
    assert decide_verdict(_with_details(0.824, 0.83 + CLEAR_MARGIN + 0.001), PARAMS)[0] == ANSWER


def test_a_question_over_the_floor_as_written_keeps_its_details_aside():
    # "Mon collègue Karim …" at 0.836 as written: the details never lifted it.
    assert decide_verdict(_with_details(0.836, 0.835, ("Karim",)), PARAMS)[0] == ANSWER


def test_with_the_word_checks_off_the_cosine_alone_decides():
    assert decide_verdict(_with_details(0.798, 0.831), GateParams(0.83, 0.0, False, "setting"))[0] == ANSWER
