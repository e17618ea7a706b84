"""Load benchmark: N concurrent callers over loopback against a real ``reussite serve``.

Each telnet caller signs up (NEW, handle, password twice), opens Monte Carlo on a numbered
deal and plays a scripted game at one key a second: three real pairs typed as b2c2 …, then
cursor moves.  For every key we time keystroke → screen complete (the last byte of the
server's answer, the answer being over when 30 ms pass without a byte; the quiet time is
not counted).  The server runs in its own process; we read its RSS and CPU from /proc.
In the same run a bare telnetlib3 echo server under the same load gives the ceiling (what
the loop, telnetlib3 and this load generator cost without a door behind them).  SSH
callers (asyncssh's client) at N = 200.  Web callers (``--web N``) speak the play page's
protocol (door/net/websocket.py) on a WebSocket of their own making (RFC 6455 over a bare
socket, offering permessage-deflate as browsers do, or not: ``--web-modes``), so that the
bytes on the wire are counted exactly; every mode says how many bytes each key brought back.

    python bench/load.py                       # N = 100, 500, 1000, 2000; SSH at 200
    python bench/load.py --sizes 100 --ssh 0 --keys 10
    python bench/load.py --sizes 500 --ssh 0 --web 500   # telnet and web, 500 callers each
    python bench/load.py --sizes 2000 --ssh 0 --workers 2   # issue #20: p99 <= 50 ms
    python bench/load.py --sizes 1000 --ssh 0 --no-echo --busy-solvers 1 --repeat 3  # #17

``--busy-solvers N`` runs each telnet size a second time with the door's own solver pool
busy: N more callers open Aunt Mary deals the solver cannot settle for minutes (55, 100, …;
``[solver] workers = N``, ``budget = 300``), so N workers of the door's pool -- its
processes, its priority, its pipes, its event loop -- chew on them while the keys are
played: the keys' latency with the pool busy, beside the same run without.  (Solver
workers started by the benchmark itself would sit in the benchmark's session, and so in
its scheduling autogroup, not the door's.)  ``--busy-nice K`` sets those workers to an
ordinary nice +K (SCHED_OTHER) once they run, to compare priorities (the pool's own: nice
+10); ``--repeat R`` plays the whole plan R times, idle and busy runs alternating.

Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from door.compiled import build_name  # noqa: E402
from door.games.montecarlo import MonteCarlo  # noqa: E402

NUMBER = 11982
QUIET = 0.030  # an answer is over after this long without a byte
ANSWER_WAIT = 2.0  # a key with no answer at all within this long counts as lost
RIGHT, LEFT, UP, DOWN = b"\x1b[C", b"\x1b[D", b"\x1b[A", b"\x1b[B"


def script(keys: int) -> list[bytes]:
    """Three real moves typed a character at a time, then cursor moves round a square."""
    game = MonteCarlo.new(NUMBER)
    out: list[bytes] = []
    for _ in range(3):
        move = game.legal_moves()[0]
        game.play(move)
        out += [ch.encode() for ch in move]
    while len(out) < keys:
        out += [RIGHT, DOWN, LEFT, UP]
    return out[:keys]


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    lost: int = 0
    failed: int = 0
    settled: int = 0  # callers logged in (or failed before): the ramp is over at n
    errors: list[str] = field(default_factory=list)
    received: int = 0  # bytes on the wire in answer to the keys played
    keys: int = 0


# -- server processes -------------------------------------------------------------------------

def children(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return []


def is_solver(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return b"door.solvers.worker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    return False


def server_pids(pid: int) -> list[int]:
    """A server process and its children (the workers of ``serve --workers``), not its
    solver workers (counted apart: :func:`solver_workers`)."""
    return [pid, *(child for child in children(pid) if not is_solver(child))]


def proc_cpu(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process and its children, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    user = system = 0.0
    for p in server_pids(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        user, system = user + int(fields[11]) / ticks, system + int(fields[12]) / ticks
    return user, system


def cpu_and_wait(pid: int, tid: int | None = None) -> tuple[float, float] | None:
    """(seconds run, seconds spent runnable but waiting for a CPU) of one thread so far
    (Linux's /proc schedstat; the process's main thread unless ``tid``), None elsewhere.
    The wait is what a busy machine adds to a latency: the thread was ready, another ran."""
    try:
        with open(f"/proc/{pid}/task/{tid or pid}/schedstat") as f:
            run, wait, _ = f.read().split()
    except (OSError, ValueError):
        return None
    return int(run) / 1e9, int(wait) / 1e9


def proc_stats(pid: int) -> tuple[int, float]:
    """(RSS in KiB, CPU seconds user+system) of a process and its children (the workers of
    ``serve --workers``), from /proc."""
    rss, cpu = 0, 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for p in server_pids(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / ticks
    return rss, cpu


def make_home(n: int, busy: int = 0, hashes_per_minute: int | None = 0) -> Path:
    """A door home for ``n`` callers from loopback: caps raised for them, and their
    password checks unlimited (``hashes_per_minute``: sysop.ini's
    ``login_hashes_per_minute``; None leaves its default, door/gate/hash_budget.py)."""
    home = Path(tempfile.mkdtemp(prefix="reussite-load-"))
    text = (REPO / "sysop.ini").read_text(encoding="utf-8")
    hashes = [] if hashes_per_minute is None else [("login_hashes_per_minute",
                                                    hashes_per_minute)]
    for key, value in (("max_nodes", n + 50), ("max_per_address", min(10000, n + 50)),
                       ("login_pool", min(10000, n + 50)),
                       ("login_per_address", min(10000, n + 50)),
                       ("login_timeout", 600), ("idle_timeout", 3600), *hashes):
        text = re.sub(rf"(?m)^;?{key} = .*$", f"{key} = {value}", text, count=1)
    if busy:       # [solver]: one worker per hard deal, and a budget longer than the run
        head, solver = text.split("\n[solver]", 1)
        for key, value in (("workers", busy), ("budget", BUSY_BUDGET)):
            solver = re.sub(rf"(?m)^;?{key} = .*$", f"{key} = {value}", solver, count=1)
        text = f"{head}\n[solver]{solver}"
    (home / "sysop.ini").write_text(text, encoding="utf-8")
    (home / "ansi").mkdir()
    (home / "data").mkdir()
    return home


async def start_door(home: Path, ssh: bool, workers: int = 1, log_level: str = "warning",
                     web: bool = False
                     ) -> tuple[asyncio.subprocess.Process, int, int]:
    """``reussite serve --workers N`` in a session of its own (kill -9 of its group is a
    crash of the whole server): (process, telnet port, SSH or web port)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door", "--home", str(home), "--log-level", log_level, "serve",
        "--telnet-port", "0", "--ssh-port", "0" if ssh else "-1",
        "--web-port", "0" if web else "-1", "--workers", str(workers),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        start_new_session=True)
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
    telnet = int(re.search(r"telnet on \S+ port (\d+)", line).group(1))
    found = re.search(r"SSH on port (\d+)", line) or re.search(r"web on http://\S+:(\d+)/",
                                                                 line)
    return proc, telnet, int(found.group(1)) if found else 0


