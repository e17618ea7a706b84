"""Which password checks get a scrypt hash, and how soon: a login flood cannot make a
caller's own check wait behind it, nor take the cores from the callers playing.

Each hash costs ~40 ms of a core and 16 MiB.  Before one is spent (on a login, a sign-up,
or the dummy hash an unknown handle gets so that its answer takes as long):

- **a budget per network**: the address's prefix (/24 IPv4, /48 IPv6: the login pool's
  ``login_prefix_v4``/``_v6``) has a bucket of ``login_hashes_per_minute`` hashes, refilled
  evenly over a minute.  Empty, the check is refused with a plain line (:class:`HashRefused`)
  and nothing is hashed; it is not a failed login (no password was checked).  The budget is
  taken before the handle is looked up, so known and unknown handles are refused alike (no
  timing oracle).  A handle locked out from an address never gets this far (door/gate/guard.py).
- **two lanes**: a line's first check goes to the *first* lane, a thread at the event loop's
  own priority, unless FIRST_QUEUE checks already wait there or the lane has had its
  FIRST_PER_S hashes a second; every other check (the second try on a line, an overflow)
  goes to the *again* lane, a thread at niceness +10 that takes only what the callers
  playing leave.  A flood of wrong passwords on open lines therefore queues behind nobody's
  first try, and the hashing at the loop's priority stays under a fifth of a core
  (bench/soak.py: 300 callers logging in ~17 times a second took the cores from the keys).
- within each lane, waiting checks take turns **by prefix** (door/store/fair.py): one
  network's queue never stands in front of another's.

What a flood spread over many networks can still do: each network's first tries are cheap
to make (a new connection each), so hundreds of networks can keep the first lane full;
a caller's first check then overflows into the again lane and waits there, in turn with
every busy network — as OpenSSH's MaxStartups, the answer under such a flood is a slower
or refused login, never a stalled server: at most one thread hashes at full priority and
the again lane yields to the callers playing.  The lockouts (door/gate/guard.py) and the login
pool's early drop (door/gate/pool.py) bound what each address and network can send at all.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import NamedTuple

from .guard import prefix_of

FIRST, AGAIN = "first", "again"
"""The lanes: a line's first check (the loop's priority), the rest (niceness +10)."""
FIRST_QUEUE = 4
"""Checks waiting in the first lane before a first try goes to the again lane: a first try
waits for at most this many hashes ahead of it (~0.2 s on a free core)."""
FIRST_PER_S = 5.0
"""Hashes a second the first lane takes (~40 ms each: a fifth of a core), in bursts of as
many; past it first tries go to the again lane."""
REMEMBERED = 50_000
"""Networks whose buckets are kept before the full ones are forgotten (a full bucket is
what a network never seen has)."""


class HashRefused(Exception):
    """No hash for this check: its network has used its share this minute.  ``str()`` is
    the line for the caller."""


class Turn(NamedTuple):
    lane: str
    """FIRST or AGAIN."""
    who: str
    """The network whose turn the hash waits for."""


class HashBudget:
    """Per network, a bucket of ``per_minute`` hashes refilled over a minute (0: no limit);
    :meth:`turn` takes one and says in which lane the hash goes."""

    def __init__(self, per_minute: int = 0,
                 prefix: Callable[[str], str] = prefix_of,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute, self.prefix, self._clock = per_minute, prefix, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # prefix -> (tokens, when)
        self._first = (FIRST_PER_S, clock())  # the first lane's own bucket: (tokens, when)

    def turn(self, address: str, first: bool, first_waiting: int = 0) -> Turn:
        """The lane and turn of a check from ``address`` (``first``: the line's first
        check; ``first_waiting``: checks waiting in the first lane).  HashRefused when the
        network's bucket is empty: then nothing may be hashed."""
        who = self.prefix(address)
        if self.per_minute > 0:
            self._take(who)
        fast = first and first_waiting < FIRST_QUEUE and self._first_lane_free()
        return Turn(FIRST if fast else AGAIN, who)

    def _first_lane_free(self) -> bool:
        """Take one of the first lane's FIRST_PER_S hashes a second, if one is left."""
        now = self._clock()
        tokens = _refilled(self._first, now, FIRST_PER_S, FIRST_PER_S)
        if tokens < 1.0:
            self._first = (tokens, now)
            return False
        self._first = (tokens - 1.0, now)
        return True

    def tokens(self, address: str) -> float:
        """Hashes ``address``'s network may still have now (at most ``per_minute``)."""
        return self._level(self.prefix(address), self._clock())

    def _level(self, who: str, now: float) -> float:
        found = self._buckets.get(who)
        if found is None:
            return float(self.per_minute)
        return _refilled(found, now, self.per_minute / 60.0, self.per_minute)

    def _take(self, who: str) -> None:
        now = self._clock()
        tokens = self._level(who, now)
        if tokens < 1.0:
            wait = math.ceil((1.0 - tokens) * 60.0 / self.per_minute)
            raise HashRefused(f"Many logins from your network just now: please try again "
                              f"in {wait} s.")
        self._buckets[who] = (tokens - 1.0, now)
        if len(self._buckets) > REMEMBERED:
            self._forget_full(now)

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled up again (as if never seen); if a flood of
        networks keeps them all below full, the oldest half."""
        full = [who for who in self._buckets if self._level(who, now) >= self.per_minute]
        for who in full:
            del self._buckets[who]
        if len(self._buckets) > REMEMBERED:
            for who in list(self._buckets)[: REMEMBERED // 2]:
                del self._buckets[who]


def _refilled(bucket: tuple[float, float], now: float, per_s: float, most: float) -> float:
    """The tokens of a bucket ``(tokens, when)`` at ``now``, refilled at ``per_s``."""
    tokens, when = bucket
    return min(float(most), tokens + (now - when) * per_s)
