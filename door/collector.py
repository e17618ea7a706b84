"""When ``reussite serve`` collects its cyclic garbage: soon after calls end, never on the
keystroke path of a busy server.

A call that has ended is garbage held in reference cycles (its session and terminal point at
each other, its screens at the session, telnetlib3's protocol, writer and options at each
other): only the cyclic collector frees it.  The server keeps that collector off the hot
path (:func:`tune`), which also meant that the older generations, where a call lands once
it has lasted a few seconds, were almost never collected: a server that had served a few
thousand calls held them all (+100 MiB after 15 minutes of hostile callers), idle or not.

So the server collects them itself, at two moments (:class:`CallCollector`):

- once as many calls have ended as are still going (at least ``BATCH``): the garbage is
  never more than about as large as what the live calls hold, and each collection, which
  walks everything alive, is paid for by as many ended calls;
- once the server has been quiet for ``QUIET_S`` seconds (no call ended, no young
  collection: the load stopped): everything that ended goes, connections that never
  became a call too (SSH handshakes, refused lines), and the freed memory is handed back
  to the system (``malloc_trim``).
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

YOUNG_THRESHOLD = 50_000
BATCH = 200
"""Calls ended before a collection, at least (a reconnect flood ends hundreds a second)."""
QUIET_S = 10.0
"""Seconds between two looks at whether the server has gone quiet."""


def tune() -> None:
    """Keep the cyclic collector off the keystroke path of a busy server.

    A thousand sessions hold millions of long-lived objects; with CPython's default
    thresholds (700, 10, 10) the collector runs every few hundred allocations and its
    older-generation passes walk them all, which showed as a 62 ms p99 keystroke latency at
    1,000 callers (bench/load.py).  Freezing what start-up made and collecting the young
    generation every 50,000 allocations instead brought it to 5 ms and cut CPU by a sixth.
    The older generations are left to :class:`CallCollector`.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 20, 100)


def _malloc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``: free pages inside the heap go back to the system (Python
    frees whole arenas only, glibc the top of its heap only).  None without glibc."""
    try:
        trim = ctypes.CDLL(None).malloc_trim  # the process's own symbols: libc's among them
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return lambda: trim(0)


class CallCollector:
    """Collects the garbage of ended calls (module docstring).  :meth:`ended` is told of
    each call as it ends; between :meth:`start` and :meth:`stop` it looks every
    ``quiet_s`` seconds whether the server has gone quiet."""

    def __init__(self, batch: int | None = None, quiet_s: float | None = None) -> None:
        self.batch = BATCH if batch is None else batch
        self.quiet_s = QUIET_S if quiet_s is None else quiet_s
        self.ended_since = 0
        """Calls ended since the last collection."""
        self.collections = 0
        self._timer: asyncio.TimerHandle | None = None
        self._seen: tuple[int, int, int] = (0, 0, 0)  # at the last look: see _look
        self._trim = _malloc_trim()
        self._untrimmed = False  # collected since the last trim
        self._due = False  # a collection is on its way

    def start(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(self.quiet_s, self._look)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def ended(self, live: int) -> None:
        """A call has ended; ``live`` calls are still going."""
        self.ended_since += 1
        if self.ended_since >= max(self.batch, live) and not self._due:
            self._due = True
            asyncio.get_running_loop().call_soon(self.collect)  # out of the call's frames

    def _look(self) -> None:
        """Collect once nothing has changed since the last look: no call ended, and the
        young generation was not collected (which the connections that never became a
        call, SSH handshakes, refused lines, also leave behind)."""
        _, young, middle = gc.get_count()  # collections of generations 0 and 1 since 2's
        seen = (self.ended_since, young, middle)
        if seen == self._seen and seen != (0, 0, 0):
            self.collect(trim=True, whatever=True)
            seen = (0, 0, 0)
        self._seen = seen
        self._timer = asyncio.get_running_loop().call_later(self.quiet_s, self._look)

    def trim(self) -> None:
        """Hand the memory freed inside the C library's heap back to the system now."""
        if self._trim is not None:
            self._trim()

    def collect(self, trim: bool = False, whatever: bool = False) -> None:
        """Collect every generation now, if a call has ended since the last time (or
        ``whatever``); ``trim``: and hand the memory freed since the last trim back to the
        system."""
        self._due = False
        began = time.perf_counter()
        ended, found = self.ended_since, 0
        if ended or whatever:
            found = gc.collect()
            self.ended_since = 0
            self.collections += 1
            self._untrimmed = True
        if trim and self._untrimmed:
            self._untrimmed = False
            self.trim()
        if ended or whatever:
            log.debug("collected %d objects (%d calls ended) in %.1f ms", found, ended,
                      1000 * (time.perf_counter() - began))
