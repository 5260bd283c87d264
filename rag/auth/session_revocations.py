"""The sign-outs a restart must not forget. The cookies' key is kept across restarts
(rag.auth.session_key), so a session token signed out of before a restart would open again after it:
each revoked session id is written, with when its token would have expired anyway, to
`$RAG_DATA_DIR/session.revoked` (owner-only), read at start and again whenever another process on
the same folder wrote to it. Lines past their expiry are dropped at start.

A file that cannot be written or read is said in the log with what to do; the sign-out still holds
in this process.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from rag.auth import owner_only
from rag.i18n import t

log = logging.getLogger(__name__)

REVOKED_FILE = "session.revoked"
MAX_BYTES = 1_000_000  # tens of thousands of sign-outs: a month's at most, as tokens last 30 days at most


class RevocationFile:
    """The revoked session ids of one data folder: {id: when its token expires}."""

    def __init__(self, data_dir: Path | str) -> None:
        self.path = Path(data_dir) / REVOKED_FILE
        self._seen: tuple[int, int] | None = None  # (mtime_ns, size) of what was last read

    def _stamp(self) -> tuple[int, int] | None:
        try:
            info = self.path.stat()
        except OSError:
            return None
        return info.st_mtime_ns, info.st_size

    def _text(self) -> str:
        """The file's text, empty when there is none; OSError when it cannot be read."""
        try:
            with self.path.open("rb") as file:
                return file.read(MAX_BYTES).decode("ascii", errors="replace")
        except FileNotFoundError:
            return ""

    def _read(self) -> dict[str, float]:
        try:
            return _parse(self._text())
        except OSError as exc:
            log.warning("%s", t("session_key.revoked_unreadable", path=str(self.path), error=exc.strerror or exc))
            return {}

    def inspect(self, now: float) -> dict[str, Any]:
        """The saved sign-outs, without changing the file (`rag status`): `in_force`, how many
        tokens it still refuses (None when it cannot be read), and `problem`, what to do then."""
        try:
            live = sum(1 for expires in _parse(self._text()).values() if expires > now)
        except OSError as exc:
            return {"path": str(self.path), "in_force": None,
                    "problem": t("session_key.revoked_unreadable", path=str(self.path), error=exc.strerror or exc)}
        return {"path": str(self.path), "in_force": live, "problem": None}

    def load(self, now: float) -> dict[str, float]:
        """The ids still to refuse; the file rewritten without the expired ones."""
        self._seen = self._stamp()
        every = self._read()
        live = {k: v for k, v in every.items() if v > now}
        if len(live) < len(every):
            try:
                owner_only.replace(self.path, "".join(f"{k} {v:.0f}\n" for k, v in live.items()).encode("ascii"))
                self._seen = self._stamp()
            except OSError:
                pass  # kept as it was: expired lines are harmless
        return live

    def changed(self) -> dict[str, float] | None:
        """What the file holds when another process wrote to it since it was last read, else None."""
        stamp = self._stamp()
        if stamp == self._seen:
            return None
        self._seen = stamp
        return self._read()

    def add(self, session_id: str, expires: float) -> None:
        """Write one sign-out; a failure is logged (the sign-out then holds until the app restarts)."""
        try:
            owner_only.append(self.path, f"{session_id} {expires:.0f}\n".encode("ascii"))
        except OSError as exc:
            log.warning("%s", t("session_key.revoked_unwritable", path=str(self.path), error=exc.strerror or exc))
        # _seen is left as it was: the next changed() reads the file again, with whatever another
        # process wrote meanwhile.


def _parse(text: str) -> dict[str, float]:
    revoked: dict[str, float] = {}
    for line in text.splitlines():
        parts = line.split()
        try:
            if len(parts) == 2:
                revoked[parts[0]] = float(parts[1])
        except ValueError:
            continue  # a line cut short by a full disk: the others still count
    return revoked
