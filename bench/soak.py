"""Soak benchmark: is any game lost under load, hostile callers and hang-ups?

A real ``reussite serve`` on loopback; ``--players`` callers play real games of all four
titles over telnet (moves chosen from the engines' own legal moves and typed as a caller
would), each visit ending at random in one of three ways: the game is finished, the caller
quits it (Q, Y), or the caller hangs up in the middle of it.  ``--hostile`` callers send
random bytes, half escape sequences and held keys, at the login screen and inside games, and
hang up mid-frame.  Control callers press a key a second throughout, and their
keystroke-to-screen latency is measured: ``--controls`` (2) in a process (and a session, so a
scheduling group) of their own, whose event loop does nothing else, and one in this
process, which shares its loop with the players and the hostile callers and so adds their
delays to its clock (the figure this bench printed before there were the others).

After every visit the database is read (by this process, through the project's Store):
an unfinished game must be in its resume slot with every move the caller typed, a
finished one in the games table with its whole move list.  A game missing either way, or
with fewer moves, counts as *lost*.  The server's log is read for "database is locked" /
"busy too long", and /proc for its open files and threads before, during and 10 s after.

    python bench/soak.py                                  # 300 players, 50 hostile, 10 min
    python bench/soak.py --players 50 --hostile 10 --minutes 2
    python bench/soak.py --database postgresql+asyncpg://postgres@/reussite?host=/tmp/pg

Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import shutil
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from bench_hash_lag import lateness  # noqa: E402
from bench_ui_anciento import keys_for as anciento_keys  # noqa: E402
from bench_ui_auntmary import source_and_target  # noqa: E402
from bench_ui_mariant import KEYS as MARIANT_KEYS  # noqa: E402
from load import Line, cpu_and_wait, make_home, proc_stats, start_door, stop  # noqa: E402

from door.catalog.registry import engine  # noqa: E402
from door.games import Game, GameRecord  # noqa: E402
from door.store import Store  # noqa: E402
from door.store.models import GameRow  # noqa: E402
from door.term import Key  # noqa: E402
from door.ui.mariant.screen import deal_penalty  # noqa: E402

TITLES = {  # name: (menu key, header title)
    "montecarlo": ("c", "Monte Carlo"),
    "auntmary": ("a", "Aunt Mary"),
    "mariant": ("m", "Mariant"),
    "anciento": ("n", "Anciento"),
}
PASSWORD = "soak-pass"
KEY_BYTES = {"enter": b"\r", "up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C",
             "left": b"\x1b[D", "esc": b"\x1b"}
CHECK_WAIT = 60.0  # seconds the database gets to show a visit's game after the hang-up
ANSWER_WAIT = 30.0  # seconds a key may take to be answered on a loaded machine


def key_bytes(key: Key) -> bytes:
    return key.char.encode() if key.is_char else KEY_BYTES[key.name]


# -- what a player types for a move ----------------------------------------------------------

def next_move(game: Game, rng: random.Random) -> tuple[str, list[bytes]] | None:
    """A legal move for the shadow ``game`` and the bytes a caller types for it (None: no
    move this driver can type)."""
    name = game.name
    if name == "montecarlo":  # Y: the question before a move that deals from the stock
        moves = [m for m in game.legal_moves() if len(m) == 4]
        if not moves:
            moves = game.legal_moves()
            if not moves:
                return None
            return moves[0], [b"d"] + ([b"y"] if game.deals_after(moves[0]) else [])
        move = rng.choice(moves)
        return move, [c.encode() for c in move] + ([b"y"] if game.deals_after(move) else [])
    if name == "mariant":  # a column key selects its whole group: the move takes it all
        moves = []
        for move in game.legal_moves():
            if ">" not in move:
                continue
            src, dst = move.split(">")
            src = src.split(":")[0]
            whole = f"{src}:{game.group_length(MARIANT_KEYS.index(src))}>{dst}"  # type: ignore
            if whole in moves or not _legal(game, whole):
                continue
            moves.append(whole)
        if moves and rng.random() < 0.85:
            move = rng.choice(moves)
            return move, [move[0].encode(), move[-1].encode()]
        if "d" in game.legal_moves():  # empty columns cost points: the screen asks first
            return "d", [b"d", b"y"] if deal_penalty(game)[1] else [b"d"]  # type: ignore
        return None
    if name == "auntmary":  # the tips: the moves its hot keys make (bench_ui_auntmary)
        moves = [m for m in game.hints() if m in ("s", "r") or not m.startswith("f")]
        moves = moves or [m for m in game.legal_moves() if m in ("s", "r")]
        if not moves:
            return None
        move = rng.choice(moves[:3])
        if move in ("s", "r"):  # the stock key turns a card, or starts the next pass
            return move, [b"s"]
        src, _count, dst = source_and_target(game, move)  # type: ignore[arg-type]
        return move, [src.encode(), b"f" if dst.startswith("f") else dst.encode()]
    if name == "anciento":
        moves = [m for m in game.legal_moves() if m != "end"]
        if not moves:
            return None
        move = rng.choice(moves)
        target = game.geo.names.index(move)  # type: ignore[attr-defined]
        return move, [key_bytes(k) for k, _kind in anciento_keys(game, target, 0, "check")]
    raise ValueError(name)


END_BOX_WORDS = (b"main menu", b"a new deal", b"again with", b"could win deal",
                 b"could be won", b"found no win", b"could not tell", b"still at work")
"""Words of the end box's lines, any of which says it is up."""


