"""The embedded Qdrant folder admits one process: the app says so clearly and what to do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
HOLD = (
    "import sys\n"
    "from pathlib import Path\n"
    "from rag.config import Settings\n"
    "from rag.store.store import Store\n"
    "Store(Settings(data_dir=Path(sys.argv[1]))).list_collections()\n"
    "print('ready', flush=True)\n"
    "sys.stdin.read()\n"
)


@pytest.mark.slow  # a second Python process holds the store
def test_a_store_held_by_another_process_is_explained(app_env_empty, tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("RAG_DATA_DIR", str(data))
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(data)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        at = AppTest.from_file(APP, default_timeout=60).run()
    finally:
        holder.communicate("", timeout=30)
    assert not at.exception, [e.value for e in at.exception]
    assert at.error[0].value == "The vector store cannot be opened."
    details = at.expander[0].caption[0].value
    assert at.expander[0].label == "Details" and details.startswith("Another process")
    assert f"store held by process {holder.pid}" in details
    advice = at.info[0].value
    assert "admits one process at a time" in advice and "RAG_QDRANT_URL=http://localhost:6333" in advice
    assert not at.chat_input  # nothing runs on a store it cannot open
