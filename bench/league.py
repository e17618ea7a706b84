"""The InterBBS league under a day's load: how fast a league converges, what a result costs on
the wire, and what checking one costs a receiving board (docs/league.md).

    python bench/league.py                      # 100 boards, 10,000 results (the day)
    python bench/league.py --boards 10 --results 1000     # a quick look

Four figures:

1. **Verification CPU per result**, replay included: parse, signature, day and deal, and the
   replay of the moves through this board's engine, over real played games of the day's
   four challenges (median and p95 per game, and over the mix).
2. **Bytes per result**: the JSON of a signed result as it travels (raw), and per result in
   a pull page of 500 as aiohttp sends it.
3. **Convergence**: a real league hub (``reussite serve`` with [league] hub on and [web],
   in its own process) and ``boards - 1`` member boards in this process, each with its own
   SQLite database and key, joined to the hub with ``reussite league``'s own join.  The
   day's results are signed by their boards (spread evenly), then every member runs sync
   every member pushes its own to the hub (the code of ``reussite serve``'s league node), and
   ``--observers`` members pull until they hold every result, verifying each.  Every member
   would do the same on its own machine; here they share one core, so the bench runs a few
   and prints one member's own CPU: a real league converges in about (time for the hub to
   take every push) + (one member's pull-and-verify time), plus one sync interval each way.
4. **A caller of the hub**, in a process of its own, playing Monte Carlo at five keys a
   second: key-to-screen latency with no league traffic, then while the hub verifies and
   stores every push — what a board's own callers feel of the league.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchkit import REPO, p95

from door.catalog.registry import daily_deal, daily_games, engine
from door.config import load_settings
from door.league.keys import BoardKey
from door.league.results import LeagueResult, parse_result
from door.league.sync import LeagueClient, LeagueNode, client_session, join_hub
from door.league.verify import verify_result
from door.store import Store

CODE = "bench-join-code"


def played(game: str, seed: int) -> object:
    """A real game of today's challenge: a random legal line of a plausible length for the
    card games, the demo player's game for Anciento (random stones end it in a few moves)."""
    day = datetime.now(UTC).date()
    deal = daily_deal(day, game)
    rng = random.Random(seed)
    match = engine(game).new(deal.number, **deal.options)
    if game == "anciento":
        from door.games.anciento_demo import fast_move, play_out
        return play_out(match, fast_move)  # type: ignore[arg-type]
    for _ in range(rng.randint(40, 180)):
        legal = match.legal_moves()
        if not legal:
            break
        match.play(rng.choice(legal))
    return match


def sign(key: BoardKey, board: str, handle: str, match: object) -> LeagueResult:
    now = datetime.now(UTC).replace(microsecond=0)
    result = LeagueResult(board, handle, now.date(), match.name, match.number,  # type: ignore[attr-defined]
                          dict(match.options), list(match.actions), match.score,  # type: ignore[attr-defined]
                          match.status == "won", now).with_id()  # type: ignore[attr-defined]
    return replace(result, signature=key.sign(result.signed_bytes()))


def verification(samples: int) -> None:
    key = BoardKey.generate()
    keys = {"Bench": key.public}.get
    now = datetime.now(UTC)
    print(f"1. Verification CPU per result (parse + signature + deal + replay), {samples} "
          "real games per game:")
    everything: list[float] = []
    sizes: list[int] = []
    for game in daily_games():
        times, moves = [], []
        for seed in range(samples):
            wire = json.dumps(sign(key, "Bench", f"P{seed}", played(game, seed)).to_json())
            sizes.append(len(wire))
            start = time.process_time()
            verify_result(parse_result(json.loads(wire)), keys, now, 14)
            times.append(time.process_time() - start)
            moves.append(len(json.loads(wire)["moves"]))
        everything += times
        print(f"   {game:<11} {statistics.median(moves):>5.0f} moves  median "
              f"{statistics.median(times) * 1e3:5.2f} ms  p95 {p95(times) * 1e3:5.2f} ms")
    print(f"   all games   median {statistics.median(everything) * 1e3:5.2f} ms  p95 "
          f"{p95(everything) * 1e3:5.2f} ms")
    print(f"2. Bytes per result (signed JSON as sent): median {statistics.median(sizes):.0f}, "
          f"mean {statistics.mean(sizes):.0f}")


