"""Files readable by the app's account only (0600, whatever the umask), written whole or not at
all: the sign-in key, the sign-outs, the journal's database before SQLite opens it, a collection's
metadata, the question sets, the enrichment cache, the posts `rag fetch` saves.

Each write goes to a new file of this process's own, is synced, then linked or renamed into place,
so another process never reads half of it; a write that fails (a full disk) leaves nothing behind.
Only an append (a log's line: the sign-outs, answers.jsonl) goes to the file itself.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

# The errors of a file system without hard links (FAT, some network shares): see link_new.
_NO_HARD_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK)


def write_new(path: Path, data: bytes, *, sync: bool = True) -> None:
    """`data` in a new owner-only file at `path` (FileExistsError when there is one), synced unless
    `sync` is false. When the write fails, the file is removed: a short file would read as damaged later."""
    descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    try:
        try:
            os.fchmod(descriptor, 0o600)  # whatever the umask
            _write_all(descriptor, data)
            try:
                if sync:
                    os.fsync(descriptor)
            except OSError as exc:
                if exc.errno not in (errno.EINVAL, errno.ENOTSUP):  # a file system without fsync: written all the same
                    raise
        finally:
            os.close(descriptor)
    except BaseException:  # an interrupted write too
        path.unlink(missing_ok=True)
        raise


def link_new(path: Path, data: bytes) -> None:
    """`data` in a new owner-only file at `path`; FileExistsError when there is one, or when another
    process made it first: of processes writing it at once, exactly one wins.

    The data is written whole to a file of this process's own, then linked to `path` (which fails
    when `path` exists): a process starting at the same moment never reads half of it, however long
    this one's write and fsync take on a busy disk. Where the file system has no hard links, the file
    is created at `path` directly (still only one wins, but a reader may find it before its bytes)."""
    if path.exists():
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path))
    own = _own(path)
    write_new(own, data)
    try:
        os.link(own, path)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
        write_new(path, data)  # no hard links here: O_EXCL on the file itself
    finally:
        own.unlink(missing_ok=True)


def replace(path: Path, data: bytes, *, sync: bool = True) -> None:
    """`path` holding `data` only, owner-only: written whole to a file of this process's own, then
    renamed over `path`, so a reader finds the old content or the new, never a mix. On an error
    `path` is left as it was. `sync=False` for what can be made again (a cache): a crash may then
    leave an empty file, but never half of one, and many writes do not wait for the disk."""
    own = _own(path)
    write_new(own, data, sync=sync)
    try:
        os.replace(own, path)
    except BaseException:
        own.unlink(missing_ok=True)
        raise


def create(path: Path) -> None:
    """An empty owner-only file at `path`, unless there is one (another process may make it at the
    same moment: both go on with the same file)."""
    try:
        write_new(path, b"")
    except FileExistsError:
        pass


def append(path: Path, data: bytes) -> None:
    """`data` added at the end of the owner-only file at `path`, made when absent. Not synced: an
    append is a line of a log, which a crash may cut (its reader skips a cut line). A file an
    older version left readable by other accounts is made owner-only first: it holds the same
    lines as the new ones."""
    create(path)
    descriptor = os.open(path, os.O_APPEND | os.O_WRONLY)
    try:
        if stat.S_IMODE(os.fstat(descriptor).st_mode) & 0o077:
            try:
                os.fchmod(descriptor, 0o600)
            except PermissionError:  # another account's file: appended to as before
                pass
        _write_all(descriptor, data)
    finally:
        os.close(descriptor)


def _write_all(descriptor: int, data: bytes) -> None:
    rest = memoryview(data)
    while rest:
        rest = rest[os.write(descriptor, rest):]


def _own(path: Path) -> Path:
    # Hidden beside `path` (same folder, so the same file system for link and rename), and unique to
    # this process and this call: two threads writing at once do not share it.
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
