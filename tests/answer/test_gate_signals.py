"""What the gate's signals mean, on hand-made passages: a command is held only by a passage that
writes it whole, a signal that could not be measured moves the score neither way, and a floor
somebody set is one no passage under it crosses while the model's default floor is not."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from rag.answer.gate import LOW_COSINE, REFUSE, GateParams, decide_verdict, features, load_model
from rag.answer.gate_signals import Signals, drift_of, signals_from
from rag.answer.threshold import COLLECTION, MODEL_DEFAULT, SETTING
from rag.store.terms import without_words
from rag.store.terms import question_keys, question_words


@dataclass
class Passage:
    score: float
    text: str


def _df(question: str, absent: set[str], count: int = 5) -> dict[str, int]:
    """Every key of the question's words held by `count` chunks, but those of the `absent` words."""
    df = {}
    for w in question_words(question):
        for key in question_keys([w]):
            df[key] = 0 if w.text in absent else count
    return df


def test_a_command_is_held_only_by_a_passage_that_writes_it_whole():
    question = "Que montre journalctl pour un service arrêté ?"
    passage = Passage(0.86, "Le journal du service arrêté montre la dernière erreur.")
    signals = signals_from(question, [passage], _df(question, {"journalctl"}), 200, exact=True)
    assert "journalctl" in signals.missing and "journalctl" in signals.subject_words
    assert signals.rare_unknown > 0 and signals.rare_held < 1
    written = signals_from(question, [Passage(0.86, "journalctl -u montre le journal d'un service arrêté.")],
                           _df(question, set()), 200, exact=True)
    assert written.missing == [] and written.rare_held == 1.0


def test_a_signal_that_could_not_be_measured_moves_the_score_neither_way():
    model = load_model()
    question = "Quelle valeur de msDS-SupportedEncryptionTypes met AES uniquement ?"
    params = GateParams(0.83)
    without = signals_from(question, [Passage(0.87, "msDS-SupportedEncryptionTypes : 24 pour AES uniquement.")],
                           _df(question, set()), 300, exact=True)
    assert without.background is None and features(without, params)["peak"] is None
    at_mean = signals_from(question, [Passage(0.87, "msDS-SupportedEncryptionTypes : 24 pour AES uniquement.")],
                           _df(question, set()), 300, exact=True, background=0.87 - model.means["peak"])
    assert model.probability(features(without, params)) == pytest.approx(model.probability(features(at_mean, params)))


def test_a_floor_somebody_set_is_never_crossed_and_the_models_default_is_only_a_reference():
    signals = Signals(cosine=0.86, coverage=1.0, held=1.0, unknown=0.0, background=0.80, rare_held=1.0,
                      rare_unknown=0.0, chunks=300)
    for source in (SETTING, COLLECTION):
        assert decide_verdict(signals, GateParams(0.90, source=source))[:2] == (REFUSE, LOW_COSINE)
        assert decide_verdict(signals, GateParams(0.84, source=source))[0] != REFUSE
    # At the model's default floor the closeness is weighed with the words: a passage a little
    # under it, written about the question, still goes on.
    assert decide_verdict(signals, GateParams(0.87, source=MODEL_DEFAULT))[0] != REFUSE


def test_a_question_without_its_rare_missing_words_keeps_everything_else():
    question = "Mon chef, M. Ferrand, veut que budget_2026.ods montre les montants négatifs en rouge"
    rest = without_words(question, ["Ferrand", "budget_2026.ods"])
    assert rest == "Mon chef, M. , veut que montre les montants négatifs en rouge"
    # A word is taken out whole, in any case, never as part of another word; elided articles go as
    # they go from the question's words, an inverted subject stays.
    assert without_words("L’AIN et l’Aintree : dans l’Ain", ["ain"]) == "et Aintree : dans"
    assert without_words("Comment purge-t-il Okta ?", ["purge", "OKTA"]) == "Comment -t-il ?"


def test_what_the_missing_words_carry_is_none_when_nothing_else_is_left_and_zero_without_them():
    def never(text):
        raise AssertionError(f"embedded {text!r}")

    # Nothing but punctuation left: the words were the whole question, without a second embedding.
    assert drift_of("Okta ?", ["Okta"], [1.0, 0.0], never) == 1.0
    # No rare missing word: nothing moves, nothing is embedded.
    assert drift_of("Quelle valeur pour AES ?", [], None, never) == 0.0
    # Not measurable: no vector, or a vector the second embedding cannot be compared with.
    assert drift_of("Okta et AES ?", ["Okta"], None, never) is None
    assert drift_of("Okta et AES ?", ["Okta"], [1.0, 0.0], lambda text: []) is None
    assert drift_of("Okta et AES ?", ["Okta"], [0.0, 0.0], lambda text: [1.0, 0.0]) is None
    assert drift_of("Okta et AES ?", ["Okta"], [1.0, 0.0], lambda text: [0.6, 0.8]) == pytest.approx(0.4)


def test_a_missing_word_never_raises_the_score_and_weighs_more_the_more_it_carries():
    model = load_model()
    signals = Signals(cosine=0.86, coverage=0.7, held=0.6, unknown=0.3, background=0.80, rare_held=0.5,
                      rare_unknown=0.5, chunks=300)
    params = GateParams(0.83)
    scores = [model.probability(features(replace(signals, drift=d), params)) for d in (0.0, 0.01, 0.05, 0.2)]
    assert scores[0] > scores[1] > scores[2] > scores[3]
    # Not measured (across two languages, or no second embedding): counted at its mean.
    assert features(signals, params)["drift"] is None
    assert features(replace(signals, drift=0.3, other_language=True), params)["drift"] is None
