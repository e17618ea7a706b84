"""Hostile network benchmark: a real ``reussite serve`` on loopback under attack, and a
control caller who only wants to play.

The server runs in its own process, listening on 127.0.0.1 and ::1.  The attackers call from
::1, the control caller from 127.0.0.1 (``--silent-from control`` puts the silent connections
on the control caller's own address, the harder case):

- **fuzzers**: at least 25 connections at once, each at the login screen, the main menu or in
  one of the four games, sending adversarial byte sequences one after another (random
  bytes, broken and endless escape sequences, telnet IAC/SB garbage in every option, CP437
  and UTF-8 high bytes, superscript and other Unicode digits at number prompts, long
  lines); a dropped one calls again;
- **500 silent connections** that never send a byte, called again when dropped;
- **never-reading callers**: Ctrl-R (full repaints) and keys, never reading the answer;
- **SSH**: handshake floods (connect, authenticate as nobody, hang up), garbage after the
  version line, and password loops on one account.

Meanwhile the **control caller** (its own process, so the attackers' CPU does not delay its
clock) plays Monte Carlo at five keys a second, timing each key to the last byte of its
answer, leaving the game and opening a new one every 50 keys (each opening timed from the
menu key to the board), and a knocker calls again every two seconds: time to the login
screen, then to a node after signing up.  A refused or dropped control call is a refusal.

Settings are sysop.ini's defaults but for what lets 25 fuzzers share the one attacker
address loopback offers (max_per_address 64, login_per_address 48) and keeps their garbage
at the login prompt from locking that address (login_attempts 100, lockout_minutes 1);
tests/server cover those caps and lockouts.

    python bench/hostile.py                          # 90 s; says so if < 20,000 sequences
    python bench/hostile.py --seconds 20 --sequences 2000 --silent 100

Prints: sequences tried, server errors, tracebacks logged, crashes; the control caller's
p50 / p99 / max per key and its refusals; the machine's load; each worker's RSS before the
attack (after a few warm-up calls), at its peak and after it (bench/rsswatch.py).  Figures
only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import asyncssh  # noqa: E402
import telnetlib3  # noqa: E402
from load import Line, pct, proc_stats, stop  # noqa: E402
from rsswatch import SETTLE_S, RssWatch  # noqa: E402

ATTACKER = "::1"
CONTROL = "127.0.0.1"
TARGETS = ("login", "menu", "mariant", "montecarlo", "auntmary", "anciento")
MENU_KEYS = {"mariant": b"m", "montecarlo": b"c", "auntmary": b"a", "anciento": b"n"}
SETTINGS = {"max_per_address": 64, "login_per_address": 48, "login_attempts": 100,
            "lockout_minutes": 1}
PASSWORD = "hostile-pw"
RIGHT, LEFT, UP, DOWN = b"\x1b[C", b"\x1b[D", b"\x1b[A", b"\x1b[B"


# -- the adversarial sequences ----------------------------------------------------------------

IAC, SB, SE = 255, 250, 240
OPTIONS = (0, 1, 3, 5, 24, 31, 32, 33, 34, 35, 36, 39, 42, 69, 70, 86, 200, 255)
DIGITS = "²³¹٣۴१০੩①Ⅻ½０９"


def sequence(rnd: random.Random) -> bytes:
    """One adversarial sequence: what a fuzzer sends at once."""
    kind = rnd.randrange(10)
    if kind == 0:
        return rnd.randbytes(rnd.randint(1, 64))
    if kind == 1:  # escape sequences: broken, endless, with odd parameters
        params = ";".join(str(rnd.choice([0, 1, 5, 99, 65535, 10**9])) for _ in
                          range(rnd.randint(0, 6)))
        final = rnd.choice("ABCDHFKR~$^@mnhlJ") if rnd.random() < 0.8 else ""
        lead = rnd.choice(["\x1b[", "\x1bO", "\x1b[?", "\x1b[[", "\x1b", "\x9b"])
        return (lead + params + final).encode("latin-1", "replace")
    if kind == 2:  # telnet: any command, any option, subnegotiations with garbage inside
        option = rnd.choice(OPTIONS)
        if rnd.random() < 0.5:
            return bytes([IAC, rnd.choice([251, 252, 253, 254, 241, 243, 244, 246, 249]),
                          option])
        body = rnd.randbytes(rnd.randint(0, 40))
        if option == 42 and rnd.random() < 0.5:
            body = b"\x02" + rnd.choice([b"bogus-cs", b"utf-8", b"\xff\xfe", b""])
        end = bytes([IAC, SE]) if rnd.random() < 0.9 else b""
        return bytes([IAC, SB, option]) + body.replace(b"\xff", b"\xff\xff") + end
    if kind == 3:  # high bytes in CP437 and UTF-8, and digits that are not ASCII digits
        text = "".join(rnd.choice(DIGITS + "éü█▒╬α") for _ in range(rnd.randint(1, 6)))
        encoded = text.encode(rnd.choice(["utf-8", "cp437", "latin-1"]), "replace")
        return encoded + rnd.choice([b"1\r", b"\r", b"", b"42\r"])
    if kind == 4:  # keys a game understands, in bursts
        keys = [b"\r", b"\x1b", b"\t", b" ", b"\x7f", b"\x08", b"q", b"n", b"u", b"?", b"h",
                RIGHT, LEFT, UP, DOWN, b"\x1b[5~", b"\x1b[6~", b"\x12", b"a1", b"b2c2", b"s"]
        return b"".join(rnd.choice(keys) for _ in range(rnd.randint(1, 12)))
    if kind == 5:  # a long line, no newline
        return bytes([rnd.randrange(32, 127)]) * rnd.randint(200, 4000)
    if kind == 6:  # control characters, NUL, CR NUL, lone Esc
        return bytes(rnd.choice([0, 1, 3, 4, 7, 13, 10, 26, 27, 28, 31]) for _ in
                     range(rnd.randint(1, 16)))
    if kind == 7:  # digits and Enter: number prompts, huge numbers
        return (str(rnd.choice([0, 1, 7, 32000, 2**31, 10**30])) + "\r").encode()
    if kind == 8:  # invalid UTF-8: lone continuation bytes, overlongs, truncated
        return rnd.choice([b"\x80", b"\xc0\xaf", b"\xe2\x82", b"\xf0\x9f\x98", b"\xed\xa0\x80",
                           b"\xff\xfe"]) * rnd.randint(1, 8)
    return b"\x1b[" + b"9" * rnd.randint(10, 200) + b"R"  # an endless cursor report


# -- a telnet caller --------------------------------------------------------------------------

class Telnet(Line):
    """A telnetlib3 client (terminal type syncterm: CP437, no probe) reading bytes; a key's
    answer is timed as bench/load.py times it (:meth:`Line.answer`)."""

    @classmethod
    async def open(cls, port: int, host: str) -> Telnet:
        reader, writer = await asyncio.wait_for(telnetlib3.open_connection(
            host, port, encoding=False, term="syncterm", cols=80, rows=24,
            connect_minwait=0.0, connect_maxwait=0.5), 30)
        return cls(reader, writer)

    async def until_any(self, *needles: bytes, timeout: float = 20.0) -> bytes:
        """Read until one of ``needles`` arrives; which one."""
        deadline = time.monotonic() + timeout
        while True:
            for needle in needles:
                if needle in self.buf:
                    self.buf.clear()
                    return needle
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"none of {needles!r} came")
            data = await asyncio.wait_for(self.reader.read(65536), left)
            if not data:
                raise ConnectionError(f"closed before {needles!r}: {bytes(self.buf[-200:])!r}")
            self.buf += data
            del self.buf[:-8192]

    async def drain_for(self, seconds: float) -> None:
        """Read (and drop) what comes for ``seconds``; ConnectionError once it is closed."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                data = await asyncio.wait_for(self.reader.read(65536), left)
            except TimeoutError:
                return
            if not data:
                raise ConnectionError("closed")

    def send(self, data: bytes) -> None:
        if b"\xff" in data:
            self.writer.send_iac(data)  # raw: telnet commands as they are
        else:
            self.writer.write(data)

    def close(self) -> None:
        self.writer.close()


