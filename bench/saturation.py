"""Saturation benchmark: how many keys a second the door answers, against a bare telnetlib3
echo server, with the same client in the same run.

Closed loop: each of ``--callers`` connections sends a key, waits for the answer (the first
bytes back), sends the next.  The door's callers first sign up and open Monte Carlo deal
#11982, then walk the cursor round a square (right, down, left, up: every key changes the
screen, the commonest key of a cursor player); the echo server's callers send the same
bytes and get them back.  The client runs in ``--clients`` processes of its own.  For each
server it prints keys answered a second, the server's CPU per key (from /proc, all its
processes: the in-server figure), the client's latency, and the door / echo ratio.

    python bench/saturation.py                      # 200 callers, 10 s, 1 and 2 workers
    python bench/saturation.py --workers 1 --seconds 5

The machine is shared: both servers are measured in the same run, one after the other,
and the load average is printed beside the figures.  Figures only: the test suite never
runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from load import (
    DOWN,
    LEFT,
    NUMBER,
    RIGHT,
    UP,
    Line,
    make_home,
    proc_stats,
    start_door,
    start_echo,
    stop,
)

KEYS = (RIGHT, DOWN, LEFT, UP)
TARGET_RATIO = 0.35


# -- the client (run as a process of its own: --client) -----------------------------------------

async def door_login(line: Line, name: str) -> None:
    """Sign up, open Monte Carlo on the benchmark's deal, and let the screen settle."""
    await line.until(b"Handle:")
    for send, wait in ((b"new\r", b"New user"), (f"{name}\r".encode(), b"Password:"),
                       (b"secret-pw\r", b"Again:"), (b"secret-pw\r", b"Press any key"),
                       (b" ", b"Your choice"), (b"c", b"Game number:"),
                       (f"{NUMBER}\r".encode(), b"Monte Carlo")):
        line.send(send)
        await line.until(wait)


async def drain(line: Line) -> None:
    """Read until the line is quiet: the game screen is whole."""
    while True:
        try:
            data = await asyncio.wait_for(line.reader.read(65536), 0.3)
        except TimeoutError:
            return
        if not data:
            raise ConnectionError("closed")


class SetUp:
    """Counts callers set up (or failed): the client says ``ready`` once all are."""

    def __init__(self, count: int) -> None:
        self.left = count
        self.done = asyncio.Event()
        if not count:
            self.done.set()

    def one(self) -> None:
        self.left -= 1
        if self.left <= 0:
            self.done.set()


async def one_caller(kind: str, port: int, name: str, go: asyncio.Future,
                     ready: asyncio.Semaphore, set_up: SetUp) -> tuple[int, list[float]]:
    try:
        async with ready:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            line = Line(reader, writer)
            if kind == "door":
                await door_login(line, name)
            await drain(line)
    finally:
        set_up.one()
    start_at, end_at = await go
    await asyncio.sleep(max(0.0, start_at - time.time()))
    keys, latencies, i = 0, [], 0
    while time.time() < end_at:
        sent = time.perf_counter()
        writer.write(KEYS[i % 4])
        if not await reader.read(65536):
            raise ConnectionError("closed")
        latencies.append(time.perf_counter() - sent)
        keys += 1
        i += 1
    writer.close()
    return keys, latencies[::10]


async def client(kind: str, port: int, first: int, count: int, seconds: float) -> None:
    """Set ``count`` callers up, say ``ready``, read the start time, run the closed loop and
    print what it counted as one JSON line."""
    loop = asyncio.get_running_loop()
    ready, set_up, go = asyncio.Semaphore(32), SetUp(count), loop.create_future()
    tasks = [asyncio.ensure_future(one_caller(kind, port, f"s{first + i}x", go, ready, set_up))
             for i in range(count)]
    await set_up.done.wait()
    print("ready", flush=True)
    start_at = float(await loop.run_in_executor(None, sys.stdin.readline))
    go.set_result((start_at, start_at + seconds))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    good = [r for r in results if not isinstance(r, BaseException)]
    errors = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    print(json.dumps({"keys": sum(k for k, _ in good),
                      "latencies": [x for _, lat in good for x in lat],
                      "errors": errors[:3], "failed": len(errors)}), flush=True)


