"""Who sees what: auth mode, shared password, user groups."""

from __future__ import annotations

import json

import pytest

from rag.auth.access import (
    auth_mode, check_password, groups_for, load_user_groups, login_provider, oidc_configured,
)
from rag.errors import ConfigError

GOOGLE = {
    "client_id": "id-123",
    "client_secret": "s3cret",
    "server_metadata_url": "https://accounts.google.com/.well-known/openid-configuration",
}
AUTH_BASE = {"redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "random-cookie-secret"}


def test_groups_from_the_environment_always_include_public():
    env = {"RAG_USERS_GROUPS": json.dumps({"Alice@Example.com": ["staff", "public"], "bob@example.com": "private"})}
    mapping = load_user_groups(env)
    assert groups_for("alice@example.com", mapping) == ["public", "staff"]
    assert groups_for("  ALICE@example.COM ", mapping) == ["public", "staff"]  # providers differ in case
    assert groups_for("bob@example.com", mapping) == ["public", "private"]


def test_unknown_and_anonymous_users_only_see_public():
    mapping = load_user_groups({"RAG_USERS_GROUPS": '{"alice@example.com": ["staff"]}'})
    assert groups_for("mallory@example.com", mapping) == ["public"]
    assert groups_for(None, mapping) == ["public"]
    assert groups_for("", mapping) == ["public"]
    assert groups_for("anyone", {}) == ["public"]


def test_groups_from_a_toml_file_and_the_environment_wins_per_user(tmp_path):
    path = tmp_path / "access.toml"
    path.write_text('[users]\n"alice@example.com" = ["staff"]\n"carol@example.com" = ["private", "staff"]\n',
                    encoding="utf-8")
    env = {"RAG_ACCESS_FILE": str(path), "RAG_USERS_GROUPS": '{"alice@example.com": ["board"]}'}
    mapping = load_user_groups(env)
    assert groups_for("carol@example.com", mapping) == ["public", "private", "staff"]
    assert groups_for("alice@example.com", mapping) == ["public", "board"]


def test_groups_from_a_json_file(tmp_path, monkeypatch):
    path = tmp_path / "access.json"
    path.write_text('{"dave@example.com": ["staff"]}', encoding="utf-8")
    monkeypatch.setenv("RAG_ACCESS_FILE", str(path))
    monkeypatch.delenv("RAG_USERS_GROUPS", raising=False)
    assert groups_for("dave@example.com") == ["public", "staff"]  # reads the environment by default


@pytest.mark.parametrize("env, message", [
    ({"RAG_USERS_GROUPS": "{alice: staff}"}, "RAG_USERS_GROUPS is not valid JSON"),
    ({"RAG_USERS_GROUPS": '["alice"]'}, "must map each user to a list of groups"),
    ({"RAG_USERS_GROUPS": '{"alice@example.com": [1, 2]}'}, "groups of 'alice@example.com' must be a list"),
    ({"RAG_ACCESS_FILE": "/nonexistent/access.toml"}, "Cannot read the access file"),
])
def test_malformed_mappings_say_what_to_fix(env, message):
    with pytest.raises(ConfigError, match=message):
        load_user_groups(env)


def test_bad_toml_file_names_the_file(tmp_path):
    path = tmp_path / "access.toml"
    path.write_text("alice@example.com = [staff", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"access.toml is not valid TOML"):
        load_user_groups({"RAG_ACCESS_FILE": str(path)})


def test_shared_password_check():
    env = {"RAG_APP_PASSWORD": "correct horse battery"}
    assert check_password("correct horse battery", env=env)
    assert not check_password("correct horse", env=env)
    assert not check_password("", env=env)
    assert not check_password(None, env=env)
    assert check_password("mot de passe é", expected="mot de passe é")  # non-ASCII compares as bytes
    # No password configured: nothing is accepted, not even the empty string.
    assert not check_password("", env={})
    assert not check_password("anything", env={"RAG_APP_PASSWORD": ""})


def test_auth_mode_prefers_oidc_then_password_then_open():
    default_provider = {"auth": {**AUTH_BASE, **GOOGLE}}
    assert auth_mode(default_provider, env={"RAG_APP_PASSWORD": "pw"}) == "oidc"
    assert auth_mode({}, env={"RAG_APP_PASSWORD": "pw"}) == "password"
    assert auth_mode(None, env={"RAG_APP_PASSWORD": "pw"}) == "password"
    assert auth_mode({}, env={}) == "open"
    assert auth_mode({}, env={"RAG_APP_PASSWORD": ""}) == "open"


def test_oidc_needs_redirect_cookie_secret_and_a_complete_provider():
    assert oidc_configured({"auth": {**AUTH_BASE, **GOOGLE}})
    assert login_provider({"auth": {**AUTH_BASE, **GOOGLE}}) is None  # st.login()
    named = {"auth": {**AUTH_BASE, "microsoft": {"client_id": "x"}, "google": GOOGLE}}
    assert oidc_configured(named) and login_provider(named) == "google"  # st.login("google")
    assert not oidc_configured({"auth": {**GOOGLE}})  # no redirect_uri / cookie_secret
    assert not oidc_configured({"auth": {**AUTH_BASE, "client_id": "x", "client_secret": "y"}})
    assert not oidc_configured({"auth": "oops"})
    assert not oidc_configured({"other": {**AUTH_BASE, **GOOGLE}})


def test_streamlit_secrets_objects_are_accepted():
    from streamlit.runtime.secrets import AttrDict  # the type st.secrets sections have

    assert auth_mode(AttrDict({"auth": {**AUTH_BASE, "google": GOOGLE}}), env={}) == "oidc"
