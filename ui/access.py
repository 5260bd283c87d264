"""The access gate: who may use the app, and which groups their retrieval is filtered to."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag import access
from rag.errors import ConfigError
from ui.i18n import t
from ui.resources import GROUPS

PASSWORD_OK = "password_ok"


def _secrets() -> dict[str, Any]:
    # Without a secrets.toml, reading st.secrets raises: that simply means "no [auth] section".
    try:
        return st.secrets.to_dict()
    except Exception:  # noqa: BLE001 - FileNotFoundError or StreamlitSecretNotFoundError
        return {}


def mode() -> str:
    return access.auth_mode(_secrets())


def allowed(auth_mode: str) -> bool:
    if auth_mode == "oidc":
        return bool(st.user.is_logged_in)
    if auth_mode == "password":
        return bool(st.session_state.get(PASSWORD_OK))
    return True


def _groups(user: str | None) -> list[str]:
    try:
        return access.groups_for(user)
    except ConfigError as exc:
        st.error(t("login.groups_error"))
        with st.expander(t("details")):
            st.caption(str(exc))
        st.stop()
        raise


def login_screen(auth_mode: str) -> None:
    """The sign-in form for this mode. The caller stops the run after it."""
    st.title(t("app.title"))
    if auth_mode == "oidc":
        st.write(t("login.oidc"))
        provider = access.login_provider(_secrets())
        st.button(t("login.button"), type="primary", on_click=st.login, args=(provider,) if provider else ())
        return
    with st.form("password_gate"):
        st.write(t("login.password_intro"))
        password = st.text_input(t("login.password"), type="password")
        submitted = st.form_submit_button(t("login.enter"), type="primary")
    if submitted:
        if access.check_password(password):
            st.session_state[PASSWORD_OK] = True
            st.rerun()
        st.error(t("login.wrong"))


def identity(auth_mode: str) -> str | None:
    if auth_mode == "oidc":
        return st.user.get("email")
    return None


def apply(auth_mode: str) -> None:
    """Record the reader's groups: the retrieval filter every page applies."""
    st.session_state[GROUPS] = _groups(identity(auth_mode))


def signed_in_caption(auth_mode: str) -> str:
    groups = ", ".join(st.session_state.get(GROUPS) or [])
    who = identity(auth_mode)
    if auth_mode == "oidc":
        return t("who.oidc", who=who, groups=groups)
    if auth_mode == "password":
        return t("who.password", groups=groups)
    return t("who.open", groups=groups)
