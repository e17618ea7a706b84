"""Saturation benchmark: how many keys a second the door answers, against a bare telnetlib3
echo server, with the same client in the same run.

Closed loop: each of ``--callers`` connections sends a key, waits for the answer (the first
bytes back), sends the next.  The door's callers first sign up and open Monte Carlo deal
#11982, then walk the cursor round a square (right, down, left, up: every key changes the
screen, the commonest key of a cursor player); the echo server's callers send the same
bytes and get them back.  ``--keys mix`` plays the keys of a game instead, over and over:
four cursor keys, H (hint), Enter (pick the hinted pair's first card), the arrows to its
second card, Enter (the move), U (undo: the deal is back as it was), the arrows back.

The load is made on the same cores as the server, so it must cost little: the callers are
signed up and brought to the game by asyncio streams (not timed), then their sockets go
to the closed loop, by default ``keyloop.c`` (compiled now with the machine's ``cc -O2``
into a temporary folder; without a compiler the bench says so and runs the Python epoll
loop): one process, one epoll over every socket, 17-24 µs of CPU a door's key (10 an
echo's), all but 1-4 of them the kernel's loopback TCP work.  ``--loop epoll`` runs the
same loop in plain Python (25-30 µs), ``--loop asyncio`` the older asyncio streams in two
processes (about 58 µs; SSH's callers always use it).  For each server the bench prints
keys answered a second, the server's CPU per key (from /proc, all its processes: the
in-server figure, and the part of it in user mode: the rest is the kernel's socket work),
the client's CPU per key the same way, the other processes' and the idle cores (from
/proc/stat), the client's latency, the door / echo ratio, and 2 workers against 1 (issue
#20: >= 1.8; ``--rounds N`` alternates the worker counts N times and takes medians).

    python bench/saturation.py                      # 200 callers, 10 s, 1 and 2 workers
    python bench/saturation.py --rounds 3 --no-echo # 1 2 1 2 1 2 workers, and the medians
    python bench/saturation.py --workers 1 --seconds 5
    python bench/saturation.py --workers 1 --keys mix --profile /tmp/mix.txt
    python bench/saturation.py --workers 1 --no-echo --ssh   # the door's callers by SSH

``--profile FILE`` records the door (1 worker) with py-spy during the measured seconds
(``$PY_SPY`` or ``py-spy`` on the PATH): collapsed stacks, one per line, into FILE, and
the functions that took most of the event loop's samples are printed.

The machine is shared: both servers are measured in the same run, one after the other,
and the load average is printed beside the figures.  The test suite checks the lean loops
(tests/test_saturation_client.py), never the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

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

from door.compiled import build_name
from door.games.montecarlo import MonteCarlo
from door.ui.shared.keymap import HINT

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
    hint = HINT.key.encode()
    return tuple(arrows(0, p)), (RIGHT, DOWN, LEFT, UP, hint, b"\r", *arrows(p, q), b"\r",
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


async def set_up_caller(kind: str, port: int, name: str,
                        ready: asyncio.Semaphore) -> tuple[Any, Any, Any]:
    """Connect, sign up and open the game (the door's callers), and read until the screen
    is whole: (reader, writer, the SSH connection or None)."""
    conn = None
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
        return reader, writer, conn


def key_at(keys_sent: tuple[tuple[bytes, ...], tuple[bytes, ...]], i: int) -> bytes:
    """The ``i``-th key a caller sends: the first keys once, then the loop over and over."""
    first, loop = keys_sent
    return first[i] if i < len(first) else loop[(i - len(first)) % len(loop)]


async def asyncio_caller(reader: Any, writer: Any, conn: Any,
                         go: asyncio.Future,
                         keys_sent: tuple[tuple[bytes, ...], tuple[bytes, ...]]
                         ) -> tuple[int, list[float]]:
    """One caller's closed loop with asyncio's streams (the only client SSH can use)."""
    start_at, end_at = await go
    await asyncio.sleep(max(0.0, start_at - time.time()))
    keys, latencies, i = 0, [], 0
    while time.time() < end_at:
        sent = time.perf_counter()
        writer.write(key_at(keys_sent, i))
        if not await reader.read(65536):
            raise ConnectionError("closed")
        latencies.append(time.perf_counter() - sent)
        keys += 1
        i += 1
    writer.close()
    if conn is not None:
        conn.close()
    return keys, latencies[::10]


def cpu_used() -> tuple[float, float]:
    """This process's (user, system) CPU seconds so far."""
    times = os.times()
    return times.user, times.system


def report(keys: int, cpu: tuple[float, float], latencies: list[float], errors: list[str],
           failed: int) -> None:
    """What a client counted, as the one JSON line the run reads: ``cpu`` is its own (user,
    system) seconds over the measured seconds, which the run adds up (sampling /proc from
    outside counted a process that had just become keyloop.c wrongly, now and then)."""
    print(json.dumps({"keys": keys, "cpu": cpu, "latencies": latencies, "errors": errors[:3],
                      "failed": failed}), flush=True)


async def client(kind: str, port: int, first: int, count: int, seconds: float,
                 key_set: str, loop_kind: str) -> tuple[list[int], int] | None:
    """Set ``count`` callers up.  With ``loop_kind`` asyncio: say ``ready``, read the start
    time, run the closed loop and print what it counted as one JSON line.  Otherwise hand
    back the callers' sockets (duplicated, their transports no longer reading) and how many
    failed to set up, for the lean loop that runs after asyncio has stopped (and says
    ``ready`` itself: the run's /proc figures then follow the loop, not the set-up)."""
    loop = asyncio.get_running_loop()
    ready = asyncio.Semaphore(32)  # callers signing up at once
    keys_sent = KEY_SETS[key_set]()
    results = await asyncio.gather(*(set_up_caller(kind, port, f"s{first + i}x", ready)
                                     for i in range(count)), return_exceptions=True)
    good = [r for r in results if not isinstance(r, BaseException)]
    errors = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    for err in errors[:3]:
        print(f"    set-up: {err}", file=sys.stderr)
    if loop_kind != "asyncio":
        fds = []
        for _, writer, _ in good:
            cast(asyncio.Transport, writer.transport).pause_reading()  # the lean loop reads
            fds.append(os.dup(writer.get_extra_info("socket").fileno()))
        KEEP_OPEN.extend(good)  # their sockets close when they are collected
        return fds, len(errors)  # the lean loop says "ready" once it runs
    print("ready", flush=True)
    start_at = float(await loop.run_in_executor(None, sys.stdin.readline))
    go = loop.create_future()
    go.set_result((start_at, start_at + seconds))
    await asyncio.sleep(max(0.0, start_at - time.time()))
    cpu0 = cpu_used()
    done = await asyncio.gather(*(asyncio_caller(*r, go, keys_sent) for r in good),
                                return_exceptions=True)
    cpu1 = cpu_used()
    counted = [r for r in done if not isinstance(r, BaseException)]
    errors += [f"{type(r).__name__}: {r}" for r in done if isinstance(r, BaseException)]
    report(sum(k for k, _ in counted), (cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]),
           [x for _, lat in counted for x in lat], errors, len(errors))
    return None


