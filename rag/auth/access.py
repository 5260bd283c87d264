"""Who may see and do what: the auth mode, the passwords, each user's role and access groups.

Pure logic: the pages pass in Streamlit's secrets and the signed-in user's claims; nothing here
imports streamlit. Two independent answers per user:

- the role says what they may do: a `reader` asks questions, an `editor` also ingests,
  evaluates, changes the session settings and saves a calibration;
- the groups say what they may read: a point is visible when its `access` list shares a group
  with the user's groups, and every user, signed in or not, is in "public".
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import tomllib
import unicodedata
from pathlib import Path
from typing import Any, Mapping, Sequence

from rag.i18n import t
from rag.environment import raw_from_env, secrets_from_env
from rag.errors import ConfigError

PUBLIC = "public"

READER, EDITOR = "reader", "editor"
ROLES = (READER, EDITOR)

# What each action needs. Pages and the controls inside them ask `can(role, action)`.
ASK, INGEST, EVALUATE, SETTINGS, SAVE_THRESHOLD = "ask", "ingest", "evaluate", "settings", "save_threshold"
JOURNAL = "journal"  # what readers asked: their questions are the editors' to read, never another reader's
_NEEDS = {ASK: READER, INGEST: EDITOR, EVALUATE: EDITOR, SETTINGS: EDITOR, SAVE_THRESHOLD: EDITOR,
          JOURNAL: EDITOR}

UserGroups = dict[str, list[str]]
UserRoles = dict[str, str]


class AccessDenied(ConfigError):
    """An action the signed-in role does not allow."""


def can(role: str | None, action: str) -> bool:
    """True when `role` may do `action`; an unknown role or action may do nothing."""
    needed = _NEEDS.get(action)
    if needed is None or role not in ROLES:
        return False
    return role == EDITOR or needed == READER


def require(role: str | None, action: str) -> None:
    """Raise AccessDenied unless `role` may do `action`."""
    if not can(role, action):
        raise AccessDenied(t("access.denied", role=role or t("replace.nobody")))


def allowed_actions(role: str | None) -> list[str]:
    return [action for action in _NEEDS if can(role, action)]


_ASCII_LOWER = {ord(c): ord(c) + 32 for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}


def normalise_email(address: str) -> str:
    """The address as a mapping key: surrounding spaces removed, ASCII letters lowercased, nothing
    else changed.

    Full case folding merges different addresses (the Kelvin sign U+212A folds onto "k", "ß"
    onto "ss"), and so does Unicode normalisation (NFC turns the Kelvin sign into "K"): a
    lookalike address would inherit another user's groups. identity_keys() refuses an address
    that is not already in NFC instead of normalising it.
    """
    return address.strip().translate(_ASCII_LOWER)


SUB_PREFIX = "sub:"  # a mapping key naming a provider's `sub`, never an address
PASSWORD_PREFIX = "password:"  # the identity of a password session: "password:reader" or "password:editor"


def password_identity(role: str) -> str:
    """The identity a password session is mapped by (groups, administrator): one per password."""
    return PASSWORD_PREFIX + role


def _normalise_user(user: str) -> str | None:
    """A mapping or lookup key as compared: an address (ASCII case ignored), `sub:` followed by the
    provider's id (exact), or a password's identity; None for anything else.

    A `sub` is compared only under its prefix, so a provider that lets users choose their `sub`
    cannot be given `alice@example.com` as one and inherit Alice's address."""
    user = user.strip()
    if user.startswith(SUB_PREFIX):
        return user if len(user) > len(SUB_PREFIX) else None
    if user.startswith(PASSWORD_PREFIX):
        return user if user[len(PASSWORD_PREFIX):] in ROLES else None
    return normalise_email(user) if "@" in user else None


def _mapping_key(user: Any, origin: str) -> str:
    key = _normalise_user(str(user))
    if key is None:
        raise ConfigError(t("access.bad_key", origin=origin, user=repr(user), sub=SUB_PREFIX + str(user).strip()))
    return key