ECHO_SERVER = """
import asyncio, sys, telnetlib3
async def shell(reader, writer):
    try:
        while (data := await reader.read(4096)):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()
async def main():
    server = await telnetlib3.create_server(host="127.0.0.1", port=0, shell=shell,
        encoding=False, force_binary=True, connect_maxwait=1.0, timeout=0)
    print("port", server.sockets[0].getsockname()[1], flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""


async def start_echo() -> tuple[asyncio.subprocess.Process, int]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", ECHO_SERVER, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
    return proc, int(line.split()[1])


async def stop(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
            await proc.wait()


BUSY_DEALS = (55, 100, 142, 33)
"""Aunt Mary deals the solver cannot settle in minutes (docs/solvability.md: unknown at 40 s):
a caller opening one keeps a worker of the door's pool busy for the whole run."""
BUSY_BUDGET = 300
"""The ``[solver] budget`` of a busy run: longer than any run of this benchmark."""


def solver_workers(pid: int) -> list[int]:
    """The door's solver workers: children of the server running ``door.solvers.worker``."""
    return [child for child in children(pid) if is_solver(child)]


async def make_busy(port: int, server: int, count: int,
                    nice: int | None) -> tuple[list[Line], list[int]]:
    """``count`` callers open hard Aunt Mary deals; wait until as many solver workers of
    the door run, and (``nice``) set them to an ordinary nice +``nice``."""
    lines = []
    for i, number in enumerate(BUSY_DEALS[:count]):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        line = Line(reader, writer)
        await line.until(b"Handle:")
        for send, wait in ((b"new\r", b"New user"), (f"busy{i}x\r".encode(), b"Password:"),
                           (b"secret-pw\r", b"Again:"), (b"secret-pw\r", b"Press any key"),
                           (b" ", b"Your choice"), (b"a", b"Game number:"),
                           (f"{number}\r".encode(), f"Aunt Mary #{number}".encode())):
            line.send(send)
            await line.until(wait)
        lines.append(line)
    deadline = time.monotonic() + 60
    while len(workers := solver_workers(server)) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{len(workers)} solver workers busy, not {count}")
        await asyncio.sleep(0.2)
    if nice is not None:
        for pid in workers:
            os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))
            os.setpriority(os.PRIO_PROCESS, pid, nice)
    return lines, workers