async def enter(caller: Telnet, handle: str, known: bool) -> None:
    """From the login screen to the main menu, signing up the first time."""
    if known:
        caller.send(f"{handle}\r{PASSWORD}\r".encode())
    else:
        caller.send(b"new\r")
        await caller.until_any(b"New user")
        caller.send(f"{handle}\r{PASSWORD}\r{PASSWORD}\r".encode())
    await caller.until_any(b"Press any key")
    caller.send(b" ")
    await caller.until_any(b"Your choice")


async def open_game(caller: Telnet, target: str, until: bytes | None = None) -> None:
    """From the main menu into a new game of ``target``; with ``until``, wait for that text
    of the game screen (the control caller times its keys only once the board is up: a key
    sent while the game is still being opened would count its opening time)."""
    caller.send(MENU_KEYS[target])
    seen = await caller.until_any(b"Resume your", b"Game number", b"New Mariant game",
                              b"R, P or S")
    if seen == b"Resume your":
        caller.send(b"n")
        seen = await caller.until_any(b"Game number", b"New Mariant game", b"R, P or S")
    caller.send(b"p" if seen == b"R, P or S" else b"\r")
    if until is not None:
        await caller.until_any(until)
    else:
        await caller.drain_for(0.3)


# -- the attackers ----------------------------------------------------------------------------