def _verified(claims: Mapping[str, Any]) -> bool:
    flag = claims.get("email_verified")
    # Some providers (Cognito) send the flag as a string.
    return flag is True or (isinstance(flag, str) and flag.strip().lower() == "true")


def identity_keys(claims: Mapping[str, Any] | None) -> list[str]:
    """The keys a signed-in OIDC user is looked up by: their address only when the provider
    verified it (`email_verified` true) and it is in NFC, then "sub:" and their `sub` (the
    provider's stable id), which matches only a key written with that prefix. An unverified or
    lookalike address matches nobody: the user gets "public" and reader."""
    claims = claims or {}
    keys: list[str] = []
    email = claims.get("email")
    if isinstance(email, str) and email.strip() and _verified(claims) and unicodedata.is_normalized("NFC", email):
        keys.append(normalise_email(email))
    sub = claims.get("sub")
    if isinstance(sub, str) and sub.strip():
        keys.append(SUB_PREFIX + sub)  # exact, and never read as an address
    return keys


def parse_admins(raw: str, origin: str = "RAG_ADMINS") -> tuple[str, ...]:
    """The administrators: comma-separated identities (addresses, "sub:" ids, "password:editor")."""
    return tuple(_mapping_key(item, origin) for item in raw.split(",") if item.strip())


def is_administrator(keys: Sequence[str], admins: Sequence[str]) -> bool:
    """True when one of the signed-in identity's keys is named an administrator."""
    named = set(admins)
    return any(_normalise_user(key) in named for key in keys if key)


def parse_user_groups(data: Any, origin: str = "the user groups") -> UserGroups:
    """Validate a mapping {user: [groups]} (or {"users": {...}}) and normalise its keys and values."""
    if isinstance(data, Mapping) and isinstance(data.get("users"), Mapping):
        data = data["users"]
    elif isinstance(data, Mapping) and isinstance(data.get("roles"), Mapping):
        data = {user: groups for user, groups in data.items() if user != "roles"}
    if not isinstance(data, Mapping):
        raise ConfigError(t("access.groups_map", origin=origin))
    result: UserGroups = {}
    for user, groups in data.items():
        if isinstance(groups, str):
            groups = [groups]
        if not isinstance(groups, list) or not all(isinstance(g, str) and g.strip() for g in groups):
            raise ConfigError(t("access.groups_list", origin=origin, user=repr(user)))
        result[_mapping_key(user, origin)] = [g.strip() for g in groups]
    return result


def _read_access_file(path: Path) -> Any:
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(t("access.unreadable", path=path, error=exc.strerror)) from exc
    try:
        data = tomllib.loads(raw) if path.suffix.lower() == ".toml" else json.loads(raw)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        kind = "TOML" if path.suffix.lower() == ".toml" else "JSON"
        raise ConfigError(t("access.invalid", path=path, kind=kind, error=exc)) from exc
    return data


def load_user_groups_file(path: str | Path) -> UserGroups:
    """Read a user-to-groups file: TOML (`.toml`) or JSON (anything else)."""
    path = Path(path)
    return parse_user_groups(_read_access_file(path), origin=t("access.the_file", path=path))


