"""Watch benchmark: players and their watchers on a real ``reussite serve``.

Scenarios (``--layout GAMESxWATCHERS``, default ``1x200,5x40``): each player plays Monte
Carlo #42 a move at a time (each move typed in one write, b1c1), one move every 0.25 s,
the players in turn; every game has its watchers (Watch a Game, then the game's number),
and the first game one more watcher that never reads a byte (its receive buffer shrunk
to 2 KiB).  The watchers run in a child process of their own (so that reading hundreds of
sockets does not delay the players' clock); both processes stamp bytes with
``time.perf_counter`` (CLOCK_MONOTONIC: one clock for the machine).  A frame's latency
runs from the move's send to the last byte of the frame it caused (a frame is over after
30 ms without a byte).  The server's CPU time per move is read from /proc.  The load
average is printed beside the figures: the machine is shared.

    nice -n 19 python bench/watch.py
    nice -n 19 python bench/watch.py --layout 1x40 --moves 10

``--across``: the watchers call a second server sharing the first one's database (its
SQLite file, or ``--database URL``, e.g. PostgreSQL), so every frame they get crossed the
store (docs/watch-replay.md, "Across processes"); the players' frames show what that costs
the player.  ``--layout 1x0`` gives the players' figures with nobody watching.

Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import secrets
import shutil
import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import QUIET, Line, make_home, proc_stats, start_door, stop

from door.games.montecarlo import MonteCarlo

NUMBER = 42
RUN = secrets.token_hex(2)
"""In every handle: runs on one database (``--database``) never meet a handle taken."""
PACE = 0.25  # seconds between moves


async def frames(line: Line, out: list[tuple[float, int]], stop_at: asyncio.Event) -> None:
    """Record (time of the last byte, bytes) of every frame until ``stop_at``."""
    while not stop_at.is_set():
        try:
            data = await asyncio.wait_for(line.reader.read(65536), 0.5)
        except TimeoutError:
            continue
        if not data:
            return
        size, last = len(data), time.perf_counter()
        while True:
            try:
                data = await asyncio.wait_for(line.reader.read(65536), QUIET)
            except TimeoutError:
                break
            if not data:
                break
            size, last = size + len(data), time.perf_counter()
        out.append((last, size))


async def signed_up(port: int, handle: str, rcvbuf: int | None = None) -> Line:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    line = Line(reader, writer)
    await line.until(b"Handle:")
    for send, expect in ((b"new\r", b"New user"), (handle.encode() + b"\r", b"Password:"),
                         (b"watch-pass\r", b"Again:"), (b"watch-pass\r", b"Press any key"),
                         (b" ", b"Your choice")):
        line.send(send)
        await line.until(expect)
    return line


async def start_watching(line: Line, game: int) -> None:
    line.send(b"v")
    await line.until(b"Esc back")
    line.send(str(game + 1).encode())
    await line.until(b"Q leaves")


async def batched(coros: list, size: int = 20) -> list:
    """Sign-ups in batches: password hashing is slow on purpose."""
    out = []
    for first in range(0, len(coros), size):
        out += await asyncio.gather(*coros[first:first + size])
    return out


# -- the watchers' process ---------------------------------------------------------------------

async def watchers_role(port: int, games: int, per_game: int) -> None:
    """Sign up, watch, say "ready", record frames until stdin says stop; print them."""
    lines = await batched([signed_up(port, f"W{RUN}{g}x{i}") for g in range(games)
                           for i in range(per_game)])
    stuck = await signed_up(port, f"Stuck{RUN}", rcvbuf=2048) if per_game else None
    await batched([start_watching(line, i // per_game) for i, line in enumerate(lines)])
    if stuck is not None:
        await start_watching(stuck, 0)  # from now on it reads nothing
    await asyncio.sleep(1.0)  # the last arrivals' status lines reach everybody
    stop_at = asyncio.Event()
    records: list[list[tuple[float, int]]] = [[] for _ in lines]
    tasks = [asyncio.create_task(frames(line, out, stop_at))
             for line, out in zip(lines, records, strict=True)]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    stop_at.set()
    await asyncio.gather(*tasks)
    stuck_open = stuck is not None
    try:  # has the door dropped it?  Read what is left, up to the end if it closed.
        while stuck is not None and (data := await asyncio.wait_for(stuck.reader.read(65536),
                                                                    0.5)):
            del data
        stuck_open = False
    except TimeoutError:
        pass
    print(json.dumps({"frames": [[i // per_game, out] for i, out in enumerate(records)],
                      "stuck_dropped": not stuck_open}), flush=True)
    for line in (*lines, *([stuck] if stuck is not None else [])):
        line.writer.close()


# -- the players' side -------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def scenario(games: int, per_game: int, moves: int, across: bool = False,
                   database: str = "") -> None:
    home = make_home(games * (per_game + 1) + 5)
    if database:
        ini = home / "sysop.ini"
        ini.write_text(ini.read_text(encoding="utf-8").replace(";url =", f"url = {database}",
                                                                  1), encoding="utf-8")
    proc, port, _ = await start_door(home, ssh=False, workers=1)
    other = None
    watch_port = port
    if across:  # a second server on the same database: the watchers' frames cross the store
        other, watch_port, _ = await start_door(home, ssh=False, workers=1)
    child = None
    try:
        tag = secrets.token_hex(2)  # this scenario's: the processes' RUN is one per run
        players = [await signed_up(port, f"P{tag}{g}") for g in range(games)]
        for player in players:
            player.send(b"c")
            await player.until(b"Game number:")
            player.send(f"{NUMBER}\r".encode())
            await player.until(f"Monte Carlo #{NUMBER}".encode())
        child = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--role", "watchers", "--port", str(watch_port),
            "--layout", f"{games}x{per_game}", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=1 << 24)  # the report is one long line
        ready = await asyncio.wait_for(child.stdout.readline(), 900)
        assert ready.strip() == b"ready", ready
        stop_at = asyncio.Event()
        player_frames: list[list[tuple[float, int]]] = [[] for _ in players]
        readers = [asyncio.create_task(frames(p, out, stop_at))
                   for p, out in zip(players, player_frames, strict=True)]
        await asyncio.sleep(0.5)
        for out in player_frames:
            out.clear()
        sent: list[list[float]] = [[] for _ in players]
        boards = [MonteCarlo.new(NUMBER) for _ in players]
        cpu_before = proc_stats(proc.pid)[1]
        for _ in range(moves):
            for g, (player, game) in enumerate(zip(players, boards, strict=True)):
                legal = game.legal_moves()
                if not legal:
                    continue
                game.play(legal[0])
                sent[g].append(time.perf_counter())
                player.send(legal[0].encode())
                await asyncio.sleep(PACE)
        await asyncio.sleep(1.0)
        cpu = proc_stats(proc.pid)[1] - cpu_before
        load = os.getloadavg()
        stop_at.set()
        await asyncio.gather(*readers)
        child.stdin.write(b"stop\n")
        await child.stdin.drain()
        report = json.loads(await asyncio.wait_for(child.stdout.readline(), 60))

        def latencies(game: int, out: list[tuple[float, int]]) -> tuple[list[float], list[int]]:
            """Each frame against the move before it (ms), and the bytes per move."""
            times = sent[game]
            ms, per_move = [], [0] * len(times)
            for last, size in out:
                k = bisect.bisect_right(times, last) - 1
                if k >= 0:
                    ms.append((last - times[k]) * 1000)
                    per_move[k] += size
            return ms, per_move

        p_ms: list[float] = []
        p_bytes: list[int] = []
        for g, out in enumerate(player_frames):
            ms, per_move = latencies(g, out)
            p_ms += ms
            p_bytes += per_move
        w_ms: list[float] = []
        w_bytes: list[int] = []
        missed = 0
        for g, out in report["frames"]:
            ms, per_move = latencies(g, [tuple(f) for f in out])
            w_ms += ms
            w_bytes += per_move
            missed += sum(1 for b in per_move if b == 0)
        played = sum(len(t) for t in sent)
        where = "on another server sharing the database" if across else "on the same server"
        print(f"{games} game(s) × {per_game} watchers {where}"
              f"{' (+1 that never reads)' if per_game else ''}, "
              f"{played} moves; "
              f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on "
              f"{os.cpu_count()} cores")
        print(f"  player  frame ms  p50 {pct(p_ms, .5):7.1f}  p99 {pct(p_ms, .99):7.1f}  "
              f"max {max(p_ms or [0]):7.1f}  bytes/move {statistics.mean(p_bytes or [0]):6.0f}")
        print(f"  watcher frame ms  p50 {pct(w_ms, .5):7.1f}  p99 {pct(w_ms, .99):7.1f}  "
              f"max {max(w_ms or [0]):7.1f}  bytes/move {statistics.mean(w_bytes or [0]):6.0f}"
              f"  moves a watcher never saw: {missed}")
        stuck = "dropped" if report["stuck_dropped"] else "still connected"
        stuck_note = f"; the watcher that never reads: {stuck}" if per_game else ""
        print(f"  server CPU per move {cpu / max(1, played) * 1000:.1f} ms{stuck_note}")
        for player in players:
            player.writer.close()
    finally:
        if child is not None and child.returncode is None:
            child.kill()
            await child.wait()
        await stop(proc)
        if other is not None:
            await stop(other)
        shutil.rmtree(home, ignore_errors=True)


def layout(text: str) -> tuple[int, int]:
    games, _, per_game = text.partition("x")
    return int(games), int(per_game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="1x200,5x40",
                        help="GAMESxWATCHERS, comma separated (default 1x200,5x40)")
    parser.add_argument("--moves", type=int, default=20, help="moves per game")
    parser.add_argument("--across", action="store_true",
                        help="the watchers call a second server sharing the database")
    parser.add_argument("--database", default="",
                        help="database URL for both servers (default: SQLite in the home)")
    parser.add_argument("--role", default="players", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "watchers":
        asyncio.run(watchers_role(args.port, *layout(args.layout)))
        return
    for item in args.layout.split(","):
        asyncio.run(scenario(*layout(item), args.moves, args.across, args.database))


if __name__ == "__main__":
    main()
