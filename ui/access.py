"""The access gate: who may use the app, with which role, and which groups their retrieval is
filtered to; sign-in, the cookie that keeps it across a reload, and sign-out. The decisions are
rag.auth.access's, rag.auth.sessions' and rag.auth.throttle's; this module reads Streamlit's state."""

from __future__ import annotations

import os
from typing import Any

import streamlit as st

from rag.auth import access
from rag.errors import ConfigError
from rag.journal.readers import device_reader
from rag.auth.sessions import DEVICE_COOKIE, SESSION_COOKIE
from rag.auth.throttle import Throttle, client_address, connection_peer, sign_in
from rag.i18n.numbers import duration
from ui.i18n import t
from ui import lang, resources, sessions
from ui.resources import GROUPS, ROLE

PASSWORD_OK = "password_ok"  # the role the password opened, once it was right
SESSION_TOKEN = "session_token"  # the cookie's token this session resumed from (revoked at sign-out)
PENDING_TICKET = "session_ticket"  # a ticket for the cookie, handed to the browser on the next run
ISSUED_TICKET = "issued_ticket"  # the ticket this session handed over (revoked at sign-out)
SIGNED_OUT = "signed_out"
DEVICE_TOKEN = "device_token"  # the browser's device token: its cookie's, else one made for this session


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
        return bool(st.user.is_logged_in)  # Streamlit's own signed identity cookie survives a reload
    if auth_mode == "password":
        if st.session_state.get(PASSWORD_OK) not in access.ROLES:
            _resume_from_cookie()
        return st.session_state.get(PASSWORD_OK) in access.ROLES
    return True


def _text(value: Any) -> str | None:
    # What the connection tells (headers, cookies, address); under AppTest these are not strings.
    return value if isinstance(value, str) and value else None


def _resume_from_cookie() -> None:
    # A reload starts a new session: the signed cookie (set by serve.py's route) still names the role.
    token = _text(st.context.cookies.get(SESSION_COOKIE))
    opened = sessions.book().role(token, sessions.password_of) if token else None
    if opened in access.ROLES:
        st.session_state[PASSWORD_OK] = opened
        st.session_state[SESSION_TOKEN] = token


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
    """The client's address: the connection's, or what a trusted proxy (RAG_TRUSTED_PROXIES) says."""
    forwarded = _text(st.context.headers.get("X-Forwarded-For"))
    # The server's uvicorn rewrites the address from X-Forwarded-For sent from loopback, unless
    # FORWARDED_ALLOW_IPS is empty (as the Makefile and the image run it): then it is the peer's own.
    peer = connection_peer(_text(st.context.ip_address), forwarded, os.environ.get("FORWARDED_ALLOW_IPS") != "")
    return client_address(peer, forwarded, resources.base_settings().trusted_proxies)


def _check_password(password: str) -> None:
    try:
        opened = access.password_role(password)  # both passwords compared, in constant time
    except ConfigError as exc:
        _stop_on_config_error(exc)
        return
    accounts = [role for role in access.ROLES if sessions.password_of(role)]
    # The browser's id: its cookie's, else this tab's own (kept across a sign-out: the cookies a tab
    # sees are those of when it opened, before a sign-in in it set one). The throttle gives it a
    # bucket of its own only for the accounts it signed in to.
    device = sessions.book().device_id(_device_token())
    attempt = sign_in(_throttle(), accounts, _client(), device, lambda account: account == opened)
    if attempt.account is None:
        if attempt.started:
            st.error(t("login.wrong_locked", time=duration(attempt.started)))
        elif attempt.wait > 0:
            st.error(t("login.locked", time=duration(attempt.wait)))
        else:
            st.error(t("login.wrong"))
        return
    opened = attempt.account
    st.session_state[PASSWORD_OK] = opened
    hours = resources.base_settings().session_hours
    if hours > 0:  # the page hands the browser a one-time ticket for the cookie (see rag.auth.sessions)
        st.session_state[PENDING_TICKET] = st.session_state[ISSUED_TICKET] = sessions.book().ticket(
            opened, hours * 3600, device=_device_token())
    st.rerun()


