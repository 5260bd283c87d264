"""The library and its command line run without the dashboard's dependencies.

`rag` is usable from a shell or a script where streamlit, plotly and pandas would only slow the
start (and the first two may not be installed); display code lives in ui/, and the one place in
rag/ that writes a table (results.csv) imports pandas when it does. A fresh interpreter shows what importing
every stage really pulls in, whatever earlier tests have imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

STAGES = (
    "rag.cli, rag.cli.main, rag.servers, rag.sources, rag.chunking, rag.enrich, rag.embeddings, rag.store, rag.ingest, "
    "rag.answer, rag.evaluate"
)


def _last_two_lines(code: str) -> tuple[list[str], list[str]]:
    """Run `code` in a fresh interpreter: the two JSON lists it prints last."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    first, second = (json.loads(line) for line in out.stdout.splitlines()[-2:])
    return first, second


@pytest.mark.slow  # a fresh interpreter imports every module of the package
def test_importing_rag_pulls_in_neither_streamlit_nor_plotly_nor_pandas():
    code = (
        "import json, pkgutil, importlib, sys, rag\n"
        f"import {STAGES}\n"
        "for m in pkgutil.walk_packages(rag.__path__, 'rag.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly', 'pandas'))))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('rag.'))))\n"
    )
    display, loaded = _last_two_lines(code)
    assert display == []
    # The walk really imported the stages (an empty walk would pass the first check vacuously).
    assert {"rag.answer.pipeline", "rag.evaluate.runner", "rag.store.store", "rag.cli.main"} <= set(loaded)


@pytest.mark.slow  # a fresh interpreter imports every presentation helper
def test_presentation_helpers_run_without_streamlit():
    """ui/present turns results into rows, Markdown and charts: pure, testable without a page."""
    code = (
        "import json, pkgutil, importlib, sys, ui.present\n"
        "names = [m.name for m in pkgutil.walk_packages(ui.present.__path__, 'ui.present.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(names))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'streamlit')))\n"
    )
    names, display = _last_two_lines(code)
    assert display == []
    assert {"ui.present.safe_markdown", "ui.present.evaluation", "ui.present.answer"} <= set(names)


def test_no_module_passes_on_another_modules_names():
    """No re-export facade: a module's __all__ lists what it defines, so an import names the
    module that holds the code (rag.embeddings.remote, not rag.embeddings)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    passed_on = []
    for path in sorted((root / "rag").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        defined |= {name.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                    for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                    for name in ast.walk(target) if isinstance(name, ast.Name)}
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
                passed_on += [f"{path.relative_to(root)}: {name}" for name in ast.literal_eval(node.value)
                              if name not in defined]
    assert passed_on == []
