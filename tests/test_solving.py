"""The solvers' process pool: verdicts from worker processes, one job per worker at a time,
a job killed when the caller leaves, a wall-clock guard, a clean close."""

from __future__ import annotations

import asyncio
import time

import pytest
from waiting import WAIT

from door import solving
from door.games import Status
from door.games.anciento import Anciento
from door.games.anciento_player import search_move
from door.games.montecarlo import MonteCarlo
from door.games.solvers import NOT_WINNABLE, UNKNOWN, WINNABLE
from door.solving import SolverPool

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


async def test_the_search_players_move_comes_from_a_worker() -> None:
    pool = SolverPool(1, 10)
    try:
        game = Anciento.new(505)
        for _ in range(3):
            move = await pool.player_move("anciento", game.to_json())
            assert move == search_move(game)
            game.play(move)
        with pytest.raises(ValueError, match="anciento"):
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
        verdict = await asyncio.wait_for(quick, 60)   # ... and the next job goes ahead
        assert verdict.verdict == NOT_WINNABLE
    finally:
        await pool.close()


async def test_a_cancelled_job_kills_its_worker_process() -> None:
    pool = SolverPool(1, 10)
    try:
        job = asyncio.ensure_future(pool.solve(*HARD, seconds=60))
        await until(lambda: len(pool._active) == 1)
        (worker,) = pool._active
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
    from door import solving

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
    await until(lambda: len(pool._active) == 1)
    workers = [*pool._idle, *pool._active]
    await pool.close()
    for worker in workers:
        await until(lambda w=worker: w.process.returncode is not None)
    job.cancel()
    with pytest.raises((asyncio.CancelledError, ConnectionError)):
        await job
    with pytest.raises(RuntimeError):
        await pool.solve("auntmary", 2)
