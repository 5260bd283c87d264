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
# The first line that is not blank, when it is a delimiter of front matter (YAML's "---",
# TOML's "+++"), and a later line holding the same delimiter (or "..." after "---").
_FIRST_LINE = re.compile(r"[ \t\n]*+(?P<indent>[ \t]*)(?P<mark>---|\+\+\+)[ \t]*+(?:\n|\Z)")
_CLOSING = {"---": re.compile(r"^[ \t]*(?:---|\.\.\.)[ \t]*$", re.M), "+++": re.compile(r"^[ \t]*\+\+\+[ \t]*$", re.M)}


class _UniqueKeys(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser when installed
    """YAML's safe loader, refusing a key given twice in one mapping: YAML keeps the last one,
    so `access: [staff]` then `access: [public]` would open a document the author meant closed."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
                seen.add(key)
            except TypeError:  # a key YAML allows but Python cannot hash: construct_mapping says so
                break
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, t("src.yaml_duplicate", name=key), key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def _unknown_block(text: str) -> bool:
    """Does `text` open with front matter in a form not read here (TOML's "+++", a "---" that is
    indented or after blank lines)? Its access would silently be lost: such a file is refused."""
    first = _FIRST_LINE.match(text)
    return first is not None and _CLOSING[first.group("mark")].search(text, first.end()) is not None


def split_front_matter(text: str) -> tuple[dict[str, Any], str, str | None]:
    """(metadata, body without the front matter, error message or None).

    With an error the metadata is empty and the body is what follows the block: callers that
    index the document must refuse it (its access could not be read), not fall back to defaults.
    A "---" first line never closed is an error too: the rest of the file would be YAML read as prose;
    so are a key given twice and front matter in another form (TOML's "+++", an indented "---").
    """
    match = _FRONT_MATTER.match(text)
    if not match:
        if _OPENING.match(text):
            return {}, text, t("src.yaml_unclosed")
        if _unknown_block(text):
            return {}, text, t("src.front_matter_form")
        return {}, text, None
    body = text[match.end():]
    try:
        data = yaml.load(match.group(1) or "", Loader=_UniqueKeys)  # noqa: S506 - a safe loader
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
