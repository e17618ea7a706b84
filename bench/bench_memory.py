"""Memory per idle caller of ``reussite serve``, and where it goes.

Callers sign up and open a Monte Carlo deal the way ``bench/load.py``'s callers do (each
their own deal with ``--deals distinct``), then sit idle; or (``--who pool``) connections
sit at the login screen with a few letters typed, as a flood of idle logins would.  Two
runs of a real server in its own process:

1. untraced: the server's RSS after one warm-up caller, at N/2 and at N callers; prints the
   growth per caller from the warm-up (what load.py reports) and the slope between N/2 and
   N (the cost of one more caller, without what the first few callers start once);
2. under tracemalloc: the Python memory the N callers added, per caller, by the part of the
   program that allocated it (innermost frame of each allocation's traceback).

    python bench/bench_memory.py [--callers 400] [--who pool] [--deals distinct]
                                 [--settle 65] [--lines 30]

Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import re
import shutil
import signal
import sys
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import NUMBER, Line, Result, door_caller, make_home, proc_stats, stop

from door.compiled import build_name

REPO = Path(__file__).resolve().parent.parent

TRACED_SERVER = """
import gc, signal, sys, tracemalloc
tracemalloc.start(8)
SNAPSHOT = sys.argv[1]
def dump(*_):
    gc.collect()
    tracemalloc.take_snapshot().dump(SNAPSHOT)
    print("dumped", flush=True, file=sys.stderr)