KEEP_OPEN: list[object] = []
"""The set-up callers' streams, kept from the collector while the lean loop runs."""


def epoll_loop(fds: list[int], failed: int, seconds: float,
               keys_sent: tuple[tuple[bytes, ...], tuple[bytes, ...]]) -> None:
    """The closed loop in plain Python: one epoll over non-blocking sockets, no asyncio (the
    same loop as keyloop.c).  Reads the start time from stdin, prints the JSON line."""
    ep = select.epoll()
    for fd in fds:
        os.set_blocking(fd, False)
        ep.register(fd, select.EPOLLIN)
    print("ready", flush=True)
    start_at = float(sys.stdin.readline())
    time.sleep(max(0.0, start_at - time.time()))
    end_at = time.perf_counter() + seconds - max(0.0, time.time() - start_at)
    cpu0, cpu1 = cpu_used(), (0.0, 0.0)
    following = {fd: 0 for fd in fds}  # the index of each caller's next key
    sent: dict[int, float] = {}  # callers with a key out: when it was sent
    keys, latencies = 0, []

    def send(fd: int) -> None:
        sent[fd] = time.perf_counter()
        os.write(fd, key_at(keys_sent, following[fd]))
        following[fd] += 1

    for fd in fds:
        send(fd)
    stopping = False
    while sent:
        events = ep.poll(0.1)
        now = time.perf_counter()
        if now >= end_at and not stopping:
            stopping, cpu1 = True, cpu_used()
        if stopping and not events:
            break  # the last answers are in (or never come)
        for fd, _ in events:
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            got = len(data)
            while got == 65536:  # everything there is
                try:
                    got = len(os.read(fd, 65536))
                except OSError:  # nothing more (or the line broke: the next poll says)
                    break
            if not data:
                ep.unregister(fd)
                sent.pop(fd, None)
                failed += 1
                continue
            if fd not in sent:
                continue
            if following[fd] % 10 == 1:
                latencies.append(now - sent[fd])
            del sent[fd]
            if not stopping:
                keys += 1
                send(fd)
    if not stopping:
        cpu1 = cpu_used()
    report(keys, (cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]), latencies,
           ["a caller's line closed"] if failed else [], failed)