def offers_end(game: Game) -> bool:
    """The screen makes its end offer now (door/ui/game/screen.py): no move left, or the
    engine has proven no win is left (Aunt Mary's hopeless positions come mid-game, and
    the keys of the next move went into the offer's box)."""
    return not game.finished and (game.no_moves_left or game.cannot_win)


def _legal(game: Game, move: str) -> bool:
    trial = type(game).from_json(game.to_json())
    try:
        trial.play(move)
    except ValueError:
        return False
    return True


# -- the tally --------------------------------------------------------------------------------

@dataclass
class Tally:
    visits: int = 0
    started: int = 0
    resumed: int = 0
    saved: int = 0  # unfinished games found whole in their resume slot after the visit
    finished: int = 0  # finished games found whole in the games table
    lost: int = 0
    moves: int = 0
    failed_visits: int = 0
    hostile_connections: int = 0
    hostile_bytes: int = 0
    control: list[float] = field(default_factory=list)
    control_lost: int = 0
    losses: list[str] = field(default_factory=list)
    missing: list[tuple[Player, Game]] = field(default_factory=list)
    """Games not found within CHECK_WAIT, looked for again after the server stopped."""
    failures: list[str] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class Player:
    """One soak caller: an account, and per title the shadow of the game they left."""

    def __init__(self, index: int, seed: int, source: str = "127.0.0.1") -> None:
        self.handle = f"soak{index}"
        self.address = source
        self.rng = random.Random(seed * 100_003 + index)
        self.signed_up = False
        self.left: dict[str, Game] = {}  # title -> the unfinished game the store should hold
        self.player_id: int | None = None


async def login(line: Line, player: Player) -> None:
    await line.until(b"Handle:")
    if player.signed_up:
        line.send(f"{player.handle}\r".encode())
        await line.until(b"Password:")
        line.send(f"{PASSWORD}\r".encode())
    else:
        line.send(b"new\r")
        await line.until(b"New user")
        line.send(f"{player.handle}\r".encode())
        await line.until(b"Password:")
        line.send(f"{PASSWORD}\r".encode())
        await line.until(b"Again:")
        line.send(f"{PASSWORD}\r".encode())
        player.signed_up = True
    for _ in range(4):  # the title, and maybe a takeover question or a notice first
        seen = await line.until_any(b"Your choice", b"Press any key", b"Hang up the call on")
        if seen == b"Your choice":
            return
        line.send(b" " if seen == b"Press any key" else b"y")  # "y": hang the last call up
    raise TimeoutError("no main menu after the title")


