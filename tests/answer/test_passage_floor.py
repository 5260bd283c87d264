"""A collection's calibration moves the gate's boundary, not how many passages the model reads."""

from rag.answer.gate import ANSWER, Decision, resolve_params
from rag.answer.gate_signals import Signals
from rag.answer.pipeline import decide
from rag.answer.retrieve import Passage
from rag.answer.threshold import default_threshold

E5 = "intfloat/multilingual-e5-small"


def _passages(*scores: float) -> list[Passage]:
    return [Passage(n=i, score=s, title=f"Article {i}", section="", url=f"{i}.md", text="klist purge")
            for i, s in enumerate(scores, 1)]


def _let_through(params) -> Decision:
    return Decision(True, None, Signals(cosine=0.90, coverage=1.0, held=1.0, unknown=0.0), params, verdict=ANSWER)


def test_a_calibrated_boundary_above_the_models_floor_still_sends_the_close_passages():
    calibrated = resolve_params(None, {"gate": {"min_cosine": 0.887}}, E5)
    assert calibrated.min_cosine == 0.887 and calibrated.passage_floor == default_threshold(E5)

    passages = _passages(0.90, 0.86, 0.85, 0.84, 0.80)
    prepared = decide("Comment purger les tickets Kerberos ?", passages, calibrated.min_cosine, calibrated.source,
                      decision=_let_through(calibrated))

    assert prepared.result is None
    # Every passage the embedding model counts as close goes to the model, not the best alone.
    assert [p.n for p in prepared.accepted] == [1, 2, 3, 4]


def test_a_threshold_set_by_hand_decides_which_passages_the_model_reads():
    strict = resolve_params(0.87, {"gate": {"min_cosine": 0.80}}, E5)
    assert strict.passage_floor == 0.87

    prepared = decide("Comment purger les tickets Kerberos ?", _passages(0.90, 0.86, 0.85), strict.min_cosine,
                      strict.source, decision=_let_through(strict))

    assert [p.n for p in prepared.accepted] == [1]
