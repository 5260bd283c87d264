"""A collection's metadata on disk, beside its shard: one JSON file, replaced atomically.

Written to a temporary file in the same folder, fsynced, renamed over the old one with
`os.replace`, and the folder fsynced: a crash leaves the old file or the new one, never a
half-written one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rag.auth import owner_only
from rag.i18n import t
from rag.errors import StoreError


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    owner_only.replace(path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True).encode("utf-8"))
    fsync_dir(path.parent)


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise StoreError(t("store.meta_unreadable", path=path, error=exc)) from exc
    if not isinstance(data, dict):
        raise StoreError(t("store.meta_not_object", path=path))
    return data
