"""One process at a time on an embedded store: an OS lock taken before any shard is opened.

Qdrant Edge has a lock of its own, but reaching it is already harmful: a second process that
opens a shard fails with `Can't init WAL: Kind(WouldBlock)`, and the owner's next flush then
fails too. So the second process must stop at our lock and never touch the shards. The lock is
`flock` on a file beside the store folder; the kernel drops it when the holder dies, even by
SIGKILL, so a crashed process never leaves the store locked. The file holds the holder's pid,
only to name it in the message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from rag.i18n import t
from rag.errors import StoreError


def lock_path(store_dir: Path) -> Path:
    return store_dir.with_name(store_dir.name + ".lock")


def held_message(store_dir: Path, pid: str | None) -> str:
    who = t("store.process", pid=pid) if pid else t("store.another_process")
    return t("store.held", path=store_dir, who=who)


class StoreLock:
    """An exclusive, non-blocking lock on `store_dir`, held until `release()` or process exit."""

    def __init__(self, store_dir: Path) -> None:
        self.store_dir = store_dir
        self.path = lock_path(store_dir)
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:  # a file where a folder should be, a folder this account cannot write
            raise StoreError(t("store.no_folder", path=self.store_dir, error=exc.strerror or exc)) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or None
            os.close(fd)
            raise StoreError(held_message(self.store_dir, holder)) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)
        finally:
            os.close(fd)  # closing the descriptor drops the flock
