"""Connections per address, open and logging in: the counts the login pool's caps per address
are checked against (door/gate/pool.py).

One process keeps them in a dict (:class:`LocalCounts`).  The workers of ``serve --workers``
share one table in shared memory (:class:`SharedCounts`, made by the supervisor before the
workers are forked, as the node table is), so that ``max_per_address`` and
``login_per_address`` hold for the whole server: the kernel spreads one address's
connections over the workers, and counts kept per worker would let it hold N times as many.
A check and the count it allows are one step under the table's lock, so two workers never
both let in the last connection an address may have.
"""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import struct
import tempfile
import zlib
from collections.abc import Iterator
from typing import Protocol

OPEN, WAITING = "open", "waiting"
"""What :meth:`Counts.reserve` says is full: the address's connections, or those of them
logging in."""
TABLE_FULL = "full"


class Counts(Protocol):
    """Open and logging-in connections per address."""

    def reserve(self, address: str, most_open: int, most_waiting: int) -> str | None:
        """Count one more connection, logging in, for ``address``: None when done, else
        which cap it would pass (:data:`OPEN`, :data:`WAITING`), counting nothing."""

    def logged_in(self, address: str) -> None:
        """One of the address's connections has logged in: no longer logging in."""

    def release(self, address: str, waiting: bool) -> None:
        """One of the address's connections is gone (``waiting``: still logging in)."""

    def get(self, address: str) -> tuple[int, int]:
        """(open, logging in) for ``address``."""


class LocalCounts:
    """The counts of one process."""

    def __init__(self) -> None:
        self._counts: dict[str, list[int]] = {}

    def reserve(self, address: str, most_open: int, most_waiting: int) -> str | None:
        counts = self._counts.get(address)
        if counts is None:
            counts = self._counts[address] = [0, 0]
        if counts[0] >= most_open:
            return OPEN
        if counts[1] >= most_waiting:
            return WAITING
        counts[0] += 1
        counts[1] += 1
        return None

    def logged_in(self, address: str) -> None:
        self._counts[address][1] -= 1

    def release(self, address: str, waiting: bool) -> None:
        counts = self._counts[address]
        counts[0] -= 1
        counts[1] -= waiting
        if counts[0] <= 0:
            del self._counts[address]

    def get(self, address: str) -> tuple[int, int]:
        counts = self._counts.get(address, (0, 0))
        return counts[0], counts[1]