def cpu_of(pids: list[int]) -> float:
    """CPU seconds (user + system) of these processes, from /proc (0 for one gone)."""
    ticks, total = os.sysconf("SC_CLK_TCK"), 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


# -- callers ----------------------------------------------------------------------------------

def shown(data: bytes | bytearray) -> bytes:
    """``data`` with cursor-forward moves as the blanks they step over and any other escape
    sequence left out: the text a line shows, near enough to find a prompt in."""
    data = re.sub(rb"\x1b\[(\d*)C", lambda m: b" " * int(m.group(1) or 1), bytes(data))
    return re.sub(rb"\x1b\[[0-9;?]*[@-~]", b"", data)


class Line:
    """Bytes from the server with arrival times; telnet commands are skipped, not answered
    (the server then starts after its negotiation wait, as for a dumb client)."""

    wait_s = 60.0
    """How long :meth:`until_any` waits unless told."""

    def __init__(self, reader, writer) -> None:
        self.reader, self.writer = reader, writer
        self.buf = bytearray()
        self.received = 0  # bytes on the wire, counted by answer()

    async def read(self, timeout: float) -> bytes | None:
        """What the caller's terminal gets next (b"" for wire bytes that were not yet
        any), None at the end; ``self.wire``: how many bytes came on the wire for it."""
        data = await asyncio.wait_for(self.reader.read(65536), timeout)
        self.wire = len(data)
        return data or None

    def found(self, needles: tuple[bytes, ...]) -> bytes | None:
        """The first of ``needles`` come, as bytes or as the terminal shows it (the renderer
        may step over a space with a cursor move: ``Your\\e[Cchoice``)."""
        text = shown(self.buf)
        return next((n for n in needles if n in self.buf or n in text), None)

    async def until_any(self, *needles: bytes, timeout: float | None = None) -> bytes:
        """Read until one of ``needles`` has come (:meth:`found`): which one.  The bytes
        read are dropped with it, so the next wait looks only at what comes after.
        ``timeout``: seconds (default :attr:`wait_s`)."""
        deadline = time.monotonic() + (self.wait_s if timeout is None else timeout)
        while (needle := self.found(needles)) is None:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                data = await self.read(left)
            except TimeoutError:
                raise TimeoutError(f"none of {needles!r} came (last: "
                                   f"{bytes(self.buf[-120:])!r})") from None
            if data is None:
                raise ConnectionError(f"closed before {needles!r}: {bytes(self.buf[-200:])!r}")
            self.buf += data
            del self.buf[:-8192]
        self.buf.clear()
        return needle

    async def until(self, needle: bytes, timeout: float | None = None) -> None:
        """Read until ``needle`` has come (:meth:`until_any`)."""
        await self.until_any(needle, timeout=timeout)

    async def drain_for(self, seconds: float) -> None:
        """Read (and drop) what comes for ``seconds``; ConnectionError once it is closed."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                data = await self.read(left)
            except TimeoutError:
                return
            if data is None:
                raise ConnectionError("closed")

    async def answer(self) -> float | None:
        """Time of the last byte of the next answer, or None when none came."""
        try:
            data = await self.read(ANSWER_WAIT)
        except TimeoutError:
            return None
        if data is None:
            raise ConnectionError("closed")
        self.received += self.wire
        last = time.perf_counter()
        while True:
            try:
                data = await self.read(QUIET)
            except TimeoutError:
                return last
            if data is None:
                return last
            self.received += self.wire
            last = time.perf_counter()

    def send(self, data: bytes) -> None:
        self.writer.write(data)

    async def idle_until(self, go: asyncio.Event) -> None:
        """Wait for the start, reading what comes meanwhile as a client does (a WebSocket
        answers the door's pings: one that did not would be dropped during a long ramp)."""
        while not go.is_set():
            with contextlib.suppress(TimeoutError):
                if await self.read(0.5) is None:
                    raise ConnectionError("closed while waiting for the start")
        self.buf.clear()


class WebLine(Line):
    """A caller of the play page's WebSocket, as a browser is one: the RFC 6455 handshake
    with the page's Origin, keys as masked binary messages, the screen read from binary
    messages (inflated when permessage-deflate was agreed), pings answered.  Made here on a
    bare socket so that ``wire`` counts every byte the door sent, frame headers included."""

    def __init__(self, reader, writer, deflate: bool) -> None:
        super().__init__(reader, writer)
        self.inflate = zlib.decompressobj(-zlib.MAX_WBITS) if deflate else None
        self.raw = bytearray()

    @classmethod
    async def connect(cls, port: int, deflate: bool, rows: int = 24) -> WebLine:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        offer = ("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                 if deflate else "")
        writer.write(f"GET /play?rows={rows} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}"
                     f"\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
                     f"{offer}\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"no WebSocket: {head[:60]!r}")
        return cls(reader, writer, b"permessage-deflate" in head.lower())

    async def read(self, timeout: float) -> bytes | None:
        data = await asyncio.wait_for(self.reader.read(65536), timeout)
        self.wire = len(data)
        if not data:
            return None
        self.raw += data
        out = bytearray()
        while len(self.raw) >= 2:
            size, start = self.raw[1] & 0x7F, 2
            if size == 126:
                size, start = int.from_bytes(self.raw[2:4]), 4
            elif size == 127:
                size, start = int.from_bytes(self.raw[2:10]), 10
            if len(self.raw) < start + size:
                break
            first, payload = self.raw[0], bytes(self.raw[start:start + size])
            del self.raw[:start + size]
            opcode = first & 0x0F
            if opcode == 0x8:
                return None
            if opcode == 0x9:  # ping: pong, as a browser does
                self.frame(0xA, payload)
            elif opcode in (0x0, 0x2):
                if first & 0x40 and self.inflate is not None:
                    payload = self.inflate.decompress(payload + b"\x00\x00\xff\xff")
                out += payload
        return bytes(out)

    def frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        size = len(payload)
        head = bytes([0x80 | opcode]) + (bytes([0x80 | size]) if size < 126 else
                                         bytes([0x80 | 126]) + size.to_bytes(2))
        self.writer.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, data: bytes) -> None:
        self.frame(0x2, data)


async def play_keys(line: Line, keys: list[bytes], res: Result) -> None:
    """One key a second; each key's time to the last byte of its answer (or a loss)."""
    for key in keys:
        start = time.perf_counter()
        line.send(key)
        res.keys += 1
        done = await line.answer()
        if done is None:
            res.lost += 1
        else:
            res.latencies.append(done - start)
        await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - start)))


