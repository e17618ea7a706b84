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
  version line, and password loops on one account;
- **paste, then hang up** (after the timed attack, or alone with ``--paste-only``):
  ``--pasters`` callers (32) at once in a Monte Carlo game, each makes a move, pastes 96 KiB
  of keys and drops the line, once with a close and once with a reset; printed: seconds
  from the drop until the caller's node is free (target: 2 s), the games saved, and the
  CPU of each server process meanwhile.

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
    python bench/hostile.py --flood --seconds 90     # the reconnect flood alone (issue #36)
    python bench/hostile.py --flood --flood-prefixes 2 --workers 1

``--flood`` is an attack of its own (section "the reconnect flood" below): silent
connections from 500 loopback addresses at 600 a second against a server on sysop.ini's
defaults, and two control callers, a telnet client and a raw one, who log in and play
throughout; it prints their tries, refusals, evictions and login times, the log's growth
and the server's RSS before, at peak and after.

Prints: sequences tried, server errors, tracebacks logged, crashes; the control caller's
p50 / p99 / max per key and its refusals; the machine's load; each worker's RSS before the
attack (after a few warm-up calls), at its peak and after it (bench/rsswatch.py).  Figures
only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import json
import logging
import os
import random
import re
import resource
import select
import shutil
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import asyncssh  # noqa: E402
import pyte  # noqa: E402
import telnetlib3  # noqa: E402
from load import Line, pct, proc_stats, server_pids, shown, stop  # noqa: E402
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
    answer is timed as bench/load.py times it (:meth:`Line.answer`), its prompts waited for
    as there (:meth:`Line.until_any`)."""

    wait_s = 20.0

    @classmethod
    async def open(cls, port: int, host: str) -> Telnet:
        reader, writer = await asyncio.wait_for(telnetlib3.open_connection(
            host, port, encoding=False, term="syncterm", cols=80, rows=24,
            connect_minwait=0.0, connect_maxwait=0.5), 30)
        return cls(reader, writer)

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


# -- paste, then hang up ----------------------------------------------------------------------

PASTE = RIGHT * (96 * 1024 // 3)
"""96 KiB of cursor keys (nothing a game records): minutes of keys at the door's flood pace
(512 bytes a second past 8 KiB), where a node used to stay taken after the hang-up."""
PASTE_NUMBER = 31
PASTE_WAIT = 300.0
"""Seconds a paste round waits for the nodes to be freed before it stops counting."""
PASTE_CPU_S = 5.0
"""The server's CPU is measured from the drop until every node is free, and at least this
long (a shorter span would be a figure of noise)."""


def paster(i: int) -> str:
    return f"paste{i}"


async def make_pasters(home: Path, n: int) -> None:
    """Their accounts, made before the server starts: the rounds time hang-ups, not sign-ups."""
    from door.config import load_settings
    from door.store import Store

    store = Store(load_settings(home).database_url)
    try:
        await store.start()
        for i in range(n):
            await store.accounts.signup(paster(i), PASSWORD)
    finally:
        await store.close()


def _db(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(home / "data" / "reussite.db", timeout=10)


def online_pasters(home: Path) -> set[str]:
    """Pasters with a Who's Online row: the door writes it as the caller takes a node and
    deletes it as the node is given back."""
    with contextlib.closing(_db(home)) as conn:
        rows = conn.execute("SELECT players.alias FROM nodes JOIN players ON "
                            "players.id = nodes.player_id").fetchall()
    return {alias for (alias,) in rows if alias.startswith("paste")}


def saved_moves(home: Path) -> dict[str, list[str]]:
    """Each paster's Monte Carlo game in progress, as saved: its moves."""
    with contextlib.closing(_db(home)) as conn:
        rows = conn.execute("SELECT players.alias, state FROM resume_slots JOIN players ON "
                            "players.id = player_id WHERE game = 'montecarlo'").fetchall()
    return {alias: json.loads(state)["actions"] for alias, state in rows}


