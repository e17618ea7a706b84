"""The solvers' process pool: verdicts worked out beside the door, never on its event loop.

A few worker processes (``python -m door.solvers.worker``, at a lower priority) take one job
at a time each; more jobs wait in line.  ``await pool.solve(...)`` returns a
:class:`~door.games.solvers.Verdict`.  A job gets its CPU budget (the solver stops itself
and answers "unknown"), and a wall-clock guard on top for a machine too busy to give it the
CPU.  When the caller who asked leaves -- the task awaiting the verdict is cancelled -- the
worker is killed at once and the job forgotten; the next job starts a fresh worker.

Two priorities.  A job a caller is waiting for (``urgent``: "still winnable?", a search
player's Hint and Demo, a winnable deal to play) goes before the background ones (a deal's verdict
for the end of the game, a replay's).  When every worker is busy with background jobs, an
urgent job *suspends* one (SIGSTOP: it keeps its work, its CPU budget does not run and its
wall-clock guard is paused) and runs on a worker of its own; the suspended job goes on
(SIGCONT) as soon as a worker is free again.  So at most ``size`` solver processes run at
once, and at most ``size`` more sit stopped: ``2 × size`` processes at the very most.
(Killing and restarting the background job instead throws its work away, and a caller who
asks after every move would keep a long one from ever finishing; an extra worker running
beside it would take a core more from the callers.  docs/solvability.md has the figures.)

A card game's hint (:meth:`SolverPool.hint`) is an urgent job too: the solver's winning
line from the caller's position, or the line to the best score when no win is known.

Everyone waiting for the same answer shares one job: callers opening the same deal, and a
"still winnable?" asked on the position as dealt, which is the deal's own verdict (the job
then becomes urgent).  A job is dropped only when the last one waiting for it leaves.

One pool per door process (:func:`solver_pool`): ``reussite serve`` shares it between all its
callers, ``reussite door`` has its own.  sysop.ini ``[solver]`` sets its size and budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..config import Settings
from ..games.solvers import UNKNOWN, Verdict

log = logging.getLogger(__name__)

WALL_FACTOR, WALL_EXTRA = 3.0, 10.0
"""A job that has not answered after budget × WALL_FACTOR + WALL_EXTRA seconds of wall time
(not counting the time it was suspended) is killed (its verdict: unknown)."""
DOOR_ROOT = str(Path(__file__).resolve().parent.parent.parent)
"""The folder this process imports ``door`` from: site-packages for an install, the checkout
for an editable one (or the tests)."""
WORKER_COMMAND = [sys.executable, "-P", "-m", "door.solvers.worker"]
"""``-P``: the worker does not put its current folder first on its import path.  A door
started from its checkout (as the README says) otherwise imported the checkout's ``.py``
files in its solver workers, not the installed ones: never the compiled solver of a
``REUSSITE_COMPILE=1`` install (docs/workers.md "Compiled modules")."""


def _worker_environment() -> dict[str, str]:
    """This environment, with this process's ``door`` first on the worker's import path:
    the worker runs the very code (and build) the door runs."""
    paths = [DOOR_ROOT, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


RECYCLE_AFTER_S = 2.0
"""A worker whose job ran this long is replaced: a big search leaves a big process."""
KNOWN_DEALS = 256
"""Deal verdicts remembered (the same deal is often played again at once)."""
PLAYER_SECONDS = 10.0
"""The wall-clock guard's base for a search player's move (Demo, Hint: ~40 ms of CPU)."""
LINE_LIMIT = 1 << 22
"""Longest answer line read from a worker (a winning line is a few KiB)."""
READY = b"ready"
"""A worker's first line: it has asked to die with the door (see door.solvers.worker)."""
CAN_SUSPEND = hasattr(signal, "SIGSTOP")
"""Without SIGSTOP (not POSIX), an urgent job waits for a free worker like any other."""

URGENT, BACKGROUND = 0, 1
"""Job priorities, most urgent first."""
QUEUED, RUNNING, SUSPENDED, DONE = "queued", "running", "suspended", "done"
"""A job's states."""


