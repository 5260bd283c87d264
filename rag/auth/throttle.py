"""Slow down password guessing: after a few wrong passwords from one client, lock it out for a
while, longer each time, and log every failure.

Pure and process-wide: the dashboard keeps one Throttle for all sessions (a new browser tab must
not reset the count) and keys it by the account and the client (bucket()): the client's address,
taken from X-Forwarded-For only when the connection comes from a trusted proxy (client_address()),
and the browser when it proves it signed in here before (a device cookie). One client's wrong
guesses then lock out that client only: behind a proxy everyone shares its address, but a browser
that signed in before keeps a bucket of its own.

Each account (the reader password, the editor password) has its own count (sign_in()): a right
reader password never clears the wrong guesses made at the editor's, so one password cannot buy
unlimited guesses at the other.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from dataclasses import dataclass
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
        self._proven: dict[str, set[str]] = {}  # device -> the accounts it signed in to
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

    def prove(self, device: str | None, account: str) -> None:
        """Remember that `device` (a browser's id) signed in to `account`."""
        if not device:
            return
        with self._lock:
            self._proven.setdefault(device, set()).add(account)
            while len(self._proven) > MAX_CLIENTS:
                self._proven.pop(next(iter(self._proven)))

    def carry(self, old: str | None, new: str | None) -> None:
        """A browser given a new id (at a sign-out) keeps what it proved under the old one."""
        if not old or not new:
            return
        with self._lock:
            accounts = self._proven.get(old)
        for account in accounts or ():
            self.prove(new, account)

    def proven(self, device: str | None, account: str) -> bool:
        """Whether `device` signed in to `account` in this process (a restart forgets: the browser
        then shares its address's bucket until it signs in again)."""
        with self._lock:
            return bool(device) and account in self._proven.get(device or "", set())


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


def forwarded_https(peer: str | None, forwarded_proto: str | None, trusted: Sequence[str] = ()) -> bool:
    """True when a trusted proxy (RAG_TRUSTED_PROXIES) says the browser reached it over https
    (X-Forwarded-Proto, its right-most value: the one the proxy nearest to us wrote). From anyone
    else the header is ignored: a client cannot make a cookie Secure or not by writing it."""
    if not forwarded_proto or not _trusted((peer or "").strip(), trusted):
        return False
    return forwarded_proto.split(",")[-1].strip().lower() == "https"


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


@dataclass(frozen=True)
class SignIn:
    """What a typed password did: the account it opened (None: none), else how long the locked
    accounts still wait (0: none is locked) and the lockout this guess started (0: none)."""

    account: str | None
    wait: float = 0.0
    started: float = 0.0


def sign_in(throttle: Throttle, accounts: Sequence[str], client: str, device: str | None,
            opens: Callable[[str], bool]) -> SignIn:
    """Try a password on each of `accounts` not locked out for this client; `opens(account)`:
    whether it is that account's password. `device`: the browser's id when it proves an earlier
    sign-in (a signed device cookie), else None.

    A guess that opens nothing counts against every account it was tried on; one that opens an
    account clears that account's count only. A locked account's password is still checked, so that
    the time taken says nothing, but never opens it: while any account is locked, a wrong guess and
    the locked account's right password get the same answer. A browser has a bucket of its own only
    for the accounts it signed in to: the reader password never buys fresh guesses at the editor's."""
    buckets = {account: bucket(account, client, device if throttle.proven(device, account) else None)
               for account in accounts}
    tried = [account for account, key in buckets.items() if throttle.wait(key) <= 0]
    matches = {account: opens(account) for account in buckets}  # every one, whatever is locked
    for account in tried:
        if matches[account]:
            throttle.success(buckets[account])
            throttle.prove(device, account)
            return SignIn(account)
    started = max((throttle.failure(buckets[account]) for account in tried), default=0.0)
    return SignIn(None, max((throttle.wait(key) for key in buckets.values()), default=0.0), started)
