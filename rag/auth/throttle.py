"""Slow down password guessing: after a few wrong passwords from one client, lock it out for a
while, longer each time, and log every failure.

Pure and process-wide: the dashboard keeps one Throttle for all sessions (a new browser tab must
not reset the count) and keys it by the account and the client (bucket()): the client's address,
taken from X-Forwarded-For only when the connection comes from a trusted proxy (client_address()),
and the browser when it proves it signed in here before (a device cookie). One client's wrong
guesses then lock out that client only: behind a proxy everyone shares its address, but a browser
that signed in before keeps a bucket of its own.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from typing import Callable, Sequence

log = logging.getLogger(__name__)

FREE_ATTEMPTS = 5  # wrong passwords allowed before the first lockout
BASE_LOCK = 30.0  # seconds of the first lockout, doubled at each further failure
MAX_LOCK = 15 * 60.0
MAX_CLIENTS = 10_000  # forget the oldest clients beyond this: memory stays bounded


class Throttle:
    def __init__(self, free_attempts: int = FREE_ATTEMPTS, base_lock: float = BASE_LOCK,
                 max_lock: float = MAX_LOCK, clock: Callable[[], float] = time.monotonic) -> None:
        self.free_attempts = free_attempts
        self.base_lock = base_lock
        self.max_lock = max_lock
        self.clock = clock
        self._failures: dict[str, tuple[int, float]] = {}  # client -> (failures in a row, locked until)
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """Seconds `client` must still wait before a password is even checked (0: go ahead)."""
        with self._lock:
            _, until = self._failures.get(client, (0, 0.0))
        return max(0.0, until - self.clock())

    def failure(self, client: str) -> float:
        """Record a wrong password; returns the lockout it starts (0 while attempts remain)."""
        with self._lock:
            count, _ = self._failures.pop(client, (0, 0.0))
            count += 1
            lock = 0.0
            if count >= self.free_attempts:
                lock = min(self.max_lock, self.base_lock * 2 ** (count - self.free_attempts))
            self._failures[client] = (count, self.clock() + lock)
            while len(self._failures) > MAX_CLIENTS:
                self._failures.pop(next(iter(self._failures)))
        if lock:
            log.warning("wrong password from %s (%d in a row): locked out for %.0f s", client, count, lock)
        else:
            log.warning("wrong password from %s (%d in a row)", client, count)
        return lock

    def success(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _trusted(address: str, trusted: Sequence[str]) -> bool:
    ip = _ip(address)
    return ip is not None and any(ip in ipaddress.ip_network(net, strict=False) for net in trusted)


def client_address(peer: str | None, forwarded_for: str | None, trusted: Sequence[str] = ()) -> str:
    """The client a connection stands for: the peer's address, unless the peer is a trusted proxy
    (RAG_TRUSTED_PROXIES; none by default, loopback included): then the right-most address of
    X-Forwarded-For that is not itself a trusted proxy. Anything a client writes to the left of
    what a trusted proxy appended is ignored, so a forged header never gives a new bucket."""
    peer = (peer or "").strip() or "unknown client"
    if not forwarded_for or not _trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if _ip(hop) is None:
            return peer  # a garbled header: the proxy's own address, not a free new bucket
        if not _trusted(hop, trusted):
            return str(_ip(hop))
    return peer


def connection_peer(reported: str | None, forwarded_for: str | None, server_rewrites: bool) -> str:
    """The peer's address as the web server reported it (None: loopback), undoing what a server
    that trusts X-Forwarded-For from loopback (uvicorn's default) may have put there: with such a
    header, an address taken from it stands for the loopback peer that sent it, not a new client."""
    peer = reported or "127.0.0.1"
    if server_rewrites and forwarded_for:
        hops = {hop.strip() for hop in forwarded_for.split(",")}
        if reported is None or reported in hops:
            return "127.0.0.1"
    return peer


def bucket(account: str, client: str, device: str | None = None) -> str:
    """The throttle key: the account tried, the client's address and, when the browser proves an
    earlier sign-in (a signed device cookie), that browser."""
    return f"{account}|{client}|{device or '-'}"