async def ready_to_paste(port: int, i: int) -> tuple[str, Telnet, list[str]] | None:
    """Paster ``i`` logged in, in Monte Carlo #PASTE_NUMBER with one move made: (its handle,
    its line, the moves), or None when it could not get there."""
    from door.games.montecarlo import MonteCarlo

    caller = None
    try:
        caller = await Telnet.open(port, ATTACKER)
        await caller.until_any(b"Handle:")
        await enter(caller, paster(i), known=True)
        caller.send(MENU_KEYS["montecarlo"])
        if await caller.until_any(b"Resume your", b"Game number") == b"Resume your":
            caller.send(b"n")
            await caller.until_any(b"Game number")
        caller.send(f"{PASTE_NUMBER}\r".encode())
        await caller.until_any(b"Score")
        game = MonteCarlo.new(PASTE_NUMBER)
        move = game.legal_moves()[0]
        game.play(move)
        caller.send(move.encode())
        if await caller.answer() is None:  # the board redrawn after the move
            raise TimeoutError(f"no answer to {move}")
        return paster(i), caller, game.actions
    except (ConnectionError, TimeoutError, OSError, EOFError):
        if caller is not None:
            caller.close()
        return None


def _cpu_s(pid: int) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    with contextlib.suppress(OSError):
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks
    return 0.0


def drop_line(caller: Telnet, how: str) -> None:
    """Hang up: a plain close (FIN), or a reset (SO_LINGER 0, then close)."""
    if how == "reset":
        sock = caller.writer.get_extra_info("socket")
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        caller.writer.transport.abort()
    else:
        caller.close()


async def paste_round(port: int, home: Path, server_pid: int, n: int, how: str) -> dict:
    """``n`` pasters at once, each dropping its line (``how``: "close" or "reset") right
    after its paste; when each node was freed, and what the server's processes spent."""
    ready = [r for r in await asyncio.gather(*(ready_to_paste(port, i) for i in range(n)))
             if r is not None]
    handles = {handle for handle, _, _ in ready}
    deadline = time.monotonic() + 60
    while not handles <= online_pasters(home) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    for _, caller, _ in ready:
        caller.send(PASTE)
    await asyncio.gather(*(caller.writer.drain() for _, caller, _ in ready),
                         return_exceptions=True)
    pids = server_pids(server_pid)
    cpu0 = {pid: _cpu_s(pid) for pid in pids}
    dropped: dict[str, float] = {}
    for handle, caller, _ in ready:
        drop_line(caller, how)
        dropped[handle] = time.monotonic()
    start = time.monotonic()
    freed: dict[str, float] = {}
    while ((len(freed) < len(dropped) and time.monotonic() - start < PASTE_WAIT)
           or time.monotonic() - start < PASTE_CPU_S):
        online, now = online_pasters(home), time.monotonic()
        freed.update({h: now - t for h, t in dropped.items()
                      if h not in online and h not in freed})
        await asyncio.sleep(0.02)
    window = time.monotonic() - start
    cpu = [100 * (_cpu_s(pid) - cpu0[pid]) / window for pid in pids]
    saved = saved_moves(home)
    return {"how": how, "callers": len(ready), "tried": n, "freed": len(freed),
            "p50": pct(list(freed.values()), 0.5) / 1000,
            "max": max(freed.values(), default=float("nan")),
            "saved": sum(1 for handle, _, moves in ready if saved.get(handle) == moves),
            "window": window, "cpu": cpu}


async def paste_attack(port: int, home: Path, server_pid: int, n: int) -> list[dict]:
    """Two rounds, close then reset; one line printed for each."""
    rounds = []
    for how in ("close", "reset"):
        result = await paste_round(port, home, server_pid, n, how)
        rounds.append(result)
        cpu = ", ".join(f"{c:.0f}" for c in result["cpu"])
        print(f"paste, then {how}: {result['callers']} of {result['tried']} callers pasted "
              f"96 KiB and hung up; nodes freed {result['freed']}, p50 {result['p50']:.2f} s, "
              f"max {result['max']:.2f} s after the drop (target 2 s); games saved "
              f"{result['saved']}; CPU meanwhile ({result['window']:.1f} s) per server process "
              f"[{cpu}] % of a core", flush=True)
    return rounds


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


# -- the web flood (issue #36) ---------------------------------------------------------------

WEB_FLOOD_KINDS = ("GET", "WebSocket", "hang-up")


