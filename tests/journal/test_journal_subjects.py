"""Refused questions grouped into subjects an editor can write about."""

from __future__ import annotations

import numpy as np

from rag.journal.records import Entry
from rag.journal.subjects import cluster, group, similarity


def _refused(question: str, terms: list[str], reader: str, time: str = "2026-11-30T10:00:00+00:00") -> Entry:
    return Entry(question=question, outcome="refused_gate", unknown_terms=terms, reader=reader, id=question,
                 time=time)


def _vectors(*angles: float) -> np.ndarray:
    # Unit vectors in a plane: the cosine of two questions is the cosine of their angle.
    return np.array([[np.cos(a), np.sin(a)] for a in angles])


def test_close_questions_group_and_far_ones_stay_apart():
    entries = [_refused("Veeam immuable ?", ["Veeam"], "a"), _refused("Restaurer avec Veeam", ["Veeam"], "b"),
               _refused("Clé BitLocker ?", ["BitLocker"], "c")]
    subjects = group(entries, _vectors(0.0, 0.3, 1.4))
    assert [s.questions for s in subjects] == [["Veeam immuable ?", "Restaurer avec Veeam"], ["Clé BitLocker ?"]]
    assert subjects[0].terms == ["Veeam"] and subjects[0].readers == 2


def test_a_shared_unknown_word_joins_questions_only_somewhat_close():
    entries = [_refused("Intune Autopilot", ["Intune", "Autopilot"], "a"), _refused("intune policy", ["intune"], "b")]
    # cos(0.55) = 0.85: below the join level alone, above it with the shared word.
    assert len(group(entries, _vectors(0.0, 0.55))) == 1
    assert len(group(entries, _vectors(0.0, 0.55), bonus=0.0)) == 2
    # An everyday word shared by two far questions joins nothing.
    far = [_refused("mails chez Gmail", ["chez", "Gmail"], "a"), _refused("VPN chez Karim", ["chez", "Karim"], "b")]
    assert len(group(far, _vectors(0.0, 0.9))) == 2


def test_subjects_are_ranked_by_readers_not_by_questions():
    many_by_one = [_refused(f"VPN {i}", ["VPN"], "same") for i in range(4)]
    few_by_many = [_refused(f"DMARC {i}", ["DMARC"], f"r{i}") for i in range(3)]
    subjects = group(many_by_one + few_by_many, _vectors(*[0.0] * 4, *[1.5] * 3))
    assert [(s.terms, s.readers, len(s.entries)) for s in subjects] == [(["DMARC"], 3, 3), (["VPN"], 1, 4)]


def test_words_alone_when_no_vectors():
    entries = [_refused("a", ["Veeam"], "x"), _refused("b", ["veeam"], "y"), _refused("c", ["LTO"], "z")]
    assert sorted(len(s.entries) for s in group(entries, None)) == [1, 2]


def test_average_linkage_does_not_chain():
    # a-b and b-c close, a-c far: single linkage would chain them; average linkage keeps c out.
    sim = similarity(_vectors(0.0, 0.45, 0.9), [set(), set(), set()])
    assert cluster(sim, 0.88) == [[0, 1], [2]] or cluster(sim, 0.88) == [[1, 2], [0]]