@dataclass
class Tally:
    tried: int = 0
    by_target: dict[str, int] = field(default_factory=dict)
    fuzz_calls: int = 0
    fuzz_dropped: int = 0
    silent_opened: int = 0
    silent_dropped: int = 0
    deaf_opened: int = 0
    ssh_handshakes: int = 0
    ssh_refused: int = 0
    ssh_garbage: int = 0
    password_tries: int = 0
    password_cut_off: int = 0


async def fuzzer(i: int, target: str, port: int, tally: Tally, until: float,
                 seed: int) -> None:
    rnd = random.Random(seed * 1000 + i)
    known = False
    while time.monotonic() < until:
        caller = None
        tally.fuzz_calls += 1
        try:
            caller = await Telnet.open(port, ATTACKER)
            await caller.until_any(b"Handle:")
            if target != "login":
                await enter(caller, f"fz{i}", known)
                known = True
                if target in MENU_KEYS:
                    await open_game(caller, target)
            while time.monotonic() < until:
                caller.send(sequence(rnd))
                tally.tried += 1
                tally.by_target[target] = tally.by_target.get(target, 0) + 1
                await caller.drain_for(rnd.choice([0.005, 0.02, 0.05]))
        except (ConnectionError, TimeoutError, OSError, EOFError):
            tally.fuzz_dropped += 1
            await asyncio.sleep(0.2)
        finally:
            if caller is not None:
                caller.close()


async def silent(port: int, host: str, tally: Tally, until: float,
                 start_after: float) -> None:
    """A connection that sends nothing; again when dropped, after a pause."""
    await asyncio.sleep(start_after)
    while time.monotonic() < until:
        writer = None
        try:
            reader, writer = await asyncio.open_connection(host, port)
            tally.silent_opened += 1
            while await asyncio.wait_for(reader.read(65536), max(0.1, until - time.monotonic())):
                pass
            tally.silent_dropped += 1
        except (ConnectionError, TimeoutError, OSError):
            pass
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(5)


async def deaf(port: int, tally: Tally, until: float) -> None:
    """A caller who never reads (a bare socket: nothing takes what arrives off the kernel's
    small receive buffer): repaints asked for (Ctrl-R) and keys typed, answers never taken."""
    loop = asyncio.get_running_loop()
    while time.monotonic() < until:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            try:
                await loop.sock_connect(sock, (ATTACKER, port))
                tally.deaf_opened += 1
                while time.monotonic() < until:
                    for key in (b"\x12", b"n", b"e", b"w", b"\r", b"\x12"):
                        await asyncio.wait_for(loop.sock_sendall(sock, key), 10)
                        await asyncio.sleep(0.05)
            except (ConnectionError, TimeoutError, OSError):
                await asyncio.sleep(1)


async def ssh_flood(port: int, tally: Tally, until: float) -> None:
    """Full handshakes, authenticated as nobody, hung up at once."""
    n = 0
    while time.monotonic() < until:
        n += 1
        try:
            conn = await asyncio.wait_for(asyncssh.connect(
                ATTACKER, port, username=f"flood{n}", known_hosts=None, client_keys=None,
                agent_path=None, preferred_auth="none"), 30)
            tally.ssh_handshakes += 1
            conn.close()
        except (asyncssh.Error, OSError, TimeoutError):
            tally.ssh_refused += 1
            await asyncio.sleep(0.1)


async def ssh_garbage(port: int, tally: Tally, until: float, seed: int) -> None:
    """A version line, then bytes that are no SSH packet."""
    rnd = random.Random(seed)
    while time.monotonic() < until:
        writer = None
        try:
            reader, writer = await asyncio.open_connection(ATTACKER, port)
            writer.write(b"SSH-2.0-hostile\r\n" + rnd.randbytes(rnd.randint(1, 3000)))
            tally.ssh_garbage += 1
            await asyncio.wait_for(reader.read(65536), 5)
        except (ConnectionError, TimeoutError, OSError):
            pass
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(0.05)


