"""What the dashboard tells editors about the sign-in key (rag.auth.session_key): a key file it cannot
use is said in the sidebar, with what to do, and readers still sign in."""

from __future__ import annotations

import os
import time

from tests.ui.test_app_roles import EDITOR_PASSWORD, READER_PASSWORD, ok, sidebar_text, sign_in


def test_editors_are_told_the_key_file_is_damaged_and_readers_still_sign_in(app_env_empty, monkeypatch):
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)
    key = app_env_empty / "session.key"
    app_env_empty.mkdir(parents=True)
    key.write_bytes(b"cut short")
    os.utime(key, (time.time() - 60, time.time() - 60))

    editor = sign_in(EDITOR_PASSWORD)
    warning = sidebar_text(editor)
    assert f"{key} is damaged: it holds 9 bytes instead of 32" in warning
    assert "Delete the file and restart the app" in warning

    reader = ok(sign_in(READER_PASSWORD))
    assert reader.session_state["role"] == "reader"
    assert "session.key" not in sidebar_text(reader)  # the fix is the editor's
    assert key.read_bytes() == b"cut short"


def test_no_word_about_the_key_when_it_is_kept(app_env_empty, monkeypatch):
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)
    editor = sign_in(EDITOR_PASSWORD)
    assert editor.session_state["role"] == "editor"
    assert "sign-in key" not in sidebar_text(editor) and (app_env_empty / "session.key").is_file()
