"""What a French reader or editor types and reads in figures: a decimal threshold typed with a
comma, thresholds written alike everywhere. Driven with AppTest over the demo index."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.fixtures.apptest import APP, TIMEOUT
from ui import resources


def _french(monkeypatch) -> AppTest:
    monkeypatch.setenv("RAG_UI_LANG", "fr")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _captions(at: AppTest) -> str:
    return "\n".join(str(c.value) for c in at.sidebar.caption)


def test_a_french_editor_sets_the_threshold_with_a_comma(app_env, monkeypatch):
    at = _french(monkeypatch)
    field = at.sidebar.text_input(key="sidebar_threshold")
    assert field.label == "Seuil de score" and field.value == ""
    field.input("0,85").run()
    assert not at.exception and at.session_state[resources.THRESHOLD] == 0.85
    assert "seuil 0,850 (cette session)" in _captions(at)
    assert at.sidebar.text_input(key="sidebar_threshold").value == "0,850" and not at.sidebar.error
    at.sidebar.text_input(key="sidebar_threshold").input("0.8").run()  # a point is read too
    assert at.session_state[resources.THRESHOLD] == 0.8


def test_a_threshold_that_cannot_be_read_is_said_in_french_and_changes_nothing(app_env, monkeypatch):
    at = _french(monkeypatch)
    at.sidebar.text_input(key="sidebar_threshold").input("0,85").run()
    for typed in ("085", "0,8x"):
        at.sidebar.text_input(key="sidebar_threshold").input(typed).run()
        assert not at.exception and at.session_state[resources.THRESHOLD] == 0.85
        [error] = at.sidebar.error
        assert f"« {typed} » n'est pas un seuil : tapez un nombre entre 0 et 1, par exemple 0,850" in error.value
        assert at.sidebar.text_input(key="sidebar_threshold").value == typed  # kept to be corrected
    at.sidebar.text_input(key="sidebar_threshold").input("").run()  # emptied: the collection's again
    assert at.session_state[resources.THRESHOLD] is None and not at.sidebar.error
    assert "(cette session)" not in _captions(at)
