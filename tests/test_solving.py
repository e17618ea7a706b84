"""The solvers' process pool: verdicts from worker processes, one job per worker at a time,
a job killed when the caller leaves, a wall-clock guard, a clean close."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
from waiting import WAIT

from door.games import Status
from door.games.anciento import Anciento
from door.games.anciento_player import search_move
from door.games.auntmary import AuntMary
from door.games.montecarlo import MonteCarlo
from door.games.solvers import NOT_WINNABLE, UNKNOWN, WINNABLE
from door.solvers import pool as solving
from door.solvers.pool import SolverPool

pytestmark = pytest.mark.slow  # each test starts solver worker processes

HARD = ("auntmary", 55)
"""An Aunt Mary deal that keeps the solver busy for minutes."""


async def until(predicate, deadline: float = WAIT) -> None:
    end = time.monotonic() + deadline
    while not predicate():
        assert time.monotonic() < end, "condition not reached in time"
        await asyncio.sleep(0.02)


async def test_verdicts_come_from_the_workers() -> None:
    pool = SolverPool(1, 10)
    try:
        won = await pool.solve("montecarlo", 3, {"mode": "relaxed"})
        assert won.verdict == WINNABLE
        game = MonteCarlo.new(3, mode="relaxed")
        for move in won.line:
            game.play(move)
        assert game.status is Status.WON
        lost = await pool.solve("auntmary", 2)
        assert lost.verdict == NOT_WINNABLE
        position = MonteCarlo.new(3, mode="relaxed").to_json()
        again = await pool.solve("montecarlo", 3, position=position)
        assert again.verdict == WINNABLE and again.options == {"mode": "relaxed"}
        with pytest.raises(ValueError, match="mode"):
            await pool.solve("montecarlo", 3, {"mode": "sideways"})
    finally:
        await pool.close()


async def test_a_worker_runs_the_doors_own_code_whatever_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A door started from its checkout (the README's way) has that folder as its current
    one; its workers must still import the door it runs (an install's, compiled or not),
    not the folder's: here the folder holds a ``door`` that cannot even be imported."""
    (tmp_path / "door").mkdir()
    (tmp_path / "door" / "__init__.py").write_text("raise ImportError('the folder door')\n")
    monkeypatch.chdir(tmp_path)
    pool = SolverPool(1, 10)
    try:
        won = await pool.solve("montecarlo", 3, {"mode": "relaxed"})
        assert won.verdict == WINNABLE
    finally:
        await pool.close()


async def test_the_search_players_move_comes_from_a_worker() -> None:
    pool = SolverPool(1, 10)
    try:
        game = Anciento.new(505)
        for _ in range(3):
            move = await pool.player_move("anciento", game.to_json())
            assert move == search_move(game)
            game.play(move)
        with pytest.raises(ValueError, match="no search player for 'auntmary'"):
            await pool.player_move("auntmary", game.to_json())
    finally:
        await pool.close()


async def test_one_job_per_worker_the_rest_wait() -> None:
    pool = SolverPool(1, 10)
    try:
        hard = asyncio.ensure_future(pool.solve(*HARD, seconds=60))
        await until(lambda: pool.running == 1)
        quick = asyncio.ensure_future(pool.solve("auntmary", 2))
        await until(lambda: pool.queued == 1)
        assert not quick.done()
        hard.cancel()               # the caller who asked left: the worker is killed ...
        with pytest.raises(asyncio.CancelledError):
            await hard
        verdict = await asyncio.wait_for(quick, 2 * WAIT)   # ... and the next job goes ahead
        assert verdict.verdict == NOT_WINNABLE
    finally:
        await pool.close()


async def test_a_cancelled_job_kills_its_worker_process() -> None:
    pool = SolverPool(1, 10)
    try:
        job = asyncio.ensure_future(pool.solve(*HARD, seconds=60))
        await until(lambda: len(pool.workers()) == 1)
        (worker,) = pool.workers()
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
        await until(lambda: worker.process.returncode is not None)
        assert pool.running == 0 and not pool._idle
    finally:
        await pool.close()


async def test_the_wall_clock_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solving, "WALL_FACTOR", 0.0)
    monkeypatch.setattr(solving, "WALL_EXTRA", 1.0)
    pool = SolverPool(1, 10)
    try:
        verdict = await pool.solve(*HARD, seconds=60)
        assert verdict.verdict == UNKNOWN
        monkeypatch.undo()           # the next job gets the usual guard, and a new worker
        assert (await pool.solve("auntmary", 2)).verdict == NOT_WINNABLE
    finally:
        await pool.close()


