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
