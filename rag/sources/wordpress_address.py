"""What a reader types for a WordPress site, made exact before any request: the site's root URL
(API suffixes and credentials taken out), the post types to read, and the modified-after date."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Iterable
from urllib.parse import unquote, urlsplit, urlunsplit

from rag.errors import SourceError
from rag.i18n import t
from rag.redact import strip_userinfo

DEFAULT_TYPES = ("posts",)
KNOWN_TYPES = ("posts", "pages")
# Suffixes people paste after the site's address: /index.php, /wp-json/..., or both.
_API_SUFFIX = re.compile(r"(?:/index\.php)?(?:/wp-json(?:/.*)?)?$")
# A REST base: posts, pages, or a custom post type's (e.g. "docs").
_TYPE_NAME = re.compile(r"[a-z][a-z0-9_-]{0,40}")

def normalize_site_url(site_url: str) -> tuple[str, str | None, str | None]:
    """The site's root URL (no trailing slash, no API path), and credentials found in it if any."""
    raw = (site_url or "").strip()
    if not raw:
        raise SourceError(t("wp.empty_url"))
    scheme = re.match(r"^([a-z][a-z0-9+.-]*):", raw, re.I)
    # "host:8080" is a host and a port, not a scheme; anything else but http(s) is refused: the
    # server fetches this address and shows what it read.
    if scheme and scheme.group(1).lower() not in ("http", "https") and not re.match(r"^[^:/]+:\d+(/|$)", raw):
        raise SourceError(t("wp.scheme", url=repr(strip_userinfo(raw)), scheme=scheme.group(1)))
    if not re.match(r"^https?://", raw, re.I):
        raw = "https://" + raw
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError as exc:
        raise SourceError(t("wp.not_address_why", url=repr(strip_userinfo(raw)), error=exc)) from exc
    if not parts.hostname:
        raise SourceError(t("wp.not_address", url=repr(strip_userinfo(raw))))
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    netloc = parts.hostname + (f":{port}" if port else "")
    path = _API_SUFFIX.sub("", parts.path.rstrip("/")).rstrip("/")
    return urlunsplit((parts.scheme.lower(), netloc, path, "", "")), user, password


def parse_types(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """"posts,pages" (or a list) as REST bases, in order, each once; SourceError for a bad name."""
    if value is None:
        return DEFAULT_TYPES
    names = value.split(",") if isinstance(value, str) else list(value)
    types: list[str] = []
    for raw in names:
        name = str(raw).strip().lower()
        if not name:
            continue
        if name in ("post", "page"):
            name += "s"  # the REST base is plural
        if not _TYPE_NAME.fullmatch(name):
            raise SourceError(t("wp.bad_types", value=repr(raw)))
        if name not in types:
            types.append(name)
    if not types:
        raise SourceError(t("wp.empty_types"))
    return tuple(types)


def normalize_modified_after(value: str | None) -> str | None:
    """WordPress wants a full date-time for modified_after; accept a plain date too."""
    if value is None or not str(value).strip():
        return None
    text = str(value).strip()
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise SourceError(t("wp.bad_date", value=repr(text))) from exc
    if parsed.tzinfo is not None:
        return parsed.isoformat(timespec="seconds")
    return parsed.strftime("%Y-%m-%dT%H:%M:%S")