class Guesser(asyncssh.SSHClient):
    def __init__(self, tally: Tally) -> None:
        self.tally = tally

    def password_auth_requested(self) -> str:
        self.tally.password_tries += 1
        return f"guess-{random.randrange(10**9)}"


async def password_loop(port: int, tally: Tally, until: float) -> None:
    """One connection trying passwords for an existing account until it is cut off."""
    while time.monotonic() < until:
        try:
            await asyncio.wait_for(asyncssh.create_connection(
                lambda: Guesser(tally), ATTACKER, port, username="victim", known_hosts=None,
                client_keys=None, agent_path=None, preferred_auth="password"), 600)
        except asyncssh.PermissionDenied:
            tally.password_cut_off += 1
        except (asyncssh.Error, OSError, TimeoutError):
            await asyncio.sleep(0.5)


# -- the control caller (its own process) -----------------------------------------------------

REOPEN_EVERY = 50
"""The control caller leaves its game and opens a new one after this many keys (10 s)."""


async def control(port: int, seconds: float) -> dict:
    latencies: list[float] = []
    login_s: list[float] = []
    node_s: list[float] = []
    open_s: list[float] = []
    out = {"lost": 0, "refusals": 0, "knocks": 0, "errors": []}
    until = time.monotonic() + seconds

    def refused(what: str, exc: Exception) -> None:
        out["refusals"] += 1
        if len(out["errors"]) < 5:
            out["errors"].append(f"{what}: {type(exc).__name__}: {exc}"[:300])

    async def player() -> None:
        known = False
        keys = [RIGHT, DOWN, LEFT, UP]
        while time.monotonic() < until:
            try:
                caller = await Telnet.open(port, CONTROL)
                await caller.until_any(b"Handle:")
                await enter(caller, "control", known)
                known = True
                began = time.perf_counter()
                await open_game(caller, "montecarlo", until=b"Score")
                open_s.append(time.perf_counter() - began)  # the board is up: keys are timed
                await caller.drain_for(0.3)
                n = turn = 0
                while time.monotonic() < until:
                    if n and n % REOPEN_EVERY == 0:  # leave (saved), then a new deal, timed
                        caller.send(b"q")
                        await caller.until_any(b"Leave this game?")
                        caller.send(b"y")
                        await caller.until_any(b"Your choice")
                        began = time.perf_counter()
                        await open_game(caller, "montecarlo", until=b"Score")
                        open_s.append(time.perf_counter() - began)
                        await caller.drain_for(0.3)
                        # The cursor is at a1 again: RIGHT first (LEFT or UP there moves
                        # nothing, so no answer comes and the key would count as lost).
                        turn = n
                    start = time.perf_counter()
                    caller.send(keys[(n - turn) % 4])
                    n += 1
                    done = await caller.answer()
                    if done is None:
                        out["lost"] += 1
                    else:
                        latencies.append(done - start)
                    await asyncio.sleep(max(0.0, 0.2 - (time.perf_counter() - start)))
                caller.close()
            except (ConnectionError, TimeoutError, OSError, EOFError) as exc:
                refused("player", exc)
                await asyncio.sleep(0.5)

    async def knocker() -> None:
        n = 0
        while time.monotonic() < until - 3:
            n += 1
            out["knocks"] += 1
            began = time.perf_counter()
            caller = None
            try:
                caller = await Telnet.open(port, CONTROL)
                await caller.until_any(b"Handle:")
                login_s.append(time.perf_counter() - began)
                began = time.perf_counter()
                caller.send(f"new\rknock{n}\r{PASSWORD}\r{PASSWORD}\r".encode())
                await caller.until_any(b"Press any key")  # logged in, and on a node
                node_s.append(time.perf_counter() - began)
            except (ConnectionError, TimeoutError, OSError, EOFError) as exc:
                refused("knock", exc)
            finally:
                if caller is not None:
                    caller.close()
            await asyncio.sleep(2.0)

    await asyncio.gather(player(), knocker())
    out.update(keys=len(latencies), p50=pct(latencies, 0.5), p99=pct(latencies, 0.99),
               max=max(latencies) * 1000 if latencies else float("nan"),
               login_p50=pct(login_s, 0.5), login_max=max(login_s, default=0) * 1000,
               node_p50=pct(node_s, 0.5), node_max=max(node_s, default=0) * 1000,
               opens=len(open_s), open_p50=pct(open_s, 0.5),
               open_max=max(open_s, default=0) * 1000)
    return out


