"""Monte Carlo screen benchmark: bytes sent to the caller per key and per move.

    python bench/bench_ui_montecarlo.py [--games 100] [--first 1] [--mode strict]

Plays numbered games ``first`` … ``first + games - 1`` to the end with the hint player (the
first hint each time), by keys, through a real :class:`Session` and :class:`Renderer` on a
fake Terminal, exactly as :meth:`GameScreen.run` does (draw, show, key, act).  Every fourth
move the player asks for a hint (P) first; every fifth it undoes the pair (U) and takes it
again.  A *move* is every key that picks and removes one pair, and the bytes of a move are
all the frames those keys produced.  Two input forms: ``typed`` (``b2c3``: four keys) and
``cursor`` (arrows to each card, Enter on each).  Prints, per charset and form, bytes per
key by kind of key (cursor, pick, move, undo, hint: issue #20's targets, median <= 100 B and
p95 <= 300 B) with the CPU each key took, then bytes per move and the full-screen repaint.
Never run by the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from benchkit import KEY_TABLE_HEAD, CountingTerminal, KeyStats, p95

from door.compiled import build_name
from door.config import load_settings
from door.games.montecarlo import MonteCarlo, parse_move
from door.session import Services, Session
from door.term import Key
from door.term.keys import char
from door.ui.montecarlo.screen import MonteCarloScreen
from door.ui.shared.keymap import HINT

HOME = Path(__file__).resolve().parent.parent
TARGET_MEDIAN, TARGET_P95 = 150, 400


def keys_for(move: str, cursor: int, form: str) -> list[tuple[Key, str]]:
    """The keys a caller types for ``move`` (``b2c3``) with the cursor at ``cursor``, each
    with its kind: the last one plays the move, the other non-arrows pick."""
    if form == "typed":
        return [(char(c), "move" if i == 3 else "pick") for i, c in enumerate(move)]
    keys: list[tuple[Key, str]] = []
    for target in parse_move(move):  # type: ignore[union-attr]
        dr, dc = target // 5 - cursor // 5, target % 5 - cursor % 5
        keys += [(Key("down" if dr > 0 else "up"), "cursor")] * abs(dr)
        keys += [(Key("right" if dc > 0 else "left"), "cursor")] * abs(dc)
        keys.append((Key("enter"), "pick"))
        cursor = target
    keys[-1] = (keys[-1][0], "move")
    return keys


async def play(number: int, mode: str, charset: str, form: str,
               per_move: list[int], stats: KeyStats) -> int:
    """Play one game by keys; append bytes per move, count each key; return the full
    repaint."""
    settings = load_settings(HOME)
    terminal = CountingTerminal(charset, answer=b"y")  # yes to "the door then deals ..."
    session = Session(terminal, Services(settings))
    screen = MonteCarloScreen(session, MonteCarlo.new(number, mode=mode))
    screen.draw()
    await session.show()
    full = terminal.sent
    moves = 0
    while not screen.is_over and screen.game.hints():   # a dead deal stops at its end offer
        moves += 1
        if moves % 4 == 0:
            await stats.press(screen, char(HINT.key), "hint")
        move = screen.game.hints()[0]
        before = terminal.sent
        for key, kind in keys_for(move, screen.cursor, form):
            if not await stats.press(screen, key, kind):
                raise AssertionError(f"key {key} refused")
        per_move.append(terminal.sent - before)
        if moves % 5 == 0 and not screen.is_over:
            done = len(screen.game.actions)
            await stats.press(screen, char("u"), "undo")
            if len(screen.game.actions) != done:  # undone (a deal from the stock is not)
                for key, kind in keys_for(move, screen.cursor, form):
                    await stats.press(screen, key, kind)
    return full


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--mode", choices=["strict", "relaxed"], default="strict")
    args = parser.parse_args()
    numbers = range(args.first, args.first + args.games)
    print(f"Monte Carlo screen, {args.games} games ({numbers.start}-{numbers.stop - 1}), "
          f"{args.mode} consolidation, hint player; bytes per move "
          f"(target: median <= {TARGET_MEDIAN}, p95 <= {TARGET_P95}); {build_name()}")
    print(f"{'charset':<8} {'form':<7} {'moves':>6} {'median':>7} {'p95':>5} {'max':>5} "
          f"{'mean':>6} {'key median':>11} {'full screen':>12} {'ok':>4}")
    keys: list[str] = []
    for charset in ("cp437", "utf8", "ascii"):
        for form in ("typed", "cursor"):
            per_move: list[int] = []
            stats = KeyStats()
            start = time.perf_counter()
            fulls = [await play(n, args.mode, charset, form, per_move, stats)
                     for n in numbers]
            seconds = time.perf_counter() - start
            median = statistics.median(per_move)
            ok = median <= TARGET_MEDIAN and p95(per_move) <= TARGET_P95
            key_median = statistics.median([b for v in stats.bytes.values() for b in v])
            print(f"{charset:<8} {form:<7} {len(per_move):>6} {median:>7.0f} "
                  f"{p95(per_move):>5} {max(per_move):>5} {statistics.mean(per_move):>6.1f} "
                  f"{key_median:>11.0f} {max(fulls):>12} "
                  f"{'yes' if ok else 'NO':>4}   ({seconds:.1f} s)")
            keys += stats.rows(f"Monte Carlo, {charset}, {form}")
    print("\nBytes and CPU per key (targets: median <= 100 B, p95 <= 300 B)")
    print(KEY_TABLE_HEAD)
    print("\n".join(keys))


if __name__ == "__main__":
    asyncio.run(main())