async def open_title(line: Line, player: Player, title: str, tally: Tally) -> Game:
    """From the main menu into a game of ``title``: the one left last time (resumed), or a
    new deal."""
    key, header = TITLES[title]
    line.send(key.encode())
    kept = player.left.get(title)
    if kept is not None:
        await line.until(b"Resume your")
        line.send(b"y")
        await line.until(header.encode())
        tally.resumed += 1
        return kept
    number = player.rng.randrange(1, 30000)
    if title == "anciento":
        await line.until(b"New Anciento game")
        line.send(b"s")
    await line.until(b"Game number")
    line.send(f"{number}\r".encode())
    await line.until(f"#{number}".encode())
    tally.started += 1
    return engine(title).new(number)


async def wait_answer(line: Line, quiet: float = 0.03, first: float = ANSWER_WAIT) -> None:
    """Until the screen has answered the key (its bytes kept for :meth:`Line.until`): a move
    counts as played once its caller has seen it, as for a person at the keyboard.  A key
    with no answer in ``first`` seconds fails the visit (TimeoutError)."""
    wait = first
    while True:
        try:
            data = await asyncio.wait_for(line.reader.read(65536), wait)
        except TimeoutError:
            if wait == first:
                raise TimeoutError("a key had no answer") from None
            return
        if not data:
            raise ConnectionError("closed")
        line.buf += data
        del line.buf[:-8192]
        wait = quiet


def address(kind: int, index: int, network_of_its_own: bool = False) -> str:
    """A loopback source address per caller group (all of 127/8 is this machine): eight
    players share an address, each hostile caller and the control caller have their own,
    so per-address caps and lockouts treat them as a board would see real callers.  The
    players' addresses are each in a /24 of its own (``network_of_its_own``), as 300 real
    callers would be: in one /24, their ~17 logins a second were one network's flood to the
    door's hash budget (door/gate/hash_budget.py); the hostile callers share one /24."""
    if network_of_its_own:
        return f"127.{kind}.{index % 250 + 1}.1"
    return f"127.0.{kind}.{index % 250 + 1}"


