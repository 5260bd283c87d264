"""A password sign-in that survives a reload, for a bounded time, with nothing secret in the URL.

The dashboard keeps the signed-in role in a cookie the browser cannot read from a script
(HttpOnly, SameSite=Strict): a token signed with the data folder's key (rag.auth.session_key) and the
role's current password, so that it stops working when it expires, when the password changes, or
at sign-out (its id is revoked), and still works after the app restarts. The browser gets it by
trading a one-time ticket, valid a minute, that the page hands to its own origin in a POST body.

A second, longer cookie names the browser (a random id, signed, no rights attached): a reader
signed in with a shared password is that browser with that password's role
(rag.journal.readers.device_reader), and the password throttle gives a browser a bucket of its own
for the accounts it signed in to (rag.auth.throttle).

The tokens are itsdangerous's timed, URL-safe signed payloads (HMAC-SHA256, the signing time
inside): forged or altered ones, and ones past their lifetime, fail its check.

Pure logic and the process's state (tickets, revocations); no web framework here. A book on a
data folder also writes its sign-outs there (rag.auth.session_revocations): a cookie signed out of
before a restart stays closed after it.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Callable

from itsdangerous import BadData, TimestampSigner, URLSafeTimedSerializer

from rag.auth.session_key import SessionKey, load
from rag.auth.session_revocations import RevocationFile

SESSION_COOKIE = "rag_session"
DEVICE_COOKIE = "rag_device"
TICKET_SECONDS = 60.0
DEVICE_SECONDS = 365 * 24 * 3600.0
MAX_TOKEN = 1000  # characters: anything longer is not ours

Passwords = Callable[[str], str | None]  # role -> that role's current password (None: not set)


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

    def _serializer(self, purpose: str, role: str = "", password: str = "") -> URLSafeTimedSerializer:
        # The role's password is part of the key (itsdangerous derives it from the secret and the
        # salt): changing it ends every session it opened. Time is the book's clock.
        clock = self._clock

        class Signer(TimestampSigner):
            def get_timestamp(self) -> int:
                return int(clock())

        return URLSafeTimedSerializer(self._secret, salt=f"{purpose}\0{role}\0{password}", signer=Signer,
                                      signer_kwargs={"digest_method": hashlib.sha256})

    def _claims(self, token: Any) -> dict | None:
        """What a token of ours says, signature not yet checked (it names the key to check it with)."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN:
            return None
        _, payload = self._serializer("").loads_unsafe(token)
        return payload if isinstance(payload, dict) else None

    def _open(self, token: str, purpose: str, role: str = "", password: str = "") -> tuple[dict, float] | None:
        """The payload of a token signed with this key and still within its lifetime (`l`, signed
        with it), and when it expires; None for anything else."""
        claims = self._claims(token)
        lifetime = claims.get("l") if claims else None
        if not isinstance(lifetime, (int, float)) or claims.get("p") != purpose:
            return None
        try:
            payload, signed = self._serializer(purpose, role, password).loads(
                token, max_age=lifetime, return_timestamp=True)
        except BadData:
            return None
        return payload, signed.timestamp() + lifetime

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
        lifetime = int(lifetime)
        payload = {"p": "session", "r": role, "l": lifetime, "i": secrets.token_urlsafe(12)}
        with self._lock:
            now = self._clock()
            self._issued = {k: v for k, v in self._issued.items() if v[1] > now}
            self._issued[ticket] = (payload["i"], now + lifetime)
        return self._serializer("session", role, password).dumps(payload), lifetime

    def role(self, token: str | None, passwords: Passwords) -> str | None:
        """The role a session token still opens, or None (forged, expired, revoked, password changed)."""
        opened = self._session(token, passwords)
        return opened[0]["r"] if opened else None

    def _session(self, token: str | None, passwords: Passwords) -> tuple[dict, float] | None:
        claims = self._claims(token)
        role = claims.get("r") if claims else None
        password = passwords(role) if isinstance(role, str) else None
        if not password:
            return None
        opened = self._open(token, "session", role, password)
        if opened is None or opened[0].get("r") != role:
            return None
        written = self._revocations.changed() if self._revocations else None  # another process's sign-outs
        with self._lock:
            if written:
                self._revoked.update(written)
            if opened[0].get("i") in self._revoked:
                return None
        return opened

    def revoke(self, token: str | None, passwords: Passwords) -> None:
        """End a session token now, wherever the cookie still is (sign-out), after a restart too.
        Only a token this book would still open is recorded: anything else opens nothing already,
        and a forged one must not write to the data folder."""
        opened = self._session(token, passwords)
        if opened is not None:
            self._end(str(opened[0]["i"]), opened[1])

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
        return self._serializer("device").dumps({"p": "device", "d": secrets.token_urlsafe(12),
                                                  "l": int(DEVICE_SECONDS)})

    def device_id(self, token: str | None) -> str | None:
        """The browser id of a valid device token, else None."""
        opened = self._open(token, "device") if isinstance(token, str) else None
        device = opened[0].get("d") if opened else None
        return device if isinstance(device, str) else None