async def door_caller(i: int, port: int, keys: list[bytes], go: asyncio.Event,
                      ready: asyncio.Semaphore, res: Result, ssh_port: int = 0,
                      offset: float = 0.0, web: str = "", number: int = NUMBER) -> None:
    """One caller; ``ssh_port``: by SSH there; ``web``: "deflate" or "plain", by the web
    door's WebSocket on ``port``; ``number``: the Monte Carlo deal it opens."""
    conn = line = None
    settled = False
    try:
        async with ready:
            if ssh_port:
                import asyncssh
                conn = await asyncssh.connect("127.0.0.1", ssh_port, username=f"s{i}x",
                                              known_hosts=None, client_keys=None,
                                              agent_path=None, preferred_auth="none")
                proc = await conn.create_process(term_type="xterm", term_size=(80, 24),
                                                 encoding=None)
                line = Line(proc.stdout, proc.stdin)
            elif web:
                line = await WebLine.connect(port, deflate=web == "deflate")
            else:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                line = Line(reader, writer)
            await line.until(b"Handle:")
            line.send(b"new\r")
            await line.until(b"New user")
            line.send(f"u{i}x\r".encode())
            await line.until(b"Password:")
            line.send(b"secret-pw\r")
            await line.until(b"Again:")
            line.send(b"secret-pw\r")
            await line.until(b"Press any key")
            line.send(b" ")
            await line.until(b"Your choice")
            line.send(b"c")
            await line.until(b"Game number:")
            line.send(f"{number}\r".encode())
            await line.until(b"Monte Carlo")
            await asyncio.sleep(0.2)
            line.buf.clear()
        res.settled += 1
        settled = True
        await line.idle_until(go)
        await asyncio.sleep(offset)  # callers spread evenly over the second
        await play_keys(line, keys, res)
    except Exception as exc:
        res.failed += 1
        res.settled += not settled
        if len(res.errors) < 3:
            res.errors.append(f"caller {i}: {type(exc).__name__}: {exc}")
    finally:
        if line is not None:
            res.received += line.received
        if conn is not None:
            conn.close()
        elif line is not None:
            line.writer.close()


