"""The documentation stays true to the code, both ways.

- docs/contracts.md holds every variable read, every command and flag, every strategy and every
  JSON key written (`rag ask --json`, results.json). A failure names what is missing: add it to
  docs/contracts.md, in its section, with one line that says what it means.
- The pages (README.md, docs/, benchmarks/README.md) name nothing the code no longer has: every
  `RAG_*` variable is read somewhere, every `rag` command and flag exists, every strategy and
  enrichment mode exists, every path of the repository they cite (the tests the guarantees cite
  among them) is there, and every example marked `<!-- checked: ... -->` prints what it shows.
  Each of these checks is shown to fail on a copy of the pages with one stale name planted.
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


def variables_read(root: Path = ROOT, folders: tuple[str, ...] = ("rag", "ui")) -> set[str]:
    found = set()
    for folder in folders:
        for path in (root / folder).rglob("*.py"):
            found |= set(ENV_READ.findall(path.read_text(encoding="utf-8")))
    return found


def test_the_readme_links_the_contracts():
    assert "docs/contracts.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short_and_starts_with_the_two_commands():
    """A newcomer reads what the product is, then `make run` and `make test` (which CI runs), with
    what the tests cost and install, before anything else."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 10_500, "README.md is the front door: move details to docs/"
    first_block = re.search(r"```bash\n(.*?)```", text, re.S).group(1)
    assert [line.split()[:2] for line in first_block.splitlines()] == [["make", "run"], ["make", "test"]]
    top = text[:text.index("## ")]
    for word in ("minutes", "root", "chromium", "wordpress", "mariadb-server", "php-cli", "make test-fast"):
        assert word in top, f"the README's top says nothing of {word!r}"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run:", "test:", "test-fast:", "docs:"):
        assert re.search(rf"^{target}", makefile, re.M), f"the README promises `make {target[:-1]}`"
    test_target = re.search(r"^test:(.*)$", makefile, re.M).group(1)
    assert "docs-build" in test_target and "mkdocs build --strict" in makefile


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


# -- the pages name nothing the code no longer has -------------------------------------------------

def pages(root: Path = ROOT) -> dict[str, str]:
    """The documentation a reader sees: the README, the site's pages, the benchmarks' page."""
    paths = [root / "README.md", root / "benchmarks" / "README.md", *sorted((root / "docs").rglob("*.md"))]
    return {str(path.relative_to(root)): path.read_text(encoding="utf-8") for path in paths}


VARIABLE = re.compile(r"\bRAG_[A-Z0-9]+(?:_[A-Z0-9]+)*\b")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
# A command in code: `rag NAME ...`, at the start or after a prompt, a pipe or variables set for it.
COMMAND = re.compile(r"(?:^|[\s$|;(])rag ([a-z][a-z-]*)([^#\n`]*)")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
# Paths of the repository's own code (not the examples of a user's files, `docs/passwd.md`).
REPO_PATH = re.compile(r"(?<![\w/.~$-])((?:tests|benchmarks|scripts|rag|ui|app_pages|\.ci)/[\w.-]+(?:/[\w.-]+)*)")


def code_of(text: str) -> list[str]:
    """The code a page shows: its fenced blocks' lines and its inline code spans."""
    blocks = FENCE.findall(text)
    prose = FENCE.sub("", text)
    return [line for block in blocks for line in block.splitlines()] + CODE_SPAN.findall(prose)


def stale_variables(root: Path = ROOT) -> list[str]:
    # The product reads its variables through rag.config (the scan above); the benchmarks name
    # theirs (RAG_CORPORA) in a constant.
    known = variables_read(root) | {name for folder in ("benchmarks", "scripts") for path in (root / folder).rglob("*.py")
                                    for name in re.findall(r"""["'](RAG_[A-Z0-9_]+)["']""", path.read_text(encoding="utf-8"))}
    return sorted({f"{name}: {page}" for page, text in pages(root).items()
                   for name in VARIABLE.findall(text) if name not in known})