async def connect(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def play_visit(port: int, player: Player, store: Store, tally: Tally) -> None:
    """One visit: log in, play one game a while, then finish, quit or hang up."""
    reader, writer = await connect(port, player.address)
    line = Line(reader, writer)
    title = player.rng.choice(list(TITLES))
    game: Game | None = None
    ending = "hangup"
    failed = ""
    try:
        await login(line, player)
        game = await open_title(line, player, title, tally)
        player.left.pop(title, None)
        await asyncio.sleep(0.3)
        line.buf.clear()
        budget = player.rng.randrange(5, 60)
        for _ in range(budget):
            if game.finished or offers_end(game):
                break
            found = next_move(game, player.rng)
            if found is None:
                break
            move, keys = found
            for data in keys:
                line.send(data)
                await wait_answer(line)
            game.play(move)
            tally.moves += 1
            await asyncio.sleep(player.rng.uniform(0.05, 0.6))
        if game.finished or offers_end(game):
            ending = "finished"
            if offers_end(game) and (game.can_undo or not game.no_moves_left):
                await line.until(b"end the game here", timeout=30)  # the end offer's box
                line.send(b"\r")
            # The end box; drawn over the offer's, only its changed cells are sent, so a
            # word or two may come as cursor moves: any of its lines will do, its sentence
            # on the deal among them (door/ui/game/solver_view.py deal_verdict_line).
            await line.until_any(*END_BOX_WORDS, timeout=30)
            line.send(b"m")
            await line.until(b"Your choice", timeout=30)
        else:
            ending = player.rng.choice(("quit", "hangup"))
            if ending == "quit":
                line.send(b"q")
                await line.until(b"Leave this game?", timeout=30)
                line.send(b"y")
                await line.until(b"Your choice", timeout=30)
        tally.visits += 1
    except (TimeoutError, ConnectionError, OSError) as exc:
        tally.failed_visits += 1
        failed = f", failed: {type(exc).__name__}: {str(exc)[:60]}"
        tally.error(f"{type(exc).__name__}: {str(exc)[:60]}")
        if len(tally.failures) < 5:
            tally.failures.append(f"{time.strftime('%H:%M:%S')} {player.handle} {title} "
                                  f"ending={ending}: {exc}")
    finally:
        if ending == "hangup" and player.rng.random() < 0.5:
            line.send(b"\x1b[")  # hang up mid-sequence, as a dropped modem does
        writer.close()
    if game is not None and game.actions:
        await check_kept(player, title, game, store, tally, f"ending={ending}{failed}")


async def check_kept(player: Player, title: str, game: Game, store: Store,
                     tally: Tally, visit: str = "") -> None:
    """The database must hold every move the caller saw played: in the games table if the
    game finished, else in the resume slot (which the next visit to that title resumes).
    It may hold one move more: the key the caller sent but whose answer never came."""
    if player.player_id is None:
        found = await store.players.find(player.handle)
        player.player_id = found[0].id if found else None
    deadline = time.monotonic() + CHECK_WAIT
    while True:
        state = await store.saves.load_resume(player.player_id or 0, title)
        kept = _kept(state.get("actions") or [], game) if state else None
        if kept is not None:
            tally.saved += 1
            player.left[title] = kept
            return
        if await finished(store, player.player_id, game):
            tally.finished += 1
            return
        if time.monotonic() > deadline:
            tally.lost += 1
            tally.missing.append((player, game))
            if len(tally.losses) < 10:
                tally.losses.append(f"{player.handle} {title} #{game.number}: "
                                    f"{len(game.actions)} moves typed, "
                                    f"{len(state.get('actions') or []) if state else 'no'} "
                                    f"kept in its slot, none in the games table ({visit})")
            return
        await asyncio.sleep(0.25)


def _kept(actions: list[str], shadow: Game) -> Game | None:
    """The stored game when it has every move of ``shadow`` (and perhaps more)."""
    if len(actions) < len(shadow.actions):
        return None
    stored = engine(shadow.name).replay(GameRecord(shadow.name, shadow.number,
                                                   dict(shadow.options), actions))
    if len(actions) == len(shadow.actions):
        return stored if same_game(actions, shadow) else None
    return stored if same_game(actions[:len(shadow.actions)], shadow) else None


def same_game(actions: list[str], shadow: Game) -> bool:
    """The stored moves lead to the shadow's position, move for move (the screen and the
    shadow may spell a move differently: ``3>5`` and ``3:1>5``)."""
    if len(actions) != len(shadow.actions):
        return False
    stored = engine(shadow.name).replay(GameRecord(shadow.name, shadow.number,
                                                   dict(shadow.options), actions))
    mine, theirs = shadow.to_json(), stored.to_json()
    mine.pop("actions", None)
    theirs.pop("actions", None)
    return mine == theirs


async def finished(store: Store, player_id: int | None, game: Game) -> bool:
    """A finished game of this deal holds every move of ``game`` (perhaps one more)."""
    if player_id is None:
        return False
    async with store.core.engine.connect() as conn:
        moves = (await conn.execute(select(GameRow.moves).where(
            GameRow.player_id == player_id, GameRow.game == game.name,
            GameRow.number == game.number))).scalars().all()
    return any(len(m) >= len(game.actions) and same_game(list(m)[:len(game.actions)], game)
               for m in moves)


async def player_loop(port: int, player: Player, store: Store, tally: Tally,
                      until: float) -> None:
    while time.monotonic() < until:
        await play_visit(port, player, store, tally)
        await asyncio.sleep(player.rng.uniform(0.2, 2.0))


# -- hostile callers --------------------------------------------------------------------------

GARBAGE = [b"\x1b[", b"\x1b[1;", b"\x1bO", b"\x1b[999999999999999;9999999999H", b"\xff\xfb",
           b"\xff\xfa\x18\x00", b"\xfd1\r", b"\x00" * 64, b"\x1b" * 32, b"\xc3\x28", b"\xe2\x82",
           b"\x1b[M" + bytes([255, 255, 255]), b"\x07\x08\x7f", b"\r\n" * 40]


async def hostile_loop(port: int, index: int, seed: int, tally: Tally, until: float) -> None:
    rng = random.Random(seed * 7919 + index)
    round_ = 0
    while time.monotonic() < until:
        round_ += 1
        try:
            reader, writer = await connect(port, address(2, index))
        except OSError:
            await asyncio.sleep(1)
            continue
        tally.hostile_connections += 1
        line = Line(reader, writer)
        drain = asyncio.ensure_future(_swallow(reader))
        try:
            if rng.random() < 0.5:  # inside the door: sign up and open a game
                drain.cancel()
                await login(line, Player(10_000 + index * 1000 + round_, seed))
                line.send(rng.choice(list(TITLES.values()))[0].encode())
                line.send(b"\r")
                drain = asyncio.ensure_future(_swallow(reader))
            stop_at = time.monotonic() + rng.uniform(1, 20)
            while time.monotonic() < stop_at and not writer.is_closing() \
                    and not reader.at_eof():
                kind = rng.random()
                if kind < 0.4:
                    data = rng.randbytes(rng.randrange(1, 2048))
                elif kind < 0.7:
                    data = rng.choice(GARBAGE)
                else:  # a held key: an arrow repeated fast
                    data = rng.choice([b"\x1b[C", b"\x1b[B", b" ", b"x"]) * rng.randrange(10, 400)
                writer.write(data)
                tally.hostile_bytes += len(data)
                await asyncio.sleep(rng.uniform(0.0, 0.3))
            if rng.random() < 0.5:
                writer.write(b"\x1b[12;")  # hang up mid-frame
        except (TimeoutError, ConnectionError, OSError):
            pass
        finally:
            drain.cancel()
            writer.close()
        await asyncio.sleep(rng.uniform(0.1, 1.0))


async def _swallow(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(Exception):
        while await reader.read(65536):
            pass


# -- the control caller -----------------------------------------------------------------------

async def control_loop(port: int, tally: Tally, until: float, seed: int, index: int = 0
                       ) -> None:
    player = Player(999_999 - index, seed, address(3, index))
    while time.monotonic() < until:
        try:
            reader, writer = await connect(port, player.address)
            line = Line(reader, writer)
            await login(line, player)
            line.send(b"c")
            await line.until(b"Game number", timeout=30)
            line.send(b"11982\r")
            await line.until(b"#11982", timeout=30)
            await asyncio.sleep(0.3)
            line.buf.clear()
            keys = [b"\x1b[C", b"\x1b[B", b"\x1b[D", b"\x1b[A"]
            i = 0
            while time.monotonic() < until:
                start = time.perf_counter()
                line.send(keys[i % 4])
                i += 1
                done = await line.answer()
                if done is None:
                    tally.control_lost += 1
                else:
                    tally.control.append(done - start)
                await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - start)))
            writer.close()
        except (TimeoutError, ConnectionError, OSError) as exc:
            tally.error(f"control: {type(exc).__name__}: {str(exc)[:60]}")
            await asyncio.sleep(1)


