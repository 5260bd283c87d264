"""Streamlit's own English words on a French page, where the app can replace them: every choice
list shows its placeholder in the page's language (never "Choose an option", "Choose or add an
option", "No options to select"), and every file uploader is followed by a caption that says,
in the page's language, which files it takes and how large a file is used (Streamlit's own "200MB
per file" is English and cannot be changed)."""

from __future__ import annotations

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from tests.fixtures.apptest import open_page

PAGES = ["app_pages/1_Ask.py", "app_pages/2_Ingest.py", "app_pages/3_Evaluate.py", "app_pages/4_Journal.py"]


@pytest.fixture
def french(app_env, lmstudio, monkeypatch):
    monkeypatch.setenv("RAG_UI_LANG", "fr")


def choice_lists(at: AppTest) -> list:
    return list(at.selectbox) + list(at.multiselect)


def test_every_choice_list_has_a_french_placeholder(french):
    seen = 0
    for page in PAGES:
        at = open_page(page)
        for widget in choice_lists(at):
            seen += 1
            # Empty, Streamlit draws its own English text when nothing is chosen.
            assert widget.proto.placeholder.strip(), f"{page}: {widget.label!r} has no placeholder"
    assert seen >= 5  # the sidebar's collection and retrieval mode, the Ingest page's lists, ...


def _caption_after_uploader(at: AppTest) -> str:
    assert len(at.file_uploader) == 1
    return "\n".join(c.value for c in at.caption)


def test_the_ingest_uploader_says_formats_and_limit_in_french(french, monkeypatch):
    """Streamlit takes 200 MB, but a document over RAG_MAX_DOC_MB (10 MB) is skipped: 10 is said."""
    at = open_page("app_pages/2_Ingest.py")
    at.radio(key="source_kind").set_value("upload").run()
    captions = _caption_after_uploader(at)
    assert "Formats acceptés : .md, .markdown, .html, .htm. Taille maximale : 10 Mo par fichier." in captions

    monkeypatch.setenv("RAG_MAX_DOC_MB", "2.5")
    at.run()
    assert "Taille maximale : 2,5 Mo par fichier." in _caption_after_uploader(at)


def test_the_uploader_caption_follows_the_configured_limit(french):
    """server.maxUploadSize set by the site (here 25 MB): the caption says what Streamlit enforces."""
    before = config.get_option("server.maxUploadSize")
    config.set_option("server.maxUploadSize", 25)
    try:
        at = open_page("app_pages/3_Evaluate.py")
        at.radio(key="question_set_kind").set_value("uploaded").run()
        captions = _caption_after_uploader(at)
    finally:
        config.set_option("server.maxUploadSize", before)
    assert "Formats acceptés : .jsonl, .ndjson, .json, .csv. Taille maximale : 25 Mo par fichier." in captions


def test_the_uploader_caption_is_english_on_an_english_page(app_env, lmstudio):
    at = open_page("app_pages/2_Ingest.py")
    at.radio(key="source_kind").set_value("upload").run()
    assert "Accepted formats: .md, .markdown, .html, .htm. Maximum size: 10 MB per file." in _caption_after_uploader(at)


def test_the_journal_set_list_that_takes_a_new_name_says_so_in_french(app_env_empty, monkeypatch):
    """The set list of each entry's form takes a new set's name: empty, Streamlit would say "Add
    an option" or "Choose or add an option"."""
    from tests.ui.test_app_journal import fill

    monkeypatch.setenv("RAG_UI_LANG", "fr")
    fill(app_env_empty)
    at = open_page("app_pages/4_Journal.py")
    sets = [w for w in at.selectbox if w.key and w.key.startswith("jr_qs_set_")]
    assert sets and all(w.proto.placeholder == "Choisissez un jeu ou tapez le nom d'un nouveau" for w in sets)
    assert all(w.proto.placeholder.strip() for w in choice_lists(at))


def test_no_cache_shows_streamlits_english_spinner():
    """A cached function shows Streamlit's "Running `name(...)`." while it runs unless told not to:
    every cache of the dashboard says show_spinner=False (its own spinner, if any, is in the page's language)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    caches = 0
    for path in [*(root / "ui").rglob("*.py"), *(root / "app_pages").glob("*.py"), root / "streamlit_app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for decorator in node.decorator_list:
                call = decorator if isinstance(decorator, ast.Call) else None
                target = call.func if call else decorator
                if not (isinstance(target, ast.Attribute) and target.attr in ("cache_data", "cache_resource")):
                    continue
                caches += 1
                spinner = {k.arg: k.value for k in call.keywords}.get("show_spinner") if call else None
                assert isinstance(spinner, ast.Constant) and spinner.value is False, f"{path.name}:{node.lineno}"
    assert caches >= 5