def stale_commands(root: Path = ROOT) -> list[str]:
    from rag.cli.main import build_parser

    parser = build_parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    general = {o for a in parser._actions for o in a.option_strings}
    stale = set()
    for page, text in pages(root).items():
        for code in code_of(text):
            for name, rest in COMMAND.findall(code):
                if name not in commands.choices:
                    stale.add(f"rag {name}: {page}")
                    continue
                flags = general | {o for a in commands.choices[name]._actions for o in a.option_strings}
                stale |= {f"rag {name} {flag}: {page}" for flag in FLAG.findall(rest) if flag not in flags}
    return sorted(stale)


def table_names(text: str, header: str) -> list[str]:
    """The backticked names of the first column of the table whose header row starts with `header`."""
    table = re.search(rf"^\| {re.escape(header)} \|.*\n\|[-| ]+\|\n((?:\|.*\n?)*)", text, re.M)
    assert table, f"no table headed '| {header} |'"
    return [m for row in table.group(1).splitlines() for m in re.findall(r"^\| `([a-z_]+)`", row)]


def stale_strategies_and_modes(root: Path = ROOT) -> list[str]:
    from rag.chunking import STRATEGIES
    from rag.enrich import MODES

    text = (root / "docs" / "chunking.md").read_text(encoding="utf-8")
    return sorted({f"strategy {n}" for n in table_names(text, "name") if n not in STRATEGIES}
                  | {f"enrichment {n}" for n in table_names(text, "mode") if n not in MODES})


CONTRACT_SECTIONS = ("Question set", "results.json", "rag ask --json", "Store layout", "Chunking strategies")


def code_words(root: Path = ROOT) -> set[str]:
    """Every name the package and the dashboard use: identifiers, and the words of their strings
    (JSON keys, payload fields, codes); comments left out."""
    import io
    import tokenize

    words = set()
    for folder in ("rag", "ui"):
        for path in (root / folder).rglob("*.py"):
            for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
                if token.type == tokenize.NAME:
                    words.add(token.string)
                elif token.type == tokenize.STRING:
                    words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", token.string))
    return words


def stale_contract_names(root: Path = ROOT) -> list[str]:
    """Keys, fields and codes docs/contracts.md documents (the backticked names of its JSON, store
    and question-set sections) that the code no longer uses anywhere."""
    doc, words = (root / "docs" / "contracts.md").read_text(encoding="utf-8"), code_words(root)
    return sorted({f"{name}: {title}" for title in CONTRACT_SECTIONS
                   for name in re.findall(r"`([a-z][a-z0-9_]*)`", section(doc, title)) if name not in words})


def missing_paths(root: Path = ROOT) -> list[str]:
    """Files and folders of the repository the pages cite (the tests proving each guarantee
    among them) that are not there."""
    missing = set()
    for page, text in pages(root).items():
        for path in REPO_PATH.findall(text):
            path = path.rstrip(".")
            if not (root / path).exists() and not (ROOT / path).exists():
                missing.add(f"{path}: {page}")
    return sorted(missing)


def test_every_variable_the_pages_name_is_read_by_the_code():
    assert stale_variables() == []


def test_every_command_and_flag_the_pages_show_exists():
    assert stale_commands() == []


def test_every_strategy_and_enrichment_mode_the_pages_list_exists():
    assert stale_strategies_and_modes() == []


def test_every_json_key_and_field_the_contracts_document_is_in_the_code():
    assert len([n for title in CONTRACT_SECTIONS for n in re.findall(r"`([a-z][a-z0-9_]*)`",
                                                                       section(DOC.read_text(encoding="utf-8"), title))]) > 200
    assert stale_contract_names() == []