def hex_keys(keys: tuple[bytes, ...]) -> str:
    """Keys as keyloop.c's argument: hex, comma-separated ("-": none)."""
    return ",".join(key.hex() for key in keys) or "-"


def client_main(argv: list[str]) -> None:
    """``saturation.py --client KIND PORT FIRST COUNT SECONDS KEYS LOOP``: one client process.
    LOOP is asyncio, epoll, or the path of a compiled keyloop.c, which this process becomes
    (exec: the same pid, so the run's /proc figures follow it)."""
    kind, port, first, count, seconds, key_set, loop_kind = argv
    lean = asyncio.run(client(kind, int(port), int(first), int(count), float(seconds),
                              key_set, loop_kind))
    if lean is None:
        return
    fds, failed = lean
    if loop_kind == "epoll":
        epoll_loop(fds, failed, float(seconds), KEY_SETS[key_set]())
        return
    for fd in fds:
        os.set_inheritable(fd, True)
    first_keys, loop_keys = KEY_SETS[key_set]()
    sys.stdout.flush()
    os.execv(loop_kind, [loop_kind, seconds, str(failed), hex_keys(first_keys),
                         hex_keys(loop_keys), *map(str, fds)])


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
    client_us_per_key: float  # the load generator's own CPU (its processes, from /proc)
    client_user_us_per_key: float
    client_cores: float
    idle_cores: float  # the whole machine's, from /proc/stat
    others_cores: float  # busy, but neither the server nor the client