class _Worker:
    """One ``python -m door.solvers.worker`` process and its pipes."""

    def __init__(self, process: subprocess.Popen[bytes], reader: asyncio.StreamReader,
                 reading: asyncio.BaseTransport, writer: asyncio.StreamWriter) -> None:
        self.process, self.reader, self.writer = process, reader, writer
        self._reading = reading

    @classmethod
    async def start(cls) -> _Worker:
        """A new worker, forked on a thread of its own: the thread that starts a process
        waits until the child has called exec, 20-50 ms on a loaded machine, and on the
        event loop that wait stalled every caller's keys (bench/soak.py: 21 stalls of
        ~45 ms in 2 minutes, each time a caller left a game and its job's worker was
        replaced).  Cancelled meanwhile, the process is killed and reaped once it exists."""
        starting = asyncio.ensure_future(asyncio.to_thread(
            subprocess.Popen, WORKER_COMMAND, env=_worker_environment(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
        try:
            process = await asyncio.shield(starting)
        except asyncio.CancelledError:
            starting.add_done_callback(_kill_unwanted)
            raise
        loop = asyncio.get_running_loop()
        reading: asyncio.BaseTransport | None = None
        try:
            assert process.stdin is not None and process.stdout is not None
            reader = asyncio.StreamReader(limit=LINE_LIMIT, loop=loop)
            reading, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), process.stdout)
            transport, protocol = await loop.connect_write_pipe(
                lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), process.stdin)
        except BaseException:
            if reading is not None:
                reading.close()
            _Worker._end(process)
            raise
        return cls(process, reader, reading,
                   asyncio.StreamWriter(transport, protocol, None, loop))

    async def ready(self) -> None:
        """Wait for its first line: from then on it dies with the door, so it may be
        suspended (SIGSTOP) without being left stopped for ever if the door is killed."""
        if (await self.reader.readline()).strip() != READY:
            raise ConnectionError("the solver worker did not start")

    async def ask(self, job: dict[str, Any]) -> dict[str, Any]:
        self.writer.write(json.dumps(job).encode() + b"\n")
        await self.writer.drain()
        line = await self.reader.readline()
        if not line:
            raise ConnectionError("the solver worker stopped")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def signal(self, signum: int) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signum)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)

    async def reap(self) -> None:
        """Close its pipes and wait for the killed process (on a thread: waitpid blocks)."""
        self.writer.close()
        self._reading.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            await asyncio.to_thread(self.process.wait, 5)

    @staticmethod
    def _end(process: subprocess.Popen[bytes]) -> None:
        """Kill a process no worker was made of, and reap it on a thread."""
        process.kill()
        for pipe in (process.stdin, process.stdout):  # closed already if a transport had it
            if pipe is not None:
                pipe.close()
        threading.Thread(target=process.wait, daemon=True).start()


def _kill_unwanted(starting: asyncio.Future[subprocess.Popen[bytes]]) -> None:
    """A worker's start was cancelled while its process was being forked: end it."""
    if not starting.cancelled() and starting.exception() is None:
        _Worker._end(starting.result())


class _Job:
    """One piece of work, shared by everyone waiting for its answer: a worker's JSON answer,
    None when it overran its wall-clock guard, or the exception that stopped it."""

    def __init__(self, key: str, spec: dict[str, Any], guard: float, seq: int) -> None:
        self.key, self.spec, self.seq = key, spec, seq
        self.waiting = {URGENT: 0, BACKGROUND: 0}
        self.answer: asyncio.Future[dict[str, Any] | None] = (
            asyncio.get_running_loop().create_future())
        self.state = QUEUED
        self.worker: _Worker | None = None
        self.runner: asyncio.Task[None] | None = None
        self.wall_left = guard
        """Seconds of wall time left before the guard; the clock stops while suspended."""
        self.clock_since: float | None = None
        self.guard: asyncio.TimerHandle | None = None

    @property
    def priority(self) -> int:
        return URGENT if self.waiting[URGENT] else BACKGROUND

    @property
    def wanted(self) -> bool:
        return any(self.waiting.values())


