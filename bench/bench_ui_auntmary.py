"""Aunt Mary screen benchmark: bytes sent to the caller per move.

    python bench/bench_ui_auntmary.py [--games 100] [--first 1] [--moves 300]

Plays numbered games ``first`` … ``first + games - 1`` with a tip player (the first of the
engine's hints that leads to a position not seen before in that game; auto-finish as soon as
it is offered), by keys, through a real :class:`Session` and :class:`Renderer` on a fake
Terminal, exactly as :meth:`GameScreen.run` does (draw, show, key, act).  A game ends when
it is won, when no tip leads anywhere new, or after ``--moves`` moves.  A *move* is every key
that picks up and drops one move's cards (or turns the stock), and its bytes are all the
frames those keys produced.  Two input forms: ``keys`` (hot keys: ``2`` ``5``, ``W`` ``F``,
``S``…) and ``cursor`` (arrows to the source, ↑ for the run, Enter, arrows, Enter; a card
goes home by Enter twice on it).  Every fourth move the player asks for a tip (P) first;
every fifth it undoes the move (U) and redoes it (R).
Prints bytes per key by kind of key (cursor, pick, move, undo, hint: issue #20's targets,
median <= 100 B and p95 <= 300 B; redo beside them) with the CPU each key took, then
median, p95 and max bytes per move per charset and form, keys per move, and the
full-screen repaint.
Never run by the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import deque
from pathlib import Path

from benchkit import KEY_TABLE_HEAD, CountingTerminal, KeyStats, p95

from door.compiled import build_name
from door.config import load_settings
from door.games.auntmary import AuntMary, parse_move
from door.session import Services, Session
from door.term import Key
from door.term.keys import char
from door.ui.auntmary.screen import PANEL_MOVES, PILES, AuntMaryScreen
from door.ui.shared.keymap import HINT

HOME = Path(__file__).resolve().parent.parent
TARGET_MEDIAN, TARGET_P95 = 150, 400


def neighbours(spot: str) -> dict[str, str]:
    """Where each arrow leads from ``spot`` (as :meth:`AuntMaryScreen._arrow` moves)."""
    if spot not in PILES:
        return PANEL_MOVES[spot]
    k = int(spot)
    return {"left": str(k - 1) if k > 1 else "w", "right": str(k + 1) if k < 6 else "s"}


def walk(start: str, goal: str) -> list[Key]:
    """The shortest arrow path between two spots."""
    paths: dict[str, list[str]] = {start: []}
    todo = deque([start])
    while todo:
        spot = todo.popleft()
        if spot == goal:
            return [Key(name) for name in paths[spot]]
        for name, nxt in neighbours(spot).items():
            if nxt not in paths:
                paths[nxt] = [*paths[spot], name]
                todo.append(nxt)
    raise AssertionError(f"no path from {start} to {goal}")


def source_and_target(game: AuntMary, move: str) -> tuple[str, int, str]:
    """(source spot, cards taken, target spot) of a card move."""
    mv = parse_move(move)
    src = str(mv.src + 1) if isinstance(mv.src, int) else str(mv.src)
    count = 1
    if isinstance(mv.src, int) and isinstance(mv.dst, int):
        count = mv.cards or game.top_run_length(mv.src + 1)
    if mv.dst == "f":
        card = game.waste[-1] if src == "w" else game.columns[int(src) - 1][-1]
        return src, count, "f" + card.suit
    return src, count, str(mv.dst + 1)


STATS = KeyStats()
"""Bytes and CPU of every frame, one per key (a caller waits for each key's answer)."""


async def press(screen: AuntMaryScreen, key: Key, kind: str) -> None:
    if not await STATS.press(screen, key, kind):
        raise AssertionError(f"key {key} refused")


async def play_move(screen: AuntMaryScreen, move: str, form: str) -> None:
    """Type ``move`` on the screen, in hot keys or with the cursor."""
    game = screen.game
    if move in ("s", "r", "auto"):
        await press(screen, char("a" if move == "auto" else "s"), "move")
        return
    src, count, dst = source_and_target(game, move)
    if form == "keys":
        if src.startswith("f"):       # F walks the cursor along the foundations
            while screen.spot != src:
                await press(screen, char("f"), "cursor")
            await press(screen, Key("enter"), "pick")
        else:
            await press(screen, char(src), "pick")
        await press(screen, char("f" if dst.startswith("f") else dst), "move")
        return
    if dst.startswith("f"):           # Enter twice on a card sends it home
        dst = src
    for spot, depth, kind in ((src, count, "pick"), (dst, 1, "move")):
        for key in walk(screen.spot, spot):
            await press(screen, key, "cursor")
        while spot in PILES and screen.depth < depth:
            await press(screen, Key("up"), "cursor")
        while spot in PILES and screen.depth > depth:  # (left deeper by an undo)
            await press(screen, Key("down"), "cursor")
        await press(screen, Key("enter"), kind)


def next_move(shadow: AuntMary, seen: set) -> str | None:
    """The first tip leading to a position not seen yet in this game."""
    if shadow.auto_finish_available:
        return "auto"
    for move in shadow.hints():
        shadow.play(move)
        if shadow.over:            # the last card went home: nothing to undo, nothing after
            return move
        fresh = shadow.position not in seen
        shadow.undo()
        if fresh:
            return move
    return None


async def play(number: int, charset: str, form: str, max_moves: int,
               per_move: list[int]) -> tuple[int, int]:
    """One game by keys; append bytes per move; return (full-screen repaint, final score)."""
    terminal = CountingTerminal(charset)
    session = Session(terminal, Services(load_settings(HOME)))
    screen = AuntMaryScreen(session, AuntMary.new(number))
    screen.draw()
    await session.show()
    full = terminal.sent
    shadow = AuntMary.new(number)
    seen = {shadow.position}
    for done in range(1, max_moves + 1):
        move = next_move(shadow, seen)
        if move is None or screen.is_over:
            break
        if done % 4 == 0:
            await press(screen, char(HINT.key), "hint")
        before = terminal.sent
        await play_move(screen, move, form)
        per_move.append(terminal.sent - before)
        if done % 5 == 0 and not screen.is_over:
            await press(screen, char("u"), "undo")
            await press(screen, char("r"), "redo")
        shadow.play(move)
        seen.add(shadow.position)
        if screen.game.position != shadow.position and not shadow.over:
            raise AssertionError(f"game {number}: {move} was not played: {screen.note}")
    return full, screen.game.score


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--moves", type=int, default=300, help="moves per game at most")
    args = parser.parse_args()
    numbers = range(args.first, args.first + args.games)
    print(f"Aunt Mary screen, {args.games} games ({numbers.start}-{numbers.stop - 1}), "
          f"tip player, at most {args.moves} moves a game; bytes per move "
          f"(target: median <= {TARGET_MEDIAN}, p95 <= {TARGET_P95}); {build_name()}")
    print(f"{'charset':<8} {'form':<7} {'moves':>6} {'median':>7} {'p95':>5} {'max':>5} "
          f"{'mean':>6} {'keys/move':>9} {'key p95':>7} {'full screen':>12} {'won':>4} "
          f"{'ok':>4}")
    keys: list[str] = []
    for charset in ("cp437", "utf8", "ascii"):
        for form in ("keys", "cursor"):
            per_move: list[int] = []
            STATS.__init__()
            start = time.perf_counter()
            results = [await play(n, charset, form, args.moves, per_move) for n in numbers]
            seconds = time.perf_counter() - start
            median = statistics.median(per_move)
            ok = median <= TARGET_MEDIAN and p95(per_move) <= TARGET_P95
            won = sum(score == 52 for _, score in results)
            print(f"{charset:<8} {form:<7} {len(per_move):>6} {median:>7.0f} "
                  f"{p95(per_move):>5} {max(per_move):>5} {statistics.mean(per_move):>6.1f} "
                  f"{keys_pressed() / len(per_move):>9.1f} {p95(all_keys()):>7} "
                  f"{max(full for full, _ in results):>12} {won:>4} "
                  f"{'yes' if ok else 'NO':>4}   ({seconds:.1f} s)")
            keys += STATS.rows(f"Aunt Mary, {charset}, {form}")
    print("\nBytes and CPU per key (targets: median <= 100 B, p95 <= 300 B)")
    print(KEY_TABLE_HEAD)
    print("\n".join(keys))


def all_keys() -> list[int]:
    return [b for values in STATS.bytes.values() for b in values]


def keys_pressed() -> int:
    return len(all_keys())


if __name__ == "__main__":
    asyncio.run(main())
