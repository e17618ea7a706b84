"""The login pool: connections that have not logged in yet, kept apart from the game nodes.

A connection takes a node only once its caller has logged in.  Until then it waits in this
pool, which has caps of its own and short clocks, so that connections that send nothing
(500 of them once filled every node of a board for the whole login timeout) cost a slot here
for seconds, never a node:

- at most ``max_per_address`` connections at once from one address, logging in or playing;
- at most ``per_address`` of them logging in at once, and ``size`` logging in overall;
- a connection that has sent nothing after ``first_byte_s`` is hung up, and one that has not
  logged in after ``login_s`` too;
- when a cap is reached, the oldest connection *that has sent nothing* is hung up to make
  room: of that address for the address's caps, and for the overall cap of the address that
  holds most of the pool (a flood, not the lone caller beside it).  Only when there is none is
  the newcomer refused.  A real caller's client answers at once, so it is not the one dropped.

How a listener uses it (telnet and SSH do; an RLogin or any other listener does the same)::

    try:
        ticket = pool.admit(address_of(peer), peer, hang_up)  # at accept, before any work
    #   (limit=N: N per address instead of the caps, for an address vouched for)
    except Refused as exc:
        ...write str(exc) as one line, close the connection...
    ticket.heard()          # on every byte received (SSH: once authentication begins)
    terminal.ticket = ticket  # Door.run takes it from there: logged_in() when given a node
    ticket.close()          # when the connection is gone (idempotent)

``hang_up(reason)`` is called by the pool, at most once: the listener writes ``reason`` as one
line if it can and closes the connection, which then reaches ``ticket.close()`` as usual.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Callable

log = logging.getLogger(__name__)

TOO_MANY_FROM_ADDRESS = "Too many connections from your address: please hang up another one first."
TOO_MANY_LOGGING_IN = "Too many connections from your address are logging in: finish one first."
POOL_FULL = "The door is busy with callers logging in. Please call again in a minute."
SILENT = "Nothing received: goodbye."
LOGIN_TIMED_OUT = "Login timed out."
MADE_ROOM = "Room was needed for a caller, and this line had sent nothing: goodbye."


class Refused(Exception):
    """The pool has no room for this connection; ``str()`` is the line for the caller."""


class Ticket:
    """One connection's place, from accept until it is gone: in the pool until logged in,
    then counted against its address only."""

    def __init__(self, pool: LoginPool, address: str, peer: str,
                 hang_up: Callable[[str], None]) -> None:
        self.pool, self.address, self.peer = pool, address, peer
        self._hang_up = hang_up
        self.since = pool.clock()
        self.silent = True  # nothing received yet
        self.waiting = True  # in the pool: not logged in yet
        self.closed = False
        self.sessions = 0  # sessions started on this connection (SSH may ask for several)
        self._timer: asyncio.TimerHandle | None = None

    def heard(self) -> None:
        """Something came from the caller: no longer a silent connection."""
        self.silent = False

    def logged_in(self) -> None:
        """The caller is in (and on a node): out of the pool and its clocks."""
        if self.waiting and not self.closed:
            self.waiting = False
            self.pool._leave_pool(self)

    def close(self) -> None:
        """The connection is gone: its place is free.  Safe to call more than once."""
        if not self.closed:
            self.closed = True
            self.pool._forget(self)

    def hang_up(self, reason: str) -> None:
        """Have the listener drop this connection, saying ``reason``; frees the place now."""
        if self.closed:
            return
        log.info("%s: hung up before logging in: %s", self.peer, reason)
        self.close()
        try:
            self._hang_up(reason)
        except Exception as exc:  # the connection may be half gone already
            log.debug("%s: hang-up: %s", self.peer, exc)


class LoginPool:
    """Admission of new connections and the clocks of those not logged in (module docstring)."""

    def __init__(self, size: int, per_address: int, max_per_address: int,
                 first_byte_s: float, login_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size, self.per_address, self.max_per_address = size, per_address, max_per_address
        self.first_byte_s, self.login_s, self.clock = first_byte_s, login_s, clock
        self._waiting: dict[Ticket, None] = {}  # oldest first
        self._open: dict[str, int] = defaultdict(int)  # address -> connections, any state
        self._waiting_from: dict[str, int] = defaultdict(int)  # address -> in the pool

    def __len__(self) -> int:
        return len(self._waiting)

    def connections_from(self, address: str) -> int:
        return self._open.get(address, 0)

    def admit(self, address: str, peer: str, hang_up: Callable[[str], None],
              limit: int | None = None) -> Ticket:
        """A place for a new connection, or :class:`Refused`; may hang up a silent one.
        ``limit`` replaces both caps per address for this one (a member board's address
        carries all of its callers)."""
        if self._open.get(address, 0) >= (limit or self.max_per_address):
            self._make_room(address, TOO_MANY_FROM_ADDRESS)
        if self._waiting_from.get(address, 0) >= (limit or self.per_address):
            self._make_room(address, TOO_MANY_LOGGING_IN)
        if len(self._waiting) >= self.size:
            self._make_room(None, POOL_FULL)
        ticket = Ticket(self, address, peer, hang_up)
        self._waiting[ticket] = None
        self._open[address] += 1
        self._waiting_from[address] += 1
        self._arm(ticket, min(self.first_byte_s, self.login_s))
        return ticket

    def _make_room(self, address: str | None, refusal: str) -> None:
        """Hang up the oldest silent connection of ``address`` (None: of the address holding
        most of the pool), or refuse."""
        victim = None
        for ticket in self._waiting:  # oldest first
            if not ticket.silent or (address is not None and ticket.address != address):
                continue
            if victim is None or (self._waiting_from[ticket.address]
                                  > self._waiting_from[victim.address]):
                victim = ticket
            if address is not None:
                break
        if victim is None:
            raise Refused(refusal)
        victim.hang_up(MADE_ROOM)

    def _arm(self, ticket: Ticket, delay: float) -> None:
        loop = asyncio.get_running_loop()
        ticket._timer = loop.call_later(max(0.0, delay), self._check, ticket)

    def _check(self, ticket: Ticket) -> None:
        ticket._timer = None
        if ticket.closed or not ticket.waiting:
            return
        age = self.clock() - ticket.since
        if age >= self.login_s:
            ticket.hang_up(LOGIN_TIMED_OUT)
        elif ticket.silent:
            ticket.hang_up(SILENT)
        else:
            self._arm(ticket, self.login_s - age)

    def _leave_pool(self, ticket: Ticket) -> None:
        self._waiting.pop(ticket, None)
        _decrement(self._waiting_from, ticket.address)
        if ticket._timer is not None:
            ticket._timer.cancel()
            ticket._timer = None

    def _forget(self, ticket: Ticket) -> None:
        if ticket.waiting:
            self._leave_pool(ticket)
        _decrement(self._open, ticket.address)


def _decrement(counts: dict[str, int], address: str) -> None:
    counts[address] -= 1
    if counts[address] <= 0:
        del counts[address]