def test_every_path_the_pages_cite_exists():
    cited = {path for text in pages().values() for path in REPO_PATH.findall(text)}
    assert {"tests/test_linear_text_patterns.py", "tests/store/test_disk_full.py"} <= cited  # the scan finds them
    assert missing_paths() == []


def test_the_readers_and_editors_guides_are_in_french_too():
    assert (ROOT / "docs" / "index.fr.md").is_file()
    for page in ("getting-started", "asking", "editors"):
        english = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
        french = (ROOT / "docs" / f"{page}.fr.md").read_text(encoding="utf-8")
        # The same sections, in the same order.
        assert len(re.findall(r"^## ", french, re.M)) == len(re.findall(r"^## ", english, re.M)), page


def test_the_pictures_are_the_ones_the_pages_show_and_small():
    """docs/images holds what scripts/docs_screenshots.py writes: each picture shown by a page
    (name.fr.png is name.png on the French pages), none over 150 KB."""
    shown = {name for text in pages().values() for name in re.findall(r"\]\(images/([\w.-]+\.png)\)", text)}
    pictures = {path.name for path in (ROOT / "docs" / "images").glob("*.png")}
    assert {name.replace(".fr.png", ".png") for name in pictures} == shown
    assert [name for name in pictures if (ROOT / "docs" / "images" / name).stat().st_size > 150_000] == []
    script = (ROOT / "scripts" / "docs_screenshots.py").read_text(encoding="utf-8")
    assert {name for name in pictures if f'"{name}"' not in script} == set()


def test_every_guarantee_cites_a_test():
    text = (ROOT / "docs" / "guarantees.md").read_text(encoding="utf-8")
    rows = [row for row in text.splitlines() if row.startswith("| ") and not row.startswith("| guarantee")]
    assert len(rows) > 40
    assert [row[:80] for row in rows if not re.search(r"`tests/[\w/]+\.py`", row.rsplit("|", 2)[-2])] == []


# -- the examples the pages show are what the product prints ---------------------------------------

CHECKED = re.compile(r"^<!-- checked:[^\n]*-->\n```console\n\$ ([^\n]+)\n(.*?)^```", re.M | re.S)
GAP = "…"


def examples(root: Path = ROOT) -> list[tuple[str, str, list[str]]]:
    """(page, command, the output shown) of every example marked `<!-- checked: ... -->`."""
    return [(page, command, shown.splitlines()) for page, text in pages(root).items()
            for command, shown in CHECKED.findall(text)]


def shows(shown: list[str], printed: str) -> bool:
    """Whether the output printed holds the lines shown, in their order; a line `…` stands for any
    lines (the rest of a long output), and the lines around it must follow one another."""
    lines = [line.rstrip() for line in printed.splitlines()]
    parts, part = [], []
    for line in shown:
        if line.strip() == GAP:
            parts.append(part)
            part = []
        else:
            part.append(line.rstrip())
    parts.append(part)
    at = 0
    for index, part in enumerate(parts):
        if not part:
            continue
        found = next((i for i in range(at, len(lines) - len(part) + 1) if lines[i:i + len(part)] == part), None)
        if found is None or (index == 0 and found != 0):
            return False
        at = found + len(part)
    return not parts[-1] or at == len(lines)


def wrong_examples(root: Path, run) -> list[str]:
    wrong = []
    for page, command, shown in examples(root):
        printed = run(command)
        if not shows(shown, printed):
            wrong.append(f"{page}: `{command}` printed:\n{printed}")
    return wrong


def run_documented(command: str, env: dict[str, str]) -> str:
    """`command` as a reader types it (variables set before `rag`), run in this process from the
    repository's root, in `env` alone for RAG_ and the locale; its standard output."""
    import contextlib
    import io
    import os
    import shlex

    from rag.cli.main import main

    words = shlex.split(command)
    given = {}
    while "=" in words[0]:
        name, value = words.pop(0).split("=", 1)
        given[name] = value
    assert words[0] == "rag", command
    kept = {k: v for k, v in os.environ.items()
            if not k.startswith("RAG_") and k not in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    saved, cwd = dict(os.environ), os.getcwd()
    out = io.StringIO()
    try:
        os.environ.clear()
        os.environ.update({**kept, **env, **given})
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out):
            main(words[1:])
    finally:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(saved)
    return out.getvalue()