def _post(path: str, body: str = "") -> None:
    # To the app's own origin, in a POST body: nothing in the URL. The ticket is URL-safe base64.
    st.html(f'<script>fetch("{path}", {{method: "POST", body: "{body}", credentials: "same-origin"}})'
            '.catch(() => {});</script>', unsafe_allow_javascript=True, width="content")


def keep_signed_in() -> None:
    """Once after a password sign-in: trade the ticket for the HttpOnly session cookie."""
    ticket = st.session_state.pop(PENDING_TICKET, None)
    if ticket:
        _post(sessions.served_path(sessions.SESSION_PATH), ticket)


def _sign_out(auth_mode: str) -> None:
    if auth_mode != "oidc":
        signer = sessions.book()
        signer.revoke(st.session_state.get(SESSION_TOKEN), sessions.password_of)
        signer.revoke_ticket(st.session_state.get(ISSUED_TICKET))
        # A shared password's reader is the browser and the role: the next one to sign in here with
        # the same password must be another reader, so the browser gets a new id (its cookie too,
        # at the next sign-in), keeping what it proved to the password throttle.
        old = signer.device_id(_device_token())
        st.session_state[DEVICE_TOKEN] = signer.device()
        _throttle().carry(old, signer.device_id(st.session_state[DEVICE_TOKEN]))
    # Everything the signed-in user had on screen goes (their conversation, their settings): the
    # next one to sign in on this browser starts afresh. The language and the browser's id stay.
    for key in list(st.session_state):
        if key not in (lang.LANG, DEVICE_TOKEN):
            del st.session_state[key]
    if auth_mode == "oidc":
        st.logout()
        return
    st.session_state[SIGNED_OUT] = True


def sign_out_button(auth_mode: str) -> None:
    """In the sidebar, in both sign-in modes: back to the sign-in page."""
    if auth_mode != "open":
        st.sidebar.button(t("login.sign_out"), key="sign_out", icon=":material/logout:",
                          on_click=_sign_out, args=(auth_mode,))


def login_screen(auth_mode: str) -> None:
    """The sign-in form for this mode. The caller stops the run after it."""
    st.title(t("app.title"))
    if st.session_state.pop(SIGNED_OUT, False):
        st.success(t("login.signed_out"))
        _post(sessions.served_path(sessions.SIGNOUT_PATH))  # the cookie too (its token is revoked already)
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


def _device_token() -> str:
    """The browser's signed device token: the one this session chose (at a sign-out, a new one:
    the cookies a tab reads are those of when it opened), else its cookie's (set at a password
    sign-in through serve.py), else one made for this session and handed to the cookie at sign-in."""
    signer = sessions.book()
    token = st.session_state.get(DEVICE_TOKEN)
    if signer.device_id(token) is None:
        token = _text(st.context.cookies.get(DEVICE_COOKIE))
        if signer.device_id(token) is None:
            token = st.session_state[DEVICE_TOKEN] = signer.device()
    return token


def reader_id(auth_mode: str) -> str:
    """The signed-in account's id as the journal records it: the verified e-mail (else the
    provider's subject) with single sign-on; with a shared password, the browser and the role
    (`device:…:reader`), so that readers sharing a password never see each other's conversations
    and the reader never sees the editor's on a shared browser; "" on an open dashboard, which has
    no readers to tell apart (and before a sign-in)."""
    if auth_mode == "password":
        opened = st.session_state.get(PASSWORD_OK)
        if opened not in access.ROLES:
            return ""
        return device_reader(sessions.book().device_id(_device_token()) or "", opened)
    if auth_mode != "oidc" or not st.user.is_logged_in:
        return ""
    keys = access.identity_keys(_claims())
    return keys[0] if keys else ""


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


def key_warning(auth_mode: str) -> str | None:
    """With passwords, to editors: what is wrong with the sign-in key file, when anything is
    (rag.auth.session_key), so that sign-ins lost at the next restart are never a surprise."""
    if auth_mode != "password" or not resources.can_edit():
        return None
    key = sessions.book().key
    return key.message() if key else None


def page_allowed_for(auth_mode: str, action: str) -> bool:
    """Whether the signed-in role may open the page of `action` (before the gate ran)."""
    return access.can(role(auth_mode), action)
