"""Data folders written before the embedded store moved to Qdrant Edge: found and moved to Edge.

Before, $RAG_DATA_DIR/qdrant held qdrant-client's local mode: `meta.json` (the collections'
settings and metadata), `collection/NAME/storage.sqlite` (the points) and its `.lock`. When the
embedded store opens such a folder, every collection is copied into Edge shards (ids, vectors,
payload, metadata and indexes unchanged; every count checked), the old files are moved to a
backup folder beside it, and a message says where. Nothing is deleted.

Crash safety: the shards are built in a staging folder, marked complete, and only then swapped
in; a run stopped before the mark starts over, a run stopped after it finishes the swap.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from datetime import datetime, UTC
from pathlib import Path
from typing import Any, Callable

from rag.i18n import t
from rag.errors import StoreError
from rag.store.collection_meta import fsync_dir
from rag.store.edge_store import EdgeBackend, check_name

OLD_ENTRIES = ("meta.json", "collection", ".lock")  # what qdrant-client's local mode writes
COMPLETE = "UPGRADE_COMPLETE"


@dataclass
class UpgradeReport:
    folder: str
    backup: str
    collections: dict[str, int] = field(default_factory=dict)  # name -> points

    def message(self) -> str:
        points = sum(self.collections.values())
        names = ", ".join(f"{n} ({p} points)" for n, p in sorted(self.collections.items())) or t("store.no_collection_at_all")
        return t("store.upgraded", path=self.folder, names=names, points=points, backup=self.backup)


def is_local_mode(folder: Path) -> bool:
    return (folder / "meta.json").is_file()


def staging_dir(folder: Path) -> Path:
    return folder.with_name(folder.name + ".upgrading")


def _tell(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def upgrade_local_mode(backend: EdgeBackend, open_store: Callable[[Any], Any],
                       say: Callable[[str], None] = _tell) -> UpgradeReport | None:
    """Move a local-mode folder under `backend` (held by this process) to Edge; None if none was there.

    `open_store(backend)` wraps a backend in the store facade (rag.store.store, which calls this:
    given, not imported, so that the two modules do not import each other)."""
    root = backend.root
    staging = staging_dir(root)
    if (staging / COMPLETE).is_file():
        return _finish(backend, _swap(root, staging), say)  # a previous upgrade stopped after its copy
    if not is_local_mode(root):
        return None
    if staging.exists():
        shutil.rmtree(staging)  # an upgrade stopped while copying: start over from the old files
    # Imported only for a folder to move: qdrant-client takes a second to import.
    from rag.store.migrate import copy_collection
    from rag.store.server_store import QdrantClientBackend

    say(t("store.upgrading", path=root))
    old = QdrantClientBackend(path=root)
    try:
        names = old.list_collections()
        for name in names:
            try:
                check_name(name)
            except StoreError as exc:
                raise StoreError(f"{exc} " + t("store.old_name", path=root, name=repr(name))) from None
        staged = EdgeBackend(staging)
        try:
            src, dst = open_store(old), open_store(staged)
            for name in names:
                copy_collection(src, dst, name, batch=512)
        finally:
            staged.close()
    finally:
        old.close()
    (staging / COMPLETE).write_text("copied\n", encoding="utf-8")
    fsync_dir(staging)
    return _finish(backend, _swap(root, staging), say)


def _finish(backend: EdgeBackend, report: UpgradeReport, say: Callable[[str], None]) -> UpgradeReport:
    report.collections = {name: backend.points_count(name) for name in backend.list_collections()}
    backend.upgraded = report
    say(report.message())
    return report


def _swap(root: Path, staging: Path) -> UpgradeReport:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    backup = root.with_name(f"{root.name}-local-mode-backup-{stamp}")
    old_entries = [root / n for n in OLD_ENTRIES if (root / n).exists()]
    if old_entries:
        backup.mkdir(parents=True)
        for entry in old_entries:
            entry.rename(backup / entry.name)
        fsync_dir(backup)
    else:
        existing = sorted(root.parent.glob(f"{root.name}-local-mode-backup-*"))
        backup = existing[-1] if existing else backup
    report = UpgradeReport(folder=str(root), backup=str(backup))
    for entry in sorted(staging.iterdir()):
        if entry.name == COMPLETE:
            continue
        target = root / entry.name
        if target.exists():
            raise StoreError(t("store.move_blocked", target=target, staging=staging))
        entry.rename(target)
    fsync_dir(root)
    shutil.rmtree(staging)
    staging.with_name(staging.name + ".lock").unlink(missing_ok=True)
    return report