async def echo_caller(i: int, port: int, keys: list[bytes], go: asyncio.Event,
                      ready: asyncio.Semaphore, res: Result, offset: float = 0.0) -> None:
    settled = False
    try:
        async with ready:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            line = Line(reader, writer)
            line.send(b"hello\r")
            await line.until(b"hello")
        res.settled += 1
        settled = True
        await go.wait()
        await asyncio.sleep(offset)
        await play_keys(line, keys, res)
        writer.close()
    except Exception as exc:
        res.failed += 1
        res.settled += not settled
        if len(res.errors) < 3:
            res.errors.append(f"echo caller {i}: {type(exc).__name__}: {exc}")


# -- one run ----------------------------------------------------------------------------------

@dataclass
class Row:
    what: str
    n: int
    p50: float
    p99: float
    rss_idle: float
    rss_per_caller: float
    cpu: float
    ramp: float
    lost: int
    failed: int
    bytes_per_key: float = float("nan")
    client_cpu: float = float("nan")
    """This load generator's own CPU, % of a core, while the keys were played: it shares
    the machine's cores with the server, and its waits count in the latencies too."""
    solver_cpu: float = float("nan")
    """The door's busy solver workers' CPU, % of a core, while the keys were played."""


WEB_MODES = {"web": "deflate", "web-plain": "plain"}
"""Web runs: "web" offers permessage-deflate as browsers do, "web-plain" does not."""


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


async def run(what: str, n: int, keys: int, concurrency: int, workers: int = 1,
              busy: int = 0, busy_nice: int | None = None) -> Row:
    """One run; ``busy``: with that many of the door's solver workers on long solves."""
    home = None
    busy_lines: list[Line] = []
    solvers: list[int] = []
    if what == "echo":
        proc, port = await start_echo()
        ssh_port = 0
    else:
        home = make_home(n, busy)
        web = WEB_MODES.get(what, "")
        proc, port, ssh_port = await start_door(home, ssh=what == "ssh", web=bool(web),
                                                workers=workers)
        if web:
            port, ssh_port = ssh_port, 0  # the web callers' port
    try:
        await asyncio.sleep(0.5)
        if what != "echo":  # one caller first: the game screens load on first use
            warm, opened = Result(), asyncio.Event()
            opened.set()
            await door_caller(10**6, port, [], opened, asyncio.Semaphore(1), warm,
                              ssh_port if what == "ssh" else 0, web=web)
            await asyncio.sleep(0.5)
        if busy:
            busy_lines, solvers = await make_busy(port, proc.pid, busy, busy_nice)
        rss0, _ = proc_stats(proc.pid)
        go, ready, res = asyncio.Event(), asyncio.Semaphore(concurrency), Result()
        script_keys = script(keys)
        began = time.monotonic()
        if what == "echo":
            tasks = [asyncio.create_task(echo_caller(i, port, script_keys, go, ready, res,
                                                     offset=i / n)) for i in range(n)]
        else:
            tasks = [asyncio.create_task(door_caller(i, port, script_keys, go, ready, res,
                                                     ssh_port if what == "ssh" else 0,
                                                     offset=i / n, web=web))
                     for i in range(n)]
        while res.settled < n:
            await asyncio.sleep(0.2)
        ramp = time.monotonic() - began
        await asyncio.sleep(1.0)
        rss1, cpu0 = proc_stats(proc.pid)
        t0, mine0, solving0 = time.monotonic(), time.process_time(), cpu_of(solvers)
        go.set()
        await asyncio.gather(*tasks)
        rss2, cpu1 = proc_stats(proc.pid)
        wall, mine = time.monotonic() - t0, time.process_time() - mine0
        solving = 100 * (cpu_of(solvers) - solving0) / wall
        if solvers and solver_workers(proc.pid) != solvers:
            print("    the busy solver workers did not last the run", file=sys.stderr)
    finally:
        for line in busy_lines:
            line.writer.close()
        await stop(proc)
        if home:
            shutil.rmtree(home, ignore_errors=True)
    for err in res.errors:
        print("   ", err, file=sys.stderr)
    alive = max(1, n - res.failed)
    return Row(what, n, pct(res.latencies, 0.5), pct(res.latencies, 0.99),
               (rss1 - rss0) / alive, (max(rss1, rss2) - rss0) / alive,
               100 * (cpu1 - cpu0) / wall, ramp, res.lost, res.failed,
               res.received / res.keys if res.keys else float("nan"), 100 * mine / wall,
               solving if solvers else float("nan"))


