"""The server's guards against abuse: failed-login lockouts and connections per address.

Both live in the server process's memory: they protect this process's CPU (every password
check costs a scrypt) and nodes.  A restart forgets them, which only ever lets callers in.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Callable


class LoginLimiter:
    """``attempts`` failed logins within ``window_s`` locks the key (an address, or a handle
    in lower case) for ``window_s`` seconds from the last failure."""

    def __init__(self, attempts: int, window_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.attempts, self.window_s, self._clock = attempts, window_s, clock
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        now = self._clock()
        failures = self._failures.get(key)
        if failures is None:
            return deque()
        while failures and now - failures[0] > self.window_s:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def locked(self, *keys: str) -> bool:
        return any(len(self._recent(k)) >= self.attempts for k in keys if k)

    def failed(self, *keys: str) -> None:
        now = self._clock()
        for key in keys:
            if key:
                failures = self._failures.setdefault(key, deque(maxlen=self.attempts))
                failures.append(now)
        if len(self._failures) > 100_000:  # a flood of random handles: forget the old ones
            for key in list(self._failures)[:50_000]:
                self._recent(key)

    def succeeded(self, *keys: str) -> None:
        for key in keys:
            self._failures.pop(key, None)


class AddressCap:
    """At most ``limit`` connections at once from one IP address (or the ``limit`` given for
    that connection: a member board's address carries all of its callers)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = defaultdict(int)

    def enter(self, address: str, limit: int | None = None) -> bool:
        if self._open[address] >= (self.limit if limit is None else limit):
            return False
        self._open[address] += 1
        return True

    def leave(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]


def address_of(peer: str) -> str:
    """The IP address part of a ``host:port`` peer (IPv6 has colons of its own)."""
    host, sep, port = peer.rpartition(":")
    return host if sep and port.isdigit() else peer
