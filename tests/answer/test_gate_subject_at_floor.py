"""A word of the subject no article holds, with passages at the cosine floor itself: refused.

Everyday off-topic questions ("Quel est le meilleur moment pour tailler une glycine ?") score at
the floor on a large collection, where the articles' other words ("meilleur", "moment",
"tailler") make the share of words; the one word no chunk holds is what is asked. Passages
clearly closer than the floor, or a missing word that is only the reader's situation or an
everyday word, leave the decision as it was.
"""

from __future__ import annotations

from rag.answer.gate import ANSWER, CLEAR_MARGIN, LOW_COVERAGE, REFUSE, Decision, GateParams, decide_verdict, explain
from rag.answer.gate_words import Signals

PARAMS = GateParams(0.83, 0.6, True, "model default")


def _one_word_missing(cosine: float, word: str = "glycine", context: tuple[str, ...] = (),
                      everyday: tuple[str, ...] = ()) -> Signals:
    return Signals(cosine=cosine, coverage=0.62, passage_coverage=0.43, missing=[word],
                   context_words=list(context), ordinary_words=list(everyday), core_coverage=0.62,
                   core_passage_coverage=0.43, specific_coverage=0.62, specific_passage_coverage=0.43)


def test_a_missing_word_of_the_subject_at_the_floor_is_refused_and_named():
    signals = _one_word_missing(0.836)
    verdict, reason = decide_verdict(signals, PARAMS)
    assert (verdict, reason) == (REFUSE, LOW_COVERAGE)
    assert "glycine" in explain(Decision(False, reason, signals, PARAMS, verdict=verdict), "fr")


def test_passages_clearly_closer_than_the_floor_still_answer():
    assert decide_verdict(_one_word_missing(0.83 + CLEAR_MARGIN + 0.005), PARAMS)[0] == ANSWER


def test_a_missing_detail_of_the_situation_or_everyday_word_is_not_the_subject():
    assert decide_verdict(_one_word_missing(0.836, "Karim", context=("Karim",)), PARAMS)[0] == ANSWER
    assert decide_verdict(_one_word_missing(0.836, "revenus", everyday=("revenus",)), PARAMS)[0] == ANSWER


def test_with_the_word_checks_off_the_cosine_alone_decides():
    assert decide_verdict(_one_word_missing(0.836), GateParams(0.83, 0.0, False, "setting"))[0] == ANSWER