signal.signal(signal.SIGUSR1, dump)
sys.argv.pop(1)
from door.cli import main
sys.exit(main(sys.argv[1:]))
"""

PARTS = (  # (where the allocating frame is, what it is); first match wins
    ("/door/term/screen.py", "screen: the cell grid screens draw into"),
    ("/door/term/render.py", "renderer: the frame the caller was last sent"),
    ("/door/term/", "terminal layer: decoder, charset, art"),
    ("/door/games/", "game engine state"),
    ("/door/ui/", "screens' own state (game frame, menu)"),
    ("/door/store/", "store: player record, who's online"),
    ("/door/", "session, server, net"),
    ("/telnetlib3/", "telnetlib3 (option tables, SLC, streams)"),
    ("/asyncio/", "asyncio (transports, tasks, futures)"),
    ("/sqlalchemy/", "SQLAlchemy"),
    ("", "other"),
)


def part_of(trace: tracemalloc.Trace) -> str:
    frame = trace.traceback[-1]  # frames run from the oldest call to the innermost
    for where, what in PARTS:
        if where in frame.filename:
            return what
    return "other"


async def start(home: Path, traced: bool) -> tuple[asyncio.subprocess.Process, int, Path]:
    snap_path = home / "memory.snap"
    head = [sys.executable, "-c", TRACED_SERVER, str(snap_path)] if traced else [
        sys.executable, "-m", "door"]
    proc = await asyncio.create_subprocess_exec(
        *head, "--home", str(home), "--log-level", "warning", "serve", "--telnet-port", "0",
        "--ssh-port", "-1", "--workers", "1",  # the callers in the process traced
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE if traced else asyncio.subprocess.DEVNULL,
        cwd=str(REPO))
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    return proc, int(re.search(r"telnet on \S+ port (\d+)", line).group(1)), snap_path


MODE: dict[str, Any] = {"who": "players", "deals": "same", "settle": 0.0}
"""What the callers are (--who, --deals) and how long they sit before a figure (--settle)."""


async def pool_caller(port: int, go: asyncio.Event, res: Result) -> None:
    """A connection in the login pool: at the login screen, a few letters of a handle
    typed (a connection that sends nothing is hung up after first_byte_timeout)."""
    writer = None
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        line = Line(reader, writer)
        await line.until(b"Handle:")
        line.send(b"idl")
        await asyncio.sleep(0.2)
        res.settled += 1
        await line.idle_until(go)
    except Exception as exc:
        res.failed += 1
        res.settled += 1
        if len(res.errors) < 3:
            res.errors.append(f"pool caller: {type(exc).__name__}: {exc}")
    finally:
        if writer is not None:
            writer.close()


class IdleCallers:
    """A server with one warmed-up caller; :meth:`add` brings more callers in, idle."""

    def __init__(self, proc: asyncio.subprocess.Process, port: int, snap_path: Path) -> None:
        self.proc, self.port, self.snap_path = proc, port, snap_path
        self.go, self.res = asyncio.Event(), Result()
        self.tasks: list[asyncio.Task] = []

    @property
    def rss(self) -> int:
        return proc_stats(self.proc.pid)[0]

    async def add(self, first: int, last: int, concurrency: int) -> None:
        """Callers ``first``..``last - 1``; returns once all of them are in or failed, and
        SETTLE seconds more."""
        ready = asyncio.Semaphore(concurrency)
        if MODE["who"] == "pool":
            self.tasks += [asyncio.create_task(pool_caller(self.port, self.go, self.res))
                           for i in range(first, last)]
        else:
            self.tasks += [asyncio.create_task(door_caller(
                i, self.port, [], self.go, ready, self.res,
                number=NUMBER + i if MODE["deals"] == "distinct" else NUMBER))
                for i in range(first, last)]
        while self.res.settled < last:
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0 + MODE["settle"])

    async def snapshot(self) -> tracemalloc.Snapshot:
        os.kill(self.proc.pid, signal.SIGUSR1)
        while not (await asyncio.wait_for(self.proc.stderr.readline(), 300)).startswith(
                b"dumped"):
            pass
        return tracemalloc.Snapshot.load(str(self.snap_path))


@contextlib.asynccontextmanager
async def idle_callers(n: int, traced: bool) -> AsyncIterator[IdleCallers]:
    home = make_home(n)
    proc, port, snap_path = await start(home, traced)
    run = IdleCallers(proc, port, snap_path)
    try:
        opened = asyncio.Event()
        opened.set()
        await door_caller(10**6, port, [], opened, asyncio.Semaphore(1), Result())
        await asyncio.sleep(1.0)
        yield run
    finally:
        run.go.set()
        await asyncio.gather(*run.tasks, return_exceptions=True)
        await stop(proc)
        shutil.rmtree(home, ignore_errors=True)


async def rss_run(n: int) -> None:
    async with idle_callers(n, traced=False) as run:
        rss0 = run.rss
        await run.add(0, n // 2, 32)
        rss_half = run.rss
        await run.add(n // 2, n, 32)
        rss_n = run.rss
    alive = max(1, n - run.res.failed)
    print(f"untraced, {alive} of {n} callers idle (failed: {run.res.failed}: "
          f"{run.res.errors}); {build_name()}")
    print(f"  server RSS after the warm-up caller: {rss0 / 1024:.1f} MiB, with them: "
          f"{rss_n / 1024:.1f} MiB")
    print(f"  growth per caller from the warm-up (load.py's figure): {(rss_n - rss0) / alive:.0f}"
          f" KiB")
    print(f"  slope from {n // 2} to {n} callers: {(rss_n - rss_half) / (n - n // 2):.0f} KiB"
          " per caller")


async def traced_run(n: int, lines: int = 0) -> None:
    async with idle_callers(n, traced=True) as run:
        before = await run.snapshot()
        await run.add(0, n, 8)
        after = await run.snapshot()
    res = run.res
    alive = max(1, n - res.failed)
    grown: collections.Counter[str] = collections.Counter()
    for trace in after.traces:
        grown[part_of(trace)] += trace.size
    for trace in before.traces:
        grown[part_of(trace)] -= trace.size
    total = sum(grown.values())
    print(f"\ntraced (tracemalloc, 8 frames), {alive} of {n} callers: Python memory added per"
          f" caller {total / alive / 1024:.1f} KiB")
    print("\n| part | KiB per caller | share |\n|---|---:|---:|")
    for what, size in grown.most_common():
        if abs(size) / alive >= 51:
            print(f"| {what} | {size / alive / 1024:.1f} | {100 * size / total:.0f} % |")
    if lines:
        sites = after.compare_to(before, "lineno")
        print("\n| where (innermost frame) | bytes per caller |\n|---|---:|")
        for stat in sites[:lines]:
            frame = stat.traceback[0]
            where = re.sub(r".*/(site-packages|door)/", r"\1/", frame.filename)
            print(f"| {where}:{frame.lineno} | {stat.size_diff / alive:.0f} |")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=400)
    parser.add_argument("--lines", type=int, default=0, metavar="K",
                        help="also the K allocation sites that grew most, per caller")
    parser.add_argument("--traced-only", action="store_true", help="skip the untraced run")
    parser.add_argument("--rss-only", action="store_true", help="skip the traced run")
    parser.add_argument("--who", choices=["players", "pool"], default="players",
                        help="players: signed up, idle in a Monte Carlo deal (default); pool: "
                             "connections at the login screen, a few letters typed")
    parser.add_argument("--deals", choices=["same", "distinct"], default="same",
                        help="players: all on one deal (default, as load.py) or each its own")
    parser.add_argument("--settle", type=float, default=0.0, metavar="S",
                        help="seconds the callers sit idle before each figure (the door's "
                             "idle screens share their rows after 30 to 60 s)")
    args = parser.parse_args()
    MODE.update(who=args.who, deals=args.deals, settle=args.settle)
    print(f"callers: {args.who}" + (f", {args.deals} deal" if args.who == "players" else "")
          + f", figures after {args.settle:g} s idle")
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    if not args.traced_only:
        await rss_run(args.callers)
    if not args.rss_only:
        await traced_run(args.callers, args.lines)


if __name__ == "__main__":
    asyncio.run(main())
