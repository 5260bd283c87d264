"""Run a function as an account other than the journal's owner, to see what it can read."""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any, Callable

NOBODY = 65534


def as_another_account(folder: Path, action: Callable[[], Any]) -> str:
    """`action`'s result or exception, as text, run as another account.

    As root (CI containers), a forked child drops to `nobody`; otherwise the owner's own permissions
    are taken away from `folder` while the action runs.
    """
    if os.getuid() != 0:
        mode = folder.stat().st_mode
        os.chmod(folder, 0)
        try:
            return _run(action)
        finally:
            os.chmod(folder, mode)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to nobody, run, report through the pipe
        os.close(read)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            text = f"ok {action()!r}"
        except BaseException as exc:  # noqa: BLE001 - the parent reads it
            text = f"{type(exc).__name__}: {exc}"
        os.write(write, pickle.dumps(text))
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    return pickle.loads(b"".join(chunks))


def _run(action: Callable[[], Any]) -> str:
    try:
        return f"ok {action()!r}"
    except Exception as exc:  # noqa: BLE001 - the caller reads it
        return f"{type(exc).__name__}: {exc}"