async def measure(what: str, callers: int, seconds: float, clients: int, loop_kind: str,
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
            str(min(share, callers - i * share)), str(seconds), key_set, loop_kind,
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
        cpu0, t0, machine0 = proc_cpu(proc.pid), time.monotonic(), machine_cpu()
        await asyncio.sleep(seconds)
        cpu1, t1, machine1 = proc_cpu(proc.pid), time.monotonic(), machine_cpu()
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
    client = [sum(o.get("cpu", (0.0, 0.0))[i] for o in outputs) for i in (0, 1)]
    return Figures(what, workers, keys / seconds, 1e6 * cpu / max(1, keys),
                   1e6 * user / max(1, keys), cpu / (t1 - t0),
                   1000 * statistics.median(latencies) if latencies else float("nan"),
                   1000 * latencies[int(0.99 * len(latencies))] if latencies else float("nan"),
                   sum(o.get("failed", 0) for o in outputs), load,
                   1e6 * sum(client) / max(1, keys), 1e6 * client[0] / max(1, keys),
                   sum(client) / seconds,
                   (machine1[0] - machine0[0]) / (t1 - t0),
                   (machine1[1] - machine0[1] - cpu - sum(client)) / (t1 - t0))


def machine_cpu() -> tuple[float, float]:
    """(idle, busy) CPU seconds of the whole machine, all cores, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:8]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]  # idle, iowait
    return idle / ticks, (sum(fields) - idle) / ticks


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


KEYLOOP_C = Path(__file__).with_name("keyloop.c")
TARGET_SCALING = 1.8  # issue #20: 2 workers against 1, on 2 cores


def compile_keyloop(folder: str) -> str | None:
    """keyloop.c compiled with the machine's ``cc -O2`` into ``folder``: its path, or None
    (said plainly) when there is no compiler or it fails."""
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None:
        print("no C compiler (cc) on this machine: the Python epoll client runs instead",
              flush=True)
        return None
    binary = os.path.join(folder, "keyloop")
    built = subprocess.run([cc, "-O2", "-o", binary, str(KEYLOOP_C)], capture_output=True,
                           text=True, check=False)
    if built.returncode:
        print(f"cc could not build keyloop.c ({built.stderr.strip()[:200]}): the Python epoll "
              "client runs instead", flush=True)
        return None
    return binary


def print_rows(rows: list[Figures], echo: float) -> None:
    """The table of the runs, in the order they ran."""
    one = statistics.median([r.keys_per_s for r in rows if r.what != "echo" and r.workers == 1]
                            or [0.0])
    print()
    print("| server | workers | keys/s | ratio to echo | vs 1 worker | server CPU µs/key | "
          "of which user | server cores busy | client CPU µs/key | of which user | "
          "client cores busy | others' cores | idle cores | p50 ms | p99 ms | failed | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ratio = r.keys_per_s / echo if echo else float("nan")
        scale = f"{r.keys_per_s / one:.2f}" if one and r.what != "echo" else ""
        print(f"| {r.what} | {r.workers if r.what != 'echo' else ''} | {r.keys_per_s:,.0f} | "
              f"{ratio:.2f} | {scale} | {r.cpu_us_per_key:.0f} | {r.user_us_per_key:.0f} | "
              f"{r.cpu_cores:.2f} | {r.client_us_per_key:.1f} | "
              f"{r.client_user_us_per_key:.1f} | {r.client_cores:.2f} | "
              f"{r.others_cores:.2f} | {r.idle_cores:.2f} | "
              f"{r.p50_ms:.1f} | {r.p99_ms:.1f} | {r.failed} | {r.load:.1f} |")


def print_scaling(rows: list[Figures]) -> None:
    """Medians by number of workers, and 2 workers against 1 (the issue's target)."""
    by_workers: dict[int, list[Figures]] = {}
    for r in rows:
        if r.what != "echo":
            by_workers.setdefault(r.workers, []).append(r)
    medians = {w: statistics.median(r.keys_per_s for r in rs) for w, rs in by_workers.items()}
    for w, rs in sorted(by_workers.items()):
        print(f"{w} worker(s), median of {len(rs)}: {medians[w]:,.0f} keys/s, server "
              f"{statistics.median(r.cpu_us_per_key for r in rs):.0f} µs/key, client "
              f"{statistics.median(r.client_us_per_key for r in rs):.1f} µs/key")
    if 1 in medians and 2 in medians:
        scaling = medians[2] / medians[1]
        print(f"2 workers / 1 worker: {scaling:.2f} (target >= {TARGET_SCALING}): "
              f"{'yes' if scaling >= TARGET_SCALING else 'NO'}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--loop", choices=("c", "epoll", "asyncio"), default="c",
                        help="the closed loop: keyloop.c (compiled now), a plain-Python epoll "
                             "loop, or asyncio streams (SSH: always asyncio)")
    parser.add_argument("--clients", type=int, default=0,
                        help="client processes (default: 1, or 2 for asyncio's)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="door runs with these numbers of workers")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run the worker counts in turn this many times (1 2 1 2 …)")
    parser.add_argument("--keys", choices=sorted(KEY_SETS), default="cursor",
                        help="the door's callers walk the cursor, or play a game's key mix")
    parser.add_argument("--profile", metavar="FILE", default="",
                        help="py-spy the 1-worker door during the measure, into FILE")
    parser.add_argument("--no-echo", action="store_true", help="measure the door only")
    parser.add_argument("--ssh", action="store_true",
                        help="the door's callers come by SSH (asyncssh's client)")
    args = parser.parse_args()
    client_kind = "asyncio" if args.ssh else args.loop
    clients = args.clients or (2 if client_kind == "asyncio" else 1)
    with tempfile.TemporaryDirectory(prefix="saturation-") as folder:
        loop_kind = client_kind
        if client_kind == "c":
            loop_kind = compile_keyloop(folder) or "epoll"
            client_kind = "c" if loop_kind != "epoll" else "epoll"
        print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}; {args.callers} callers "
              f"in a closed loop for {args.seconds:g} s, {clients} {client_kind} client "
              f"process(es), {args.keys} keys; {build_name()}; load {os.getloadavg()[0]:.1f}",
              flush=True)
        rows = [] if args.no_echo else [await measure("echo", args.callers, args.seconds,
                                                      clients, loop_kind)]
        for _ in range(args.rounds):
            for workers in args.workers:
                rows.append(await measure("ssh" if args.ssh else "door", args.callers,
                                          args.seconds, clients, loop_kind, workers, args.keys,
                                          args.profile if workers == 1 else ""))
                r = rows[-1]
                print(f"  {workers} worker(s): {r.keys_per_s:,.0f} keys/s, load {r.load:.1f}",
                      flush=True)
    echo = rows[0].keys_per_s if not args.no_echo else 0.0
    print_rows(rows, echo)
    for r in rows:
        if r.what != "echo" and r.workers == 1 and echo:
            ratio = r.keys_per_s / echo
            print(f"door (1 worker) / echo: {ratio:.2f} (target >= {TARGET_RATIO}): "
                  f"{'yes' if ratio >= TARGET_RATIO else 'NO'}")
    print_scaling(rows)
    subprocess.run(["uptime"], check=False)
    if args.profile and 1 in args.workers:
        print_profile(args.profile)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        client_main(sys.argv[2:9])
    else:
        asyncio.run(main())
