"""Threshold calibration on synthetic top-1 scores."""

from __future__ import annotations

import pytest

from rag.evaluate.calibration import accepted_refused, calibrate


def test_fully_separated_groups():
    cal = calibrate([0.9, 0.85, 0.88], [0.7, 0.75], current=0.8)
    assert 0.75 < cal.suggested < 0.85
    assert cal.suggested == 0.8  # the midpoint, shown tidy
    assert cal.balanced_accuracy == 1.0
    assert cal.overlap_count == 0
    assert cal.overlap_sentence.startswith("the two groups are fully separated")
    assert cal.at_suggested["in_base_accepted"] == 1.0 and cal.at_suggested["out_of_base_refused"] == 1.0
    assert cal.at_current["threshold"] == 0.8
    assert "balanced accuracy" in cal.criterion and cal.reason is None


def test_overlap_is_counted_and_said():
    cal = calibrate([0.9, 0.8, 0.78, 0.6], [0.7, 0.83], current=0.95)
    assert cal.overlap_count == 3
    assert cal.overlap_sentence.startswith("3 in-base questions score below the best off-topic one (0.83)")
    assert cal.at_current["in_base_accepted"] == 0 and cal.at_current["out_of_base_refused"] == 1.0
    # thresholds 0.74 (3/4 accepted, 1/2 refused) and 0.865 (1/4, 2/2) tie with 0.625: the lowest wins
    assert cal.balanced_accuracy == pytest.approx(0.625)
    assert 0.7 < cal.suggested < 0.78


def test_fully_overlapping_groups_keep_answering():
    cal = calibrate([0.8, 0.8], [0.8, 0.8])
    assert cal.suggested == 0.8  # everything accepted: refusing everything is no better
    assert cal.balanced_accuracy == 0.5
    assert cal.overlap_count == 2
    assert "at or below the best off-topic one (0.80)" in cal.overlap_sentence
    assert cal.at_current is None


def test_ties_go_to_the_lowest_threshold():
    # t=0.55: in 2/2, out 1/2 refused -> 0.75; t=0.8: in 1/2, out 2/2 -> 0.75; the lower wins
    cal = calibrate([0.6, 0.9], [0.5, 0.7])
    assert cal.suggested == pytest.approx(0.55)
    assert cal.balanced_accuracy == pytest.approx(0.75)


def test_inverted_groups_accept_everything():
    cal = calibrate([0.5], [0.9])
    assert cal.suggested == 0.5 and cal.balanced_accuracy == 0.5
    assert cal.overlap_sentence.startswith("1 in-base question scores below the best off-topic one (0.90)")


def test_single_elements():
    cal = calibrate([0.9], [0.3])
    assert 0.3 < cal.suggested < 0.9 and cal.balanced_accuracy == 1.0


def test_suggested_threshold_lies_strictly_between_close_scores():
    cal = calibrate([0.81234], [0.81231])
    assert 0.81231 < cal.suggested < 0.81234


@pytest.mark.parametrize(
    "ins, outs, why",
    [([0.9, 0.8], [], "no off-topic questions"), ([], [0.5], "no in-base questions"), ([], [], "no scores")],
)
def test_empty_groups_give_no_suggestion_and_say_why(ins, outs, why):
    cal = calibrate(ins, outs, current=0.7)
    assert cal.suggested is None and cal.at_suggested is None and cal.balanced_accuracy is None
    assert why in cal.reason
    assert cal.at_current["threshold"] == 0.7
    assert cal.to_dict()["reason"] == cal.reason


def test_accepted_refused_for_the_slider():
    shares = accepted_refused([0.9, 0.8, 0.7, 0.6], [0.5, 0.75], 0.7)
    assert shares["in_base_accepted"] == 0.75  # score >= t is accepted
    assert shares["out_of_base_refused"] == 0.5
    assert shares["in_base_accepted_count"] == 3 and shares["out_of_base_count"] == 2
    assert shares["balanced_accuracy"] == 0.625
    empty = accepted_refused([], [0.5], 0.7)
    assert empty["in_base_accepted"] is None and empty["balanced_accuracy"] == 1.0


def test_a_threshold_from_too_few_questions_is_said_to_be_so():
    from rag.evaluate.calibration import small_sample_warning

    assert small_sample_warning(54, 14) is None
    assert small_sample_warning(20, 10) is None
    assert "16 in-base and 14 off-topic" in small_sample_warning(16, 14)
    assert small_sample_warning(40, 9) is not None


