"""The login pool: connections that have not logged in yet, kept apart from the game nodes.

A connection takes a node only once its caller has logged in.  Until then it waits in this
pool, which has caps and clocks of its own, so that connections that send nothing cost a
slot here for seconds, never a node, and so that a flood of them cannot keep a caller out:

- at most ``max_per_address`` connections at once from one address, logging in or playing,
  and ``per_address`` of them logging in (for the whole server: door/gate/address_counts.py);
- at most ``size`` connections logging in overall;
- a connection that has sent nothing after ``first_byte_s`` is hung up, and one that has not
  logged in after ``login_s`` too.

Each connection has a standing: *silent* (nothing received), *heard* (something received:
telnet negotiation, an SSH key exchange) or *typed* (keys: data at the prompt, a password).
A typed connection is never hung up to make room.  When a cap is reached, room is made:

- **an address's own cap**: its oldest silent connection goes, else its oldest heard one;
- **the whole pool**: connections are counted by address prefix (/24 IPv4, /48 IPv6).  A
  prefix holding more than ``per_address`` is *crowded*, and the most crowded loses first;
  among prefixes alike, the one with the greatest *penalty* (+1 for each of its connections
  dropped without logging in, at most PENALTY_MOST; -CREDIT when one of its callers logs
  in; halved every PENALTY_HALF_LIFE_S); then a silent connection before a heard one, the
  oldest first.  A newcomer whose own prefix stands worse than every connection that could
  go is refused instead (its penalty counts from PENALIZED): a crowded prefix loses its own.
- **early drop**, as OpenSSH's MaxStartups ``start:rate:full``: once the pool is ``start``
  full, a newcomer from a prefix penalized PENALIZED or more is refused with a probability
  growing from ``rate`` to 1 at ``full``.  A flood's prefixes are penalized as soon as their
  connections are dropped, so most of a flood is refused at once, cheaply, before any telnet
  or SSH work, while a prefix that has not misbehaved is never refused by chance.

What a flood spread over many prefixes can still do is in docs/sysop-standalone.md.

How a listener uses it (telnet and SSH do; the web and RLogin too)::

    try:
        ticket = pool.admit(address_of(peer), peer, hang_up)  # at accept, before any work
    #   (limit=N: N per address instead of the caps, for an address vouched for)
    except Refused as exc:
        ...write str(exc) as one line, close the connection...
    ticket.heard()          # on any byte received (SSH: once authentication begins)
    ticket.typed()          # on keys: data, not protocol (SSH: a password, a session)
    terminal.ticket = ticket  # Door.run takes it from there: logged_in() when given a node
    ticket.close()          # when the connection is gone (idempotent)

``hang_up(reason)`` is called by the pool, at most once: the listener writes ``reason`` as one
line if it can and closes the connection, which then reaches ``ticket.close()`` as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import NamedTuple

from .address_counts import OPEN, WAITING, Counts, LocalCounts
from .guard import prefix_of

log = logging.getLogger(__name__)

TOO_MANY_FROM_ADDRESS = "Too many connections from your address: please hang up another one first."
TOO_MANY_LOGGING_IN = "Too many connections from your address are logging in: finish one first."
POOL_FULL = "The door is busy with callers logging in. Please call again in a minute."
SILENT = "Nothing received: goodbye."
LOGIN_TIMED_OUT = "Login timed out."
HELD_RECHECK_S = 1.0
"""How soon the login clock looks again at a connection the server was working for."""
MADE_ROOM = "Room was needed for a caller, and nothing was typed on this line: goodbye."

SILENT_STANDING, HEARD, TYPED = 0, 1, 2
PENALTY_HALF_LIFE_S = 30.0
"""A prefix's penalty (connections dropped without logging in) halves in this time ..."""
PENALIZED = 3.0
"""... and early drop applies to it from this value (three drops within about a half-life):
a caller dropped once or twice, at the very start of a flood, is not refused for it ..."""
PENALTY_MOST = 4.0
"""... and it grows no higher than this: a network is early-dropped for 12 s at most after
its drops stop, however many came at once (a caller redialling through the first second
of a flood, before the flood's own networks have penalties); and a network one of whose
callers logs in is credited at once (CREDIT)."""
CREDIT = 4.0
"""A network one of whose callers logs in is credited this much (:meth:`LoginPool._forgive`):
it decays as penalties do, and four drops take it back to 0."""
PENALTIES_KEPT = 50_000
"""Prefixes remembered at once; past it the smallest penalties are forgotten."""
HEAP_SLACK = 64
"""Stale entries the heap of prefixes may hold past four per prefix before it is rebuilt."""
REPORT_S = 60.0
"""The pool's one summary line comes at most this often (what a flood did, in numbers)."""
REPORT_EACH = 5
"""Drops and refusals of each kind logged one by one in a report period before the rest
are only counted."""


