"""Saturation benchmark: how many keys a second the door answers, against a bare telnetlib3
echo server, with the same client in the same run.

Closed loop: each of ``--callers`` connections sends a key, waits for the answer (the first
bytes back), sends the next.  The door's callers first sign up and open Monte Carlo deal
#11982, then walk the cursor round a square (right, down, left, up: every key changes the
screen, the commonest key of a cursor player); the echo server's callers send the same
bytes and get them back.  ``--keys mix`` plays the keys of a game instead, over and over:
four cursor keys, H (hint), Enter (pick the hinted pair's first card), the arrows to its
second card, Enter (the move), U (undo: the deal is back as it was), the arrows back.
The client runs in ``--clients`` processes of its own.  For each
server it prints keys answered a second, the server's CPU per key (from /proc, all its
processes: the in-server figure, and the part of it in user mode: the rest is the kernel's
socket work), the client's latency, and the door / echo ratio.

    python bench/saturation.py                      # 200 callers, 10 s, 1 and 2 workers
    python bench/saturation.py --workers 1 --seconds 5
    python bench/saturation.py --workers 1 --keys mix --profile /tmp/mix.txt
    python bench/saturation.py --workers 1 --no-echo --ssh   # the door's callers by SSH

``--profile FILE`` records the door (1 worker) with py-spy during the measured seconds
(``$PY_SPY`` or ``py-spy`` on the PATH): collapsed stacks, one per line, into FILE, and
the functions that took most of the event loop's samples are printed.

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
from pathlib import Path

from load import (
    DOWN,
    LEFT,
    NUMBER,
    RIGHT,
    UP,
    Line,
    make_home,
    proc_cpu,
    start_door,
    start_echo,
    stop,
)

from door.games.montecarlo import MonteCarlo

CURSOR_KEYS = (RIGHT, DOWN, LEFT, UP)
TARGET_RATIO = 0.35


def arrows(p: int, q: int) -> list[bytes]:
    """The arrow keys that take Monte Carlo's cursor from position ``p`` to ``q``."""
    dr, dc = q // 5 - p // 5, q % 5 - p % 5
    return [DOWN if dr > 0 else UP] * abs(dr) + [RIGHT if dc > 0 else LEFT] * abs(dc)


def mix_keys() -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """A played game's keys, as a loop that leaves the deal as it found it: a walk of the
    cursor round a square, a hint, a pick, the arrows to the hinted pair's other card, the
    move, its undo, the arrows back.  (The keys that bring the cursor from the corner to
    the pair's first card, sent once; the loop.)"""
    p, q = MonteCarlo.new(NUMBER).pairs()[0]  # the hint's pair; p is not on an edge
    return tuple(arrows(0, p)), (RIGHT, DOWN, LEFT, UP, b"h", b"\r", *arrows(p, q), b"\r",
                                 b"u", *arrows(q, p))


KEY_SETS = {"cursor": lambda: ((), CURSOR_KEYS), "mix": mix_keys}


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
                     ready: asyncio.Semaphore, set_up: SetUp,
                     keys_sent: tuple[tuple[bytes, ...], tuple[bytes, ...]]
                     ) -> tuple[int, list[float]]:
    conn = None
    try:
        async with ready:
            if kind == "ssh":  # the door, by asyncssh's client
                import asyncssh
                conn = await asyncssh.connect("127.0.0.1", port, username=name,
                                              known_hosts=None, client_keys=None,
                                              agent_path=None, preferred_auth="none")
                proc = await conn.create_process(term_type="xterm", term_size=(80, 24),
                                                 encoding=None)
                reader, writer = proc.stdout, proc.stdin
            else:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            line = Line(reader, writer)
            if kind in ("door", "ssh"):
                await door_login(line, name)
            await drain(line)
    finally:
        set_up.one()
    start_at, end_at = await go
    await asyncio.sleep(max(0.0, start_at - time.time()))
    keys, latencies, i = 0, [], 0
    while time.time() < end_at:
        sent = time.perf_counter()
        first, loop = keys_sent
        writer.write(first[i] if i < len(first) else loop[(i - len(first)) % len(loop)])
        if not await reader.read(65536):
            raise ConnectionError("closed")
        latencies.append(time.perf_counter() - sent)
        keys += 1
        i += 1
    writer.close()
    if conn is not None:
        conn.close()
    return keys, latencies[::10]


