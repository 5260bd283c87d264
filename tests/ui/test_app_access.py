"""The access gate: nothing of the workbench shows before sign-in; the reader's groups follow."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
TIMEOUT = 60
AUTH = {
    "redirect_uri": "http://localhost:8501/oauth2callback",
    "cookie_secret": "a-long-random-string-for-the-cookie",
    "client_id": "workbench",
    "client_secret": "secret",
    "server_metadata_url": "https://idp.example.com/.well-known/openid-configuration",
}


def blocked(at: AppTest) -> bool:
    """The login form only: no page, no sidebar status."""
    return (not at.chat_input and not at.file_uploader and not at.title[1:]
            and not at.sidebar.children and len(at.text_input) == 1)


def test_password_blocks_every_page_until_the_right_password(app_env, monkeypatch):
    monkeypatch.setenv("RAG_APP_PASSWORD", "reader horse")
    monkeypatch.setenv("RAG_EDITOR_PASSWORD", "correct horse")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert blocked(at) and at.text_input[0].label == "Password"

    at.switch_page("app_pages/2_Ingest.py").run()
    assert blocked(at)

    at.text_input[0].input("wrong")
    at.button[0].click().run()
    assert blocked(at) and at.error[0].value == "Wrong password."

    at.text_input[0].input("correct horse")
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Ingest" and at.dataframe  # the page asked for is shown
    # Roles and groups are independent: the editor password reads its groups, "public" unless mapped.
    assert "Signed in with the editor password · groups: public" in [c.value for c in at.sidebar.caption]
    assert at.session_state["groups"] == ["public"]

    at.switch_page("app_pages/1_Ask.py").run()
    assert len(at.chat_input) == 1


def test_oidc_shows_a_login_button_then_filters_by_the_users_groups(app_env, monkeypatch):
    monkeypatch.setenv("RAG_APP_PASSWORD", "ignored when OIDC is configured")
    monkeypatch.setenv("RAG_USERS_GROUPS", '{"alice@example.com": ["staff"]}')
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": False}
    at.run()
    assert [b.label for b in at.button] == ["Log in"] and not at.chat_input and not at.sidebar.children

    at.user = {"is_logged_in": True, "email": "Alice@Example.com", "email_verified": True}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["groups"] == ["public", "staff"]
    assert len(at.chat_input) == 1
    assert "Signed in as Alice@Example.com · reader · groups: public, staff" in [c.value for c in at.sidebar.caption]
