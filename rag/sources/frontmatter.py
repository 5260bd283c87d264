"""YAML front matter: read it off the top of a file, and write it for files `rag fetch` saves."""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

import yaml

from rag.i18n import t

# "---" on the first line, YAML, then "---" (or "...") on a line of its own.
_FRONT_MATTER = re.compile(r"\A---[ \t]*+\n(.*?\n)?(?:---|\.\.\.)[ \t]*+(?:\n|\Z)", re.S)
_OPENING = re.compile(r"\A---[ \t]*+\n")


def split_front_matter(text: str) -> tuple[dict[str, Any], str, str | None]:
    """(metadata, body without the front matter, error message or None).

    With an error the metadata is empty and the body is what follows the block: callers that
    index the document must refuse it (its access could not be read), not fall back to defaults.
    A "---" first line never closed is an error too: the rest of the file would be YAML read as prose.
    """
    match = _FRONT_MATTER.match(text)
    if not match:
        if _OPENING.match(text):
            return {}, text, t("src.yaml_unclosed")
        return {}, text, None
    body = text[match.end():]
    try:
        data = yaml.safe_load(match.group(1) or "")
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = t("src.yaml_line", n=where.line + 2) if where is not None else ""
        reason = getattr(exc, "problem", None)
        invalid = t("src.yaml", line=line)
        return {}, body, t("doc.about", item=invalid, note=reason) if reason else invalid
    if data is None:
        return {}, body, None
    if not isinstance(data, dict):
        return {}, body, t("src.yaml_not_mapping")
    return {str(key): value for key, value in data.items()}, body, None


def as_text(value: Any) -> str | None:
    """A front-matter scalar as text (YAML turns 2024-01-31 into a date)."""
    if value is None:
        return None
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    if isinstance(value, (str, int, float)):
        text = str(value).strip()
        return text or None
    return None


def as_groups(value: Any) -> list[str] | None:
    """Access groups from a YAML list or a comma-separated string."""
    if value is None:
        return None
    items = value if isinstance(value, (list, tuple)) else str(value).split(",")
    groups = [str(item).strip() for item in items if item is not None and str(item).strip()]
    return groups or None


def render_front_matter(meta: dict[str, Any]) -> str:
    """A --- block that split_front_matter reads back to the same values."""
    dumped = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False, default_flow_style=False, width=10_000)
    return f"---\n{dumped}---\n"