@dataclass
class WebFlood:
    """``--web-rounds`` rounds of ``--web-connections`` connections at once from the attacker's
    address to the web port: a GET, a WebSocket upgrade, or a hang-up at once, in turn."""

    rounds: list[dict[str, int]] = field(default_factory=list)
    """Per round: the answers' status lines (``closed``: none came) and the round's time."""
    log_growth: list[int] = field(default_factory=list)
    """Bytes the log files grew during each round."""


def log_bytes(home: Path) -> int:
    return sum(path.stat().st_size for path in (home / "data").glob("reussite.log*"))


async def web_hit(port: int, kind: str) -> str:
    """One connection of the flood; the status code it got, or ``closed``."""
    reader, writer = await asyncio.open_connection(ATTACKER, port)
    try:
        if kind == "hang-up":  # a reset, before the server has taken the connection in
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                                       struct.pack("ii", 1, 0))
            return "hung up"
        if kind == "GET":
            writer.write(b"GET /online HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        else:
            key = os.urandom(16).hex()[:22] + "=="
            writer.write((f"GET /play HTTP/1.1\r\nHost: [::1]:{port}\r\nUpgrade: websocket"
                          f"\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                          f"Sec-WebSocket-Version: 13\r\nOrigin: http://[::1]:{port}\r\n\r\n"
                          ).encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n"), 30)
        return head.split(b" ")[1].decode() if head.startswith(b"HTTP/") else "closed"
    except (ConnectionError, asyncio.IncompleteReadError, TimeoutError, IndexError):
        return "closed"
    finally:
        writer.close()


async def web_flood(port: int, home: Path, flood: WebFlood, rounds: int, connections: int,
                    seconds: float) -> None:
    """The rounds spread over the run (the first after a tenth of it)."""
    for n in range(rounds):
        await asyncio.sleep(seconds / (rounds + 1) if n else seconds / 10)
        before, began = log_bytes(home), time.monotonic()
        answers = await asyncio.gather(*(web_hit(port, WEB_FLOOD_KINDS[i % 3])
                                         for i in range(connections)))
        counts: dict[str, int] = {}
        for answer in answers:
            counts[answer] = counts.get(answer, 0) + 1
        counts["ms"] = int((time.monotonic() - began) * 1000)
        flood.rounds.append(counts)
        await asyncio.sleep(1)  # the refusals' log lines are written
        flood.log_growth.append(log_bytes(home) - before)


def print_web_flood(flood: WebFlood, connections: int) -> None:
    for n, (counts, grown) in enumerate(zip(flood.rounds, flood.log_growth, strict=True), 1):
        answers = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != "ms")
        print(f"web flood round {n}: {connections} connections from {ATTACKER} in "
              f"{counts['ms']} ms: {answers}; the log grew {grown} bytes")


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

def make_home(settings: dict | None = None) -> Path:
    """A door home with sysop.ini's defaults but ``settings`` (default: :data:`SETTINGS`)."""
    home = Path(tempfile.mkdtemp(prefix="reussite-hostile-"))
    text = (REPO / "sysop.ini").read_text(encoding="utf-8")
    for key, value in (SETTINGS if settings is None else settings).items():
        text, n = re.subn(rf"(?m)^;?{key} = .*$", f"{key} = {value}", text, count=1)
        assert n == 1, key
    (home / "sysop.ini").write_text(text, encoding="utf-8")
    (home / "ansi").mkdir()
    (home / "data").mkdir()
    return home


async def make_victim(home: Path) -> None:
    from door.config import load_settings
    from door.store import Store

    store = Store(load_settings(home).database_url)
    try:
        await store.start()
        await store.accounts.signup("victim", "the-real-one")
    finally:
        await store.close()


async def start_server(home: Path, log_level: str
                       ) -> tuple[asyncio.subprocess.Process, int, int, int]:
    """The server, and its telnet, SSH and web ports."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door", "--home", str(home), "--log-level", log_level, "serve",
        "--bind", f"{CONTROL}, {ATTACKER}", "--telnet-port", "0", "--ssh-port", "0",
        "--web-port", "0", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    found = re.search(r"port (\d+) and SSH on port (\d+)", line)
    web = re.search(r"the web on http://[^ ]*:(\d+)/", line)
    if not found or not web:
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, int(found.group(1)), int(found.group(2)), int(web.group(1))


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
    parser.add_argument("--web-rounds", type=int, default=3,
                        help="rounds of the web flood (spread over the run)")
    parser.add_argument("--web-connections", type=int, default=300,
                        help="connections at once from one address in each web round")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--keep", action="store_true", help="keep the door home (its log)")
    parser.add_argument("--settle", type=float, default=SETTLE_S, metavar="S",
                        help=f"seconds of quiet before the RSS figures before and after the "
                             f"attack (default {SETTLE_S:g})")
    parser.add_argument("--log-level", default="warning", help="the server's (default warning)")
    parser.add_argument("--control", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--pasters", type=int, default=32,
                        help="paste-then-hang-up callers, after the timed attack (0: none)")
    parser.add_argument("--paste-only", action="store_true",
                        help="only the paste-then-hang-up rounds, no timed attack")
    flood = parser.add_argument_group("the reconnect flood (--flood: this attack alone)")
    flood.add_argument("--flood", action="store_true",
                       help="silent connections from many addresses, reconnecting, against "
                            "two control callers (a telnet and a raw client) who log in and "
                            "play; default settings")
    flood.add_argument("--flood-addresses", type=int, default=500)
    flood.add_argument("--flood-prefixes", type=int, default=500,
                       help="/24 networks the addresses are spread over (2: a crowded few)")
    flood.add_argument("--flood-rate", type=float, default=600, help="connections a second")
    flood.add_argument("--flood-hold", type=float, default=2.0,
                       help="seconds a flood connection stays unless dropped")
    flood.add_argument("--flood-warmup", type=float, default=3.0,
                       help="seconds the flood runs before the control callers begin")
    flood.add_argument("--logins", type=int, default=20,
                       help="each control caller calls at least this often")
    flood.add_argument("--workers", type=int, default=2, help="the server's (--flood)")
    flood.add_argument("--own-session", action=argparse.BooleanOptionalAction, default=True,
                       help="the server, and the control callers, each in a session of "
                       "their own (default), as on machines of their own, not in the "
                       "attacker's: on Linux each session is a scheduling group, and in the "
                       "attacker's the server's threads (its password hashing at niceness "
                       "+10 above all) and the controls' clocks share one group's CPU with "
                       "the flood's own busy loop")
    flood.add_argument("--flood-control", type=int, metavar="PORT", help=argparse.SUPPRESS)
    flood.add_argument("--flood-run", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    for name in ("telnetlib3", "asyncssh"):  # the clients' own complaints about our garbage
        logging.getLogger(name).setLevel(logging.CRITICAL)
    if args.control:  # the control caller's own process
        print(json.dumps(await control(args.control, args.seconds)), flush=True)
        return
    if args.flood_run:  # the flood itself, in its own process
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        tally = reconnect_flood(args.flood_run, flood_addresses(
            args.flood_addresses, args.flood_prefixes), args.flood_rate, args.flood_hold,
            args.seconds)
        print(json.dumps(asdict(tally)), flush=True)
        return
    if args.flood_control:  # the flood's control callers, in their own process
        print(json.dumps(await flood_controls(args.flood_control, args.seconds,
                                              args.logins)), flush=True)
        return
    if args.flood:
        await flood_main(args)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4096)), hard))
    home = make_home()
    await make_victim(home)
    await make_pasters(home, args.pasters)
    server, port, ssh_port, web_port = await start_server(home, args.log_level)
    flood = WebFlood()
    if args.paste_only:
        try:
            await paste_attack(port, home, server.pid, args.pasters)
        finally:
            await stop(server)
            errors, tracebacks, _ = read_logs(home)
            shutil.rmtree(home, ignore_errors=True)
        print(f"server errors: {errors}   tracebacks logged: {tracebacks}")
        subprocess.run(["uptime"], check=False)
        return
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
        tasks.append(asyncio.create_task(web_flood(web_port, home, flood, args.web_rounds,
                                                   args.web_connections, args.seconds)))
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
        if args.pasters:
            await paste_attack(port, home, server.pid, args.pasters)
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
    print_web_flood(flood, args.web_connections)
    for line in memory.lines():
        print(line)
    if tally.tried < args.sequences:
        print(f"fewer than {args.sequences} sequences: run longer (--seconds)")
    print(json.dumps({"tally": asdict(tally), "web_flood": asdict(flood), "control": result,
                      "errors": errors, "tracebacks": tracebacks, "crashed": crashed,
                      "load": load, "rss_kib": memory.figures()}))
    subprocess.run(["uptime"], check=False)


# -- the reconnect flood (issue #36) ----------------------------------------------------------
#
# ``--flood``: silent connections from many loopback addresses (127.10.0.0 and up, spread
# over ``--flood-prefixes`` /24 networks), opened at ``--flood-rate`` a second, each held
# until the server drops it or ``--flood-hold`` seconds pass, then closed (the address calls
# again on its next turn).  Meanwhile, in a process of their own, two control callers log
# in and play over and over: a telnet client (telnetlib3's) from 127.0.0.1 and a raw client
# from 127.0.0.2 that negotiates nothing and sends nothing until it sees ``Handle:``, as
# netcat would.  Each reports its tries, refusals, evictions and login times.

FLOOD_NET = (127, 10)
"""The flood's addresses start at 127.10.0.1; the controls call from 127.0.0.1 and .2."""
RAW_CONTROL = "127.0.0.2"
FLOOD_ACCOUNTS = {"ctltelnet": CONTROL, "ctlraw": RAW_CONTROL}
EVICTED_TEXT = b"Room was needed"
REFUSED_TEXTS = (b"busy with callers logging in", b"Too many connections",
                 b"All nodes are busy", b"Please call again")


def flood_addresses(count: int, prefixes: int) -> list[str]:
    """``count`` loopback addresses over ``prefixes`` /24 networks, round robin."""
    out = []
    for i in range(count):
        net = FLOOD_NET[1] * 256 + i % prefixes
        out.append(f"127.{net // 256}.{net % 256}.{i // prefixes % 254 + 1}")
    return out


@dataclass
class FloodTally:
    opened: int = 0
    failed: int = 0  # connect() itself failed
    refused: int = 0  # a refusal line before anything else
    evicted: int = 0  # admitted, then hung up to make room
    dropped: int = 0  # admitted, then hung up for another reason (silence)
    held: int = 0  # still open after --flood-hold: closed by the flood itself


def reconnect_flood(port: int, addresses: list[str], rate: float, hold: float,
                    seconds: float, most: int = 3000) -> FloodTally:
    """Connections at ``rate`` a second, the addresses in turn, each held silent until the
    server closes it or ``hold`` seconds pass, at most ``most`` at once: one thread and
    epoll, no asyncio (a task per connection could not keep up with 500 a second on a
    loaded machine)."""
    tally = FloodTally()
    poll = select.epoll()
    lines: dict[int, tuple[socket.socket, bytearray]] = {}  # fd -> (socket, bytes got)
    ends: deque[tuple[float, int, socket.socket]] = deque()  # (when to let go, fd, socket)
    began = time.monotonic()
    started = 0

    def close(fd: int, outcome: str | None) -> None:
        sock, got = lines.pop(fd)
        poll.unregister(fd)
        sock.close()
        if outcome is None:
            if EVICTED_TEXT in got:
                outcome = "evicted"
            elif not got.startswith(b"\xff") and any(t in got for t in REFUSED_TEXTS):
                outcome = "refused"
            else:
                outcome = "dropped"
        setattr(tally, outcome, getattr(tally, outcome) + 1)

    while (now := time.monotonic()) < began + seconds:
        due = min(int((now - began) * rate) - started, most - len(lines))
        for _ in range(max(0, due)):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            try:
                sock.bind((addresses[started % len(addresses)], 0))
                sock.connect_ex((CONTROL, port))
            except OSError:
                sock.close()
                tally.failed += 1
                continue
            finally:
                started += 1
            lines[sock.fileno()] = (sock, bytearray())
            ends.append((now + hold, sock.fileno(), sock))
            poll.register(sock.fileno(), select.EPOLLIN | select.EPOLLRDHUP)
            tally.opened += 1
        for fd, _ in poll.poll(0.005):
            sock, got = lines[fd]
            try:
                data = sock.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                close(fd, None)
            else:
                got += data
                del got[:-2048]
        now = time.monotonic()
        while ends and ends[0][0] <= now:
            _, fd, sock = ends.popleft()
            if fd in lines and lines[fd][0] is sock:
                close(fd, "held")
    for fd in list(lines):
        close(fd, "held")
    poll.close()
    return tally


class Recorded:
    """A stream reader that keeps the last bytes read (``seen``): what the server said
    before it hung up, whoever read it.  With ``answer``, it answers cursor position
    requests as a UTF-8 terminal would (the door's charset probe: one cell for é)."""

    def __init__(self, reader, answer=None) -> None:
        self.reader, self.seen, self.answer = reader, bytearray(), answer
        self.column = 1

    async def read(self, n: int) -> bytes:
        data = await self.reader.read(n)
        self.seen += data
        del self.seen[:-4096]
        if self.answer is not None:
            for _ in range(data.count(b"\x1b[6n")):
                self.answer(f"\x1b[1;{self.column}R".encode())
                self.column = 2 if self.column == 1 else 1
        return data


class ControlLine(Telnet):
    """A control caller's line: telnetlib3's client (:meth:`open_telnet`), or a client that
    speaks no telnet (:meth:`open_raw`, netcat: bytes as they come, IAC and all, and
    nothing sent until it has seen the prompt it waits for)."""

    raw = False

    def __init__(self, reader, writer, terminal: bool = False) -> None:
        super().__init__(Recorded(reader, writer.write if terminal else None), writer)
        self.seen = self.reader.seen
        self.screen = pyte.Screen(80, 24)  # what the caller sees: prompts found there too
        self.stream = pyte.Stream(self.screen)
        # The telnet client's terminal answers the probe as UTF-8; the raw one gets CP437.
        self.decode = (codecs.getincrementaldecoder("utf-8")("replace").decode if terminal
                       else codecs.getincrementaldecoder("cp437")().decode)

    @classmethod
    async def open_telnet(cls, port: int, source: str) -> ControlLine:
        reader, writer = await asyncio.wait_for(telnetlib3.open_connection(
            CONTROL, port, encoding=False, term="xterm", cols=80, rows=24,
            connect_minwait=0.0, connect_maxwait=0.5, local_addr=(source, 0)), 30)
        return cls(reader, writer, terminal=True)  # the terminal behind it answers probes

    @classmethod
    async def open_raw(cls, port: int, source: str) -> ControlLine:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            CONTROL, port, local_addr=(source, 0)), 30)
        line = cls(reader, writer)
        line.raw = True
        return line

    def found(self, needles: tuple[bytes, ...]) -> bytes | None:
        """As :meth:`Line.found`, finding a needle also on the screen (the renderer may step
        over cells already right with cursor moves).  Each needle waited for here is new to
        the screen: none is left over from the screen before."""
        screen = "\n".join(self.screen.display).encode("latin-1", "replace")
        return super().found(needles) or next((n for n in needles if n in screen), None)

    async def read(self, timeout: float) -> bytes | None:
        """As :meth:`Line.read`, keeping the screen."""
        data = await super().read(timeout)
        if data:
            self.stream.feed(self.decode(data))
        return data

    def send(self, data: bytes) -> None:
        if self.raw:
            self.writer.write(data.replace(b"\r", b"\n"))  # netcat sends a line feed
        else:
            super().send(data)


