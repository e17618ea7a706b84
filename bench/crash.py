"""Crash benchmark: kill -9 in the middle of a game, and what the next call finds.

Each round, a caller plays a game (all four titles in turn) at a few moves a second, and at a
random moment the process serving it is killed with SIGKILL: a ``reussite serve`` over
telnet, or a ``reussite door`` on a pty as a BBS runs it.  Then the database is read: every
move typed more than ``save_every`` seconds before the kill must be there (the keeper
writes changed games every ``save_every`` seconds, 2 by default); younger ones may be lost.
The next call then resumes the game through the door's own "Resume?" question and plays on
from what was kept.

    python bench/crash.py                     # 20 rounds of serve, 20 of door
    python bench/crash.py --rounds 5 --kind door

Prints per kind: rounds, moves typed, moves kept, moves lost, the age of the oldest lost
move at the kill (must stay under the bound), rounds whose resume failed.  Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import random
import shutil
import signal
import struct
import sys
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from load import Line, make_home, start_door  # noqa: E402
from soak import TITLES, Player, finished, login, next_move, same_game  # noqa: E402

from door.catalog.registry import engine  # noqa: E402
from door.games import Game, GameRecord, Status  # noqa: E402
from door.store import Store  # noqa: E402

SAVE_EVERY = 2.0
DOOR_SYS = BENCH.parent / "tests" / "dropfile" / "samples" / "mystic_demoscene_DOOR.SYS"


@dataclass
class Figures:
    rounds: int = 0
    typed: int = 0
    kept: int = 0
    lost_young: int = 0  # lost, but typed less than save_every before the kill: allowed
    lost_old: int = 0  # lost although older than the bound: a failure
    oldest_lost: float = 0.0
    resume_failed: int = 0
    ages: list[float] = field(default_factory=list)


class PtyLine(Line):
    """A ``reussite door`` on a pty, read as load.Line reads a socket (the same until,
    until_any, answer and send)."""

    def __init__(self, home: Path) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.env = {**os.environ, "TERM": "ansi", "LANG": "C"}
        self.proc: asyncio.subprocess.Process | None = None
        self._slave = slave
        self._home = home
        self.buf = bytearray()
        self.received = 0

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "door", "--home", str(self._home), "door",
            str(self._home / "DOOR.SYS"), stdin=self._slave, stdout=self._slave,
            stderr=self._slave, env=self.env, start_new_session=True)
        os.close(self._slave)
        os.set_blocking(self.master, False)

    async def read(self, timeout: float) -> bytes | None:
        """The pty's next bytes (TimeoutError when none come), None once it is closed."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        loop.add_reader(self.master, lambda: ready.done() or ready.set_result(None))
        try:
            await asyncio.wait_for(ready, timeout)
        finally:
            loop.remove_reader(self.master)
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return None
        self.wire = len(data)
        return data or None

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        os.close(self.master)


class TelnetLine(Line):
    """A telnet caller of ``reussite serve`` (load.Line), closed by the round's end."""

    def close(self) -> None:
        self.writer.close()


async def into_game(line, player: Player, title: str, game: Game | None) -> Game:
    """From the main menu into ``title``: resume ``game`` if there is one, else a new deal."""
    key, header = TITLES[title]
    line.send(key.encode())
    if game is not None:
        await line.until(b"Resume your")
        line.send(b"y")
        await line.until(header.encode())
        return game
    number = player.rng.randrange(1, 30000)
    if title == "anciento":
        await line.until(b"New Anciento game")
        line.send(b"s")
    await line.until(b"Game number")
    line.send(f"{number}\r".encode())
    await line.until(f"#{number}".encode())
    return engine(title).new(number)


async def kept_game(store: Store, handle: str, title: str, shadow: Game) -> Game | None:
    found = await store.players.find(handle)
    state = await store.saves.load_resume(found[0].id, title) if found else None
    if not state:
        return None
    return engine(title).replay(GameRecord(title, shadow.number, dict(shadow.options),
                                           list(state["actions"])))


