"""docs/contracts.md stays true to the code: every variable read, every command and flag, every
strategy and every JSON key written (`rag ask --json`, results.json) is in it.

A failure names what is missing: add it to docs/contracts.md, in its section, with one line that
says what it means.
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

import pytest

from rag.answer.engine import AnswerEngine
from rag.answer.gate import GateParams
from rag.answer.pipeline import OUTCOMES, AskResult
from rag.answer.retrieve import Passage
from rag.config import Settings
from rag.evaluate.questions import parse_jsonl
from rag.evaluate.runner import replay

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "contracts.md"
# How the environment is read: `env.get("RAG_X")`, `os.environ["RAG_X"]`, `os.getenv("RAG_X")`.
ENV_READ = re.compile(r"""(?:\benv(?:iron)?\s*(?:\.get\(\s*|\[\s*)|getenv\(\s*)["'](RAG_[A-Z0-9_]+)["']""")


@pytest.fixture(scope="module")
def doc() -> str:
    assert DOC.is_file(), "docs/contracts.md is the contracts' one document"
    return DOC.read_text(encoding="utf-8")


def section(doc: str, title: str) -> str:
    """The text of the `## title` section."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    assert match, f"docs/contracts.md has no '## {title}' section"
    return match.group(1)


def missing(names, text: str) -> list[str]:
    return sorted(n for n in set(names) if f"`{n}`" not in text)


def variables_read() -> set[str]:
    found = set()
    for folder in ("rag", "ui"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(ENV_READ.findall(path.read_text(encoding="utf-8")))
    return found


def test_the_readme_links_the_contracts():
    assert "docs/contracts.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_variable_read_is_documented(doc):
    read = variables_read()
    assert {"RAG_DATA_DIR", "RAG_MIN_COVERAGE", "RAG_LLM_URL"} <= read  # the scan finds them
    assert missing(read, section(doc, "Environment variables")) == []


def test_every_command_and_flag_is_documented(doc):
    from rag.cli.main import build_parser

    text = section(doc, "Command line")
    [commands] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    absent = []
    for name, parser in commands.choices.items():
        if f"`rag {name}" not in text:
            absent.append(f"rag {name}")
        flags = {o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"}
        absent += [f"rag {name} {flag}" for flag in sorted(flags) if flag not in text]
    assert absent == []


def test_every_strategy_name_is_documented(doc):
    from rag.chunking import STRATEGIES

    assert missing(STRATEGIES, section(doc, "Chunking strategies")) == []


# -- the JSON written: produced by the code itself, on passages given by hand ---------------------

PASSAGES = {
    "Q1 ?": [Passage(n=1, score=0.9, title="A", section="S", url="a.md", text="Lancez klist purge."),
             Passage(n=2, score=0.7, title="B", section="", url="b.md", text="autre")],
    "O1 ?": [Passage(n=1, score=0.5, title="B", section="", url="b.md", text="autre")],
}
QUESTIONS = parse_jsonl(
    '{"id": "q1", "question": "Q1 ?", "expected_source": "a.md", "expected_answer": "klist purge", "in_base": true, '
    '"category": "commande", "also_in": []}\n{"id": "o1", "question": "O1 ?", "in_base": false}\n'
)


def _answer(question, passages, threshold, decision=None) -> AskResult:
    """What the engine returns for an answer citing [1] (no chat model is needed to see its keys)."""
    return AskResult(question=question, answer="Lancez klist purge [1].", raw_answer="Lancez klist purge [1].",
                     refused=False, passages=list(passages), cited=[1], usage={"prompt_tokens": 120},
                     first_token_seconds=0.1, answer_seconds=0.4)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    engine = AnswerEngine(Settings(data_dir=tmp_path_factory.mktemp("docs")), retriever=lambda q: PASSAGES[q],
                          with_llm=False, gate_params=GateParams(0.8), recorders=[])
    return replay(QUESTIONS, engine.retrieve, k=3, threshold=0.8, answer_fn=_answer, gate_fn=engine.gate,
                  gate_params=engine.params, context={"collection": "blog"})


def _assigned_keys(paths: list[Path], names: set[str]) -> set[str]:
    """Keys the code sets one by one on results.json's dicts (`summary["x"] = ...`)."""
    keys = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                            and target.value.id in names and isinstance(target.slice, ast.Constant)):
                        keys.add(target.slice.value)
    return keys


def test_every_results_json_key_is_documented(doc, results):
    from rag.evaluate.runner import collection_context

    text = section(doc, "results.json")
    summary = set(results["summary"]) | set(collection_context({}, "auto"))
    summary |= _assigned_keys([ROOT / "rag/evaluate/runner.py", ROOT / "rag/cli/eval.py"], {"summary", "context"})
    assert missing(summary, text) == []
    assert missing(results["summary"]["gate"], text) == []
    rows = set().union(*(set(r) for r in results["questions"]))
    rows |= _assigned_keys([ROOT / "rag/evaluate/runner.py"], {"row"})
    assert missing(rows, text) == []


def test_every_rag_ask_json_key_is_documented(doc, results, tmp_path):
    text = section(doc, "rag ask --json")
    engine = AnswerEngine(Settings(data_dir=tmp_path), retriever=lambda q: PASSAGES[q], with_llm=False,
                          gate_params=GateParams(0.8), recorders=[])
    data = engine.ask("Q1 ?").result.to_json()
    assert missing(data, text) == []
    assert missing(set().union(*(set(p) for p in data["passages"])) | {"rrf_score", "rerank_score"}, text) == []
    assert missing(data["gate"], text) == []
    assert missing(data["gate"]["signals"], text) == [] and missing(data["gate"]["params"], text) == []
    assert missing(OUTCOMES, text) == []


def test_every_rag_status_session_key_is_documented(doc, tmp_path):
    from rag.auth.session_key import inspect
    from rag.auth.session_revocations import RevocationFile

    text = section(doc, "Command line")
    text = text[text.index("- `rag status`"):]
    for name, part in (("session_key", inspect(tmp_path)), ("sign_outs", RevocationFile(tmp_path).inspect(0))):
        assert f"`{name}`" in text
        assert missing(part, text) == []
    states = ("kept", "missing", "open_mode", "damaged", "unreadable", "cannot_write")
    assert missing(states, text) == []


def test_settings_is_the_one_reader_of_the_rag_variables():
    """rag.config and rag.environment read the environment; everything else takes Settings (or
    rag.environment's readers of the secrets and of what is checked elsewhere)."""
    readers = []
    for folder in ("rag", "ui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path in (ROOT / "rag" / "config.py", ROOT / "rag" / "environment.py"):
                continue
            text = path.read_text(encoding="utf-8")
            readers += [f"{path.relative_to(ROOT)}: {name}" for name in ENV_READ.findall(text)]
            readers += [f"{path.relative_to(ROOT)}: {line.strip()}" for line in text.splitlines()
                        if re.search(r"\b(?:environ|getenv)\b", line) and "RAG_" in line]
    assert readers == []
