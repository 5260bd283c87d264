"""A file's access groups from the folder's setting (`--access`) and its own front matter.

The stricter of the two wins. A reader sees the document only when both would let them see it:
every reader is in "public", so "public" on one side leaves the decision to the other side;
otherwise the document keeps the groups named on both sides, and with none in common, nobody
but editors sees it. `access: []` means nobody but editors. Nothing falls back to public.
"""

from __future__ import annotations

from typing import Any, Iterable

from rag.i18n import t

PUBLIC = "public"


class AccessValueError(ValueError):
    """A front-matter `access` value that is not a list of group names."""


def declared_access(meta: dict[str, Any]) -> list[str] | None:
    """The groups a front matter declares: None without an `access` key, [] for `access: []`
    (or an empty value). A list of names or a comma-separated string; anything else is an error,
    so that a typo cannot widen who reads the document."""
    if "access" not in meta:
        return None
    value = meta["access"]
    if value is None:
        return []
    if isinstance(value, str):
        items: Iterable[Any] = value.split(",")
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        raise AccessValueError(t("src.access_not_list", kind=type(value).__name__, value=repr(value)))
    groups: list[str] = []
    for item in items:
        if not isinstance(item, (str, int)) or isinstance(item, bool):
            raise AccessValueError(t("src.access_bad_group", value=repr(item)))
        name = str(item).strip()
        if name and name not in groups:
            groups.append(name)
    return groups


def effective_access(folder: Iterable[str], declared: list[str] | None) -> list[str]:
    """The document's groups under the stricter-wins rule (see the module docstring)."""
    folder_groups = list(dict.fromkeys(g for g in folder if g))
    if declared is None:
        return folder_groups
    if PUBLIC in folder_groups:
        return list(declared)
    if PUBLIC in declared:
        return folder_groups
    return [g for g in declared if g in folder_groups]
