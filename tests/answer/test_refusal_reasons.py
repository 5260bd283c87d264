"""What a refusal names (rag.answer.refusal): what the reader asked about, never a conjugated
everyday verb nor the reader's situation, the same for every reader of it."""

from __future__ import annotations

from rag.answer import refusal
from rag.answer.gate import Decision, GateParams
from rag.answer.gate_words import Signals, asked_words
from rag.answer.language_words import everyday_form


def test_a_conjugated_everyday_verb_is_never_named_a_subject():
    """"fera" was named beside "demain, Lyon"; its rarer forms ("ferons" 3.9, "feriez") and those of
    other everyday verbs are no subject either, while a plural of the field and a name stay."""
    assert all(everyday_form(w) for w in ("ferons", "feriez", "mangerons", "pourrions", "supprimerai"))
    assert not any(everyday_form(w) for w in ("crêpes", "certificats", "keepalived", "purgera", "Windows",
                                              "tikets", "glycines"))
    assert asked_words(["ferons", "crêpes", "Lyon"], ["Lyon"], []) == ["crêpes"]


def _decision(reason: str, **signals) -> Decision:
    return Decision(False, reason, Signals(cosine=0.772, coverage=0.4, passage_coverage=0.4, **signals),
                    GateParams(0.834))


def test_a_refusal_by_words_names_the_subject_and_one_by_everyday_words_gives_the_distance():
    crepes = _decision("low_coverage", missing=["pâte", "crêpes"], ordinary_words=["pâte"])
    assert refusal.from_decision(crepes) == {"kind": "words", "words": ["crêpes"]}
    weather = _decision("low_coverage", missing=["fera", "demain", "Lyon"], context_words=["demain", "Lyon"],
                        ordinary_words=["fera"])
    assert refusal.from_decision(weather) == {"kind": "score", "best": 0.772, "threshold": 0.834}
    assert refusal.text(refusal.from_decision(weather), "fr") == (
        "aucun passage n'est assez proche de la question (meilleur score 0,772 < seuil 0,834)")
    assert refusal.text(refusal.from_decision(crepes), "en") == "no article mentions: crêpes"
