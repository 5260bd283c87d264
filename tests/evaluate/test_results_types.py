"""results.json read as types and written back: the same keys, the same values, in the same order."""

from __future__ import annotations

import json

from rag.answer.engine import AnswerEngine
from rag.answer.gate import GateParams
from rag.config import Settings
from rag.evaluate.results import Comparison, QuestionRow, Results, Summary
from rag.evaluate.compare import compare
from rag.evaluate.runner import replay
from tests.evaluate.test_evaluation import HAND_MADE, HAND_SET


def _run(tmp_path, floor=0.83):
    engine = AnswerEngine(Settings(data_dir=tmp_path), retriever=lambda q: HAND_MADE[q], with_llm=False,
                          gate_params=GateParams(floor))
    return replay(HAND_SET, engine.retrieve, k=3, threshold=floor, gate_fn=engine.gate, gate_params=engine.params,
                  context={"collection": "blog"})


def test_a_run_reads_as_types_and_writes_back_unchanged(tmp_path):
    results = json.loads(json.dumps(_run(tmp_path)))  # as the file holds it
    typed = Results.from_dict(results)
    assert json.dumps(typed.to_dict()) == json.dumps(results)
    summary = typed.typed_summary
    assert (summary.collection, summary.questions, summary.k, summary.threshold) == ("blog", 5, 3, 0.83)
    assert summary.complete and summary.gate_figures.params.min_cosine == 0.83
    rows = typed.rows
    assert [r.id for r in rows] == ["q1", "q2", "q3", "o1", "o2"]
    assert [r.refused for r in rows] == [False, False, True, True, False]  # 0.91 0.86 0.80 0.78 0.84 at 0.83
    assert [r.outcome for r in rows] == ["passages_only", "passages_only", "refused_gate", "refused_gate",
                                        "passages_only"]
    assert all(json.dumps(r.to_dict()) == json.dumps(raw) for r, raw in zip(rows, results["questions"]))


def test_a_changed_field_is_written_in_its_place_and_unknown_keys_stay(tmp_path):
    row = QuestionRow.from_dict({"id": "q1", "future_key": [1], "refused": True, "question": "Q ?"})
    row.refused = False
    assert row.to_dict() == {"id": "q1", "future_key": [1], "refused": False, "question": "Q ?"}
    assert list(row.to_dict()) == ["id", "future_key", "refused", "question"]
    assert Summary.from_dict({"questions": 2}).to_dict() == {"questions": 2}  # no default key added


def test_a_comparison_reads_as_a_type(tmp_path):
    cmp = json.loads(json.dumps(compare(_run(tmp_path, 0.83), _run(tmp_path, 0.85))))
    typed = Comparison.from_dict(cmp)
    assert typed.to_dict() == cmp and typed.same_question_set and typed.common_questions == 5
    assert typed.delta("threshold") == cmp["metrics"]["threshold"]["delta"]
    assert round(typed.delta("threshold"), 3) == 0.02
