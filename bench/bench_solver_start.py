"""How late the event loop runs while solver workers are started (issue #36).

Each caller who leaves a game with a solver job running has its worker killed, and the next
job starts a fresh ``python -m door.solvers.worker`` (door/solvers/pool.py).  This bench starts
and kills ``--workers`` workers one after another, in a fresh process per way, beside a
loop task that wakes every 10 ms (bench/bench_hash_lag.py's :func:`lateness`): once forked
from the event loop's own thread (``asyncio.create_subprocess_exec``, the door's way until
now), once through :meth:`door.solvers.pool._Worker.start` (forked on a thread).  Runs
alternate, ``--rounds`` of each.

    nice -n 10 python bench/bench_solver_start.py [--workers 20] [--rounds 3]

Prints each run's lateness p50 / p99 / max, its wall time and the load.
Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from bench_hash_lag import in_a_child, lateness, shown  # noqa: E402

WAYS = ("loop", "thread")


async def on_the_loop() -> None:
    """One worker started and killed as door/solvers/pool.py did before: forked by the loop."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door.solvers.worker", stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    assert process.stdout is not None
    await process.stdout.readline()
    process.kill()
    await process.wait()


async def on_a_thread() -> None:
    """One worker started and killed as door/solvers/pool.py does."""
    from door.solvers.pool import _Worker

    worker = await _Worker.start()
    await worker.ready()
    worker.kill()
    await worker.reap()


async def run(way: str, workers: int) -> dict[str, float]:
    start = on_the_loop if way == "loop" else on_a_thread

    async def all_of_them() -> None:
        for _ in range(workers):
            await start()

    return await lateness(all_of_them())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ballast", type=int, default=150, metavar="MIB",
                        help="memory the process holds, as a door serving callers does (its "
                        "RSS is 100-250 MiB): forking copies its page tables")
    parser.add_argument("--child", choices=WAYS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        ballast = [bytearray(b"x" * 4096) for _ in range(args.ballast * 256)]
        print(json.dumps(asyncio.run(run(args.child, args.workers))))
        del ballast
        return
    print(f"{os.cpu_count()} CPUs; {args.workers} solver workers started and killed one after "
          f"another by a process holding {args.ballast} MiB; lateness of a loop task waking "
          "every 10 ms")
    for _ in range(args.rounds):
        for way in WAYS:
            got = in_a_child(__file__, "--child", way, "--workers", str(args.workers),
                             "--ballast", str(args.ballast))
            print(f"  forked on the {way:<6}: {shown(got)}", flush=True)


if __name__ == "__main__":
    main()
