"""Contexts written by the chat model, kept on disk so that re-ingesting costs nothing.

One small JSON file per context under $RAG_DATA_DIR/cache/enrichment/, named by a hash of
everything the context depends on: the server, the mode, the model, the prompt's version and
language, the document (its content hash) and the chunk's body. The server is part of it because
a model name says nothing of who serves it: another server calling its model the same would
otherwise have its contexts reused and indexed. A changed chunk or document gets a new key;
an unchanged one is read back even after `--full` or in another collection.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from rag.auth import owner_only


def cache_key(server: str, mode: str, model: str, prompt_version: str, language: str, document_hash: str,
              body: str) -> str:
    body_hash = hashlib.sha256(body.encode("utf-8")).hexdigest()
    raw = json.dumps([server, mode, model, prompt_version, language, document_hash, body_hash])
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class ContextCache:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # absent, or cut by an interrupted write: generated again
        return data if isinstance(data, dict) and isinstance(data.get("context"), str) else None

    def put(self, key: str, record: dict[str, Any]) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Not synced: a context lost in a crash is generated again.
            owner_only.replace(path, json.dumps(record, ensure_ascii=False).encode("utf-8"), sync=False)
        except OSError:
            pass  # a context that cannot be cached is generated again next time: nothing is lost

    def __len__(self) -> int:
        return sum(1 for _ in self.folder.glob("*/*.json")) if self.folder.is_dir() else 0