async def client(kind: str, port: int, first: int, count: int, seconds: float,
                 key_set: str) -> None:
    """Set ``count`` callers up, say ``ready``, read the start time, run the closed loop and
    print what it counted as one JSON line."""
    loop = asyncio.get_running_loop()
    ready, set_up, go = asyncio.Semaphore(32), SetUp(count), loop.create_future()
    keys_sent = KEY_SETS[key_set]()
    tasks = [asyncio.ensure_future(one_caller(kind, port, f"s{first + i}x", go, ready, set_up,
                                              keys_sent))
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
    user_us_per_key: float  # of which in the process itself (Python), not the kernel
    cpu_cores: float
    p50_ms: float
    p99_ms: float
    failed: int
    load: float


async def measure(what: str, callers: int, seconds: float, clients: int,
                  workers: int = 1, key_set: str = "cursor", profile: str = "") -> Figures:
    home = None
    if what == "echo":
        proc, port = await start_echo()
    else:
        home = make_home(callers)
        proc, port, ssh_port = await start_door(home, ssh=what == "ssh", workers=workers)
        port = ssh_port if what == "ssh" else port
    try:
        share = -(-callers // clients)
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--client", what, str(port), str(i * share),
            str(min(share, callers - i * share)), str(seconds), key_set,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**26)
            for i in range(clients) if i * share < callers]
        for p in procs:  # every caller signed up and in the game
            assert (await p.stdout.readline()).strip() == b"ready"
        start_at = time.time() + 1.0
        for p in procs:
            p.stdin.write(f"{start_at}\n".encode())
            await p.stdin.drain()
        await asyncio.sleep(max(0.0, start_at - time.time()))
        spy = await start_profile(proc.pid, seconds, profile) if profile else None
        cpu0, t0 = proc_cpu(proc.pid), time.monotonic()
        await asyncio.sleep(seconds)
        cpu1, t1 = proc_cpu(proc.pid), time.monotonic()
        if spy is not None:
            await spy.wait()
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
    user, cpu = cpu1[0] - cpu0[0], sum(cpu1) - sum(cpu0)
    return Figures(what, workers, keys / seconds, 1e6 * cpu / max(1, keys),
                   1e6 * user / max(1, keys), cpu / (t1 - t0),
                   1000 * statistics.median(latencies) if latencies else float("nan"),
                   1000 * latencies[int(0.99 * len(latencies))] if latencies else float("nan"),
                   sum(o.get("failed", 0) for o in outputs), load)


async def start_profile(pid: int, seconds: float, out: str) -> asyncio.subprocess.Process:
    """py-spy recording ``pid`` for ``seconds`` into ``out`` (collapsed stacks)."""
    spy = os.environ.get("PY_SPY") or shutil.which("py-spy")
    if spy is None:
        raise SystemExit("--profile needs py-spy: on the PATH, or its path in $PY_SPY")
    return await asyncio.create_subprocess_exec(
        spy, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))),
        "--rate", "200", "--format", "raw", "--output", out,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)


def print_profile(path: str, top: int = 25) -> None:
    """The event loop's busy samples of a py-spy record (other threads, and the loop
    waiting in select, left out): the functions with the largest share, inclusive and
    self, by file and function."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if not any("_run_once (" in f for f in frames) or "select (" in frames[-1]:
            continue
        names = [f.split(" (")[0] + " (" + f.split(" (")[-1].split(":")[0].rsplit("/", 1)[-1]
                 + ")" for f in frames]
        total += int(count)
        own[names[-1]] = own.get(names[-1], 0) + int(count)
        for name in set(names):
            inclusive[name] = inclusive.get(name, 0) + int(count)
    print(f"\nprofile: {total} busy samples of the event loop ({path})")
    for title, table in (("inclusive", inclusive), ("self", own)):
        print(f"  {title}:")
        for name, count in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            print(f"    {100 * count / max(1, total):5.1f} %  {name}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="door runs with these numbers of workers")
    parser.add_argument("--keys", choices=sorted(KEY_SETS), default="cursor",
                        help="the door's callers walk the cursor, or play a game's key mix")
    parser.add_argument("--profile", metavar="FILE", default="",
                        help="py-spy the 1-worker door during the measure, into FILE")
    parser.add_argument("--no-echo", action="store_true", help="measure the door only")
    parser.add_argument("--ssh", action="store_true",
                        help="the door's callers come by SSH (asyncssh's client)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}; {args.callers} callers in "
          f"a closed loop for {args.seconds:g} s, {args.clients} client processes, "
          f"{args.keys} keys; load {os.getloadavg()[0]:.1f}", flush=True)
    rows = [] if args.no_echo else [await measure("echo", args.callers, args.seconds,
                                                  args.clients)]
    for workers in args.workers:
        rows.append(await measure("ssh" if args.ssh else "door", args.callers, args.seconds,
                                  args.clients, workers, args.keys,
                                  args.profile if workers == 1 else ""))
    echo = rows[0].keys_per_s if not args.no_echo else 0.0
    one = next((r.keys_per_s for r in rows if r.what != "echo" and r.workers == 1), None)
    print()
    print("| server | workers | keys/s | ratio to echo | vs 1 worker | server CPU µs/key | "
          "of which user | server cores busy | p50 ms | p99 ms | failed | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ratio = r.keys_per_s / echo if echo else float("nan")
        scale = f"{r.keys_per_s / one:.2f}" if one and r.what != "echo" else ""
        print(f"| {r.what} | {r.workers if r.what != 'echo' else ''} | {r.keys_per_s:,.0f} | "
              f"{ratio:.2f} | {scale} | {r.cpu_us_per_key:.0f} | {r.user_us_per_key:.0f} | "
              f"{r.cpu_cores:.2f} | "
              f"{r.p50_ms:.1f} | {r.p99_ms:.1f} | {r.failed} | {r.load:.1f} |")
    for r in rows:
        if r.what != "echo" and r.workers == 1 and echo:
            ratio = r.keys_per_s / echo
            print(f"door (1 worker) / echo: {ratio:.2f} (target >= {TARGET_RATIO}): "
                  f"{'yes' if ratio >= TARGET_RATIO else 'NO'}")
    subprocess.run(["uptime"], check=False)
    if args.profile and 1 in args.workers:
        print_profile(args.profile)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        kind, port, first, count, seconds, key_set = sys.argv[2:8]
        asyncio.run(client(kind, int(port), int(first), int(count), float(seconds), key_set))
    else:
        asyncio.run(main())
