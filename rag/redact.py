"""Keep secrets (API keys, passwords) out of logs, error messages, the status page and results files."""

from __future__ import annotations

import dataclasses
import logging
import re
from pathlib import Path
from typing import Any, Iterable, Mapping
from urllib.parse import quote

from rag.environment import secrets_from_env

MASK = "***"

# The variables whose values are secrets wherever they show up: rag.config.secrets_from_env.

# Settings fields are secret by name, so a field added later is masked without touching this file.
_SECRET_FIELD = re.compile(r"(api_key|password|secret|token)", re.IGNORECASE)

# scheme://user:pass@host -> scheme://***@host ; the userinfo may hold a password.
# The scheme starts where a run of scheme characters starts (the look-behind) and is read whole
# (possessive): starting again inside a long run ("a-a-a-…") at every boundary was quadratic.
_USERINFO = re.compile(r"(?P<scheme>(?<![a-zA-Z0-9+.\-])[a-zA-Z0-9+.\-]*+://)(?P<userinfo>[^\s/?#@]+)@")

# Credentials in headers or query strings, whatever their value.
_CREDENTIAL_PATTERNS = (
    re.compile(r"(?i)\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}"),
    # The key word alone, wherever it ends a name (x-api-key, db_password): a name before it is
    # kept as it is, so it is not matched (`\b[\w-]*` before the word retried every start of a
    # long hyphenated word: 10 KB took 2 s, 80 KB two minutes).
    re.compile(r"(?i)((?:api[-_]?key|authorization|password|secret|token))(\"?'?\s*[:=]\s*\"?'?)"
               r"(?!\*\*\*|None\b|null\b|Bearer\b|Basic\b)[^\s\"',;&}]+"),
)


def strip_userinfo(text: str) -> str:
    """Replace the user and password of every URL in `text` with ***."""
    return _USERINFO.sub(lambda m: f"{m.group('scheme')}{MASK}@", text)


def _variants(secret: str) -> set[str]:
    # The same secret also travels percent-encoded (in URLs) and, for WordPress application
    # passwords, with or without its spaces.
    found = {secret, quote(secret, safe=""), quote(secret)}
    if " " in secret:
        found.add(secret.replace(" ", ""))
    return {v for v in found if v}


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """`text` with every given secret, URL userinfo and credential header value replaced by ***."""
    if not text:
        return text
    values: set[str] = set()
    for secret in secrets:
        if secret and secret.strip():
            values |= _variants(secret.strip())
    # Longest first, so a secret containing another is masked whole.
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, MASK)
    text = strip_userinfo(text)
    text = _CREDENTIAL_PATTERNS[0].sub(lambda m: f"{m.group(1)} {MASK}", text)
    text = _CREDENTIAL_PATTERNS[1].sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", text)
    return text


def known_secrets(settings: Any = None, env: Mapping[str, str] | None = None) -> list[str]:
    """The secret values configured in `settings` (by field name) and in the environment."""
    found = [value or "" for value in secrets_from_env(env).values()]
    if settings is not None and dataclasses.is_dataclass(settings):
        for field in dataclasses.fields(settings):
            value = getattr(settings, field.name)
            if _SECRET_FIELD.search(field.name) and isinstance(value, str):
                found.append(value)
    return [s for s in found if s]


class RedactingFilter(logging.Filter):
    """A logging filter that masks secrets in the message, its arguments and the traceback."""

    def __init__(self, secrets: Iterable[str | None] | None = None, settings: Any = None,
                 env: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.secrets = [s for s in (secrets or []) if s] + known_secrets(settings, env)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record still gets logged, without its arguments
            message = str(record.msg)
        record.msg = redact(message, self.secrets)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


def install_redaction(logger: logging.Logger | None = None, settings: Any = None,
                      secrets: Iterable[str | None] | None = None) -> RedactingFilter:
    """Attach a RedactingFilter to `logger` (default: the root logger) and its handlers.

    Handler filters also see records propagated from child loggers; logger filters do not.
    """
    logger = logger if logger is not None else logging.getLogger()
    flt = RedactingFilter(secrets=secrets, settings=settings)
    logger.addFilter(flt)
    for handler in logger.handlers:
        handler.addFilter(flt)
    return flt


def settings_for_display(settings: Any) -> dict[str, Any]:
    """The settings as a JSON-ready dict: secrets shown as *** (or None when unset), URLs without userinfo."""
    result: dict[str, Any] = {}
    for field in dataclasses.fields(settings):
        value = getattr(settings, field.name)
        if _SECRET_FIELD.search(field.name):
            result[field.name] = MASK if value else None
        elif isinstance(value, Path):
            result[field.name] = str(value)
        elif isinstance(value, str):
            result[field.name] = strip_userinfo(value)
        else:
            result[field.name] = value
    return result