def show(rows: list[Row]) -> None:
    print()
    print("| server | callers | p50 ms | p99 ms | RSS / idle caller KiB | RSS / playing caller "
          "KiB | server CPU % of a core | client CPU % of a core | login ramp s | "
          "keys unanswered in 2 s | callers failed | bytes per key |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r.what} | {r.n} | {r.p50:.1f} | {r.p99:.1f} | {r.rss_idle:.0f} | "
              f"{r.rss_per_caller:.0f} | {r.cpu:.0f} | {r.client_cpu:.0f} | "
              f"{r.ramp:.0f} | {r.lost} | {r.failed} | {r.bytes_per_key:.0f} |")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def report(row: Row) -> None:
    print(f"  {row.what} N={row.n}: p50 {row.p50:.1f} ms, p99 {row.p99:.1f} ms, "
          f"{row.rss_idle:.0f}/{row.rss_per_caller:.0f} KiB/caller, CPU {row.cpu:.0f}% "
          f"(client {row.client_cpu:.0f}%), "
          f"{'' if row.solver_cpu != row.solver_cpu else f'solvers {row.solver_cpu:.0f}%, '}"
          f"ramp {row.ramp:.0f} s, lost {row.lost}, failed {row.failed}, "
          f"{row.bytes_per_key:.0f} bytes/key; load {os.getloadavg()[0]:.2f}", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 500, 1000, 2000],
                        help="telnet (and echo) callers, one run each; none: skip them")
    parser.add_argument("--ssh", type=int, default=200, help="SSH callers (0: none)")
    parser.add_argument("--keys", type=int, default=30, help="keys per caller")
    parser.add_argument("--concurrency", type=int, default=64,
                        help="callers logging in at once during the ramp")
    parser.add_argument("--web", type=int, default=0,
                        help="web callers, on the play page's WebSocket (0: none)")
    parser.add_argument("--web-modes", nargs="+", choices=list(WEB_MODES),
                        default=list(WEB_MODES),
                        help="web: permessage-deflate offered as browsers do; web-plain: not")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo ceiling")
    parser.add_argument("--workers", type=int, default=1,
                        help="the door's worker processes (serve --workers)")
    parser.add_argument("--busy-solvers", type=int, default=0, metavar="N",
                        help="also run each telnet size again with N solver workers busy")
    parser.add_argument("--busy-nice", type=int, default=None, metavar="K",
                        help="the busy solver workers at an ordinary nice +K (to compare)")
    parser.add_argument("--repeat", type=int, default=1, metavar="R",
                        help="play the sizes (idle and busy runs alternating) R times")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * max([*args.sizes, args.ssh, args.web]) + 200
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, {args.keys} keys per "
          f"caller at 1 key/s, {args.workers} worker(s); {build_name()}; "
          f"load {os.getloadavg()[0]:.1f}; "
          f"open files limit {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}",
          flush=True)
    rows: list[Row] = []
    for n in [n for _ in range(args.repeat) for n in args.sizes]:
        for what in ("telnet",) if args.no_echo else ("telnet", "echo"):
            rows.append(await run(what, n, args.keys, args.concurrency, args.workers))
            report(rows[-1])
        if args.busy_solvers:
            row = await run("telnet", n, args.keys, args.concurrency, args.workers,
                            args.busy_solvers, args.busy_nice)
            row.what = f"telnet, {args.busy_solvers} solving" + (
                f" (nice {args.busy_nice})" if args.busy_nice is not None else "")
            rows.append(row)
            report(row)
    if args.ssh:
        rows.append(await run("ssh", args.ssh, args.keys, args.concurrency, args.workers))
        report(rows[-1])
    if args.web:
        for what in args.web_modes:
            rows.append(await run(what, args.web, args.keys, args.concurrency, args.workers))
            report(rows[-1])
    show(rows)
    subprocess.run(["uptime"], check=False)


if __name__ == "__main__":
    asyncio.run(main())