class EarlyDrop(NamedTuple):
    """OpenSSH's MaxStartups ``start:rate:full``, as fractions of the pool."""

    start: float = 0.5
    rate: float = 0.3
    full: float = 1.0

    def chance(self, fill: float) -> float:
        """The probability of refusing a newcomer from a penalized prefix."""
        if fill < self.start:
            return 0.0
        if fill >= self.full:
            return 1.0
        return self.rate + (1 - self.rate) * (fill - self.start) / (self.full - self.start)


EARLY_DROP = EarlyDrop()


class Refused(Exception):
    """The pool has no room for this connection; ``str()`` is the line for the caller."""


class Ticket:
    """One connection's place, from accept until it is gone: in the pool until logged in,
    then counted against its address only."""

    def __init__(self, pool: LoginPool, address: str, prefix: str, peer: str,
                 hang_up: Callable[[str], None]) -> None:
        self.pool, self.address, self.prefix, self.peer = pool, address, prefix, peer
        self._hang_up: Callable[[str], None] | None = hang_up
        self.since = pool.clock()
        pool._admitted += 1
        self.seq = pool._admitted
        """Admission order: the oldest is dropped first, among lines alike."""
        self.standing = SILENT_STANDING
        self.waiting = True  # in the pool: not logged in yet
        self.closed = False
        self.dropped = False  # hung up by the pool
        self.sessions = 0  # sessions started on this connection (SSH may ask for several)
        self.held = 0  # the server is working for the caller (hashing a password): see hold
        self._timer: asyncio.TimerHandle | None = None

    @property
    def silent(self) -> bool:
        """Nothing received yet."""
        return self.standing == SILENT_STANDING

    def heard(self) -> None:
        """Something came from the caller: no longer a silent connection."""
        if self.standing == SILENT_STANDING:
            self.pool._promote(self, HEARD)

    def typed(self) -> None:
        """Keys came from the caller: never hung up to make room."""
        if self.standing != TYPED:
            self.pool._promote(self, TYPED)

    def logged_in(self) -> None:
        """The caller is in (and on a node): out of the pool and its clocks."""
        if self.waiting and not self.closed:
            self.pool._leave_pool(self)
            self.waiting = False
            self.pool.counts.logged_in(self.address)
            self.pool._forgive(self.prefix)

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """The server works for the caller (checks a password, creates an account): the
        login clock stops meanwhile.  ``login_s`` is the caller's time to log in; on a
        crowded machine hashing a password may take seconds, and a caller who has typed
        everything must not be hung up for the server's slowness."""
        started = self.pool.clock()
        self.held += 1
        try:
            yield
        finally:
            self.held -= 1
            self.since += self.pool.clock() - started

    def close(self) -> None:
        """The connection is gone: its place is free.  Safe to call more than once.

        The listener's hang-up goes too: it holds the connection, which holds this ticket,
        and kept, the two made a reference cycle that left every ended call for the
        server's full collection (door/serve/collector.py)."""
        self._hang_up = None
        if not self.closed:
            self.closed = True
            self.pool._forget(self)

    def hang_up(self, reason: str) -> None:
        """Have the listener drop this connection, saying ``reason``; frees the place now."""
        hang_up = self._hang_up
        if self.closed or hang_up is None:
            return
        self.pool._dropped(self, reason)
        self.dropped = True
        self.close()
        try:
            hang_up(reason)
        except Exception as exc:  # the connection may be half gone already
            log.debug("%s: hang-up: %s", self.peer, exc)