# -- the run --------------------------------------------------------------------------------------

@dataclass
class Figures:
    what: str
    workers: int
    keys_per_s: float
    cpu_us_per_key: float
    cpu_cores: float
    p50_ms: float
    p99_ms: float
    failed: int
    load: float


async def measure(what: str, callers: int, seconds: float, clients: int,
                  workers: int = 1) -> Figures:
    home = None
    if what == "echo":
        proc, port = await start_echo()
    else:
        home = make_home(callers)
        proc, port, _ = await start_door(home, ssh=False, workers=workers)
    try:
        share = -(-callers // clients)
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--client", what, str(port), str(i * share),
            str(min(share, callers - i * share)), str(seconds),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**26)
            for i in range(clients) if i * share < callers]
        for p in procs:  # every caller signed up and in the game
            assert (await p.stdout.readline()).strip() == b"ready"
        start_at = time.time() + 1.0
        for p in procs:
            p.stdin.write(f"{start_at}\n".encode())
            await p.stdin.drain()
        await asyncio.sleep(max(0.0, start_at - time.time()))
        cpu0, t0 = proc_stats(proc.pid)[1], time.monotonic()
        await asyncio.sleep(seconds)
        cpu1, t1 = proc_stats(proc.pid)[1], time.monotonic()
        load = os.getloadavg()[0]
        outputs = [json.loads((await p.stdout.readline()).decode() or "{}") for p in procs]
        for p in procs:
            await p.wait()
    finally:
        await stop(proc)
        if home is not None:
            shutil.rmtree(home, ignore_errors=True)
    keys = sum(o.get("keys", 0) for o in outputs)
    latencies = sorted(x for o in outputs for x in o.get("latencies", []))
    for o in outputs:
        for err in o.get("errors", []):
            print("   ", what, err, file=sys.stderr)
    cpu = cpu1 - cpu0
    return Figures(what, workers, keys / seconds, 1e6 * cpu / max(1, keys), cpu / (t1 - t0),
                   1000 * statistics.median(latencies) if latencies else float("nan"),
                   1000 * latencies[int(0.99 * len(latencies))] if latencies else float("nan"),
                   sum(o.get("failed", 0) for o in outputs), load)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="door runs with these numbers of workers")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}; {args.callers} callers in "
          f"a closed loop for {args.seconds:g} s, {args.clients} client processes; load "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    rows = [await measure("echo", args.callers, args.seconds, args.clients)]
    for workers in args.workers:
        rows.append(await measure("door", args.callers, args.seconds, args.clients, workers))
    echo = rows[0].keys_per_s
    one = next((r.keys_per_s for r in rows if r.what == "door" and r.workers == 1), None)
    print()
    print("| server | workers | keys/s | ratio to echo | vs 1 worker | server CPU µs/key | "
          "server cores busy | p50 ms | p99 ms | failed | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ratio = r.keys_per_s / echo if echo else float("nan")
        scale = f"{r.keys_per_s / one:.2f}" if one and r.what == "door" else ""
        print(f"| {r.what} | {r.workers if r.what == 'door' else ''} | {r.keys_per_s:,.0f} | "
              f"{ratio:.2f} | {scale} | {r.cpu_us_per_key:.0f} | {r.cpu_cores:.2f} | "
              f"{r.p50_ms:.1f} | {r.p99_ms:.1f} | {r.failed} | {r.load:.1f} |")
    for r in rows:
        if r.what == "door" and r.workers == 1:
            ratio = r.keys_per_s / echo
            print(f"door (1 worker) / echo: {ratio:.2f} (target >= {TARGET_RATIO}): "
                  f"{'yes' if ratio >= TARGET_RATIO else 'NO'}")
    subprocess.run(["uptime"], check=False)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        kind, port, first, count, seconds = sys.argv[2:7]
        asyncio.run(client(kind, int(port), int(first), int(count), float(seconds)))
    else:
        asyncio.run(main())