# -- the memory figures (bench/rsswatch.py) ---------------------------------------------------

WARM_UPS = 4
"""Visits before the "before" figure, each opening the four games: with two workers, the
kernel's spread of four calls warms both but for one time in eight."""


async def warm_up(port: int) -> None:
    """Calls that sign up and open each game once, so that the figure before the attack is
    the plateau of a server that has had callers (screens, games and queries loaded)."""
    for n in range(WARM_UPS):
        caller = None
        try:
            caller = await Telnet.open(port, CONTROL)
            await caller.until_any(b"Handle:")
            await enter(caller, f"warm{n}", known=False)
            for target in MENU_KEYS:
                await open_game(caller, target)
                caller.send(b"q")
                if await caller.until_any(b"Leave this game?", b"Your choice",
                                          timeout=60) != b"Your choice":
                    caller.send(b"y")
                    await caller.until_any(b"Your choice", timeout=60)
        except (ConnectionError, TimeoutError, OSError) as exc:  # a slow machine: go on
            print(f"warm-up visit {n}: {type(exc).__name__}: {exc}"[:200], flush=True)
        finally:
            if caller is not None:
                caller.close()


async def watch_memory(server_pid: int, port: int, settle_s: float) -> RssWatch:
    """The server's RSS per worker, warmed up and settled (the "before" figure)."""
    watch = RssWatch(server_pid, settle_s)
    await warm_up(port)
    await watch.before()
    return watch


# -- the run ----------------------------------------------------------------------------------

def make_home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="reussite-hostile-"))
    text = (REPO / "sysop.ini").read_text(encoding="utf-8")
    for key, value in SETTINGS.items():
        text, n = re.subn(rf"(?m)^;?{key} = .*$", f"{key} = {value}", text, count=1)
        assert n == 1, key
    (home / "sysop.ini").write_text(text, encoding="utf-8")
    (home / "ansi").mkdir()
    (home / "data").mkdir()
    return home


async def make_victim(home: Path) -> None:
    from door.config import load_settings
    from door.store import Store
    from door.store.accounts import Accounts

    store = Store(load_settings(home).database_url)
    try:
        await store.start()
        await Accounts(store).signup("victim", "the-real-one")
    finally:
        await store.close()


async def start_server(home: Path, log_level: str
                       ) -> tuple[asyncio.subprocess.Process, int, int]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door", "--home", str(home), "--log-level", log_level, "serve",
        "--bind", f"{CONTROL}, {ATTACKER}", "--telnet-port", "0", "--ssh-port", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    found = re.search(r"port (\d+) and SSH on port (\d+)", line)
    if not found:
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, int(found.group(1)), int(found.group(2))


