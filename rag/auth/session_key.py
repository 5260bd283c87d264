"""The key that signs the sign-in cookies, kept in the data folder: after a restart (an update, a
reboot) every sign-in still holds, and every browser that signed in with a shared password is still
the same reader, its conversations still in its sidebar.

`$RAG_DATA_DIR/session.key` holds 32 random bytes, readable by the app's account only (0600),
made on first use and read at every later start. Two processes starting together agree: each
writes a key whole to a file of its own and links it to `session.key`, which only one link can make,
so the other reads the first one's key, never half of it.

A key file that cannot be used is never replaced behind the editor's back, and never ignored in
silence: the app still starts, on a key of its own process, and says what is wrong and what to do,
in the log at start and to editors in the sidebar (rag.auth.sessions.SessionBook.key). Until it is
fixed, sign-ins and shared-password readers' conversation lists do not survive a restart; nothing
else is lost (the conversations stay in the journal). That covers a damaged file (the wrong size),
an unreadable one, and a data folder where the key cannot be written (read-only, a full disk).
A key readable by other accounts is still used, made owner-only again, with a warning.
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.auth import owner_only
from rag.i18n import t

log = logging.getLogger(__name__)

KEY_FILE = "session.key"
KEY_BYTES = 32
# A key file younger than this and still short is being written by another process starting now:
# wait for it rather than call it damaged.
WRITING_S = 2.0


@dataclass(frozen=True)
class SessionKey:
    """The signing key and where it lives. `kept`: it is the file's, so what it signs survives a
    restart. `problem`: the message key and values of what is wrong with the file, if anything."""

    secret: bytes = field(repr=False)
    path: Path
    kept: bool = True
    problem: tuple[str, dict[str, str]] | None = None

    def message(self) -> str | None:
        """What is wrong with the key file and what to do, in the current language; None when all is well."""
        return t(self.problem[0], **self.problem[1]) if self.problem else None


def load(data_dir: Path | str) -> SessionKey:
    """The key of `data_dir`: read from its key file, or made and written there on first use.
    Never raises for the file's sake: a key file that cannot be used gives a key of this process,
    with the problem said (and logged)."""
    path = Path(data_dir) / KEY_FILE
    # The file may vanish between two steps (a starting process removed its partial write), or
    # never be there to read (a link to a missing file): a few tries, then that is the problem.
    key = _temporary(path, "session_key.unreadable", path=str(path), error=os.strerror(errno.ENOENT))
    for _ in range(3):
        try:
            key = SessionKey(_create(path), path)
        except FileExistsError:
            try:
                key = _read(path)
            except FileNotFoundError:
                continue
        except OSError as exc:
            key = _temporary(path, "session_key.cannot_write", folder=str(path.parent), error=_why(exc))
        break
    if key.problem:
        log.warning("%s", key.message())
    return key


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _temporary(where: Path, problem: str, **values: str) -> SessionKey:
    return SessionKey(secrets.token_bytes(KEY_BYTES), where, kept=False, problem=(problem, values))


def _create(path: Path) -> bytes:
    """A new key written to a new file at `path`; FileExistsError when another process made it first.

    Linked into place whole (rag.auth.owner_only.link_new): a process starting at the same moment never
    reads a half-written key. Where the file system has no hard links, the file is created at `path`
    directly and a reader waits for its bytes (`_read`)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError as exc:  # a file where the folder should be: not another process's key
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path.parent)) from exc
    secret = secrets.token_bytes(KEY_BYTES)
    owner_only.link_new(path, secret)  # a short key would read as damaged: none is left (a full disk)
    return secret


def _read(path: Path, tighten: bool = True) -> SessionKey:
    """The key of an existing file; FileNotFoundError when it is gone. `tighten`: a file readable
    by other accounts is made owner-only (False: only said, for a look without side effects)."""
    deadline = time.monotonic() + WRITING_S
    while True:
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO in its place must not hang
            try:
                info = os.fstat(descriptor)
                data = os.read(descriptor, KEY_BYTES + 1)
            finally:
                os.close(descriptor)
        except FileNotFoundError:
            raise
        except OSError as exc:
            return _temporary(path, "session_key.unreadable", path=str(path), error=_why(exc))
        size = info.st_size if stat.S_ISREG(info.st_mode) else len(data)
        young = stat.S_ISREG(info.st_mode) and time.time() - info.st_mtime < WRITING_S
        if len(data) < KEY_BYTES and young and time.monotonic() < deadline:
            time.sleep(0.05)  # another process created it a moment ago and is writing it
            continue
        if size != KEY_BYTES or len(data) != KEY_BYTES:
            return _temporary(path, "session_key.damaged", path=str(path), size=str(size), expected=str(KEY_BYTES))
        return SessionKey(data, path, problem=_owner_only(path, info) if tighten else _open_mode(path, info))


def _owner_only(path: Path, info: os.stat_result) -> tuple[str, dict[str, str]] | None:
    # Copied by hand or restored from a backup, the file may have lost its mode: made 0600 again.
    mode = stat.S_IMODE(info.st_mode)
    if not mode & 0o077:
        return None
    try:
        os.chmod(path, 0o600)
    except OSError:
        return "session_key.exposed", {"path": str(path), "mode": f"{mode:04o}"}
    return "session_key.tightened", {"path": str(path), "mode": f"{mode:04o}"}


def _open_mode(path: Path, info: os.stat_result) -> tuple[str, dict[str, str]] | None:
    mode = stat.S_IMODE(info.st_mode)
    return ("session_key.open_mode", {"path": str(path), "mode": f"{mode:04o}"}) if mode & 0o077 else None


def _writable_folder(folder: Path) -> OSError | None:
    """Why the key could not be made in `folder` (or the first folder of it that exists), else None."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(folder))
    return None


def inspect(data_dir: Path | str) -> dict[str, Any]:
    """What the app would make of `data_dir`'s key file at its next start, without making, reading
    out or changing anything (`rag status`): `state` is `kept` (sign-ins survive a restart),
    `missing` (made at the app's first start), `damaged`, `unreadable`, `cannot_write` (missing, and
    the folder is not writable) or `open_mode` (used, but readable by other accounts); `usable`
    whether sign-ins survive a restart with it; `problem` what is wrong and what to do, or None.
    Never the key itself."""
    path = Path(data_dir) / KEY_FILE
    result: dict[str, Any] = {"path": str(path), "state": "kept", "usable": True, "problem": None}
    if not os.path.lexists(path):
        why = _writable_folder(path.parent)
        if why is None:
            return {**result, "state": "missing"}
        key = _temporary(path, "session_key.cannot_write", folder=str(path.parent), error=_why(why))
    else:
        try:
            key = _read(path, tighten=False)
        except FileNotFoundError:  # a link to nothing
            key = _temporary(path, "session_key.unreadable", path=str(path), error=os.strerror(errno.ENOENT))
    if key.problem:
        state = {"session_key.open_mode": "open_mode", "session_key.cannot_write": "cannot_write",
                 "session_key.damaged": "damaged"}.get(key.problem[0], "unreadable")
        result.update(state=state, usable=key.kept, problem=key.message())
    return result
