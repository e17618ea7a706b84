"""A caller's question while the solver pool is busy in the background (issue #17).

Through the door's own pool (real worker processes), with ``--workers`` workers (default
1, the door's default on 2 cores) and every one of them on a background job (an Aunt Mary
deal's verdict the solver cannot settle in minutes, as at the start of a game):

* **urgent**: wall seconds from the question to the answer -- "still winnable?" on Aunt Mary
  #2 after one move (proved lost at once) and Anciento's hint on #505 (a search player's
  move, ~40 ms of CPU) -- on an idle pool with a worker ready (warm), on an idle pool that
  must start one (cold), and on the busy pool (the background jobs suspended meanwhile);
* **first come, first served**, as the pool was: how long the same question waited behind a
  background job with the door's 10 s budget (``--fcfs``, one run: it takes the budget);
* **the background job's cost**: a deal the solver settles in a few CPU seconds (Aunt Mary
  #25, lost), alone and interrupted by a question a second in: its CPU seconds (what a
  restart would have thrown away is the CPU it had at the interruption) and its wall time.

    nice -n 19 python bench/solver_priority.py [--runs 5] [--workers 1] [--fcfs]

Prints medians (and the range) with the machine's load average.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from door.games.anciento import Anciento
from door.games.auntmary import AuntMary
from door.solvers import pool as solving
from door.solvers.pool import SolverPool

HARD = (55, 100, 142, 33)
"""Aunt Mary deals the solver cannot settle in minutes: background jobs that stay busy."""
SHORT = 25
"""An Aunt Mary deal proved lost in a few CPU seconds: a background job that ends."""


def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def questions() -> dict[str, Callable[[SolverPool], Awaitable[Any]]]:
    lost = AuntMary.new(2)
    lost.play("s")
    board = Anciento.new(505).to_json()
    return {
        "still winnable? (Aunt Mary #2, 1 move)":
            lambda pool: pool.solve("auntmary", 2, position=lost.to_json(), urgent=True),
        "Anciento hint (#505)":
            lambda pool: pool.player_move("anciento", board),
    }


async def timed(job: Awaitable[Any]) -> float:
    began = time.monotonic()
    await job
    return time.monotonic() - began


async def busy(pool: SolverPool, workers: int, seconds: float = 600) -> list[asyncio.Future]:
    """Every worker on a background verdict that will not end during the bench."""
    jobs = [asyncio.ensure_future(pool.solve("auntmary", number, seconds=seconds))
            for number in HARD[:workers]]
    while pool.running < workers:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)              # the workers started and are solving
    return jobs


async def drop(jobs: list[asyncio.Future]) -> None:
    for job in jobs:
        job.cancel()
    await asyncio.gather(*jobs, return_exceptions=True)


def summary(values: list[float]) -> str:
    return (f"median {statistics.median(values) * 1000:7.0f} ms "
            f"(range {min(values) * 1000:.0f}-{max(values) * 1000:.0f}, {len(values)} runs)")


async def urgent(runs: int, workers: int) -> None:
    for name, ask in questions().items():
        warm, cold, loaded = [], [], []
        for _ in range(runs):
            pool = SolverPool(workers, 10)
            try:
                cold.append(await timed(ask(pool)))
                warm.append(await timed(ask(pool)))
                jobs = await busy(pool, workers)
                loaded.append(await timed(ask(pool)))
                assert pool.running == workers and not any(j.done() for j in jobs)
                await drop(jobs)
            finally:
                await pool.close()
        print(f"{name}:\n  idle pool, warm worker  {summary(warm)}\n"
              f"  idle pool, cold worker  {summary(cold)}\n"
              f"  busy pool (suspends)    {summary(loaded)}   {load()}", flush=True)


async def fcfs(workers: int) -> None:
    """The pool as it was: nothing suspended, the question waits for the background job."""
    solving.CAN_SUSPEND = False
    try:
        pool = SolverPool(workers, 10)
        try:
            jobs = await busy(pool, workers, seconds=10)
            ask = next(iter(questions().values()))
            print(f"first come, first served, budget 10 s: the question waited "
                  f"{await timed(ask(pool)):.1f} s   {load()}", flush=True)
            await drop(jobs)
        finally:
            await pool.close()
    finally:
        solving.CAN_SUSPEND = True


async def background_cost(runs: int) -> None:
    alone_cpu, alone_wall, cut_cpu, cut_wall, lost_cpu = [], [], [], [], []
    ask = next(iter(questions().values()))
    for _ in range(runs):
        pool = SolverPool(1, 60)
        try:
            began = time.monotonic()
            verdict = await pool.solve("auntmary", SHORT)
            alone_wall.append(time.monotonic() - began)
            alone_cpu.append(verdict.seconds)
            pool._known.clear()
            began = time.monotonic()
            job = asyncio.ensure_future(pool.solve("auntmary", SHORT))
            await asyncio.sleep(1.0)
            (worker,) = [w for w in pool.workers() if w.process.returncode is None]
            lost_cpu.append(cpu_seconds(worker.process.pid))   # what a restart throws away
            await ask(pool)
            verdict = await job
            cut_wall.append(time.monotonic() - began)
            cut_cpu.append(verdict.seconds)
        finally:
            await pool.close()
    print(f"background job (Aunt Mary #{SHORT}), {runs} runs, median CPU / wall seconds:\n"
          f"  alone                          {statistics.median(alone_cpu):.2f} / "
          f"{statistics.median(alone_wall):.2f}\n"
          f"  a question 1 s in (suspended)  {statistics.median(cut_cpu):.2f} / "
          f"{statistics.median(cut_wall):.2f}\n"
          f"  CPU a restart would throw away {statistics.median(lost_cpu):.2f}   {load()}",
          flush=True)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1, help="the pool's size")
    parser.add_argument("--fcfs", action="store_true",
                        help="also time the question first come, first served (10 s)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, pool of {args.workers}; {load()}", flush=True)
    await urgent(args.runs, args.workers)
    if args.fcfs:
        await fcfs(args.workers)
    await background_cost(args.runs)


if __name__ == "__main__":
    asyncio.run(main())
