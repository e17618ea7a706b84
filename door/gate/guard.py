"""The server's guard against password guessing: failed logins, counted so that a stranger
cannot aim a lockout at somebody else.

- A handle tried and failed ``attempts`` times **from one address** is locked from that
  address for the window: the guesser is stopped, the owner elsewhere is not.
- An address failing ``attempts`` × ADDRESS_FACTOR times on any handles is locked (one
  guesser trying many handles); only that address suffers.
- A handle failing ``attempts`` times **from anywhere** is never locked: each further check of
  it waits a backoff that doubles per failure up to BACKOFF_MAX_S.  Guessing from many
  addresses slows down; the owner's right password still gets in, after that wait.

It lives in the server's memory: it protects the server's CPU (every password check costs a
scrypt) and its callers.  The workers of ``serve --workers`` each keep the whole server's
record: each failure is told to the others through the supervisor (``publish``,
:meth:`LoginLimiter.apply`; door/serve/workers.py), so a guesser gets no more tries from N workers
than from one.  A restart forgets it, which only ever lets callers in.
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque
from collections.abc import Callable

ADDRESS_FACTOR = 4
"""An address is locked after this many times ``attempts`` failures on any handles."""
BACKOFF_BASE_S, BACKOFF_MAX_S = 1.0, 30.0
"""A handle's check waits 1, 2, 4 … seconds past ``attempts`` failures, at most 30."""
FAILED_LOGIN_PAUSE_S = 1.0
"""Seconds one connection waits after each wrong password (telnet screen and SSH alike)."""
REMEMBERED = 100_000
"""Keys remembered at once; a flood of random handles makes the oldest be forgotten."""
HANDLE_TOLD = 256
"""Characters of a handle told to the other workers (an SSH user name may be longer)."""


class LoginLimiter:
    """Failed logins per (handle, address), per address and per handle within ``window_s``.

    Handles are compared in lower case; addresses are what :func:`address_of` gives."""

    def __init__(self, attempts: int, window_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.attempts, self.window_s, self._clock = attempts, window_s, clock
        self._failures: dict[tuple[str, str], deque[float]] = {}
        self.publish: Callable[[list[str]], None] | None = None
        """Told each failure and success of this process (the other workers apply them)."""

    def _recent(self, key: tuple[str, str]) -> int:
        failures = self._failures.get(key)
        if failures is None:
            return 0
        now = self._clock()
        while failures and now - failures[0] > self.window_s:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return len(failures)

    def _add(self, key: tuple[str, str], keep: int, when: float) -> None:
        failures = self._failures.setdefault(key, deque(maxlen=keep))
        failures.append(when)

    def locked(self, handle: str, address: str) -> bool:
        """True when this handle may not be tried from this address (or nothing may)."""
        return (self._recent((handle.lower(), address)) >= self.attempts
                or self.address_locked(address))

    def address_locked(self, address: str) -> bool:
        return self._recent(("", address)) >= self.attempts * ADDRESS_FACTOR

    def backoff(self, handle: str) -> float:
        """Seconds to wait before checking a password for ``handle`` (0 most of the time)."""
        over = self._recent((handle.lower(), "")) - self.attempts
        if over < 0:
            return 0.0
        return min(BACKOFF_MAX_S, BACKOFF_BASE_S * (1 << min(over, 16)))  # 2 ** n, n >= 0

    def failed(self, handle: str, address: str) -> None:
        self._failed(handle, address, self._clock())
        if self.publish is not None:
            self.publish(["failed", handle[:HANDLE_TOLD], address])

    def _failed(self, handle: str, address: str, when: float) -> None:
        handle = handle.lower()
        self._add((handle, address), self.attempts, when)
        self._add(("", address), self.attempts * ADDRESS_FACTOR, when)
        self._add((handle, ""), self.attempts + 8, when)  # enough to reach BACKOFF_MAX_S
        if len(self._failures) > REMEMBERED:
            for key in list(self._failures)[: REMEMBERED // 2]:
                del self._failures[key]

    def succeeded(self, handle: str, address: str) -> None:
        """The right password: this handle from this address starts afresh.  The handle's
        count from everywhere is left to age out, or a guesser's owner would reset it."""
        self._failures.pop((handle.lower(), address), None)
        if self.publish is not None:
            self.publish(["succeeded", handle[:HANDLE_TOLD], address])

    def apply(self, event: list[str], age: float = 0.0) -> None:
        """Another worker's failure (or success), ``age`` seconds ago: as if it were ours
        (not published again).  Anything else is ignored."""
        if len(event) != 3 or not all(isinstance(part, str) for part in event):
            return
        kind, handle, address = event
        if kind == "failed":
            self._failed(handle, address, self._clock() - max(0.0, age))
        elif kind == "succeeded":
            self._failures.pop((handle.lower(), address), None)


def host_of(peer: str) -> str:
    """The IP address part of a ``host:port`` peer (IPv6 has colons of its own)."""
    host, sep, port = peer.rpartition(":")
    return host if sep and port.isdigit() else peer


def address_of(peer: str) -> str:
    """The address a ``host:port`` peer is counted under.

    IPv4 seen through an IPv6 socket (``::ffff:192.0.2.1``) is the IPv4 address; other IPv6
    addresses count by their /64 network, which is what one host or home usually holds."""
    host = host_of(peer)
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if not ip.is_loopback:
            return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def prefix_of(address: str, v4_bits: int = 24, v6_bits: int = 48) -> str:
    """The network an address (as :func:`address_of` gives it) is shared with in the login
    pool: its /24 for IPv4, /48 for IPv6 (what one site or customer usually holds).  A
    name that is no address is its own prefix."""
    if v4_bits == 24:  # the common case, asked at every accept: no parsing
        head, _, last = address.rpartition(".")
        if last.isdigit() and head.count(".") == 2 and head.replace(".", "").isdigit():
            return f"{head}.0/24"
    try:
        network = ipaddress.ip_network(address, strict=False)
    except ValueError:
        return address
    bits = v4_bits if network.version == 4 else v6_bits
    if network.prefixlen <= bits:
        return str(network)
    return str(network.supernet(new_prefix=bits))