def _rows(in_base: list[float], off_topic: list[float]) -> list[dict]:
    """results.json rows the cosine alone decides (a collection without word statistics)."""
    return ([{"id": f"in{i}", "in_base": True, "cosine": c} for i, c in enumerate(in_base)]
            + [{"id": f"out{i}", "in_base": False, "cosine": c} for i, c in enumerate(off_topic)])


def test_a_small_set_calibrates_no_refusal_of_its_own_answerable_questions():
    """A floor that refuses one of 20 answerable questions refuses more of the next readers':
    twenty cannot vouch for it, so the suggestion lets them all through, and says why."""
    from rag.evaluate.calibration import calibrate_gate

    # one in-base question sits low (0.80); refusing it would refuse three more off-topic ones
    ins = [0.80] + [0.86 + i / 1000 for i in range(19)]
    outs = [0.78, 0.79, 0.81, 0.82, 0.83] + [0.70] * 10
    cal = calibrate_gate(_rows(ins, outs))
    assert cal["suggested"]["in_base_answered"] == 1.0
    assert cal["suggested"]["min_cosine"] <= 0.80
    assert cal["suggested"]["off_topic_refused_count"] == 12
    assert "lets through (20): too few to vouch" in cal["criterion"]


def test_a_large_set_may_refuse_what_it_can_vouch_for():
    """100 answerable questions vouch, at 90% confidence, for one refusal: 95% of the readers'
    answerable questions still get through. The suggestion uses it, no more."""
    from rag.evaluate.calibration import calibrate_gate, refusals_allowed

    assert refusals_allowed(100) == 1 and refusals_allowed(20) == 0 and refusals_allowed(200) == 5
    ins = [0.80, 0.81, 0.815] + [0.86 + i / 10000 for i in range(97)]
    outs = [0.79, 0.805, 0.812, 0.82, 0.83] + [0.70] * 10
    cal = calibrate_gate(_rows(ins, outs))
    assert cal["suggested"]["in_base_answered_count"] == 99  # 0.80 refused, 0.81 kept
    assert cal["suggested"]["off_topic_refused_count"] == 12  # 0.70s, 0.79 and 0.805
    assert "at most 1 of the 100 in-base questions some setting lets through" in cal["criterion"]


def test_the_calibration_criterion_reads_in_french():
    from rag.evaluate.calibration import calibrate_gate
    from rag.i18n import language

    with language("fr"):
        cal = calibrate_gate(_rows([0.86, 0.87, 0.88], [0.70, 0.75]))
    assert "qu'un réglage laisse passer (3) : c'est trop peu pour garantir" in cal["criterion"]
    assert "avec 90\xa0% de confiance, que 95\xa0% des questions" in cal["criterion"]


def test_questions_no_floor_lets_through_are_not_counted_against_the_floor():
    """Three answerable questions found no passage: no floor refuses them, the calibration counts
    the 97 others, and says so."""
    from rag.evaluate.calibration import calibrate_gate

    rows = _rows([0.80, 0.81, 0.815] + [0.86 + i / 10000 for i in range(94)], [0.79, 0.805, 0.812, 0.82, 0.83])
    rows += [{"id": f"lost{i}", "in_base": True, "cosine": None} for i in range(3)]
    cal = calibrate_gate(rows)
    assert cal["suggested"]["in_base_answered_count"] == 96  # the 3 without a passage, and 0.80
    assert "at most 1 of the 97 in-base questions some setting lets through" in cal["criterion"]


def test_between_45_and_76_questions_refusing_none_still_vouches_and_the_criterion_says_so():
    from rag.evaluate.calibration import calibrate_gate

    cal = calibrate_gate(_rows([0.86 + i / 1000 for i in range(50)], [0.70, 0.75]))
    assert "refusing none of the 50 in-base questions" in cal["criterion"]
    assert "refusing one would no longer vouch" in cal["criterion"]


def test_a_large_set_is_bounded_without_overflow():
    """Thousands of questions (a generated set) allow a little under 5% of refusals."""
    from rag.evaluate.calibration import refusals_allowed

    for n in (4000, 20000):
        assert 0.04 * n < refusals_allowed(n) < 0.05 * n
