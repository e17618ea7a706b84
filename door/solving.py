"""The solvers' process pool: verdicts worked out beside the door, never on its event loop.

A few worker processes (``python -m door.solver_worker``, at a lower priority) take one job
at a time each; more jobs wait in line.  ``await pool.solve(...)`` returns a
:class:`~door.games.solvers.Verdict`.  A job gets its CPU budget (the solver stops itself
and answers "unknown"), and a wall-clock guard on top for a machine too busy to give it the
CPU.  When the caller who asked leaves -- the task awaiting the verdict is cancelled -- the
worker is killed at once and the job forgotten; the next job starts a fresh worker.

One pool per door process (:func:`solver_pool`): ``reussite serve`` shares it between all its
callers, ``reussite door`` has its own.  sysop.ini ``[solver]`` sets its size and budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import time
from collections import OrderedDict, deque
from typing import Any

from .config import Settings
from .games.solvers import UNKNOWN, Verdict

log = logging.getLogger(__name__)

WALL_FACTOR, WALL_EXTRA = 3.0, 10.0
"""A job that has not answered after budget × WALL_FACTOR + WALL_EXTRA seconds of wall time
is killed (its verdict: unknown)."""
RECYCLE_AFTER_S = 2.0
"""A worker whose job ran this long is replaced: a big search leaves a big process."""
KNOWN_DEALS = 256
"""Deal verdicts remembered (the same deal is often played again at once)."""
PLAYER_SECONDS = 10.0
"""The wall-clock guard's base for a search player's move (Demo, Hint: ~40 ms of CPU)."""
LINE_LIMIT = 1 << 22
"""Longest answer line read from a worker (a winning line is a few KiB)."""


class _Worker:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls) -> _Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "door.solver_worker", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            limit=LINE_LIMIT)
        return cls(process)

    async def ask(self, job: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(job).encode() + b"\n")
        await self.process.stdin.drain()
        line = await self.process.stdout.readline()
        if not line:
            raise ConnectionError("the solver worker stopped")
        return json.loads(line)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    async def reap(self) -> None:
        with contextlib.suppress(ProcessLookupError, asyncio.TimeoutError):
            await asyncio.wait_for(self.process.wait(), 5)


class SolverPool:
    """At most ``size`` jobs at once, each within ``budget`` CPU seconds unless told."""

    def __init__(self, size: int, budget: float) -> None:
        self.size = max(1, size)
        self.budget = budget
        self._idle: list[_Worker] = []
        self._active: set[_Worker] = set()
        self._busy = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._reaping: set[asyncio.Task[None]] = set()
        self._known: OrderedDict[str, Verdict] = OrderedDict()
        self.closed = False

    @property
    def running(self) -> int:
        """Jobs being solved now."""
        return self._busy

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return sum(not f.done() for f in self._waiting)

    async def solve(self, game: str, number: int, options: dict[str, Any] | None = None, *,
                    position: dict[str, Any] | None = None,
                    seconds: float | None = None) -> Verdict:
        """The verdict on a deal (or a position: a game's JSON state).  Cancelling the
        awaiting task kills the job."""
        if self.closed:
            raise RuntimeError("the solver pool is closed")
        seconds = self.budget if seconds is None else seconds
        job = {"game": game, "number": number, "options": options or {},
               "position": position, "seconds": seconds}
        key = json.dumps([game, number, options or {}], sort_keys=True)
        if position is None and key in self._known:     # a deal asked about again
            self._known.move_to_end(key)
            return self._known[key]
        await self._slot()
        if position is None and key in self._known:    # solved while this job waited
            self._busy -= 1
            self._wake()
            return self._known[key]
        started = time.monotonic()
        answer = await self._run(job, seconds)
        if answer is None:
            return Verdict(game, number, options or {}, UNKNOWN, 0, time.monotonic() - started)
        if "error" in answer:
            raise ValueError(answer["error"])
        verdict = Verdict.from_json(answer)
        if position is None and verdict.verdict != UNKNOWN:
            self._known[key] = verdict
            while len(self._known) > KNOWN_DEALS:
                self._known.popitem(last=False)
        return verdict

    async def player_move(self, game: str, position: dict[str, Any],
                          seconds: float = PLAYER_SECONDS) -> str | None:
        """A search player's move for a game's JSON state (Anciento: Demo), worked out in
        the pool like a verdict; None when the job overran its wall-clock guard.  Cancelling
        the awaiting task kills the job."""
        if self.closed:
            raise RuntimeError("the solver pool is closed")
        await self._slot()
        answer = await self._run({"kind": "move", "game": game, "position": position},
                                 seconds)
        if answer is None:
            return None
        if "error" in answer:
            raise ValueError(answer["error"])
        return str(answer["move"])

    async def _run(self, job: dict[str, Any], seconds: float) -> dict[str, Any] | None:
        """Run one job on a worker, the slot already taken (and given back here); None
        when it overran budget × WALL_FACTOR + WALL_EXTRA seconds of wall time."""
        worker: _Worker | None = None
        started = time.monotonic()
        try:
            worker = self._idle.pop() if self._idle else await _Worker.start()
            self._active.add(worker)
            answer = await asyncio.wait_for(worker.ask(job),
                                            seconds * WALL_FACTOR + WALL_EXTRA)
        except TimeoutError:
            log.warning("solver job %s killed after %.0f s of wall time",
                        json.dumps(job)[:80], time.monotonic() - started)
            self._discard(worker)
            return None
        except BaseException:      # cancelled (the caller left), or the worker died
            self._discard(worker)
            raise
        else:
            if time.monotonic() - started > RECYCLE_AFTER_S:
                self._discard(worker)
            else:
                self._idle.append(worker)
        finally:
            self._active.discard(worker)
            self._busy -= 1
            self._wake()
        return answer

    async def _slot(self) -> None:
        """Wait for a free worker slot (first come, first served)."""
        if self._busy < self.size and not self.queued:
            self._busy += 1
            return
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(ready)
        try:
            await ready
        except asyncio.CancelledError:
            if ready.done() and not ready.cancelled():
                self._busy -= 1      # given a slot just as it was cancelled: give it back
                self._wake()
            raise

    def _wake(self) -> None:
        while self._waiting and self._busy < self.size:
            ready = self._waiting.popleft()
            if not ready.done():
                self._busy += 1
                ready.set_result(None)

    def _discard(self, worker: _Worker | None) -> None:
        if worker is None:
            return
        worker.kill()
        task = asyncio.ensure_future(worker.reap())
        self._reaping.add(task)
        task.add_done_callback(self._reaping.discard)

    async def close(self) -> None:
        """Kill every worker; jobs waiting or running fail."""
        self.closed = True
        for ready in self._waiting:
            if not ready.done():
                ready.cancel()
        self._waiting.clear()
        while self._idle:
            self._discard(self._idle.pop())
        for worker in list(self._active):
            self._discard(worker)
        if self._reaping:
            await asyncio.gather(*self._reaping, return_exceptions=True)


_POOLS: dict[asyncio.AbstractEventLoop, SolverPool] = {}


def solver_pool(settings: Settings) -> SolverPool:
    """This process's pool (one per event loop), made on first use from sysop.ini
    ``[solver]``."""
    loop = asyncio.get_running_loop()
    pool = _POOLS.get(loop)
    if pool is None or pool.closed:
        for other in [lp for lp in _POOLS if lp.is_closed()]:
            del _POOLS[other]
        pool = _POOLS[loop] = SolverPool(settings.solver.workers, settings.solver.budget)
    return pool


async def close_solver_pool() -> None:
    """Kill this process's solver workers (server shutdown, end of a BBS visit)."""
    pool = _POOLS.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.close()