def ms(times: list[float]) -> str:
    if not times:
        return "- (no keys)"
    ordered = sorted(times)
    p99 = ordered[max(0, round(0.99 * len(ordered)) - 1)]
    return (f"{statistics.median(ordered) * 1e3:.1f} / {p99 * 1e3:.1f} / "
            f"{ordered[-1] * 1e3:.1f} ms")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def control_caller(port: int, handle: str, stop, out,  # type: ignore[no-untyped-def]
                   keys: int = 0) -> None:
    """In a process of its own (the bench's work must not delay its clock): a caller of the
    hub who plays Monte Carlo at five keys a second, timing each key to its answer, until
    ``stop`` is set (or ``keys`` keys are timed); the latencies go to ``out``."""
    from hostile import DOWN, LEFT, RIGHT, UP, Telnet, enter, open_game

    async def play() -> list[float]:
        caller = await Telnet.open(port, "127.0.0.1")
        await caller.until_any(b"Handle:")
        await enter(caller, handle, False)
        await open_game(caller, "montecarlo", until=b"Score")
        await caller.drain_for(0.3)
        arrows, times = [RIGHT, DOWN, LEFT, UP], []
        n = 0
        while not stop.is_set() and not (keys and len(times) >= keys):
            start = time.perf_counter()
            caller.send(arrows[n % 4])
            n += 1
            done = await caller.answer()
            if done is not None:
                times.append(done - start)
            await asyncio.sleep(max(0.0, 0.2 - (time.perf_counter() - start)))
        caller.close()
        return times
    out.put(asyncio.run(play()))


def hub_home(root: Path, port: int, telnet: int) -> Path:
    home = root / "hub"
    (home / "ansi").mkdir(parents=True)
    (home / "data").mkdir()
    shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
    text = (home / "sysop.ini").read_text(encoding="utf-8")
    text = text.replace(";enabled = off\n; Address(es)", f"enabled = on\nport = {port}\n"
                        "; Address(es)", 1)
    text = text.replace(";telnet_port = 2323", f"telnet_port = {telnet}", 1)
    text = text.replace("[league]\n", f"[league]\nenabled = on\nname = Hub\nhub = on\n"
                        f"join_code = {CODE}\nrequests_per_minute = 100000\n"
                        "results_per_minute = 10000000\n"
                        "sync_seconds = 3600\n", 1)
    (home / "sysop.ini").write_text(text, encoding="utf-8")
    return home


