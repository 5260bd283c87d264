"""The library and its command line run without the dashboard's dependencies.

`rag` is usable from a shell or a script where streamlit and plotly would only slow the start
(and may not be installed); display code lives in ui/. A fresh interpreter shows what importing
every stage really pulls in, whatever earlier tests have imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

STAGES = "rag.cli, rag.cli.main, rag.sources, rag.chunking, rag.enrich, rag.embeddings, rag.index, rag.answer, rag.evaluate"


@pytest.mark.slow  # a fresh interpreter imports every module of the package
def test_importing_rag_pulls_in_neither_streamlit_nor_plotly():
    code = (
        "import json, pkgutil, importlib, sys, rag\n"
        f"import {STAGES}\n"
        "for m in pkgutil.walk_packages(rag.__path__, 'rag.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly'))))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('rag.'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    display, loaded = (json.loads(line) for line in out.stdout.splitlines()[-2:])
    assert display == []
    # The walk really imported the stages (an empty walk would pass the first check vacuously).
    assert {"rag.answer.pipeline", "rag.evaluate.runner", "rag.index.store", "rag.cli.main"} <= set(loaded)
