"""Slow down password guessing: after a few wrong passwords from one client, lock it out for a
while, longer each time, and log every failure.

Pure and process-wide: the dashboard keeps one Throttle for all sessions (a new browser tab must
not reset the count) and keys it by the client's address.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

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
