"""results.json read as types and written back: the same keys, the same values, in the same order."""

from __future__ import annotations

import dataclasses
import json
import sys
import typing

import pytest

from rag.answer.engine import AnswerEngine
from rag.answer.gate import GateParams
from rag.config import Settings
from rag.evaluate.results import RECORDS, Comparison, QuestionRow, Results, Summary, _Record
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


# -- a new field is one dataclass field plus its use ---------------------------------------------
# These tests are driven by dataclasses.fields: a field added to a type of rag.evaluate.results is
# read from results.json, written back, and must be in docs/contracts.md, with no other module to
# change; a key the runner starts writing without a field fails here, before any reader falls
# back to string look-ups.

def _sample(hint, name: str, depth: int = 0):
    """A value of this type that is not its default (a record's sample is its dict)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    records = [a for a in args if isinstance(a, type) and issubclass(a, _Record)]
    if isinstance(hint, type) and issubclass(hint, _Record):
        return _sample_dict(hint, depth + 1)
    if origin is list:
        return [_sample(args[0], name, depth)] if args else ["x"]
    if origin is dict:
        return {"key": _sample(args[1], name, depth)} if args else {"key": 1}
    if records and origin is not list:
        return _sample_dict(records[0], depth + 1)
    if args:  # X | None
        return _sample(next(a for a in args if a is not type(None)), name, depth)
    return {bool: True, int: 7, float: 0.625, str: f"the {name}"}.get(hint, f"any {name}")


def _sample_dict(cls, depth: int = 0) -> dict:
    hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    out = {}
    for f in dataclasses.fields(cls):
        if f.name == "extra":
            continue
        value = _sample(hints[f.name], f.name, depth)
        if value == f.default:  # a bool whose default is True
            value = not value
        out[f.name] = value
    return out


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_every_field_is_read_from_and_written_to_the_file(cls):
    data = _sample_dict(cls)
    typed = cls.from_dict(json.loads(json.dumps(data)))
    assert json.loads(json.dumps(typed.to_dict())) == data
    hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    for f in dataclasses.fields(cls):
        if f.name == "extra":
            continue
        value = getattr(typed, f.name)
        read = value.to_dict() if isinstance(value, _Record) else [
            v.to_dict() if isinstance(v, _Record) else v for v in value] if isinstance(value, list) else {
            k: v.to_dict() if isinstance(v, _Record) else v for k, v in value.items()} if isinstance(
            value, dict) else value
        assert read == data[f.name], f"{cls.__name__}.{f.name} is not read from the file ({hints[f.name]})"
        # A value set in code is written under the field's name.
        empty = cls.from_dict({})
        setattr(empty, f.name, value)
        assert empty.to_dict() == {f.name: data[f.name]}


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_an_older_file_without_the_keys_reads_as_defaults_and_gains_none(cls):
    typed = cls.from_dict({})
    assert typed == cls() and typed.to_dict() == {}


def _unknown_keys(record, where: str) -> list[str]:
    """Keys of the file that no field of its type reads, in every nested block."""
    names = {f.name for f in dataclasses.fields(record)}
    found = [f"{where}.{key}" for key in record.extra if key not in names]
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        items = value if isinstance(value, list) else value.values() if isinstance(value, dict) else [value]
        for item in items:
            if isinstance(item, _Record):
                found += _unknown_keys(item, f"{where}.{f.name}")
    return found


def test_every_key_a_run_writes_is_a_field(tmp_path):
    """With the gate, the chat model's answers and the collection's context: a key the runner
    writes is read by a field, so no reader goes back to `summary.get("...")`."""
    from rag.evaluate.runner import collection_context
    from tests.test_docs import PASSAGES, QUESTIONS, ROOT, _answer, _assigned_keys

    engine = AnswerEngine(Settings(data_dir=tmp_path), retriever=lambda q: PASSAGES[q], with_llm=False,
                          gate_params=GateParams(0.8), recorders=[])
    # The keys run_eval and `rag eval` add one by one, set here as they would be.
    assigned = _assigned_keys([ROOT / "rag/evaluate/runner.py", ROOT / "rag/cli/eval.py"], {"summary", "context"})
    context = {**collection_context({}, "auto"), **dict.fromkeys(assigned), "collection": "blog"}
    run = replay(QUESTIONS, engine.retrieve, k=3, threshold=0.8, answer_fn=_answer, gate_fn=engine.gate,
                 gate_params=engine.params, context=context)
    run["summary"]["failed_questions"] = [{"id": "q9", "line": 9, "error": "broken"}]
    typed = Results.from_dict(json.loads(json.dumps(run)))
    assert typed.summary.gate.suggested is not None and typed.summary.categories  # the nested blocks are there
    assert _unknown_keys(typed, "results") == []
    assert _unknown_keys(Comparison.from_dict(compare(run, run)), "comparison") == []


def test_every_field_is_in_the_contracts():
    from tests.test_docs import DOC, missing, section

    text = section(DOC.read_text(encoding="utf-8"), "results.json")
    names = {f.name for cls in RECORDS for f in dataclasses.fields(cls) if f.name != "extra"}
    assert missing(names, text) == []


# The modules that show results read them through the types; what they still look up by a string
# key is not results.json (a metric card, a pandas frame's column, the collection's info).
READERS = {
    "rag/evaluate/report.py": set(), "rag/cli/eval.py": set(), "rag/evaluate/false_refusals.py": set(),
    "rag/evaluate/compare.py": {"info_a or {}", "info_b or {}"},
    "ui/eval_view.py": {"card", "store.collection_info(name) or {}"},
    "ui/present/evaluation.py": {"counts"}, "rag/demo/__init__.py": set(),
}


def _string_lookups(path) -> list[str]:
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            found.append((ast.unparse(node.value), node.slice.value))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((ast.unparse(node.func.value), node.args[0].value))
    return found


@pytest.mark.parametrize("module", sorted(READERS))
def test_the_readers_of_results_use_attributes_not_string_keys(module):
    from tests.test_docs import ROOT

    left = [f"{receiver}[{key!r}]" for receiver, key in _string_lookups(ROOT / module)
            if receiver not in READERS[module] and not receiver.startswith("st.session_state")]
    assert left == [], f"{module} reads results by string keys: read them through rag.evaluate.results"