class Seen(Exception):
    """A control call that did not get in: ``kind`` is refused, evicted or failed."""

    def __init__(self, kind: str, why: str) -> None:
        super().__init__(why)
        self.kind = kind


def why_not(exc: Exception, caller: ControlLine | None, step: str) -> Seen:
    tail = bytes(shown(caller.seen)) if caller is not None else b""
    if EVICTED_TEXT in tail:
        return Seen("evicted", f"{step}: " + tail[-160:].decode("ascii", "replace"))
    if any(text in tail for text in REFUSED_TEXTS):
        return Seen("refused", f"{step}: " + tail[-160:].decode("ascii", "replace"))
    return Seen("failed", f"{step}: {type(exc).__name__} {exc}; last: "
                          f"{tail[-80:].decode('ascii', 'replace')}"[:300])


async def control_call(port: int, kind: str, handle: str, times: dict[str, list[float]]
                       ) -> None:
    """One visit: connect, the prompt, log in, a few keys in Monte Carlo, log off."""
    caller: ControlLine | None = None
    began = time.perf_counter()
    step = "connect"
    try:
        if kind == "raw":
            caller = await ControlLine.open_raw(port, FLOOD_ACCOUNTS[handle])
        else:
            caller = await ControlLine.open_telnet(port, FLOOD_ACCOUNTS[handle])
        step = "the prompt"
        await caller.until_any(b"Handle:")
        times["prompt"].append(time.perf_counter() - began)
        caller.send(f"{handle}\r{PASSWORD}\r".encode())
        step = "logging in"
        seen = await caller.until_any(b"Press any key", b"Hang up the call on")
        if seen == b"Hang up the call on":  # the last visit's line not seen gone yet
            times["takeover"].append(time.perf_counter() - began)
            caller.send(b"y")
            await caller.until_any(b"Press any key")
        times["login"].append(time.perf_counter() - began)
        times["slowest"].append(times["login"][-1])
        step = "playing"
        caller.send(b" ")
        await caller.until_any(b"Your choice")
        await open_game(caller, "montecarlo", until=b"Score")
        for key in (RIGHT, DOWN, LEFT, UP):
            caller.send(key)
            await caller.drain_for(0.05)
        caller.send(b"q")
        seen = await caller.until_any(b"Leave this game?", b"[M] main menu")
        caller.send(b"y" if seen == b"Leave this game?" else b"m")  # (a deal with no move
        await caller.until_any(b"Your choice")                     # is over at once)
        step = "logging off"
        caller.send(b"q")
        await caller.until_any(b"Log off?")
        caller.send(b"y")
        with contextlib.suppress(ConnectionError, TimeoutError):
            caller.send(b" ")
            await caller.drain_for(10)
    except (ConnectionError, TimeoutError, OSError, EOFError) as exc:
        if caller is not None:
            with contextlib.suppress(ConnectionError, TimeoutError, OSError):
                await caller.drain_for(1)  # the line that says why, if any
        raise why_not(exc, caller, step) from None
    finally:
        if caller is not None:
            caller.close()