class SolverPool:
    """At most ``size`` jobs solved at once (and ``size`` more suspended for urgent ones),
    each within ``budget`` CPU seconds unless told."""

    def __init__(self, size: int, budget: float) -> None:
        self.size = max(1, size)
        self.budget = budget
        self._idle: list[_Worker] = []
        self._jobs: dict[str, _Job] = {}
        """Jobs not done yet, by key, oldest first."""
        self._seq = 0
        self._reaping: set[asyncio.Task[None]] = set()
        self._known: OrderedDict[str, Verdict] = OrderedDict()
        self.closed = False

    def _count(self, state: str) -> int:
        return sum(job.state == state for job in self._jobs.values())

    @property
    def running(self) -> int:
        """Jobs being solved now."""
        return self._count(RUNNING)

    @property
    def suspended(self) -> int:
        """Background jobs stopped for urgent ones."""
        return self._count(SUSPENDED)

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return self._count(QUEUED)

    def workers(self) -> list[_Worker]:
        """The worker processes alive: busy, suspended and idle."""
        return [*(job.worker for job in self._jobs.values() if job.worker), *self._idle]

    async def solve(self, game: str, number: int, options: dict[str, Any] | None = None, *,
                    position: dict[str, Any] | None = None,
                    seconds: float | None = None, urgent: bool = False) -> Verdict:
        """The verdict on a deal (or a position: a game's JSON state).  ``urgent``: a caller
        is waiting for it (see the module's docstring).  Cancelling the awaiting task drops
        the job unless somebody else waits for it too."""
        if self.closed:
            raise RuntimeError("the solver pool is closed")
        seconds = self.budget if seconds is None else seconds
        options = options or {}
        deal = json.dumps([game, number, options, seconds], sort_keys=True)
        if position is None and deal in self._known:     # a deal asked about again
            self._known.move_to_end(deal)
            return self._known[deal]
        spec = {"game": game, "number": number, "options": options,
                "position": position, "seconds": seconds}
        key = deal if position is None else json.dumps(["position", spec], sort_keys=True)
        started = time.monotonic()
        answer = await self._answer(key, spec, seconds * WALL_FACTOR + WALL_EXTRA, urgent)
        if answer is None:
            return Verdict(game, number, options, UNKNOWN, 0, time.monotonic() - started)
        if "error" in answer:
            raise ValueError(answer["error"])
        verdict = Verdict.from_json(answer)
        if position is None and verdict.verdict != UNKNOWN:
            self._known[deal] = verdict
            while len(self._known) > KNOWN_DEALS:
                self._known.popitem(last=False)
        return verdict

    async def hint(self, game: str, number: int, options: dict[str, Any] | None = None, *,
                   position: dict[str, Any] | None = None, seconds: float = 5.0) -> Verdict:
        """A card game's hint for a position (``door.games.solvers.hint_game``: a verdict with
        the line the hint follows), worked out in the pool as an urgent job (the caller
        waits for it); a verdict "unknown" with no line when the job overran its wall-clock
        guard.  Cancelling the awaiting task drops the job."""
        if self.closed:
            raise RuntimeError("the solver pool is closed")
        options = options or {}
        spec = {"kind": "hint", "game": game, "number": number, "options": options,
                "position": position, "seconds": seconds}
        started = time.monotonic()
        answer = await self._answer(json.dumps(spec, sort_keys=True), spec,
                                    seconds * WALL_FACTOR + WALL_EXTRA, urgent=True)
        if answer is None:
            return Verdict(game, number, options, UNKNOWN, 0, time.monotonic() - started)
        if "error" in answer:
            raise ValueError(answer["error"])
        return Verdict.from_json(answer)

    async def player_move(self, game: str, position: dict[str, Any],
                          seconds: float = PLAYER_SECONDS, urgent: bool = True) -> str | None:
        """A search player's move for a game's JSON state (a game's Demo and Hint), worked out
        in the pool like a verdict (urgent: the caller waits for it); None when the job
        overran its wall-clock guard.  Cancelling the awaiting task drops the job."""
        if self.closed:
            raise RuntimeError("the solver pool is closed")
        spec = {"kind": "move", "game": game, "position": position}
        answer = await self._answer(json.dumps(spec, sort_keys=True), spec,
                                    seconds * WALL_FACTOR + WALL_EXTRA, urgent)
        if answer is None:
            return None
        if "error" in answer:
            raise ValueError(answer["error"])
        return str(answer["move"])

    async def _answer(self, key: str, spec: dict[str, Any], guard: float,
                      urgent: bool) -> dict[str, Any] | None:
        """Wait for the answer of the job ``key`` (joined if under way, else queued)."""
        job = self._jobs.get(key)
        if job is None:
            self._seq += 1
            job = self._jobs[key] = _Job(key, spec, guard, self._seq)
        priority = URGENT if urgent else BACKGROUND
        job.waiting[priority] += 1
        self._dispatch()
        try:
            return await asyncio.shield(job.answer)
        finally:
            job.waiting[priority] -= 1
            if not job.wanted:
                self._drop(job)
            self._dispatch()            # a slot freed, or the job is no longer urgent

    # -- scheduling -----------------------------------------------------------------------
    def _dispatch(self) -> None:
        """Give free workers to the jobs waiting, most urgent first (a suspended job before
        a queued one of the same priority, then oldest first); an urgent job with no free
        worker suspends a running background one, while fewer than ``size`` are."""
        while not self.closed:
            waiting = [job for job in self._jobs.values() if job.state in (QUEUED, SUSPENDED)]
            if not waiting:
                return
            job = min(waiting, key=lambda j: (j.priority, j.state != SUSPENDED, j.seq))
            if self.running < self.size:
                self._go(job)
                continue
            if job.priority != URGENT or not CAN_SUSPEND or self.suspended >= self.size:
                return
            background = [j for j in self._jobs.values()
                          if j.state == RUNNING and j.priority == BACKGROUND]
            if not background:
                return
            self._suspend(max(background, key=lambda j: j.seq))

    def _go(self, job: _Job) -> None:
        if job.state == QUEUED:
            job.runner = asyncio.ensure_future(self._run(job))
        elif job.worker is not None:      # suspended: on it goes
            job.worker.signal(signal.SIGCONT)
            self._clock(job, on=True)
        job.state = RUNNING

    def _suspend(self, job: _Job) -> None:
        job.state = SUSPENDED
        if job.worker is not None:        # else its worker is starting: _run stops it
            job.worker.signal(signal.SIGSTOP)
            self._clock(job, on=False)

    def _clock(self, job: _Job, on: bool) -> None:
        """Run or stop the job's wall-clock guard."""
        now = time.monotonic()
        if job.guard is not None:
            job.guard.cancel()
            job.guard = None
        if job.clock_since is not None:
            job.wall_left -= now - job.clock_since
            job.clock_since = None
        if on:
            job.clock_since = now
            job.guard = asyncio.get_running_loop().call_later(
                max(0.0, job.wall_left), self._overran, job)

    def _overran(self, job: _Job) -> None:
        log.warning("solver job %s killed after its wall-clock guard",
                    json.dumps(job.spec)[:80])
        if not job.answer.done():
            job.answer.set_result(None)
        self._stop(job)

    def _drop(self, job: _Job) -> None:
        """Nobody waits for the job any more: forget it, killing its worker."""
        if not job.answer.done():
            job.answer.cancel()
        self._stop(job)

    def _stop(self, job: _Job) -> None:
        """Forget the job now (the same question asked again is a new job), and kill its
        worker (its runner does, and gives the slot back)."""
        self._finish(job)
        if job.runner is not None:
            job.runner.cancel()

    def _finish(self, job: _Job) -> None:
        job.state = DONE
        if job.guard is not None:
            job.guard.cancel()
        if self._jobs.get(job.key) is job:
            del self._jobs[job.key]

    async def _run(self, job: _Job) -> None:
        """Solve one job on a worker (an idle one, else a new one)."""
        worker: _Worker | None = None
        started = time.monotonic()
        try:
            if self._idle:
                worker = self._idle.pop()
            else:
                worker = await _Worker.start()
                await worker.ready()    # (a cancel meanwhile: discarded below, and reaped)
            job.worker = worker
            if job.state == SUSPENDED:
                worker.signal(signal.SIGSTOP)
            else:
                self._clock(job, on=True)
            answer = await worker.ask(job.spec)
        except asyncio.CancelledError:     # dropped, overran, or the pool closed
            self._discard(worker)
            raise
        except (OSError, ValueError) as exc:     # the worker died, or said nonsense
            self._discard(worker)
            if not job.answer.done():
                job.answer.set_exception(ConnectionError(f"the solver worker failed: {exc}"))
        else:
            if (time.monotonic() - started > RECYCLE_AFTER_S
                    or len(self.workers()) > self.size):
                self._discard(worker)         # a big process, or one more than the pool's size
            else:
                self._idle.append(worker)
            if not job.answer.done():
                job.answer.set_result(answer)
        finally:
            # Done: a cancel's error holds this frame, which holds the job, which must not
            # hold this task (a reference cycle: every call that left before its deal's
            # verdict came waited for the server's full collection, issue #36).
            job.worker, job.runner = None, None
            self._finish(job)
            self._dispatch()

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
        runners = [job.runner for job in self._jobs.values() if job.runner is not None]
        for job in list(self._jobs.values()):
            if not job.answer.done():
                job.answer.set_exception(ConnectionError("the solver pool is closed"))
            if job.runner is not None:
                job.runner.cancel()
            self._finish(job)
        while self._idle:
            self._discard(self._idle.pop())
        await asyncio.gather(*runners, return_exceptions=True)
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