class SharedMemory:
    """Bytes every worker of one server sees, and a lock across their processes: a file
    mapped by the supervisor before the workers are forked, and a POSIX record lock on it
    (released by the system if its holder dies)."""

    def __init__(self, size: int) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the server)
        self._file.truncate(size)
        self._map = mmap.mmap(self._file.fileno(), size)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        fcntl.lockf(self._file.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.lockf(self._file.fileno(), fcntl.LOCK_UN)


class SharedCounts(SharedMemory):
    """The counts of every worker of one server, in a hash table in shared memory.

    Each slot holds an address (its text, at most :data:`KEY` bytes) and, per worker, how
    many connections of that worker it has open and logging in: a worker that dies has its
    counts taken away (:meth:`free_worker`) without touching the others'.  Open addressing
    with linear probing; a freed slot is filled by moving later ones back (no tombstones), so
    a lookup never walks more than the addresses that collide with it.  ``capacity`` is the
    most addresses counted at once (every counted connection is in a login pool or on a
    node): a table that fills anyway refuses the connection (:data:`TABLE_FULL`)."""

    KEY = 48  # bytes: an IPv6 /64 network in text is at most 43
    _PAIR = struct.Struct("<II")

    def __init__(self, workers: int, capacity: int) -> None:
        self.workers = workers
        self.owner = 0
        """This process's worker number, 1 … workers (set in each worker after the fork)."""
        slots = 8
        while slots < 2 * capacity:
            slots *= 2
        self.slots = slots
        self._size = 1 + self.KEY + self._PAIR.size * workers  # key length, key, counts
        super().__init__(slots * self._size)

    # -- slots ------------------------------------------------------------------------------
    def _key(self, slot: int) -> bytes | None:
        at = slot * self._size
        length = self._map[at]
        return bytes(self._map[at + 1:at + 1 + length]) if length else None

    def _home(self, key: bytes) -> int:
        return zlib.crc32(key) & (self.slots - 1)

    def _find(self, key: bytes) -> tuple[int, bool]:
        """(the slot holding ``key``, True), or (the empty slot it would go in, False);
        (-1, False) when the table is full."""
        slot = self._home(key)
        for _ in range(self.slots):
            found = self._key(slot)
            if found is None:
                return slot, False
            if found == key:
                return slot, True
            slot = (slot + 1) & (self.slots - 1)
        return -1, False

    def _pair_at(self, slot: int, worker: int) -> int:
        return slot * self._size + 1 + self.KEY + self._PAIR.size * (worker - 1)

    def _totals(self, slot: int) -> tuple[int, int]:
        opened = waiting = 0
        for worker in range(1, self.workers + 1):
            o, w = self._PAIR.unpack_from(self._map, self._pair_at(slot, worker))
            opened, waiting = opened + o, waiting + w
        return opened, waiting

    def _add(self, slot: int, d_open: int, d_waiting: int) -> None:
        at = self._pair_at(slot, self.owner)
        o, w = self._PAIR.unpack_from(self._map, at)
        self._PAIR.pack_into(self._map, at, max(0, o + d_open), max(0, w + d_waiting))
        if d_open < 0 and self._totals(slot) == (0, 0):
            self._free(slot)

    def _free(self, slot: int) -> None:
        """Empty ``slot`` and move back the slots after it that probed past it."""
        mask = self.slots - 1
        hole = slot
        nxt = (hole + 1) & mask
        while (key := self._key(nxt)) is not None:
            home = self._home(key)
            # The entry at nxt may fill the hole if its home is not in (hole, nxt].
            if (nxt - home) & mask >= (nxt - hole) & mask:
                self._move(nxt, hole)
                hole = nxt
            nxt = (nxt + 1) & mask
        at = hole * self._size
        self._map[at:at + self._size] = bytes(self._size)

    def _move(self, source: int, target: int) -> None:
        a, b = source * self._size, target * self._size
        self._map[b:b + self._size] = self._map[a:a + self._size]

    # -- the interface ----------------------------------------------------------------------
    def _encoded(self, address: str) -> bytes:
        return address.encode("utf-8", "replace")[:self.KEY]

    def reserve(self, address: str, most_open: int, most_waiting: int) -> str | None:
        key = self._encoded(address)
        with self._locked():
            slot, found = self._find(key)
            if slot < 0:
                return TABLE_FULL
            if found:
                opened, waiting = self._totals(slot)
                if opened >= most_open:
                    return OPEN
                if waiting >= most_waiting:
                    return WAITING
            else:
                at = slot * self._size
                self._map[at:at + self._size] = bytes(self._size)
                self._map[at] = len(key)
                self._map[at + 1:at + 1 + len(key)] = key
            self._add(slot, 1, 1)
            return None

    def logged_in(self, address: str) -> None:
        with self._locked():
            slot, found = self._find(self._encoded(address))
            if found:
                self._add(slot, 0, -1)

    def release(self, address: str, waiting: bool) -> None:
        with self._locked():
            slot, found = self._find(self._encoded(address))
            if found:
                self._add(slot, -1, -1 if waiting else 0)

    def get(self, address: str) -> tuple[int, int]:
        with self._locked():
            slot, found = self._find(self._encoded(address))
            return self._totals(slot) if found else (0, 0)

    def addresses(self) -> int:
        """How many addresses have a connection (for tests and the curious)."""
        with self._locked():
            return sum(1 for slot in range(self.slots) if self._key(slot) is not None)

    def free_worker(self, worker: int) -> int:
        """Take away every count of a worker that died; returns its connections that were
        still counted."""
        gone = 0
        with self._locked():
            slot = 0
            while slot < self.slots:
                if self._key(slot) is not None:
                    at = self._pair_at(slot, worker)
                    gone += self._PAIR.unpack_from(self._map, at)[0]
                    self._PAIR.pack_into(self._map, at, 0, 0)
                    if self._totals(slot) == (0, 0):
                        self._free(slot)  # a later slot may move here: look at it again
                        continue
                slot += 1
        return gone