async def flood_controls(port: int, seconds: float, logins: int) -> dict:
    """Both control callers, calling again and again for ``seconds`` (and until each has
    made ``logins`` tries): their tallies and times."""
    until = time.monotonic() + seconds
    out: dict = {}

    async def one(kind: str, handle: str) -> None:
        times: dict[str, list[float]] = {"prompt": [], "login": [], "takeover": [],
                                         "slowest": []}
        tally = {"tries": 0, "logins": 0, "refused": 0, "evicted": 0, "failed": 0,
                 "errors": []}
        while time.monotonic() < until or tally["tries"] < logins:
            tally["tries"] += 1
            try:
                await control_call(port, kind, handle, times)
                tally["logins"] += 1
            except Seen as exc:
                tally[exc.kind] += 1
                if len(tally["errors"]) < 5:
                    tally["errors"].append(f"{exc.kind}: {exc}")
            await asyncio.sleep(0.3)
            if tally["tries"] >= 4 * logins and time.monotonic() >= until:
                break
        tally["takeovers"] = len(times.pop("takeover"))  # asked to hang up the last call
        tally["slowest"] = sorted(round(t, 2) for t in times.pop("slowest"))[-3:]
        for what, values in times.items():
            tally[f"{what}_p50"] = pct(values, 0.5)
            tally[f"{what}_p99"] = pct(values, 0.99)
            tally[f"{what}_max"] = max(values, default=float("nan")) * 1000
        out[kind] = tally

    await asyncio.gather(one("telnet", "ctltelnet"), one("raw", "ctlraw"))
    return out