async def test_a_deal_asked_again_is_remembered() -> None:
    pool = SolverPool(1, 10)
    try:
        first = await pool.solve("auntmary", 2)
        while pool._idle:    # no worker left: a second answer can only come from memory
            pool._discard(pool._idle.pop())
        pool.size = 0
        assert await pool.solve("auntmary", 2) == first
    finally:
        pool.size = 1
        await pool.close()


async def test_callers_waiting_for_the_same_deal_share_one_job(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A thousand callers opening the same deal at once cost one solve, not a thousand."""
    from door.solvers import pool as solving

    asked = []
    ask = solving._Worker.ask

    async def counting(self, job):
        asked.append(job["number"])
        return await ask(self, job)
    monkeypatch.setattr(solving._Worker, "ask", counting)
    pool = SolverPool(1, 10)
    try:
        verdicts = await asyncio.gather(*(pool.solve("auntmary", 2) for _ in range(20)))
        assert {v.verdict for v in verdicts} == {NOT_WINNABLE} and asked == [2]
    finally:
        await pool.close()


async def test_close_kills_busy_and_idle_workers() -> None:
    pool = SolverPool(2, 10)
    await pool.solve("auntmary", 2)
    job = asyncio.ensure_future(pool.solve(*HARD, seconds=60))
    await until(lambda: worker_of(pool, 55) is not None)
    workers = pool.workers()
    await pool.close()
    for worker in workers:
        await until(lambda w=worker: w.process.returncode is not None)
    job.cancel()
    with pytest.raises((asyncio.CancelledError, ConnectionError)):
        await job
    with pytest.raises(RuntimeError):
        await pool.solve("auntmary", 2)


def stopped(worker: solving._Worker) -> bool:
    """Is the worker's process stopped (SIGSTOP)?  Its state letter in /proc."""
    stat = Path(f"/proc/{worker.process.pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] == "T"


def worker_of(pool: SolverPool, number: int) -> solving._Worker | None:
    return next((job.worker for job in pool._jobs.values()
                 if job.spec.get("number") == number and job.worker), None)


async def test_an_urgent_job_suspends_a_background_one_which_goes_on_after() -> None:
    """One worker busy on a deal's verdict (background): a caller's question does not wait
    for it.  The background job is stopped, not killed, and goes on once the other is done;
    never more than one solver runs at once."""
    pool = SolverPool(1, 10)
    try:
        background = asyncio.ensure_future(pool.solve(*HARD, seconds=60))
        await until(lambda: worker_of(pool, 55) is not None)
        busy = worker_of(pool, 55)
        assert busy is not None
        position = AuntMary.new(2)
        position.play("s")
        asked = asyncio.ensure_future(pool.solve("auntmary", 2, position=position.to_json(),
                                                 urgent=True))
        await until(lambda: pool.suspended == 1)
        assert pool.running == 1
        await until(lambda: stopped(busy))  # the kernel stops it when it next runs
        assert (await asyncio.wait_for(asked, WAIT)).verdict == NOT_WINNABLE
        await until(lambda: pool.suspended == 0 and pool.running == 1)
        assert not stopped(busy) and worker_of(pool, 55) is busy and not background.done()
        background.cancel()
        with pytest.raises(asyncio.CancelledError):
            await background
        await until(lambda: busy.process.returncode is not None)
    finally:
        await pool.close()


async def test_at_most_size_jobs_suspended_the_next_urgent_one_waits() -> None:
    pool = SolverPool(1, 10)
    try:
        background = asyncio.ensure_future(pool.solve(*HARD, seconds=60))
        await until(lambda: pool.running == 1)
        moved = AuntMary.new(55)
        moved.play("s")
        first = asyncio.ensure_future(pool.solve(*HARD, position=moved.to_json(),
                                                 seconds=60, urgent=True))
        await until(lambda: pool.suspended == 1 and pool.running == 1)
        second = asyncio.ensure_future(pool.solve("auntmary", 2, urgent=True))
        await until(lambda: pool.queued == 1 and len(pool.workers()) == 2)  # both started
        assert (pool.running, pool.suspended, len(pool.workers())) == (1, 1, 2)
        first.cancel()                   # its caller left: the next urgent job goes first
        assert (await asyncio.wait_for(second, WAIT)).verdict == NOT_WINNABLE
        await until(lambda: pool.running == 1 and pool.suspended == 0)   # then it goes on
        assert not background.done()
        background.cancel()
        await asyncio.gather(first, background, return_exceptions=True)
    finally:
        await pool.close()


async def test_urgent_jobs_are_served_before_background_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In line, a caller's question goes before deals' verdicts asked earlier."""
    order: list[int] = []
    ask = solving._Worker.ask

    async def recording(self, job):
        order.append(job["number"])
        return await ask(self, job)
    monkeypatch.setattr(solving._Worker, "ask", recording)
    monkeypatch.setattr(solving, "CAN_SUSPEND", False)    # no suspending: a line of three
    pool = SolverPool(1, 10)
    try:
        first = asyncio.ensure_future(pool.solve(*HARD, seconds=60, urgent=True))
        await until(lambda: order == [55])      # its worker started and has the job
        later = asyncio.ensure_future(pool.solve("auntmary", 2))
        await until(lambda: pool.queued == 1)
        sooner = asyncio.ensure_future(pool.solve("montecarlo", 3, urgent=True))
        await until(lambda: pool.queued == 2)
        first.cancel()
        await asyncio.wait_for(asyncio.gather(later, sooner), WAIT)
        assert order == [55, 3, 2]
        await asyncio.gather(first, return_exceptions=True)
    finally:
        await pool.close()


async def test_a_question_about_the_deal_as_dealt_joins_its_verdict() -> None:
    """"Still winnable?" before any move is the deal's verdict: one job, made urgent, and
    kept for the other one waiting when the asker leaves."""
    pool = SolverPool(1, 10)
    try:
        verdict = asyncio.ensure_future(pool.solve(*HARD, seconds=60))
        await until(lambda: pool.running == 1)
        (job,) = pool._jobs.values()
        asked = asyncio.ensure_future(pool.solve(*HARD, seconds=60, urgent=True))
        await until(lambda: job.priority == solving.URGENT)
        assert len(pool._jobs) == 1 and pool.running == 1 and pool.suspended == 0
        asked.cancel()
        await asyncio.gather(asked, return_exceptions=True)
        assert job.priority == solving.BACKGROUND and pool.running == 1
        assert not verdict.done()
        verdict.cancel()
        await asyncio.gather(verdict, return_exceptions=True)
        await until(lambda: pool.running == 0 and not pool._jobs)
    finally:
        await pool.close()



async def test_the_same_question_asked_again_just_after_its_asker_left() -> None:
    """The dropped job is forgotten at once: the next asker gets a job of their own, not
    the one being killed."""
    pool = SolverPool(1, 10)
    try:
        left = asyncio.ensure_future(pool.solve("auntmary", 2, urgent=True))
        await until(lambda: pool.running == 1)
        left.cancel()
        again = asyncio.ensure_future(pool.solve("auntmary", 2, urgent=True))
        await asyncio.gather(left, return_exceptions=True)
        assert (await asyncio.wait_for(again, WAIT)).verdict == NOT_WINNABLE
    finally:
        await pool.close()


ORPHAN_SCRIPT = """
import asyncio
import sys
from door.solvers.pool import SolverPool
from door.games.auntmary import AuntMary

async def main():
    pool = SolverPool(1, 60)
    asyncio.ensure_future(pool.solve("auntmary", 55, seconds=60))
    while pool.running < 1:
        await asyncio.sleep(0.02)
    moved = AuntMary.new(55)
    moved.play("s")
    asyncio.ensure_future(pool.solve("auntmary", 55, position=moved.to_json(), seconds=60,
                                     urgent=True))
    while pool.suspended < 1 or len(pool.workers()) < 2:
        await asyncio.sleep(0.02)
    print(" ".join(str(w.process.pid) for w in pool.workers()), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def process_state(pid: int) -> str:
    """The state letter of /proc/PID/stat (T stopped, Z zombie), or "gone"."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return "gone"
    return stat.rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
async def test_workers_die_with_a_door_killed_with_sigkill_even_a_suspended_one() -> None:
    door = await asyncio.create_subprocess_exec(sys.executable, "-c", ORPHAN_SCRIPT,
                                                stdout=asyncio.subprocess.PIPE)
    try:
        assert door.stdout is not None
        line = await asyncio.wait_for(door.stdout.readline(), WAIT)
        pids = [int(p) for p in line.split()]
        states = [process_state(p) for p in pids]
        assert len(pids) == 2 and "T" in states     # one is stopped for the urgent job
    finally:
        door.kill()
        await door.wait()
    await until(lambda: {process_state(p) for p in pids} <= {"gone", "Z"})
