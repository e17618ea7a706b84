"""When ``reussite serve`` collects its cyclic garbage: soon after calls end, never on the
keystroke path of a busy server.

An ended call goes with its last reference (issue #36): the session, its screens and game,
its terminal and the telnet protocol let go of what pointed back at them as the call ends.
What a call still leaves in reference cycles is the libraries' own: asyncio's socket
transport holds itself (~7 objects with its socket), an SSH call asyncssh's connection and
process with their streams (~90), a web call aiohttp's request handler (~33 to 62), a
finished game two of SQLAlchemy's expressions (~8); tests/server/test_call_cycles.py counts
them.  Until 2026-12-03 every call left ~300 (its screen's helpers holding the session,
finished tasks and their tracebacks, telnetlib3's option tables, a SQLAlchemy subquery), and
a full collection, whose pause grows with what it frees, stopped the loop for 0.2 to 2.2 s
under bench/soak.py's 350 callers (27k objects freed: 87 ms, 153k: 929 ms).

The server keeps that collector off the hot path (:func:`tune`), which also meant that the
older generations, where a call lands once it has lasted a few seconds, were almost never
collected: a server that had served a few thousand calls held them all (+100 MiB after 15
minutes of hostile callers), idle or not.

So the server collects them itself, at two moments (:class:`CallCollector`):

- once as many calls have ended as are still going, and at least ``BATCH`` (2,000): with a
  handful of objects left per call, a batch's garbage is a few MiB, and a collection costs
  mostly its walk through every live object (0.1 to 0.2 s with 300 callers on a loaded
  2-core machine: bench/soak.py), paid for by that many ended calls (the batch was 200
  while each call left ~300 objects);
- once no call has ended for ``QUIET_S`` seconds (the load stopped), if those that ended
  are at least an eighth of those going: everything that ended goes (and what connections
  that never became a call left, SSH handshakes, refused lines), and the freed memory is
  handed back to the system (``malloc_trim``): RSS comes back near its level before the
  load (bench/hostile.py, bench/rsswatch.py).  A busy server is not made to walk everything
  whenever a caller leaves.

Each collection is one info line in the log (objects freed, calls ended, pause): bench/soak.py
``--door-log info`` sums them up.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import time
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)

YOUNG_THRESHOLD = 50_000
BATCH = 2_000
"""Calls ended before a collection, at least (a reconnect flood ends hundreds a second; a
soak's 300 players ~10): see the module docstring."""
QUIET_S = 10.0
"""Seconds between two looks at whether calls have stopped ending."""
QUIET_SHARE = 8
"""A quiet look collects when the calls ended are at least 1/QUIET_SHARE of those going."""


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

    def __init__(self, batch: int | None = None, quiet_s: float | None = None,
                 forget: Iterable[Callable[[], object]] = ()) -> None:
        self.forget = tuple(forget)
        """Caches to empty before the quiet collection (see :meth:`collect`)."""
        self.batch = BATCH if batch is None else batch
        self.quiet_s = QUIET_S if quiet_s is None else quiet_s
        self.ended_since = 0
        """Calls ended since the last collection."""
        self.collections = 0
        self._timer: asyncio.TimerHandle | None = None
        self._seen = 0  # calls ended since the last collection, at the last look
        self._live = 0  # calls going, as the last one ended
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
        self._live = live
        if self.ended_since >= max(self.batch, live) and not self._due:
            self._due = True
            asyncio.get_running_loop().call_soon(self.collect)  # out of the call's frames

    def _look(self) -> None:
        """Collect once no call has ended since the last look, if the calls that ended
        since the last collection are at least an eighth of those still going: after a
        flood, at once; a thousand callers are not made to wait for a walk through all of
        them whenever one of them leaves."""
        ended = self.ended_since
        if ended and ended == self._seen and ended * QUIET_SHARE >= self._live:
            self.collect(trim=True)
            ended = 0
        self._seen = ended
        self._timer = asyncio.get_running_loop().call_later(self.quiet_s, self._look)

    def trim(self) -> None:
        """Hand the memory freed inside the C library's heap back to the system now."""
        if self._trim is not None:
            self._trim()

    def collect(self, trim: bool = False) -> None:
        """Collect every generation now, if a call has ended since the last time; ``trim``:
        and hand the memory freed since the last trim back to the system.

        A ``trim`` collection (the calls have stopped ending) first empties the caches in
        ``forget`` (drawn text runs, escape sequences): what they took in during the burst
        is spread over memory the burst's calls have freed, and kept, it keeps whole arenas
        of Python's allocator from going back to the system (after a hostile load a worker
        held 10 arenas more for 1.6 MB more of live objects).  They fill again, from the
        arenas still in use, as the callers draw."""
        self._due = False
        began = time.perf_counter()
        ended, found = self.ended_since, 0
        if ended and trim:
            for forget in self.forget:
                forget()
        if ended:
            found = gc.collect()
            self.ended_since = 0
            self.collections += 1
            self._untrimmed = True
        if trim and self._untrimmed:
            self._untrimmed = False
            self.trim()
        if ended:  # one line per collection: bench/soak.py reads them
            log.info("full collection: %d objects freed, %d calls ended, %.0f ms%s", found,
                     ended, 1000 * (time.perf_counter() - began), ", quiet" if trim else "")