async def own_controls(port: int, seconds: float, seed: int, count: int) -> None:
    """``count`` control callers (1, 2 … on the control address), in this process of their
    own: their latencies and lost keys, as one JSON line."""
    tally = Tally()
    until = time.monotonic() + seconds
    began = cpu_and_wait(os.getpid())
    late = await lateness(asyncio.gather(*(control_loop(port, tally, until, seed, index)
                                           for index in range(1, count + 1))))
    print(json.dumps({"control": tally.control, "lost": tally.control_lost,
                      "errors": tally.errors, "cpu": since(began, cpu_and_wait(os.getpid())),
                      "late": late}))


def since(began: tuple[float, float] | None, now: tuple[float, float] | None
          ) -> list[float] | None:
    """A thread's (run, wait for a CPU) seconds between two :func:`load.cpu_and_wait`."""
    if began is None or now is None:
        return None
    return [now[0] - began[0], now[1] - began[1]]


def cpu_line(label: str, spent: list[float] | None) -> str:
    if spent is None:
        return f"  {label}: n/a (no /proc schedstat)"
    return f"  {label}: ran {spent[0]:.1f} s, waited {spent[1]:.1f} s for a CPU"


def control_line(label: str, latencies: list[float], lost: int) -> str:
    return (f"{label}: p50 / p99 / max {pct(latencies, .5):.0f} / {pct(latencies, .99):.0f} / "
            f"{max(latencies, default=float('nan')) * 1000:.0f} ms over {len(latencies)} keys"
            f", {lost} unanswered in 2 s")


