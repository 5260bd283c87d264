"""Room on the disk before the embedded store writes: a full disk must be an error, not a crash.

Qdrant Edge maps its files into memory, and most of them are sparse (a new collection reserves
about 150 MB of 32 MB pages that take a few hundred kilobytes on disk). Writing into such a page
when the disk has no block left for it is a SIGBUS: the process dies at once, the dashboard with
it, for every reader. So each write goes ahead only when the disk has room for every hole the
store's files may still fill, for what this write adds, and for a reserve (RAG_MIN_FREE_MB) that
other programs on the disk may take meanwhile.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from rag.errors import StoreError
from rag.i18n import t

MB = 1024 * 1024
# What the files of a new, empty collection may fill: their apparent size, measured with
# qdrant-edge 0.9.0 (154 MB: two 32 MB write-ahead log files, 32 MB payload and sparse pages, the
# payload indexes' 4 MB pages), rounded up.
NEW_COLLECTION_BYTES = 160 * MB
# Written per point beyond its vectors and payload (write-ahead log, indexes, id maps), with room.
POINT_OVERHEAD_BYTES = 4096
DEFAULT_MIN_FREE_MB = 100


class DiskFullError(StoreError):
    """The disk has too little free space for a write; nothing of it was written."""


def holes(folder: Path) -> int:
    """Bytes the files under `folder` may still take on disk: their size beyond their blocks."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                info = os.stat(os.path.join(root, name))
            except OSError:
                continue  # removed meanwhile
            total += max(0, info.st_size - info.st_blocks * 512)
    return total


def free_bytes(folder: Path) -> int:
    """Free bytes on the disk holding `folder` (its nearest existing parent)."""
    path = Path(folder)
    while not path.exists() and path != path.parent:
        path = path.parent
    return shutil.disk_usage(path).free


def check_room(folder: Path, needed: int, min_free: int) -> None:
    """Raise DiskFullError unless the disk of `folder` has `needed` bytes free beyond `min_free`."""
    free = free_bytes(folder)
    if free - needed < min_free:
        raise DiskFullError(t(
            "store.disk_full", path=folder, free=round(free / MB), needed=max(1, round(needed / MB)),
            reserve=round(min_free / MB),
        ))


def write_size(dimension: int, payload_chars: int, points: int) -> int:
    """A generous estimate of what writing `points` points adds to the disk."""
    return points * (dimension * 4 * 2 + POINT_OVERHEAD_BYTES) + payload_chars * 4
