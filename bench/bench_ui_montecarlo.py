"""Monte Carlo screen benchmark: bytes sent to the caller per move.

    python bench/bench_ui_montecarlo.py [--games 100] [--first 1] [--mode strict]

Plays numbered games ``first`` … ``first + games - 1`` to the end with the hint player (the
first hint each time), by keys, through a real :class:`Session` and :class:`Renderer` on a
fake Terminal, exactly as :meth:`GameScreen.run` does (draw, show, key, act).  A *move* is
every key that picks and removes one pair, and the bytes of a move are all the frames those
keys produced, including clearing the marks of the consolidation before it.  Two input forms:
``typed`` (``b2c3``: four keys) and ``cursor`` (arrows to each card, Enter on each).
Prints median, p95 and max bytes per move per charset and form, and the full-screen repaint.
Never run by the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from benchkit import CountingTerminal, p95

from door.config import load_settings
from door.games.montecarlo import MonteCarlo, parse_move
from door.session import Session
from door.term import Key
from door.term.keys import char
from door.ui.montecarlo_screen import MonteCarloScreen

HOME = Path(__file__).resolve().parent.parent
TARGET_MEDIAN, TARGET_P95 = 150, 400


def keys_for(move: str, cursor: int, form: str) -> list[Key]:
    """The keys a caller types for ``move`` (``b2c3``) with the cursor at ``cursor``."""
    if form == "typed":
        return [char(c) for c in move]
    keys: list[Key] = []
    for target in parse_move(move):  # type: ignore[union-attr]
        dr, dc = target // 5 - cursor // 5, target % 5 - cursor % 5
        keys += [Key("down" if dr > 0 else "up")] * abs(dr)
        keys += [Key("right" if dc > 0 else "left")] * abs(dc)
        keys.append(Key("enter"))
        cursor = target
    return keys


async def play(number: int, mode: str, charset: str, form: str,
               per_move: list[int], per_key: list[int]) -> int:
    """Play one game by keys; append bytes per move and per key; return the full repaint."""
    settings = load_settings(HOME)
    terminal = CountingTerminal(charset)
    session = Session(terminal, settings)
    screen = MonteCarloScreen(session, MonteCarlo.new(number, mode=mode))
    screen.draw()
    await session.show()
    full = terminal.sent
    while not screen.is_over:
        before = terminal.sent
        for key in keys_for(screen.game.hints()[0], screen.cursor, form):
            if not await screen.on_key(key):
                raise AssertionError(f"key {key} refused")
            sent = terminal.sent
            screen.draw()
            await session.show()
            per_key.append(terminal.sent - sent)
        per_move.append(terminal.sent - before)
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
          f"(target: median <= {TARGET_MEDIAN}, p95 <= {TARGET_P95})")
    print(f"{'charset':<8} {'form':<7} {'moves':>6} {'median':>7} {'p95':>5} {'max':>5} "
          f"{'mean':>6} {'key median':>11} {'full screen':>12} {'ok':>4}")
    for charset in ("cp437", "utf8", "ascii"):
        for form in ("typed", "cursor"):
            per_move: list[int] = []
            per_key: list[int] = []
            start = time.perf_counter()
            fulls = [await play(n, args.mode, charset, form, per_move, per_key)
                     for n in numbers]
            seconds = time.perf_counter() - start
            median = statistics.median(per_move)
            ok = median <= TARGET_MEDIAN and p95(per_move) <= TARGET_P95
            print(f"{charset:<8} {form:<7} {len(per_move):>6} {median:>7.0f} "
                  f"{p95(per_move):>5} {max(per_move):>5} {statistics.mean(per_move):>6.1f} "
                  f"{statistics.median(per_key):>11.0f} {max(fulls):>12} "
                  f"{'yes' if ok else 'NO':>4}   ({seconds:.1f} s)")


if __name__ == "__main__":
    asyncio.run(main())
