"""Who may see what: the auth mode, the shared password, and each user's access groups.

Pure logic: the pages pass in Streamlit's secrets and the logged-in user's email; nothing here
imports streamlit. A point is visible to a user when its `access` list shares a group with the
user's groups, and every user, signed in or not, is in "public".
"""

from __future__ import annotations

import hmac
import json
import os
import tomllib
from pathlib import Path
from typing import Any, Mapping

from rag.errors import ConfigError

PUBLIC = "public"

UserGroups = dict[str, list[str]]


def _normalise_user(user: str) -> str:
    # Identity providers differ in the case of the email they return.
    return user.strip().casefold()


def parse_user_groups(data: Any, origin: str = "the user groups") -> UserGroups:
    """Validate a mapping {user: [groups]} (or {"users": {...}}) and normalise its keys and values."""
    if isinstance(data, Mapping) and isinstance(data.get("users"), Mapping):
        data = data["users"]
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"{origin} must map each user to a list of groups, e.g. "
            '{"alice@example.com": ["public", "staff"]}'
        )
    result: UserGroups = {}
    for user, groups in data.items():
        if isinstance(groups, str):
            groups = [groups]
        if not isinstance(groups, list) or not all(isinstance(g, str) and g.strip() for g in groups):
            raise ConfigError(
                f"In {origin}, the groups of {user!r} must be a list of names, e.g. [\"public\", \"staff\"]"
            )
        result[_normalise_user(str(user))] = [g.strip() for g in groups]
    return result


def load_user_groups_file(path: str | Path) -> UserGroups:
    """Read a user-to-groups file: TOML (`.toml`) or JSON (anything else)."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"Cannot read the access file {path} (RAG_ACCESS_FILE): {exc.strerror}") from exc
    try:
        data = tomllib.loads(raw) if path.suffix.lower() == ".toml" else json.loads(raw)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        kind = "TOML" if path.suffix.lower() == ".toml" else "JSON"
        raise ConfigError(f"The access file {path} is not valid {kind}: {exc}") from exc
    return parse_user_groups(data, origin=f"the access file {path}")


def load_user_groups(env: Mapping[str, str] | None = None) -> UserGroups:
    """The user-to-groups mapping from RAG_ACCESS_FILE, then RAG_USERS_GROUPS (JSON), which wins per user."""
    env = os.environ if env is None else env
    mapping: UserGroups = {}
    path = (env.get("RAG_ACCESS_FILE") or "").strip()
    if path:
        mapping.update(load_user_groups_file(path))
    inline = (env.get("RAG_USERS_GROUPS") or "").strip()
    if inline:
        try:
            data = json.loads(inline)
        except json.JSONDecodeError as exc:
            raise ConfigError(
                f"RAG_USERS_GROUPS is not valid JSON ({exc.msg}): write it like "
                '{"alice@example.com": ["public", "staff"]}'
            ) from exc
        mapping.update(parse_user_groups(data, origin="RAG_USERS_GROUPS"))
    return mapping


def groups_for(user: str | None, mapping: Mapping[str, list[str]] | None = None) -> list[str]:
    """The access groups of `user`: always "public", plus the groups the mapping gives them.

    An anonymous or unknown user gets ["public"]. `mapping` defaults to load_user_groups().
    """
    if mapping is None:
        mapping = load_user_groups()
    groups = [PUBLIC]
    if user:
        for group in mapping.get(_normalise_user(user), []):
            if group not in groups:
                groups.append(group)
    return groups


def app_password(env: Mapping[str, str] | None = None) -> str | None:
    """The shared app password (RAG_APP_PASSWORD), or None when unset or empty."""
    env = os.environ if env is None else env
    return env.get("RAG_APP_PASSWORD") or None


def check_password(candidate: str | None, expected: str | None = None,
                   env: Mapping[str, str] | None = None) -> bool:
    """True when `candidate` equals the shared password; constant time, so timing reveals nothing.

    `expected` defaults to RAG_APP_PASSWORD. With no password configured, nothing matches.
    """
    expected = expected if expected is not None else app_password(env)
    if not expected or candidate is None:
        return False
    return hmac.compare_digest(candidate.encode("utf-8"), expected.encode("utf-8"))


def _provider_ready(section: Any) -> bool:
    return isinstance(section, Mapping) and all(
        section.get(k) for k in ("client_id", "client_secret", "server_metadata_url")
    )


def _oidc(secrets: Mapping[str, Any] | None) -> tuple[bool, str | None]:
    auth = secrets.get("auth") if isinstance(secrets, Mapping) else None
    if not isinstance(auth, Mapping) or not (auth.get("redirect_uri") and auth.get("cookie_secret")):
        return False, None
    if _provider_ready(auth):
        return True, None
    for name, value in auth.items():
        if _provider_ready(value):
            return True, str(name)
    return False, None


def oidc_configured(secrets: Mapping[str, Any] | None) -> bool:
    """True when the secrets hold a usable [auth] section for Streamlit's st.login (OIDC).

    Streamlit needs `redirect_uri` and `cookie_secret` in [auth], and a provider's `client_id`,
    `client_secret` and `server_metadata_url`, either in [auth] itself or in an [auth.NAME] table.
    """
    return _oidc(secrets)[0]


def login_provider(secrets: Mapping[str, Any] | None) -> str | None:
    """The argument for st.login: None for st.login() (provider in [auth] itself), else the
    name of the first complete [auth.NAME] table. Meaningful only when oidc_configured()."""
    return _oidc(secrets)[1]


def auth_mode(secrets: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> str:
    """ "oidc" when Streamlit auth secrets are configured, else "password" when RAG_APP_PASSWORD is
    set, else "open"."""
    if oidc_configured(secrets):
        return "oidc"
    if app_password(env):
        return "password"
    return "open"
