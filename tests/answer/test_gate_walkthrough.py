"""What a walk through the Ask page on the demo collection tripped on, through the gate's word checks.

A customer named after "chez le client" is the reader's situation, in French and in English; the
refusal names what the reader asked about (the distinctive words no article holds), never a verb
form or an everyday adverb, and the journal's subjects are the same words.
"""

from __future__ import annotations

import pytest

from rag.answer.gate import REFUSE, UNKNOWN_NAMES, GateParams, decide_verdict
from rag.answer.gate_words import signals_from
from rag.answer.question_roles import roles
from rag.store.terms import question_words

PARAMS = GateParams(0.83, 0.6, True, "model default")


class _P:
    score = 0.85
    text = ""
    id = ""


def _signals(question: str, absent: set[str], n: int = 97, score: float = 0.85):
    """The signals of `question` on a collection whose chunks hold every word but `absent`."""
    df: dict[str, int] = {}
    for w in question_words(question):
        for key in (*w.parts, *w.forms, *([w.exact] if w.exact else []), *([w.whole] if w.whole else [])):
            df[key] = 0 if w.text in absent else 7
    passage = _P()
    passage.score = score
    return signals_from(question, [passage], df, n, exact=True)


@pytest.mark.parametrize("question", [
    "Comment installer Okta chez le client Airbus ?",
    "Comment installer Okta auprès du client Airbus ?",
    "How do I install Okta at the customer Airbus?",
])
def test_the_customer_after_where_someone_is_and_their_role_is_the_situation(question):
    assert "Airbus" in roles(question)[0]
    signals = _signals(question, {"Airbus"})
    assert signals.context_words == ["Airbus"] and signals.unknown_subject == []
    assert decide_verdict(signals, PARAMS)[0] != REFUSE


@pytest.mark.parametrize("question", [
    "Comment installer le client Okta ?",  # Okta's client software
    "Chez le client, Okta convient-il ?",  # across a comma, Okta is what is asked about
])
def test_the_product_stays_the_subject(question):
    assert "Okta" not in roles(question)[0]
    signals = _signals(question, {"Okta"})
    assert signals.unknown_subject == ["Okta"]
    assert decide_verdict(signals, PARAMS) == (REFUSE, UNKNOWN_NAMES)