def read_logs(home: Path) -> tuple[int, int, int]:
    """(error lines, traceback lines, warning lines) in data/reussite.log*."""
    errors = tracebacks = warnings = 0
    for path in sorted((home / "data").glob("reussite.log*")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if " ERROR " in line or " CRITICAL " in line:
                errors += 1
            if " WARNING " in line:
                warnings += 1
            if "Traceback" in line or line.lstrip().startswith('File "'):
                tracebacks += 1
    return errors, tracebacks, warnings


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=90.0, help="how long the attack lasts")
    parser.add_argument("--sequences", type=int, default=20_000,
                        help="fewer sequences than this is reported as too short a run")
    parser.add_argument("--fuzzers", type=int, default=30)
    parser.add_argument("--silent", type=int, default=500)
    parser.add_argument("--silent-from", choices=["attacker", "control"], default="attacker",
                        help="the address of the silent connections (default: the attackers')")
    parser.add_argument("--deaf", type=int, default=8)
    parser.add_argument("--ssh", type=int, default=2,
                        help="SSH attackers of each kind: handshake floods, garbage, "
                             "password loops")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--keep", action="store_true", help="keep the door home (its log)")
    parser.add_argument("--settle", type=float, default=SETTLE_S, metavar="S",
                        help=f"seconds of quiet before the RSS figures before and after the "
                             f"attack (default {SETTLE_S:g})")
    parser.add_argument("--log-level", default="warning", help="the server's (default warning)")
    parser.add_argument("--control", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    for name in ("telnetlib3", "asyncssh"):  # the clients' own complaints about our garbage
        logging.getLogger(name).setLevel(logging.CRITICAL)
    if args.control:  # the control caller's own process
        print(json.dumps(await control(args.control, args.seconds)), flush=True)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4096)), hard))
    home = make_home()
    await make_victim(home)
    server, port, ssh_port = await start_server(home, args.log_level)
    tally = Tally()
    crashed = False
    try:
        memory = await watch_memory(server.pid, port, args.settle)
        _, cpu0 = proc_stats(server.pid)
        began = time.monotonic()
        until = began + args.seconds
        sampler = asyncio.create_task(memory.sample_until(until))
        ctl = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--control", str(port), "--seconds", str(args.seconds),
            stdout=asyncio.subprocess.PIPE)
        tasks = [asyncio.create_task(fuzzer(i, TARGETS[i % len(TARGETS)], port, tally, until,
                                            args.seed)) for i in range(args.fuzzers)]
        silent_host = CONTROL if args.silent_from == "control" else ATTACKER
        tasks += [asyncio.create_task(silent(port, silent_host, tally, until, i / 200))
                  for i in range(args.silent)]
        tasks += [asyncio.create_task(deaf(port, tally, until)) for _ in range(args.deaf)]
        tasks += [asyncio.create_task(ssh_flood(ssh_port, tally, until))
                  for _ in range(args.ssh)]
        tasks += [asyncio.create_task(ssh_garbage(ssh_port, tally, until, args.seed + k))
                  for k in range(args.ssh)]
        tasks += [asyncio.create_task(password_loop(ssh_port, tally, until))
                  for _ in range(args.ssh)]
        while time.monotonic() < until:
            await asyncio.sleep(1)
            crashed = crashed or server.returncode is not None
        out, _ = await ctl.communicate()
        result = json.loads(out.decode().strip().splitlines()[-1])
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, sampler, return_exceptions=True)
        wall = time.monotonic() - began
        _, cpu1 = proc_stats(server.pid)
        load = os.getloadavg()
        await memory.after()
        crashed = crashed or server.returncode is not None
    finally:
        await stop(server)
    errors, tracebacks, warnings = read_logs(home)
    if args.keep:
        print(f"door home kept: {home}")
    else:
        shutil.rmtree(home, ignore_errors=True)
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, {wall:.0f} s, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; server CPU "
          f"{100 * (cpu1 - cpu0) / wall:.0f} % of a core")
    print(f"tried: {tally.tried} adversarial sequences over {args.fuzzers} connections at "
          f"once ({', '.join(f'{k} {v}' for k, v in tally.by_target.items())}); "
          f"{tally.fuzz_calls} calls, {tally.fuzz_dropped} dropped")
    print(f"server errors: {errors}   tracebacks logged: {tracebacks}   crashes: "
          f"{int(crashed)}   warnings logged: {warnings}")
    print(f"control caller: {result['keys']} keys, p50 {result['p50']:.1f} ms, p99 "
          f"{result['p99']:.1f} ms, max {result['max']:.1f} ms, {result['lost']} lost; "
          f"refusals {result['refusals']} of {result['knocks']} calls")
    print(f"  login screen p50 {result['login_p50']:.0f} ms, max {result['login_max']:.0f} ms;"
          f" a node after signing up p50 {result['node_p50']:.0f} ms, max "
          f"{result['node_max']:.0f} ms; a game opened (to its board, "
          f"{result['opens']} times) p50 "
          f"{result['open_p50']:.0f} ms, max {result['open_max']:.0f} ms")
    for error in result["errors"]:
        print("   ", error)
    print(f"silent: {tally.silent_opened} connections ({args.silent} at once, from the "
          f"{args.silent_from}'s address), "
          f"{tally.silent_dropped} dropped by the server; never-reading: {tally.deaf_opened} "
          f"calls; ssh: {tally.ssh_handshakes} handshakes, {tally.ssh_refused} refused, "
          f"{tally.ssh_garbage} garbage, {tally.password_tries} passwords tried, "
          f"{tally.password_cut_off} connections cut off")
    for line in memory.lines():
        print(line)
    if tally.tried < args.sequences:
        print(f"fewer than {args.sequences} sequences: run longer (--seconds)")
    print(json.dumps({"tally": asdict(tally), "control": result, "errors": errors,
                      "tracebacks": tracebacks, "crashed": crashed, "load": load,
                      "rss_kib": memory.figures()}))
    subprocess.run(["uptime"], check=False)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