async def one_round(kind: str, home: Path, store: Store, player: Player, title: str,
                    game: Game | None, figures: Figures) -> Game | None:
    """Play, kill -9, read what was kept; returns the game as kept (None: finished)."""
    proc = line = None
    if kind == "serve":
        proc, port, _ = await start_door(home, ssh=False)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        line = TelnetLine(reader, writer)
        await login(line, player)
    else:
        line = PtyLine(home)
        await line.start()
        proc = line.proc
        await line.until(b"Press any key")
        line.send(b" ")
        await line.until(b"Your choice")
    try:
        game = await into_game(line, player, title, game)
    except (TimeoutError, ConnectionError):
        figures.resume_failed += 1
        game = await into_game(line, player, title, None)
    started = len(game.actions)
    typed_at: list[float] = []
    kill_at = time.monotonic() + player.rng.uniform(2.0, 9.0)
    while time.monotonic() < kill_at and game.status not in (Status.WON, Status.LOST):
        found = next_move(game, player.rng)
        if found is None:
            break
        move, keys = found
        for data in keys:
            line.send(data)
            await line.answer()
        game.play(move)
        typed_at.append(time.monotonic())
        await asyncio.sleep(player.rng.uniform(0.05, 0.4))
    os.killpg(proc.pid, signal.SIGKILL)  # the whole server: a supervisor and its workers
    killed = time.monotonic()
    await proc.wait()
    line.close()
    figures.rounds += 1
    figures.typed += len(typed_at)
    over = game.status in (Status.WON, Status.LOST)
    kept = None if over else await kept_game(store, player.handle, title, game)
    have = len(kept.actions) if kept is not None else 0
    if over:  # a finished game is in the games table with every move, or lost whole
        found = await store.players.find(player.handle)
        have = len(game.actions) if found and await finished(store, found[0].id, game) else 0
    elif kept is not None and not same_game(list(kept.actions), engine(title).replay(
            GameRecord(title, game.number, dict(game.options), game.actions[:have]))):
        have = 0  # the kept moves are not a prefix of the typed ones: count them all lost
    figures.kept += max(0, have - started)
    for index, when in enumerate(typed_at):
        if started + index < have:
            continue
        age = killed - when
        figures.oldest_lost = max(figures.oldest_lost, age)
        figures.ages.append(age)
        if age > SAVE_EVERY:
            figures.lost_old += 1
        else:
            figures.lost_young += 1
    return None if over else kept


async def run(kind: str, rounds: int, seed: int) -> Figures:
    home = make_home(10)
    (home / "DOOR.SYS").write_bytes(DOOR_SYS.read_bytes())
    store = Store(f"sqlite+aiosqlite:///{home / 'data' / 'reussite.db'}")
    figures = Figures()
    player = Player(1, seed)
    if kind == "door":
        player.handle = "dexter"  # the dropfile's alias
    games: dict[str, Game | None] = {}
    try:
        for i in range(rounds):
            title = list(TITLES)[i % len(TITLES)]
            games[title] = await one_round(kind, home, store, player, title,
                                           games.get(title), figures)
            print(f"  {kind} round {i + 1}: {figures.typed} typed, {figures.kept} kept, "
                  f"lost {figures.lost_young} young / {figures.lost_old} old, oldest lost "
                  f"{figures.oldest_lost:.2f} s", flush=True)
    finally:
        await store.close()
        shutil.rmtree(home, ignore_errors=True)
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--kind", choices=["serve", "door", "both"], default="both")
    parser.add_argument("--seed", type=int, default=random.randrange(1000))
    args = parser.parse_args()
    kinds = ("serve", "door") if args.kind == "both" else (args.kind,)
    rows = [(kind, await run(kind, args.rounds, args.seed)) for kind in kinds]
    print()
    print(f"seed {args.seed}; save_every {SAVE_EVERY:g} s; load {os.getloadavg()[0]:.1f}")
    print("| killed | rounds | moves typed | kept | lost (younger than save_every) | "
          "**lost (older)** | oldest lost move at the kill | resumes failed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind, f in rows:
        print(f"| {kind} | {f.rounds} | {f.typed} | {f.kept} | {f.lost_young} | {f.lost_old} "
              f"| {f.oldest_lost:.2f} s | {f.resume_failed} |")


if __name__ == "__main__":
    asyncio.run(main())