# -- the server's side ------------------------------------------------------------------------

def server_handles(pid: int) -> tuple[int, int, int]:
    """(open files, of which the database's, threads) of the server process."""
    fds = os.listdir(f"/proc/{pid}/fd")
    db = 0
    for fd in fds:
        try:
            if "reussite.db" in os.readlink(f"/proc/{pid}/fd/{fd}"):
                db += 1
        except OSError:
            pass
    with open(f"/proc/{pid}/status") as f:
        threads = next(int(line.split()[1]) for line in f if line.startswith("Threads:"))
    return len(fds), db, threads


def locked_lines(home: Path) -> int:
    count = 0
    for log in (home / "data").glob("reussite.log*"):
        text = log.read_text(encoding="utf-8", errors="replace")
        count += len(re.findall(r"database is locked|busy too long", text))
    return count


COLLECTED = re.compile(r"full collection: (\d+) objects freed, (\d+) calls ended, (\d+) ms")


def collections_line(home: Path) -> str:
    """The server's full collections of ended calls (door/serve/collector.py logs each at
    info level: ``--door-log info``): how many, their pauses and what each freed."""
    found = []
    for log in (home / "data").glob("reussite.log*"):
        found += COLLECTED.findall(log.read_text(encoding="utf-8", errors="replace"))
    if not found:
        return "  full collections: none logged (the door logs them at --door-log info)"
    ms = sorted(int(m) for _, _, m in found)
    freed = sorted(int(n) for n, _, _ in found)
    return (f"  full collections: {len(found)}, pause p50 / max {ms[(len(ms) - 1) // 2]} / "
            f"{ms[-1]} ms, {sum(ms)} ms in all; objects freed p50 / max "
            f"{freed[(len(freed) - 1) // 2]} / {freed[-1]}, after "
            f"{sum(int(c) for _, c, _ in found)} calls ended")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--hostile", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--database", default="", help="database URL (default: SQLite in the "
                        "door home's data/)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the door home (its log "
                        "and database) and print where it is")
    parser.add_argument("--door-log", choices=["debug", "info", "warning"],
                        help="the server's log level (default: warning; info with --keep): "
                             "at info it logs its full collections, summed up at the end")
    parser.add_argument("--controls", type=int, default=2,
                        help="control callers in a process of their own (besides the one in "
                        "this process, which shares its event loop with the load)")
    parser.add_argument("--control-run", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.control_run:  # the control callers' own process
        await own_controls(args.control_run, args.minutes * 60, args.seed, args.controls)
        return
    need = 4 * (args.players + args.hostile) + 500
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, need), hard))
    n = args.players + args.hostile + 1
    home = make_home(n + args.hostile * 2, hashes_per_minute=None)  # sysop.ini's budget
    ini = home / "sysop.ini"
    text = ini.read_text(encoding="utf-8")
    if args.database:
        text = re.sub(r"(?m)^;?url =.*$", f"url = {args.database}", text, count=1)
    ini.write_text(text, encoding="utf-8")
    proc, port, _ = await start_door(home, ssh=False, log_level=args.door_log or (
        "info" if args.keep else "warning"))
    db_url = args.database or f"sqlite+aiosqlite:///{home / 'data' / 'reussite.db'}"
    store = Store(db_url, pooled=True)
    tally = Tally()
    print(f"{os.cpu_count()} CPUs, {args.players} players, {args.hostile} hostile, "
          f"{args.minutes:g} min, database {store.core.describe()}", flush=True)
    try:
        await asyncio.sleep(1.0)
        # the game screens and the pool open on first use; its handle is none of the
        # control callers' (999_999 down), whose sign-up would find it taken
        warm = Player(900_000, args.seed)
        for _ in range(2):
            await play_visit(port, warm, store, Tally())
        await asyncio.sleep(3.0)
        base = server_handles(proc.pid)
        loop_began, load_began = cpu_and_wait(proc.pid), cpu_and_wait(os.getpid())
        until = time.monotonic() + args.minutes * 60
        players = [Player(i, args.seed, address(1, i // 8, network_of_its_own=True))
                   for i in range(args.players)]
        tasks = [asyncio.create_task(control_loop(port, tally, until, args.seed))]
        controls = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--control-run", str(port), "--minutes",
            str(args.minutes), "--seed", str(args.seed), "--controls", str(args.controls),
            stdout=asyncio.subprocess.PIPE, start_new_session=True) if args.controls else None
        for i, player in enumerate(players):
            tasks.append(asyncio.create_task(_later(i * 0.05, player_loop(
                port, player, store, tally, until))))
        for i in range(args.hostile):
            tasks.append(asyncio.create_task(_later(i * 0.1, hostile_loop(
                port, i, args.seed, tally, until))))
        peak = base
        began = time.monotonic()
        while not all(t.done() for t in tasks):
            await asyncio.sleep(10)
            now = server_handles(proc.pid)
            peak = tuple(max(a, b) for a, b in zip(peak, now, strict=True))  # type: ignore
            rss, cpu = proc_stats(proc.pid)
            print(f"  {time.monotonic() - began:5.0f} s: visits {tally.visits}, started "
                  f"{tally.started}, saved {tally.saved}, finished {tally.finished}, lost "
                  f"{tally.lost}; control p50 {pct(tally.control, .5):.0f} ms p99 "
                  f"{pct(tally.control, .99):.0f} ms; files {now[0]} (db {now[1]}), threads "
                  f"{now[2]}; RSS {rss // 1024} MiB, load {os.getloadavg()[0]:.1f}",
                  flush=True)
        for task in tasks:
            task.result()
        loop_spent = since(loop_began, cpu_and_wait(proc.pid))
        load_spent = since(load_began, cpu_and_wait(os.getpid()))
        own: dict = {"control": [], "lost": 0, "errors": {}, "cpu": None}
        if controls is not None:
            out, _ = await controls.communicate()
            own = json.loads(out.decode().strip().splitlines()[-1])
        await asyncio.sleep(10)
        after = server_handles(proc.pid)
        rss, cpu = proc_stats(proc.pid)
    finally:
        await store.close()
        await stop(proc)
    late = await found_late(db_url, tally.missing)
    locks = locked_lines(home)
    print()
    print("| what | figure |")
    print("|---|---:|")
    for label, value in (
            ("visits (players)", tally.visits), ("visits failed", tally.failed_visits),
            ("games started", tally.started), ("games resumed", tally.resumed),
            ("moves typed", tally.moves),
            ("unfinished games found whole in their slot", tally.saved),
            ("finished games found whole in the hall", tally.finished),
            (f"games not in the database {CHECK_WAIT:.0f} s after the hang-up", tally.lost),
            ("of those, found after the server's orderly stop (late, not lost)", late),
            ("**games lost**", tally.lost - late),
            ('"database is locked" / "busy too long" in the log', locks),
            ("hostile connections", tally.hostile_connections),
            ("hostile bytes sent", tally.hostile_bytes),
            ("open files after warm-up / peak / 10 s after", f"{base[0]} / {peak[0]} / {after[0]}"),
            ("database handles after warm-up / peak / 10 s after",
             f"{base[1]} / {peak[1]} / {after[1]}"),
            ("threads after warm-up / peak / 10 s after", f"{base[2]} / {peak[2]} / {after[2]}"),
            ("control caller p50 / p99 / max ms",
             f"{pct(tally.control, .5):.0f} / {pct(tally.control, .99):.0f} / "
             f"{max(tally.control, default=float('nan')) * 1000:.0f}"),
            ("control keys unanswered in 2 s", tally.control_lost),
            ("server CPU seconds", f"{cpu:.0f}"),
            ("load average (1 min) at the end", f"{os.getloadavg()[0]:.1f}")):
        print(f"| {label} | {value} |")
    for loss in tally.losses:
        print("  lost:", loss)
    for failure in tally.failures:
        print("  failed visit:", failure)
    if tally.errors:
        common = sorted(tally.errors.items(), key=lambda kv: -kv[1])[:8]
        print("  client-side errors:", ", ".join(f"{k} x{v}" for k, v in common))
    print(control_line(f"  {args.controls} control callers in a process of their own",
                       own["control"], own["lost"]))
    print(control_line("  the control caller in the load's process", tally.control,
                       tally.control_lost))
    if own["errors"]:
        print("  their errors:", own["errors"])
    # Where a key's time goes on a busy machine: each of these threads was ready to run and
    # waited for a core this long (the controls' own wait is the bench's, not the door's).
    print(cpu_line("the server's event loop", loop_spent))
    print(cpu_line("this process's event loop (the load, and one control caller)", load_spent))
    print(cpu_line("the control callers' process", own.get("cpu")))
    if own.get("late"):  # the floor under the controls' figures: their own clock's delays
        print(f"  the control callers' process woke every 10 ms beside them, late by p50 / "
              f"p99 / max {own['late']['p50']:.0f} / {own['late']['p99']:.0f} / "
              f"{own['late']['max']:.0f} ms")
    if tally.control:
        print(f"  control mean {statistics.mean(tally.control) * 1000:.1f} ms over "
              f"{len(tally.control)} keys")
    print(collections_line(home))
    if args.keep:
        print(f"  door home kept: {home}")
    else:
        shutil.rmtree(home, ignore_errors=True)


async def found_late(db_url: str, missing: list[tuple[Player, Game]]) -> int:
    """How many of the games missing at their check are in the database after all (the
    server writes what its keeper still holds when it stops): in a slot or the hall,
    with every move typed as a prefix (a later visit may have resumed and gone on)."""
    if not missing:
        return 0
    store = Store(db_url, pooled=True)
    found = 0
    try:
        for player, game in missing:
            state = await store.saves.load_resume(player.player_id or 0, game.name)
            actions = list(state.get("actions") or []) if state else []
            if ((state and state.get("number") == game.number and len(actions) >=
                 len(game.actions) and same_game(actions[:len(game.actions)], game))
                    or await finished(store, player.player_id, game)):
                found += 1
    finally:
        await store.close()
    return found


async def _later(delay: float, work: Any) -> None:
    await asyncio.sleep(delay)
    await work


if __name__ == "__main__":
    asyncio.run(main())
