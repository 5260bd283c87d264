"""A password sign-in that survives a reload, for a bounded time, with nothing secret in the URL.

The dashboard keeps the signed-in role in a cookie the browser cannot read from a script
(HttpOnly, SameSite=Strict): a token signed with the data folder's key (rag.auth.session_key) and the
role's current password, so that it stops working when it expires, when the password changes, or
at sign-out (its id is revoked), and still works after the app restarts. The browser gets it by
trading a one-time ticket, valid a minute, that the page hands to its own origin in a POST body.

A second, longer cookie names the browser (a random id, signed, no rights attached): a reader
signed in with a shared password is that browser (rag.journal.readers.device_reader), and the
password throttle gives a browser that signed in before a bucket of its own (rag.auth.throttle).

Pure logic and the process's state (tickets, revocations); no web framework here. A book on a
data folder also writes its sign-outs there (rag.auth.session_revocations): a cookie signed out of
before a restart stays closed after it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
from pathlib import Path
from typing import Callable

from rag.auth.session_key import SessionKey, load
from rag.auth.session_revocations import RevocationFile

SESSION_COOKIE = "rag_session"
DEVICE_COOKIE = "rag_device"
TICKET_SECONDS = 60.0
DEVICE_SECONDS = 365 * 24 * 3600.0
MAX_TOKEN = 1000  # characters: anything longer is not ours

Passwords = Callable[[str], str | None]  # role -> that role's current password (None: not set)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SessionBook:
    """Tickets, signed session and device tokens, and revocations, for one process."""

    def __init__(self, secret: bytes | None = None, clock: Callable[[], float] = time.time) -> None:
        self._secret = secret or secrets.token_bytes(32)  # without one, this book's own: a restart voids it
        self.key: SessionKey | None = None  # where the secret is kept, and what is wrong with it (for_data_dir)
        self._revocations: RevocationFile | None = None  # the sign-outs kept for the next start (for_data_dir)
        self._clock = clock
        self._tickets: dict[str, tuple[str, float, float]] = {}  # ticket -> (role, lifetime, expires)
        self._revoked: dict[str, float] = {}  # session id -> when it would have expired
        self._issued: dict[str, tuple[str, float]] = {}  # ticket -> (session id, expires): revoke_ticket()
        self._devices: dict[str, str] = {}  # ticket -> the device token its page chose
        self._lock = threading.Lock()

    @classmethod
    def for_data_dir(cls, data_dir: Path | str, clock: Callable[[], float] = time.time) -> SessionBook:
        """The book signed with the key kept in `data_dir`: another book on the same folder (the app
        after a restart) accepts what this one signed, a book on another folder does not."""
        key = load(data_dir)
        book = cls(key.secret, clock)
        book.key = key
        if key.kept:  # with a key of this process alone, its sign-outs end with it too
            book._revocations = RevocationFile(data_dir)
            book._revoked.update(book._revocations.load(clock()))
        return book

    def _key(self, purpose: str, role: str, password: str) -> bytes:
        # The role's password is part of the key: changing it ends every session it opened.
        return hmac.new(self._secret, f"{purpose}\0{role}\0{password}".encode(), hashlib.sha256).digest()

    def _sign(self, payload: dict, key: bytes) -> str:
        body = _b64(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode("utf-8"))
        return f"{body}.{_b64(hmac.new(key, body.encode('ascii'), hashlib.sha256).digest())}"

    def _open(self, token: str | None) -> dict | None:
        """The payload of a well-formed token, signature not yet checked."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN or token.count(".") != 1:
            return None
        try:
            payload = json.loads(_unb64(token.split(".")[0]))
        except (ValueError, UnicodeDecodeError):
            return None
        return payload if isinstance(payload, dict) else None

    def _valid(self, token: str, key: bytes) -> bool:
        body, _, signature = token.partition(".")
        expected = _b64(hmac.new(key, body.encode("ascii"), hashlib.sha256).digest())
        return hmac.compare_digest(signature, expected)

    def ticket(self, role: str, lifetime: float, device: str | None = None) -> str:
        """A one-time ticket, valid TICKET_SECONDS, that redeem() trades for a session token.
        `device`: the device token the signing-in page already reads its reader by, for the
        route to set as the browser's cookie (ticket_device)."""
        ticket = secrets.token_urlsafe(32)
        now = self._clock()
        with self._lock:
            self._tickets = {k: v for k, v in self._tickets.items() if v[2] > now}
            self._tickets[ticket] = (role, lifetime, now + TICKET_SECONDS)
            if device:
                self._devices = {k: v for k, v in self._devices.items() if k in self._tickets}
                self._devices[ticket] = device
        return ticket

    def ticket_device(self, ticket: str) -> str | None:
        """The device token a live ticket carries (read before redeem(), which ends the ticket)."""
        with self._lock:
            return self._devices.get(ticket) if isinstance(ticket, str) and ticket in self._tickets else None

    def redeem(self, ticket: str, passwords: Passwords) -> tuple[str, int] | None:
        """The session token for a ticket and its lifetime in seconds; None for an unknown, used
        or expired ticket, or when the role's password is no longer set."""
        with self._lock:
            entry = self._tickets.pop(ticket, None) if isinstance(ticket, str) else None
        if entry is None or entry[2] <= self._clock():
            return None
        role, lifetime, _ = entry
        password = passwords(role)
        if not password:
            return None
        payload = {"p": "session", "r": role, "e": self._clock() + lifetime, "i": secrets.token_urlsafe(12)}
        with self._lock:
            now = self._clock()
            self._issued = {k: v for k, v in self._issued.items() if v[1] > now}
            self._issued[ticket] = (payload["i"], payload["e"])
        return self._sign(payload, self._key("session", role, password)), int(lifetime)

    def role(self, token: str | None, passwords: Passwords) -> str | None:
        """The role a session token still opens, or None (forged, expired, revoked, password changed)."""
        payload = self._open(token)
        if not payload or payload.get("p") != "session" or not isinstance(payload.get("r"), str):
            return None
        password = passwords(payload["r"])
        if not password or not self._valid(token, self._key("session", payload["r"], password)):
            return None
        expires = payload.get("e")
        if not isinstance(expires, (int, float)) or expires <= self._clock():
            return None
        written = self._revocations.changed() if self._revocations else None  # another process's sign-outs
        with self._lock:
            if written:
                self._revoked.update(written)
            if payload.get("i") in self._revoked:
                return None
        return payload["r"]

    def revoke(self, token: str | None, passwords: Passwords) -> None:
        """End a session token now, wherever the cookie still is (sign-out), after a restart too.
        Only a token this book would still open is recorded: anything else opens nothing already,
        and a forged one must not write to the data folder."""
        if self.role(token, passwords) is None:
            return
        payload = self._open(token) or {}
        self._end(payload["i"], float(payload["e"]))

    def _end(self, session_id: str, expires: float) -> None:
        now = self._clock()
        with self._lock:
            self._revoked = {k: v for k, v in self._revoked.items() if v > now}
            self._revoked[session_id] = expires
        if self._revocations:
            self._revocations.add(session_id, expires)

    def revoke_ticket(self, ticket: str | None) -> None:
        """End whatever a ticket gave or would give: the session that signed in with the form
        never saw its own cookie's token, only the ticket it handed over."""
        if not isinstance(ticket, str):
            return
        with self._lock:
            self._tickets.pop(ticket, None)
            issued = self._issued.pop(ticket, None)
        if issued:
            self._end(*issued)

    def device(self) -> str:
        """A new device token: a random browser id, signed, valid DEVICE_SECONDS."""
        payload = {"p": "device", "d": secrets.token_urlsafe(12), "e": self._clock() + DEVICE_SECONDS}
        return self._sign(payload, self._key("device", "", ""))

    def device_id(self, token: str | None) -> str | None:
        """The browser id of a valid device token, else None."""
        payload = self._open(token)
        if not payload or payload.get("p") != "device" or not self._valid(token, self._key("device", "", "")):
            return None
        expires = payload.get("e")
        if not isinstance(expires, (int, float)) or expires <= self._clock():
            return None
        return payload.get("d") if isinstance(payload.get("d"), str) else None