def _inline_json(text: str, variable: str, example: str) -> Any:
    """A mapping given inline in an environment variable, or a message that shows how to write it."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(t("access.bad_json", name=variable, error=exc.msg, example=example)) from exc


def load_user_groups(env: Mapping[str, str] | None = None) -> UserGroups:
    """The user-to-groups mapping from RAG_ACCESS_FILE, then RAG_USERS_GROUPS (JSON), which wins per user."""
    read = raw_from_env(env)
    mapping: UserGroups = {}
    path = (read["access_file"] or "").strip()
    if path:
        mapping.update(load_user_groups_file(path))
    inline = (read["users_groups"] or "").strip()
    if inline:
        data = _inline_json(inline, "RAG_USERS_GROUPS", '{"alice@example.com": ["public", "staff"]}')
        mapping.update(parse_user_groups(data, origin="RAG_USERS_GROUPS"))
    return mapping


def _first(mapping: Mapping[str, Any], user: str | None | Sequence[str]) -> Any:
    keys = [user] if isinstance(user, str) or user is None else list(user)
    for key in keys:
        normalised = _normalise_user(key) if key else None
        if normalised is not None and normalised in mapping:
            return mapping[normalised]
    return None


def groups_for(user: str | None | Sequence[str], mapping: Mapping[str, list[str]] | None = None) -> list[str]:
    """The access groups of `user` (a key, or the keys of identity_keys() in order): always
    "public", plus the groups the mapping gives the first key it knows.

    An anonymous or unknown user gets ["public"]. `mapping` defaults to load_user_groups().
    """
    if mapping is None:
        mapping = load_user_groups()
    groups = [PUBLIC]
    for group in _first(mapping, user) or []:
        if group not in groups:
            groups.append(group)
    return groups


def parse_user_roles(data: Any, origin: str = "the user roles") -> UserRoles:
    """Validate a mapping {user: "reader" | "editor"} and normalise its keys."""
    if not isinstance(data, Mapping):
        raise ConfigError(t("access.roles_map", origin=origin))
    result: UserRoles = {}
    for user, role in data.items():
        if role not in ROLES:
            raise ConfigError(t("access.role", origin=origin, user=repr(user), role=repr(role)))
        result[_mapping_key(user, origin)] = role
    return result


def load_user_roles(env: Mapping[str, str] | None = None) -> UserRoles:
    """The user-to-role mapping: the `[roles]` table of RAG_ACCESS_FILE, then RAG_USERS_ROLES
    (JSON), which wins per user. A user in neither is a reader."""
    read = raw_from_env(env)
    mapping: UserRoles = {}
    path = (read["access_file"] or "").strip()
    if path:
        data = _read_access_file(Path(path))
        roles = data.get("roles") if isinstance(data, Mapping) else None
        if roles is not None:
            mapping.update(parse_user_roles(roles, origin=t("access.roles_table", path=path)))
    inline = (read["users_roles"] or "").strip()
    if inline:
        data = _inline_json(inline, "RAG_USERS_ROLES", '{"alice@example.com": "editor"}')
        mapping.update(parse_user_roles(data, origin="RAG_USERS_ROLES"))
    return mapping


def role_for(user: str | None | Sequence[str], mapping: Mapping[str, str] | None = None) -> str:
    """The role of a signed-in OIDC user: the mapping's, else reader."""
    if mapping is None:
        mapping = load_user_roles()
    return _first(mapping, user) or READER


def app_password(env: Mapping[str, str] | None = None) -> str | None:
    """The shared app password (RAG_APP_PASSWORD), or None when unset or empty."""
    return secrets_from_env(env)["app_password"]


def editor_password(env: Mapping[str, str] | None = None) -> str | None:
    """The editors' password (RAG_EDITOR_PASSWORD), or None when unset or empty."""
    return secrets_from_env(env)["editor_password"]


def password_role(candidate: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """The role a typed password opens: "editor" for RAG_EDITOR_PASSWORD, "reader" for
    RAG_APP_PASSWORD, None for anything else. Both are compared, in constant time."""
    reader, editor = app_password(env), editor_password(env)
    if reader and editor and reader == editor:
        raise ConfigError(t("access.same_passwords"))
    is_editor = check_password(candidate, expected=editor or "")
    is_reader = check_password(candidate, expected=reader or "")
    return EDITOR if is_editor else READER if is_reader else None


def listens_beyond_loopback(address: str | None) -> bool:
    """True when Streamlit's server.address lets other machines connect (unset = every interface)."""
    host = (address or "").strip().strip("[]")
    if not host:
        return True
    if host.lower() == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a host name: it may resolve to a public interface


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
    """ "oidc" when Streamlit auth secrets are configured, else "password" when RAG_APP_PASSWORD or
    RAG_EDITOR_PASSWORD is set, else "open" (a single user on their own machine: an editor)."""
    if oidc_configured(secrets):
        return "oidc"
    if app_password(env) or editor_password(env):
        return "password"
    return "open"
