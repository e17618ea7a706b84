"""How late the event loop runs while a burst of logins hashes passwords (issue #36).

A login costs one scrypt hash on the door's hashing threads (door/store/accounts.py: a
line's first try on one at the loop's niceness, the other tries on one at ``HASHING_NICE``);
the event loop that answers every caller's keys shares the cores with them.  This bench
runs, in a fresh process for each setting, an event loop that wakes every 10 ms and notes
how late each wake-up is (:func:`lateness`, also bench/bench_solver_start.py's), while
``--hashes`` hashes go through the door's second-try thread; once at the loop's niceness,
once at +10 (the door's setting).  Runs alternate, ``--rounds`` of each.

    python bench/bench_hash_lag.py [--hashes 200] [--rounds 3]

Prints each run's lateness p50 / p99 / max and the hashes' wall time, and the machine's
load (other processes share the cores too).  Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Awaitable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TICK_S = 0.010


async def lateness(work: Awaitable[object]) -> dict[str, float]:
    """Run ``work`` beside a loop task that wakes every TICK_S: how late its wake-ups were
    (ms: p50, p99, max) and the work's wall time (s)."""
    loop = asyncio.get_running_loop()
    late: list[float] = []
    done = False

    async def ticker() -> None:
        due = loop.time() + TICK_S
        while not done:
            await asyncio.sleep(max(0.0, due - loop.time()))
            late.append(loop.time() - due)
            due += TICK_S

    task = asyncio.create_task(ticker())
    began = time.monotonic()
    await work
    wall = time.monotonic() - began
    done = True
    await task
    late.sort()
    return {"p50": 1000 * late[len(late) // 2], "p99": 1000 * late[int(len(late) * 0.99)],
            "max": 1000 * late[-1], "wall": wall}


def in_a_child(*argv: str) -> dict[str, float]:
    """The figures a fresh interpreter running ``argv`` prints as its last line (JSON)."""
    out = subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def shown(got: dict[str, float]) -> str:
    return (f"late p50 {got['p50']:5.1f} ms, p99 {got['p99']:6.1f} ms, max "
            f"{got['max']:6.1f} ms; {got['wall']:.1f} s; load {os.getloadavg()[0]:.1f}")


async def measure(hashes: int) -> dict[str, float]:
    from door.store import accounts

    return await lateness(asyncio.gather(*(
        accounts._hashing(f"10.0.0.{n % 50}", accounts.hash_password, "a password")
        for n in range(hashes))))


def child(nice: int, hashes: int) -> None:
    from door.store import accounts

    accounts.HASHING_NICE = nice  # read as each hashing thread starts
    print(json.dumps(asyncio.run(measure(hashes))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hashes", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.hashes)
        return
    print(f"{os.cpu_count()} CPUs; {args.hashes} scrypt hashes on the door's second-try "
          f"thread, a "
          f"loop waking every {TICK_S * 1000:.0f} ms; lateness of its wake-ups")
    for _ in range(args.rounds):
        for nice in (0, 10):
            got = in_a_child(__file__, "--child", str(nice), "--hashes", str(args.hashes))
            print(f"  hashing threads at +{nice:<2}: {shown(got)}", flush=True)


if __name__ == "__main__":
    main()