def cpu_of(pid: int) -> float:
    """A process's CPU seconds (user + system) from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def hub_board(node: LeagueNode):
    return next(b for b in await node.store.league.boards() if b.role == "hub")


async def convergence(boards: int, results: int, observers: int, root: Path) -> None:
    port, telnet = free_port(), free_port()
    home = hub_home(root, port, telnet)
    hub = subprocess.Popen([sys.executable, "-m", "door", "serve", "--home", str(home),
                            "--ssh-port", "0", "--workers", "1"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        async with client_session() as http:
            for _ in range(600):
                try:
                    await LeagueClient(http).info(url)
                    break
                except Exception:
                    await asyncio.sleep(0.1)
        settings = load_settings(home)  # the members' settings: only the league's matter
        members = []
        print(f"3. Convergence: a hub and {boards - 1} member boards, {results} results "
              f"of today's four challenges, {observers} members pulling")
        for i in range(1, boards):
            store = Store(f"sqlite+aiosqlite:///{root / f'member{i}.db'}", pooled=False)
            await store.start()
            key = BoardKey.generate()
            name = f"Board {i:03d}"
            await join_hub(store, key, name, url, CODE)
            node = LeagueNode(replace(settings, league=replace(settings.league, name=name,
                                                               hub=False)), store, key)
            members.append(node)
        games = [played(daily_games()[i % 4], i) for i in range(min(results, 400))]
        for i in range(results):
            node = members[i % len(members)]
            result = sign(node.key, node.name, f"Caller{i // len(members)}",
                          games[i % len(games)])
            await node.store.league.add([(result, False)])
        sizes = []
        spawn = multiprocessing.get_context("spawn")  # a fork would inherit the running loop
        stop, out = spawn.Event(), spawn.Queue()
        quiet = spawn.Process(target=control_caller, args=(telnet, "quiet", stop, out, 100))
        quiet.start()  # the baseline: 100 keys with no league traffic
        baseline = await asyncio.to_thread(out.get, timeout=300)
        quiet.join()
        stop = spawn.Event()
        busy = spawn.Process(target=control_caller, args=(telnet, "busy", stop, out))
        busy.start()
        await asyncio.sleep(3)  # logged in and playing before the pushes begin
        hub_cpu0 = cpu_of(hub.pid)
        start = time.monotonic()
        async with client_session() as http:
            client = LeagueClient(http)
            for node in members:  # every board pushes its own at its next round
                await node.push(client, await hub_board(node))
            pushed = time.monotonic()
            hub_cpu = cpu_of(hub.pid) - hub_cpu0
            stop.set()
            during = out.get(timeout=120)
            busy.join()
            page = await client.pull(url, 0)
            sizes = [len(json.dumps(r)) for r in page["results"]]
            page_bytes = len(json.dumps(page))

            async def catch_up(node: LeagueNode) -> float:
                began = time.process_time()
                cursor = 0
                while True:
                    board = replace(await hub_board(node), pulled_after=cursor)
                    cursor = await node.pull(client, board)
                    held = len(await node.store.league.since(0, results + 10))
                    if held >= results:
                        return time.process_time() - began

            pulling = members[-observers:]
            cpu = [await catch_up(node) for node in pulling]  # one at a time: its own CPU
            done = time.monotonic()
        ladders = []
        for node in pulling:
            ladders.append([[(e.board, e.handle, e.score) for e in
                             await node.store.league.ladder(game, datetime.now(UTC).date(), 50)]
                            for game in daily_games()])
        assert all(ladder == ladders[0] for ladder in ladders), "the observers disagree"
        print(f"   every push taken by the hub {pushed - start:.1f} s after the last result "
              f"(hub CPU {hub_cpu:.1f} s: {hub_cpu / results * 1e3:.2f} ms a result, replay "
              "and storing included)")
        print(f"   {observers} members caught up, one after the other, in {done - pushed:.1f} s; "
              f"one member's own CPU: {statistics.median(cpu):.1f} s "
              f"({statistics.median(cpu) / results * 1e3:.2f} ms a result pulled)")
        print(f"   a real league (each board on its own machine, pushing at once): converged "
              f"about {hub_cpu + statistics.median(cpu):.1f} s of work after the last result "
              "(the hub's, then a member's), plus one sync interval each way ([league] "
              "sync_seconds); in this one process, where the 99 pushes ran one after the "
              f"other, {done - start:.1f} s")
        print(f"4. A caller of the hub (Monte Carlo, 5 keys a second), key to screen: "
              f"p50 / p99 / max {ms(baseline)} with no league traffic ({len(baseline)} keys), "
              f"{ms(during)} while the hub took every push ({len(during)} keys)")
        print(f"   bytes per result in a pull page of {len(sizes)}: "
              f"{page_bytes / max(1, len(sizes)):.0f} (JSON, before HTTP compression)")
        for node in members:
            await node.store.close()
    finally:
        hub.terminate()
        hub.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--results", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200,
                        help="games per game for the verification figures")
    parser.add_argument("--observers", type=int, default=2,
                        help="members that pull every result (each board does on its own "
                             "machine; here they share one core)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    verification(args.samples)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(convergence(args.boards, args.results, args.observers, Path(folder)))


if __name__ == "__main__":
    main()