@pytest.fixture(scope="module")
def run_example(demo_index, tmp_path_factory):
    """Runs a documented command over a copy of the demo index (collection "blog", the default one),
    with the bundled model and no chat model; each command once."""
    import shutil

    data = tmp_path_factory.mktemp("docs-examples") / "data"
    shutil.copytree(demo_index.data_dir, data, ignore=shutil.ignore_patterns("journal", "*.lock"))
    env = {"RAG_DATA_DIR": str(data), "RAG_EMBED_MODEL": "embedded", "RAG_EMBED_THREADS": "1",
           "RAG_LLM_URL": "http://127.0.0.1:9/v1", "RAG_TIMEOUT": "2"}
    printed: dict[str, str] = {}

    def run(command: str) -> str:
        if command not in printed:
            printed[command] = run_documented(command, env)
        return printed[command]

    return run


def test_the_pages_show_examples_of_what_a_reader_runs():
    shown = examples()
    assert {page for page, _, _ in shown} >= {"docs/asking.md", "docs/asking.fr.md", "docs/chunking.md"}
    assert all(lines for _, _, lines in shown)


@pytest.mark.slow  # the bundled model and the demo index
def test_every_checked_example_prints_what_the_page_shows(run_example, copy):
    assert wrong_examples(ROOT, run_example) == []
    # A refusal worded otherwise than the product words it is caught, run for real.
    plant(copy, "docs/asking.fr.md", "(refus : aucun article ne parle de : crêpes)", "(refus : aucun passage assez proche)")
    assert [w.split(":")[0] for w in wrong_examples(copy, run_example)] == ["docs/asking.fr.md"]


def test_shows_reads_gaps_and_order():
    printed = "a\nb\nc\nd\n"
    assert shows(["a", "b", "…"], printed) and shows(["a", "…", "d"], printed) and shows(["a", "b", "c", "d"], printed)
    assert not shows(["b", "…"], printed)  # the output starts where the example starts
    assert not shows(["a", "c", "…"], printed)  # lines shown together follow one another
    assert not shows(["a", "b"], printed)  # no gap: nothing more is printed
    assert not shows(["a", "…", "e"], printed)


# -- each check catches a stale page: one name planted in a copy of the pages ----------------------

@pytest.fixture
def copy(tmp_path) -> Path:
    """The pages, their images and what the checks read beside them, in a temporary copy."""
    import shutil

    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    (tmp_path / "benchmarks").mkdir()
    shutil.copy(ROOT / "benchmarks" / "README.md", tmp_path / "benchmarks" / "README.md")
    for folder in ("rag", "ui", "benchmarks", "scripts"):
        target = tmp_path / folder
        for path in (ROOT / folder).rglob("*.py"):
            (target / path.relative_to(ROOT / folder)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target / path.relative_to(ROOT / folder))
    return tmp_path


def plant(root: Path, page: str, old: str, new: str) -> None:
    path = root / page
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{page} no longer holds {old!r}: plant elsewhere"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_variable_the_code_no_longer_reads_is_caught(copy):
    assert stale_variables(copy) == []
    plant(copy, "docs/settings.md", "`RAG_TIMEOUT`", "`RAG_TIMEOUT_SECONDS`")
    assert stale_variables(copy) == ["RAG_TIMEOUT_SECONDS: docs/settings.md"]
    # And the other way round: a variable the code stops reading makes its page stale.
    config = copy / "rag" / "config.py"
    config.write_text(config.read_text(encoding="utf-8").replace('"RAG_SESSION_HOURS"', '"RAG_SESSION_LENGTH"'),
                      encoding="utf-8")
    assert any(line.startswith("RAG_SESSION_HOURS: ") for line in stale_variables(copy))


