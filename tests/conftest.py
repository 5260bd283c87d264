"""Shared fixtures. Each fixture family lives in its own module under tests/fixtures/."""

import os
from pathlib import Path

import pytest

from rag.i18n import language

# The embedded model slows down sharply when its threads compete: one thread in tests.
os.environ.setdefault("RAG_EMBED_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
# Small licensed extracts of the real corpora, laid out like them (tests/data/README.md): the tests
# read nothing outside the repository.
CORPORA = ROOT / "tests" / "data"

pytest_plugins: list[str] = ["tests.fixtures.embeddings_server", "tests.fixtures.lmstudio", "tests.fixtures.wordpress",
                             "tests.fixtures.demo_index", "tests.fixtures.backends",
                             "tests.fixtures.real_wordpress", "tests.fixtures.embedding_memo",
                             "tests.fixtures.window_server"]


@pytest.fixture(scope="session", autouse=True)
def english_messages():
    """rag's messages in English for every test, which most assert in English: the library's (the
    current language) and the command line's, in process or in a subprocess (the shell's locale).
    The dashboard keeps its own default, French. tests/test_language.py proves French is the
    default without these settings, and that both languages reach the command line."""
    with pytest.MonkeyPatch.context() as mp:
        for name in ("RAG_UI_LANG", "LC_ALL", "LC_MESSAGES"):
            mp.delenv(name, raising=False)
        mp.setenv("LANG", "en_US.UTF-8")
        with language("en"):
            yield


@pytest.fixture(scope="session")
def corpora() -> Path:
    """tests/data: docs-fr/, cnil-md/, piaf-cnil/ and wordpress/ extracts."""
    if not CORPORA.is_dir():
        pytest.fail(f"the test data is expected at {CORPORA} (part of the repository)")
    return CORPORA


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    """An isolated RAG_DATA_DIR so no test touches ./data."""
    path = tmp_path / "data"
    monkeypatch.setenv("RAG_DATA_DIR", str(path))
    return path
