"""Metrics against a hand count on hand-made retrieved lists."""

from __future__ import annotations

import pytest

from rag.evaluate.metrics import contains_answer, hit_rank, llm_metrics, retrieval_metrics, threshold_shares


def test_hit_rank_counts_expected_source_and_also_in():
    assert hit_rank(["x", "a.md", "a.md"], {"a.md"}) == 2
    assert hit_rank(["x", "y", "b.md"], {"a.md", "b.md"}) == 3
    assert hit_rank(["x", "y"], {"a.md"}) is None
    assert hit_rank([], {"a.md"}) is None


def test_answer_spans_are_compared_after_normalising_both_sides():
    passages = ["Lancez  pktmon start --capture\u00a0 dans une console.", "L\u2019outil s\u2019appelle Pktmon"]
    assert contains_answer("PKTMON START --capture", passages) is True
    assert contains_answer("l'outil s'appelle", passages) is True
    assert contains_answer("netsh trace", passages) is False
    assert contains_answer("ﬁchier", ["Le fichier"]) is True  # NFKC ligature
    assert contains_answer("a \u2013 b", ["A - B"]) is True
    assert contains_answer(None, passages) is None
    assert contains_answer("", passages) is None


def rows():
    # 5 in-base questions (ranks 1, 2, 4, missed, 1) and 2 off-topic ones.
    return [
        {"id": "a", "in_base": True, "rank": 1, "expected_answer": "x", "answer_in_context": True, "refused": False},
        {"id": "b", "in_base": True, "rank": 2, "expected_answer": None, "answer_in_context": None, "refused": False},
        {"id": "c", "in_base": True, "rank": 4, "expected_answer": "y", "answer_in_context": False, "refused": True},
        {"id": "d", "in_base": True, "rank": None, "expected_answer": "z", "answer_in_context": True, "refused": False},
        {"id": "e", "in_base": True, "rank": 1, "expected_answer": None, "answer_in_context": None, "refused": False},
        {"id": "f", "in_base": False, "rank": None, "expected_answer": None, "refused": True},
        {"id": "g", "in_base": False, "rank": None, "expected_answer": None, "refused": False},
    ]


def test_retrieval_metrics_match_a_hand_count():
    m = retrieval_metrics(rows(), k=6)
    assert (m["questions"], m["in_base"], m["out_of_base"], m["k"]) == (7, 5, 2, 6)
    assert m["hit_at_1"] == pytest.approx(2 / 5)
    assert m["hit_at_3"] == pytest.approx(3 / 5)
    assert m["hit_at_k"] == pytest.approx(4 / 5)
    assert m["mrr"] == pytest.approx((1 + 1 / 2 + 1 / 4 + 0 + 1) / 5)
    assert m["answer_in_context"] == pytest.approx(2 / 3)  # a, c, d have an answer; a and d found
    assert m["counts"] == {"hit_at_1": 2, "hit_at_3": 3, "hit_at_k": 4,
                           "with_expected_answer": 3, "answer_in_context": 2}


def test_hit_at_k_uses_k():
    assert retrieval_metrics(rows(), k=3)["hit_at_k"] == pytest.approx(3 / 5)


def test_no_expected_answer_gives_null_not_zero():
    data = [dict(r, expected_answer=None) for r in rows()]
    assert retrieval_metrics(data, k=6)["answer_in_context"] is None
    empty = retrieval_metrics([r for r in rows() if not r["in_base"]], k=6)
    assert empty["hit_at_1"] is None and empty["mrr"] is None


def test_threshold_shares():
    shares = threshold_shares(rows())
    assert shares["in_base_accepted"] == pytest.approx(4 / 5)
    assert shares["out_of_base_refused"] == pytest.approx(1 / 2)


def test_llm_metrics_match_a_hand_count():
    data = [
        # in-base, expected span written, cited properly
        {"in_base": True, "expected_answer": "x", "answer": "x [1]", "answer_refused": False,
         "answer_contains_expected": True, "citations": [1], "invalid_citations": []},
        # in-base, span missing, cites an extract that does not exist
        {"in_base": True, "expected_answer": "y", "answer": "z [7]", "answer_refused": False,
         "answer_contains_expected": False, "citations": [7], "invalid_citations": [7], "uncited": True},
        # in-base, no expected answer, no citation at all
        {"in_base": True, "expected_answer": None, "answer": "plain", "answer_refused": False,
         "answer_contains_expected": None, "citations": [], "invalid_citations": [], "uncited": True},
        # in-base, refused: counts against answer_contains_expected
        {"in_base": True, "expected_answer": "w", "answer": "Je ne sais pas.", "answer_refused": True,
         "answer_contains_expected": False, "citations": [], "invalid_citations": []},
        # off-topic refused, off-topic answered with a citation
        {"in_base": False, "answer": "refus", "answer_refused": True, "citations": [], "invalid_citations": []},
        {"in_base": False, "answer": "oops [2]", "answer_refused": False, "citations": [2], "invalid_citations": []},
    ]
    m = llm_metrics(data)
    assert m["answer_contains_expected"] == pytest.approx(1 / 3)
    assert m["refusal_rate_out_of_base"] == pytest.approx(1 / 2)
    assert m["refusal_rate_in_base"] == pytest.approx(1 / 4)
    assert m["invalid_citation_rate"] == pytest.approx(1 / 4)  # 4 answers written, 1 invalid
    assert m["uncited_rate"] == pytest.approx(2 / 4)  # no valid citation: only [7], or none
    assert m["counts"]["answered"] == 4 and m["counts"]["invalid_citations"] == 1