def test_a_command_or_flag_that_no_longer_exists_is_caught(copy):
    plant(copy, "docs/importing.md", "rag ingest ./articles --collection notes --access staff",
          "rag ingest ./articles --collection notes --groups-allowed staff")
    plant(copy, "docs/journal.md", "rag journal subjects", "rag subjects")
    assert stale_commands(copy) == ["rag ingest --groups-allowed: docs/importing.md", "rag subjects: docs/journal.md"]


def test_a_json_key_the_code_no_longer_writes_is_caught(copy):
    assert stale_contract_names(copy) == []
    plant(copy, "docs/contracts.md", "`refusal_reason`: why", "`refusal_why`: why")
    assert stale_contract_names(copy) == ["refusal_why: rag ask --json"]
    # And the other way round: a field renamed in the code leaves its documented name stale.
    for path in (copy / "rag").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "first_token_seconds" in text:
            path.write_text(text.replace("first_token_seconds", "seconds_to_first_token"), encoding="utf-8")
    assert "first_token_seconds: results.json" in stale_contract_names(copy)


def test_a_strategy_that_no_longer_exists_is_caught(copy):
    plant(copy, "docs/chunking.md", "| `sections_min_max` |", "| `semantic` |")
    plant(copy, "docs/chunking.md", "| `questions` |", "| `summary` |")
    assert stale_strategies_and_modes(copy) == ["enrichment summary", "strategy semantic"]


def test_a_test_path_a_guarantee_cites_that_does_not_exist_is_caught(copy):
    plant(copy, "docs/guarantees.md", "`tests/store/test_disk_full.py`", "`tests/store/test_full_disk.py`")
    assert missing_paths(copy) == ["tests/store/test_full_disk.py: docs/guarantees.md"]


def test_an_example_the_product_no_longer_prints_is_caught(copy):
    outputs = {}

    def run(command: str) -> str:  # what the product prints today, read back from the real pages
        [shown] = [lines for _, c, lines in examples(ROOT) if c == command]
        return outputs.setdefault(command, "\n".join("more" if line == GAP else line for line in shown) + "\n")

    assert wrong_examples(copy, run) == []
    plant(copy, "docs/asking.md", "(refused: best score 0.779 < threshold 0.830 (model default))",
          "(refused: no article mentions: pancake, batter)")
    plant(copy, "docs/chunking.md", "8 chunks; characters min 341", "7 chunks; characters min 341")
    assert [w.split(":")[0] for w in wrong_examples(copy, run)] == ["docs/asking.md", "docs/chunking.md"]


@pytest.mark.slow  # mkdocs builds the site twice
def test_the_site_builds_strict_and_a_broken_link_fails_it(copy, tmp_path_factory):
    """`make test` builds the site with --strict: a link to a page that does not exist fails (with
    the Makefile's own command: `--quiet` would hide the warnings --strict counts)."""
    import shutil
    import subprocess
    import sys

    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    [command] = re.findall(r"^\tNO_MKDOCS_2_WARNING=1 \$\(BIN\)/mkdocs (build .*)$", (ROOT / "Makefile").read_text(), re.M)

    def build(root: Path) -> subprocess.CompletedProcess:
        site = tmp_path_factory.mktemp("site")
        return subprocess.run([sys.executable, "-m", "mkdocs", *command.split(), "--site-dir", str(site)],
                              cwd=root, capture_output=True, text=True, timeout=240,
                              env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"})

    built = build(copy)
    assert built.returncode == 0, built.stderr
    plant(copy, "docs/asking.md", "[the journal](journal.md)", "[the journal](journals.md)")
    broken = build(copy)
    assert broken.returncode != 0 and "journals.md" in broken.stderr, broken.stderr[-2000:]