class _Prefix:
    """The connections of one prefix in the pool: how many, and those that may be dropped
    for room (silent, then heard), oldest first; ``version`` tells its current entry in the
    pool's heap from stale ones."""

    __slots__ = ("count", "heard", "heard_order", "silent", "version")

    def __init__(self) -> None:
        self.count = 0
        self.silent: dict[Ticket, None] = {}  # in the order they came
        self.heard: dict[Ticket, None] = {}
        self.heard_order: list[tuple[int, Ticket]] = []
        """The heard ones by admission number (a heap; those no longer heard are skipped)."""
        self.version = 0

    def add_heard(self, ticket: Ticket) -> None:
        self.heard[ticket] = None
        heapq.heappush(self.heard_order, (ticket.seq, ticket))

    def first_droppable(self) -> Ticket | None:
        for ticket in self.silent:
            return ticket
        order = self.heard_order
        while order:
            ticket = order[0][1]
            if ticket in self.heard:
                return ticket
            heapq.heappop(order)
        return None


Score = tuple[int, float]
"""A penalty as :meth:`Penalties.score` gives it: (its sign, how far from 0)."""
CLEAN: Score = (0, 0.0)


class Penalties:
    """Per prefix, connections dropped without logging in (+1 each, at most PENALTY_MOST)
    less a credit when one of its callers logs in (the value becomes -CREDIT), decaying
    towards 0: halved every ``half_life`` seconds.

    Every value decays at the same pace and keeps its sign, so their order never changes
    with time alone: :meth:`score` (the sign, then the logarithm of the size plus the time
    over the half-life, turned round below 0) orders prefixes as their values do at any
    moment, and changes only when one is added to or credited."""

    def __init__(self, half_life: float, clock: Callable[[], float]) -> None:
        self.half_life, self.clock = half_life, clock
        self._values: dict[str, tuple[float, float]] = {}  # prefix -> (value, when)

    def value(self, prefix: str, now: float | None = None) -> float:
        found = self._values.get(prefix)
        if found is None:
            return 0.0
        value, when = found
        now = self.clock() if now is None else now
        return float(value * 0.5 ** ((now - when) / self.half_life))

    def score(self, prefix: str) -> Score:
        found = self._values.get(prefix)
        if found is None or found[0] == 0:
            return CLEAN
        value, when = found
        size = math.log2(abs(value)) + when / self.half_life
        return (1, size) if value > 0 else (-1, -size)

    def add(self, prefix: str) -> None:
        now = self.clock()
        self._set(prefix, min(PENALTY_MOST, self.value(prefix, now) + 1.0), now)

    def credit(self, prefix: str) -> None:
        now = self.clock()
        self._set(prefix, min(-CREDIT, self.value(prefix, now)), now)

    def _set(self, prefix: str, value: float, now: float) -> None:
        self._values[prefix] = (value, now)
        if len(self._values) > PENALTIES_KEPT:  # the ones nearest 0 are forgotten
            kept = sorted(self._values, key=lambda p: abs(self.value(p, now)), reverse=True)
            self._values = {p: self._values[p] for p in kept[: PENALTIES_KEPT // 2]}


Standing = tuple[int, Score, bool, int]
"""How a prefix stands for losing a connection: (how crowded, its penalty's score, whether
its first droppable connection is silent, minus that connection's admission number); the
greatest loses first."""


class LoginPool:
    """Admission of new connections and the clocks of those not logged in (module docstring)."""

    def __init__(self, size: int, per_address: int, max_per_address: int,
                 first_byte_s: float, login_s: float, prefix_v4: int = 24,
                 prefix_v6: int = 48, early_drop: EarlyDrop = EARLY_DROP,
                 counts: Counts | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 chance: Callable[[], float] = random.random) -> None:
        self.size, self.per_address, self.max_per_address = size, per_address, max_per_address
        self.first_byte_s, self.login_s, self.clock = first_byte_s, login_s, clock
        self.prefix_v4, self.prefix_v6, self.early_drop = prefix_v4, prefix_v6, early_drop
        self.counts: Counts = counts if counts is not None else LocalCounts()
        self.penalties = Penalties(PENALTY_HALF_LIFE_S, clock)
        self._chance = chance
        self._waiting: dict[Ticket, None] = {}  # oldest first
        self._prefixes: dict[str, _Prefix] = {}
        self._heap: list[tuple[tuple[int, int, float, bool, int], int, str]] = []
        """Prefixes with a droppable connection, the one to lose first on top (its
        :data:`Standing` negated, its version, the prefix); stale entries are skipped
        when they come up, and all are rebuilt when they outgrow the prefixes."""
        self._pushed = 0
        self._admitted = 0
        self._by_address: dict[str, dict[Ticket, None]] = {}  # in the pool, oldest first
        self.report = PoolReport()

    def __len__(self) -> int:
        return len(self._waiting)

    def connections_from(self, address: str) -> int:
        """Connections from ``address``, logging in or playing (every worker's)."""
        return self.counts.get(address)[0]

    def admit(self, address: str, peer: str, hang_up: Callable[[str], None],
              limit: int | None = None) -> Ticket:
        """A place for a new connection, or :class:`Refused`; may hang up another to make
        room.  ``limit`` replaces both caps per address for this one (a member board's
        address carries all of its callers; no early drop for it)."""
        prefix = prefix_of(address, self.prefix_v4, self.prefix_v6)
        try:
            if limit is None:
                self._drop_early(prefix)
            self._reserve(address, limit)
            try:
                if len(self._waiting) >= self.size:
                    self._make_room(prefix)
            except Refused:
                self.counts.release(address, waiting=True)
                raise
        except Refused as exc:
            self.report.refused(str(exc), prefix, peer)
            raise
        ticket = Ticket(self, address, prefix, peer, hang_up)
        self._waiting[ticket] = None
        self._by_address.setdefault(address, {})[ticket] = None
        group = self._prefixes.get(prefix)
        if group is None:
            group = self._prefixes[prefix] = _Prefix()
        group.count += 1
        group.silent[ticket] = None
        self._refresh(prefix)
        self._arm(ticket, min(self.first_byte_s, self.login_s))
        return ticket

    # -- admission ------------------------------------------------------------------------
    def _drop_early(self, prefix: str) -> None:
        """Refuse a newcomer from a penalized prefix with the early-drop probability."""
        chance = self.early_drop.chance(len(self._waiting) / self.size)
        if chance and self._penalized(prefix) and self._chance() < chance:
            raise Refused(POOL_FULL)

    def _penalized(self, prefix: str) -> bool:
        """Early drop applies, and its penalty counts against a newcomer."""
        return self.penalties.value(prefix) >= PENALIZED

    def _reserve(self, address: str, limit: int | None) -> None:
        """Count the newcomer against its address, dropping the address's own oldest silent
        (else heard) connection here if a cap is reached; :class:`Refused` if none can go."""
        most_open, most_waiting = limit or self.max_per_address, limit or self.per_address
        full = self.counts.reserve(address, most_open, most_waiting)
        if full is None:
            return
        victim = self._droppable_of(address)
        if victim is not None:
            victim.hang_up(MADE_ROOM)
            full = self.counts.reserve(address, most_open, most_waiting)
        if full == OPEN:
            raise Refused(TOO_MANY_FROM_ADDRESS)
        if full == WAITING:
            raise Refused(TOO_MANY_LOGGING_IN)
        if full is not None:
            log.error("login pool: the shared table of addresses is full: %s refused",
                      address)
            raise Refused(POOL_FULL)

    def _droppable_of(self, address: str) -> Ticket | None:
        tickets = self._by_address.get(address, {})
        for standing in (SILENT_STANDING, HEARD):
            for ticket in tickets:
                if ticket.standing == standing:
                    return ticket
        return None

    def _crowd(self, prefix: str, extra: int = 0) -> int:
        """How far past its share (``per_address``) a prefix is in the pool."""
        group = self._prefixes.get(prefix)
        return max(0, (group.count if group else 0) + extra - self.per_address)

    def _standing(self, prefix: str, extra: int = 0) -> tuple[Standing, Ticket] | None:
        """How ``prefix`` stands (with ``extra`` more connections), and the connection it
        would lose; None when it has none that may go."""
        ticket = self._prefixes[prefix].first_droppable()
        if ticket is None:
            return None
        return ((self._crowd(prefix, extra), self.penalties.score(prefix), ticket.silent,
                 -ticket.seq), ticket)

    def _refresh(self, prefix: str) -> None:
        """A prefix's standing changed: its new entry in the heap (the old goes stale)."""
        group = self._prefixes.get(prefix)
        if group is None:
            return
        self._pushed += 1  # versions are the pool's, never reused by a prefix come back
        group.version = self._pushed
        found = self._standing(prefix)
        if found is None:
            return
        heapq.heappush(self._heap, (_negated(found[0]), group.version, prefix))
        if len(self._heap) > 4 * len(self._prefixes) + HEAP_SLACK:
            self._rebuild()

    def _rebuild(self) -> None:
        self._heap = []
        for prefix, group in self._prefixes.items():
            found = self._standing(prefix)
            if found is not None:
                self._heap.append((_negated(found[0]), group.version, prefix))
        heapq.heapify(self._heap)

    def _worst(self) -> str | None:
        """The prefix to lose a connection first (its heap entry is current)."""
        heap = self._heap
        while heap:
            _, version, prefix = heap[0]
            group = self._prefixes.get(prefix)
            if group is not None and group.version == version:
                return prefix
            heapq.heappop(heap)
        return None

    def _make_room(self, prefix: str) -> None:
        """The whole pool is full: drop one connection (module docstring), or refuse.
        The newcomer counts in its own prefix, which may then stand worse than the top;
        its penalty counts against it only from PENALIZED (as for early drop)."""
        candidates = []
        worst = self._worst()
        if worst is not None:
            candidates.append(self._standing(worst))
        if prefix in self._prefixes:
            candidates.append(self._standing(prefix, 1))
        found = max((c for c in candidates if c is not None), default=None,
                    key=lambda c: c[0])
        score = self.penalties.score(prefix)
        if score[0] > 0 and not self._penalized(prefix):
            score = CLEAN  # one or two drops: a caller caught in a flood's first second
        newcomer = (self._crowd(prefix, 1), score)
        if found is None or newcomer > found[0][:2]:
            raise Refused(POOL_FULL)
        found[1].hang_up(MADE_ROOM)

    # -- standing and clocks ---------------------------------------------------------------
    def _promote(self, ticket: Ticket, standing: int) -> None:
        waiting = ticket.waiting and not ticket.closed
        if waiting:
            group = self._prefixes[ticket.prefix]
            (group.silent if ticket.silent else group.heard).pop(ticket, None)
            if standing == HEARD:
                group.add_heard(ticket)
        ticket.standing = standing
        if waiting:
            self._refresh(ticket.prefix)

    def _arm(self, ticket: Ticket, delay: float) -> None:
        loop = asyncio.get_running_loop()
        ticket._timer = loop.call_later(max(0.0, delay), self._check, ticket)

    def _check(self, ticket: Ticket) -> None:
        ticket._timer = None
        if ticket.closed or not ticket.waiting:
            return
        age = self.clock() - ticket.since
        if ticket.held:                        # the server's time: looked at again later
            self._arm(ticket, HELD_RECHECK_S)
        elif age >= self.login_s:
            ticket.hang_up(LOGIN_TIMED_OUT)
        elif ticket.silent:
            ticket.hang_up(SILENT)
        else:
            self._arm(ticket, self.login_s - age)

    def _dropped(self, ticket: Ticket, reason: str) -> None:
        """The pool hangs up a connection that has not logged in: its prefix's penalty."""
        self.report.dropped(reason, ticket.prefix, ticket.peer)
        self._penalize(ticket.prefix)

    def _forgive(self, prefix: str) -> None:
        """A caller of this network logged in: its penalty goes (as a right password
        clears a handle's failures from its address), and a credit takes its place: for a
        minute or two it loses a connection after the networks alike in crowding that had
        no such caller."""
        self.penalties.credit(prefix)
        self._refresh(prefix)

    def _penalize(self, prefix: str) -> None:
        self.penalties.add(prefix)
        self._refresh(prefix)

    def _leave_pool(self, ticket: Ticket) -> None:
        self._waiting.pop(ticket, None)
        tickets = self._by_address.get(ticket.address)
        if tickets is not None:
            tickets.pop(ticket, None)
            if not tickets:
                del self._by_address[ticket.address]
        group = self._prefixes.get(ticket.prefix)
        if group is not None:
            group.silent.pop(ticket, None)
            group.heard.pop(ticket, None)
            group.count -= 1
            if group.count <= 0:
                del self._prefixes[ticket.prefix]
            else:
                self._refresh(ticket.prefix)
        if ticket._timer is not None:
            ticket._timer.cancel()
            ticket._timer = None

    def _forget(self, ticket: Ticket) -> None:
        waiting = ticket.waiting
        if waiting:
            self._leave_pool(ticket)
            if ticket.silent and not ticket.dropped:  # hung up having said nothing: a scan
                self._penalize(ticket.prefix)
                self.report.left_silent(ticket.prefix, ticket.peer)
        self.counts.release(ticket.address, waiting=waiting)


def _negated(standing: Standing) -> tuple[int, int, float, bool, int]:
    """A standing as the heap orders it: the greatest first."""
    crowd, (sign, size), silent, minus_seq = standing
    return (-crowd, -sign, -size, not silent, -minus_seq)


class PoolReport:
    """What the pool refused and dropped, for the log: the first few of each kind one by one
    (INFO), the rest counted and told in one line per :data:`REPORT_S` with the prefixes
    that lost most.  A flood of thousands a second writes a line a minute, not thousands."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.kinds: Counter[str] = Counter()
        self.prefixes: Counter[str] = Counter()
        self._timer: asyncio.TimerHandle | None = None

    def refused(self, reason: str, prefix: str, peer: str) -> None:
        self._count(f"refused ({reason})", prefix, f"{peer}: refused: {reason}")

    def dropped(self, reason: str, prefix: str, peer: str) -> None:
        self._count(f"hung up ({reason})", prefix,
                    f"{peer}: hung up before logging in: {reason}")

    def left_silent(self, prefix: str, peer: str) -> None:
        self._count("closed having sent nothing", prefix,
                    f"{peer}: closed before logging in, having sent nothing")

    def _count(self, kind: str, prefix: str, line: str) -> None:
        self.kinds[kind] += 1
        self.prefixes[prefix] += 1
        if self.kinds[kind] <= REPORT_EACH:
            log.info("%s", line)
        else:
            log.debug("%s", line)
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # the loop is gone (shutting down): nothing more to tell
                return
            self._timer = loop.call_later(REPORT_S, self.flush)

    def flush(self) -> None:
        """One line for the period, if more happened than was logged one by one."""
        if self._timer is not None:
            self._timer.cancel()  # (when called before its time: at shutdown)
            self._timer = None
        if any(n > REPORT_EACH for n in self.kinds.values()):
            kinds = ", ".join(f"{n:,} {kind}" for kind, n in self.kinds.most_common())
            worst = ", ".join(f"{p} {n:,}" for p, n in self.prefixes.most_common(3))
            log.info("login pool, last %.0f s: %s; %d prefixes, most from %s", REPORT_S,
                     kinds, len(self.prefixes), worst)
        self.kinds.clear()
        self.prefixes.clear()
