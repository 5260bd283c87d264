"""The access gate: who may use the app, with which role, and which groups their retrieval is
filtered to. The decisions are rag.access's; this module only reads Streamlit's state."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag import access
from rag.errors import ConfigError
from rag.throttle import Throttle
from rag.i18n.numbers import duration
from ui.i18n import t
from ui import resources
from ui.resources import GROUPS, ROLE

PASSWORD_OK = "password_ok"  # the role the password opened, once it was right


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
        return st.session_state.get(PASSWORD_OK) in access.ROLES
    return True


def _stop_on_config_error(exc: ConfigError) -> None:
    st.error(t("login.access_error"))
    with st.expander(t("details")):
        st.caption(str(exc))
    st.stop()


def _claims() -> dict[str, Any]:
    return {key: st.user.get(key) for key in ("email", "email_verified", "sub")}


def _keys(auth_mode: str) -> list[str]:
    """The signed-in identity's keys: the OIDC claims' (verified address, "sub:" id), or the
    password's ("password:reader" or "password:editor")."""
    if auth_mode == "oidc":
        return access.identity_keys(_claims())
    if auth_mode == "password" and st.session_state.get(PASSWORD_OK) in access.ROLES:
        return [access.password_identity(st.session_state[PASSWORD_OK])]
    return []


def administrator(auth_mode: str) -> bool:
    """Open mode (one person on their own machine, as the command line) or an identity RAG_ADMINS names."""
    if auth_mode == "open":
        return True
    return allowed(auth_mode) and access.is_administrator(_keys(auth_mode), resources.base_settings().admins)


def role(auth_mode: str) -> str | None:
    """The signed-in role: open mode is a single user on their own machine, an editor, and so is an
    administrator."""
    if not allowed(auth_mode):
        return None
    if administrator(auth_mode):
        return access.EDITOR
    if auth_mode == "password":
        return st.session_state.get(PASSWORD_OK)
    try:
        return access.role_for(_keys(auth_mode))
    except ConfigError as exc:
        _stop_on_config_error(exc)
        raise


@st.cache_resource(show_spinner=False)
def _throttle() -> Throttle:
    # One for the whole process: a new tab or session must not reset a client's failures.
    return Throttle()


def _client() -> str:
    # The address the connection came from (a proxy's, behind one); None when Streamlit cannot tell.
    address = st.context.ip_address
    return address if isinstance(address, str) and address else "unknown client"


def _check_password(password: str) -> None:
    throttle, client = _throttle(), _client()
    wait = throttle.wait(client)
    if wait > 0:
        st.error(t("login.locked", time=duration(wait)))
        return
    try:
        opened = access.password_role(password)
    except ConfigError as exc:
        _stop_on_config_error(exc)
        return
    if opened is None:
        locked = throttle.failure(client)
        st.error(t("login.wrong_locked", time=duration(locked)) if locked else t("login.wrong"))
        return
    throttle.success(client)
    st.session_state[PASSWORD_OK] = opened
    st.rerun()


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
        _check_password(password)


def identity(auth_mode: str) -> str | None:
    if auth_mode == "oidc":
        return st.user.get("email")
    return None


def _groups(auth_mode: str) -> list[str] | None:
    # Roles and groups are independent: an editor reads their groups, only an administrator all.
    if administrator(auth_mode):
        return None
    try:
        return access.groups_for(_keys(auth_mode))
    except ConfigError as exc:
        _stop_on_config_error(exc)
        raise


def apply(auth_mode: str) -> None:
    """Record the role and the retrieval filter every page applies."""
    user_role = role(auth_mode)
    st.session_state[ROLE] = user_role
    st.session_state[GROUPS] = _groups(auth_mode)


def signed_in_caption(auth_mode: str) -> str:
    role_name = t(f"role.{st.session_state.get(ROLE)}")
    groups = st.session_state.get(GROUPS)
    reads = t("who.every") if groups is None else t("who.groups", groups=", ".join(groups))
    if auth_mode == "oidc":
        claims = _claims()
        who = claims.get("email") or claims.get("sub")
        verified = isinstance(claims.get("email"), str) and \
            access.normalise_email(claims["email"]) in access.identity_keys(claims)
        return t("who.oidc", who=who, note="" if verified else t("who.unverified"), role=role_name, reads=reads)
    if auth_mode == "password":
        return t("who.password", role=role_name, reads=reads)
    return t("who.open", reads=reads)


def exposure_warning(auth_mode: str) -> str | None:
    """In open mode, a warning when other machines can reach the app (everyone would be an editor)."""
    if auth_mode != "open":
        return None
    from streamlit import config

    address = config.get_option("server.address")
    if not access.listens_beyond_loopback(address):
        return None
    where = t("access.where_on", address=address) if address else t("access.where_all")
    return t("access.exposed", where=where)


def page_allowed_for(auth_mode: str, action: str) -> bool:
    """Whether the signed-in role may open the page of `action` (before the gate ran)."""
    return access.can(role(auth_mode), action)