async def make_accounts(home: Path, handles: list[str]) -> None:
    from door.config import load_settings
    from door.store import Store

    store = Store(load_settings(home).database_url)
    try:
        await store.start()
        for handle in handles:
            await store.accounts.signup(handle, PASSWORD)
    finally:
        await store.close()


async def flood_main(args: argparse.Namespace) -> None:
    """The reconnect flood against a server on sysop.ini's defaults (but ``--workers``)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    home = make_home({})
    await make_accounts(home, list(FLOOD_ACCOUNTS))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door", "--home", str(home), "--log-level", "info", "serve",
        "--bind", CONTROL, "--telnet-port", "0", "--ssh-port", "-1",
        "--workers", str(args.workers),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        start_new_session=args.own_session)
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    found = re.search(r"port (\d+)", line)
    if not found:
        raise SystemExit(f"the server did not start: {line!r}")
    port = int(found.group(1))
    addresses = flood_addresses(args.flood_addresses, args.flood_prefixes)
    crashed = False
    try:
        rss0, cpu0 = proc_stats(proc.pid)
        log0 = log_bytes(home)
        began = time.monotonic()
        until = began + args.seconds
        flood = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--flood-run", str(port), "--seconds", str(args.seconds),
            "--flood-addresses", str(args.flood_addresses), "--flood-prefixes",
            str(args.flood_prefixes), "--flood-rate", str(args.flood_rate), "--flood-hold",
            str(args.flood_hold), stdout=asyncio.subprocess.PIPE)
        await asyncio.sleep(args.flood_warmup)
        ctl = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--flood-control", str(port), "--seconds",
            str(max(1.0, args.seconds - args.flood_warmup)), "--logins", str(args.logins),
            stdout=asyncio.subprocess.PIPE, start_new_session=args.own_session)
        peak = rss0
        while time.monotonic() < until:
            await asyncio.sleep(1)
            peak = max(peak, proc_stats(proc.pid)[0])
            crashed = crashed or proc.returncode is not None
        flooded, _ = await flood.communicate()
        tally = FloodTally(**json.loads(flooded.decode().strip().splitlines()[-1]))
        flood_s = time.monotonic() - began
        out, _ = await ctl.communicate()
        result = json.loads(out.decode().strip().splitlines()[-1])
        wall = time.monotonic() - began
        rss1, cpu1 = proc_stats(proc.pid)
        load = os.getloadavg()
        crashed = crashed or proc.returncode is not None
        grown = log_bytes(home) - log0
    finally:
        await stop(proc)
    errors, tracebacks, warnings = read_logs(home)
    if args.keep:
        print(f"door home kept: {home}")
    else:
        shutil.rmtree(home, ignore_errors=True)
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, {wall:.0f} s, "
          f"{args.workers} workers{'' if args.own_session else ' in the attacker session'}, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"server CPU {100 * (cpu1 - cpu0) / wall:.0f} % of a core, RSS {rss0 // 1024} -> "
          f"peak {peak // 1024} -> {rss1 // 1024} MiB")
    print(f"flood: {tally.opened} connections in {flood_s:.0f} s ({tally.opened / flood_s:.0f}/s;"
          f" the control callers began after {args.flood_warmup:g} s)"
          f" from {len(addresses)} addresses in {min(args.flood_prefixes, len(addresses))} "
          f"/24 prefixes; {tally.refused} refused, {tally.evicted} hung up for room, "
          f"{tally.dropped} dropped otherwise, {tally.held} held {args.flood_hold:g} s, "
          f"{tally.failed} failed to connect")
    print(f"log: {grown / 1024:.0f} KiB written; server errors {errors}, tracebacks "
          f"{tracebacks}, warnings {warnings}, crashes {int(crashed)}")
    for kind in ("telnet", "raw"):
        c = result[kind]
        print(f"control {kind}: {c['tries']} tries, {c['logins']} logins, {c['refused']} "
              f"refused, {c['evicted']} evicted, {c['failed']} failed; prompt p50 "
              f"{c['prompt_p50']:.0f} / p99 {c['prompt_p99']:.0f} / max {c['prompt_max']:.0f} "
              f"ms; login p50 {c['login_p50']:.0f} / p99 {c['login_p99']:.0f} / max "
              f"{c['login_max']:.0f} ms; {c['takeovers']} asked to hang up the last call; "
              f"slowest logins {c['slowest']} s")
        for error in c["errors"]:
            print("   ", " ".join(error.split()))
    print(json.dumps({"flood": asdict(tally), "controls": result, "log_bytes": grown,
                      "errors": errors, "tracebacks": tracebacks, "crashed": crashed,
                      "load": load}))
    subprocess.run(["uptime"], check=False)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
