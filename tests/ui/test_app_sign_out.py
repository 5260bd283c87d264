"""Signing out, in password and OIDC mode: back to the sign-in page, and the session's token ends."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.ui.test_app_access import AUTH, blocked
from tests.ui.test_app_roles import APP, EDITOR_PASSWORD, READER_PASSWORD, TIMEOUT, ok, sign_in
from ui import sessions


def test_a_password_user_signs_out_back_to_the_sign_in_page(app_env, monkeypatch):
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", EDITOR_PASSWORD)
    at = sign_in(READER_PASSWORD)
    assert len(at.chat_input) == 1
    ok(at.sidebar.button(key="sign_out").click().run())
    assert blocked(at) and at.text_input[0].label == "Password"
    assert at.success[0].value == "You are signed out."
    ok(at.run())  # a rerun does not sign back in
    assert blocked(at) and "password_ok" not in at.session_state


def test_a_resumed_session_token_is_revoked_at_sign_out(app_env, monkeypatch):
    monkeypatch.setenv("RAG_APP_PASSWORD", READER_PASSWORD)
    token, _ = sessions.book().redeem(sessions.book().ticket("reader", 3600), sessions.password_of)
    at = sign_in(READER_PASSWORD)
    at.session_state["session_token"] = token  # as a reload resumed from the cookie records it
    ok(at.sidebar.button(key="sign_out").click().run())
    assert sessions.book().role(token, sessions.password_of) is None


def test_an_oidc_user_signs_out_with_the_provider_session(app_env):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": True, "email": "alice@example.com", "email_verified": True}
    ok(at.run())
    assert len(at.chat_input) == 1
    ok(at.sidebar.button(key="sign_out").click().run())
    assert not at.chat_input and [b.label for b in at.button] == ["Log in"]


def test_open_mode_has_no_sign_out(app_env):
    at = ok(AppTest.from_file(APP, default_timeout=TIMEOUT).run())
    assert not [b for b in at.sidebar.button if b.key == "sign_out"]
