"""Mariant screen benchmark: bytes sent to the caller per move.

    python bench/bench_ui_mariant.py [--games 100] [--first 1] [--fd 2] [--fu 1]
    python bench/bench_ui_mariant.py --screenshot out.ans   # then: ansilove -o out.png out.ans

Plays numbered games ``first`` … ``first + games - 1`` by keys, through a real
:class:`Session` and :class:`Renderer` on a fake Terminal, exactly as :meth:`GameScreen.run`
does (draw, show, key, act).  The player: a whole-group HELP move (``game.hints()``) that
leads to a position not seen before, else remove a complete suit, else deal, else Auto
Ending; it stops when none is left (Mariant has no loss: the caller would quit).  Every
question the screen asks (remove this suit? deal with empty columns? Auto Ending?) is
answered yes, and its bytes count with the move that caused it.

A *move* is every key of one action: ``3`` ``7`` for a move by column keys (``typed``), or
arrows to the column and Enter, twice (``cursor``); ``d`` for a deal; ``r`` and a column for
a removal.  Every fourth action the player asks for a hint (P) first; every fifth move it
undoes it (U, yes to the cheater warning) and plays it again.  Prints bytes per key by kind
of key (cursor, pick, move — the key that plays an action, deals included —, undo, hint:
issue #20's targets, median <= 100 B and p95 <= 300 B) with the CPU each key took, then
median, p95 and max bytes per action, per charset and form, by kind of action, and the
full-screen repaint.  Never run by the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import defaultdict
from pathlib import Path

from benchkit import KEY_TABLE_HEAD, CountingTerminal, KeyStats, p95, plain_repaint

from door.compiled import build_name
from door.config import load_settings
from door.games.mariant import Mariant
from door.session import Services, Session
from door.term import Charset, Key
from door.term.keys import char
from door.ui.mariant.screen import REMOVE_KEY, MariantScreen, complete_suit
from door.ui.shared.keymap import HINT

HOME = Path(__file__).resolve().parent.parent
TARGET_MEDIAN, TARGET_P95 = 150, 400
KEYS = "1234567890"
MAX_ACTIONS = 600


def position_key(game: Mariant) -> tuple:
    return game.stock_count, game.columns, game.face_down


def next_action(game: Mariant, seen: set[tuple]) -> tuple[str, str] | None:
    """(kind, notation) of the player's next action, or None when it would quit."""
    for hint in game.hints():
        trial = game.copy()
        trial.play(hint)
        if position_key(trial) not in seen:
            return "move", hint
    for col in range(10):
        if complete_suit(game, col):
            return "remove", f"r{KEYS[col]}"
    if game.stock_count:
        return "deal", "d"
    if game.auto_ending_available:
        return "auto", "a"
    return None


def column_keys(col: int, cursor: int, form: str, last: str) -> list[tuple[Key, str]]:
    if form == "typed":
        return [(char(KEYS[col]), last)]
    step = "right" if col > cursor else "left"
    return [(Key(step), "cursor")] * abs(col - cursor) + [(Key("enter"), last)]


def keys_for(kind: str, move: str, cursor: int, form: str) -> list[tuple[Key, str]]:
    """The keys of an action, each with its kind of key (the last one plays it)."""
    if kind == "move":
        src, dst = KEYS.index(move[0]), KEYS.index(move[2])
        return (column_keys(src, cursor, form, "pick")
                + column_keys(dst, src, form, "move"))
    if kind == "remove":
        return [(char(REMOVE_KEY), "pick"), (char(move[1]), "move")]
    return [(char(move), "move")]


async def play(number: int, fd: int, fu: int, charset: str, form: str,
               per_move: dict[str, list[int]], stats: KeyStats) -> tuple[int, bool]:
    """Play one game by keys; record bytes per move and per key; return (full-screen bytes,
    won)."""
    settings = load_settings(HOME)
    terminal = CountingTerminal(charset, answer=b"y")
    session = Session(terminal, Services(settings))
    screen = MariantScreen(session, Mariant.new(number, fd=fd, fu=fu))
    screen.draw()
    await session.show()
    full = terminal.sent
    seen = {position_key(screen.game)}
    for done in range(1, MAX_ACTIONS + 1):
        if screen.is_over:
            break
        action = next_action(screen.game, seen)
        if action is None:
            break
        kind, move = action
        if done % 4 == 0:
            await stats.press(screen, char(HINT.key), "hint")
        before = terminal.sent
        for key, key_kind in keys_for(kind, move, screen.cursor, form):
            if not await stats.press(screen, key, key_kind):
                raise AssertionError(f"key {key} refused")
        if terminal.bells:
            raise AssertionError(f"game {number}: {move} refused: {screen.note}")
        per_move[kind].append(terminal.sent - before)
        per_move["all"].append(terminal.sent - before)
        if kind == "move" and done % 5 == 0 and not screen.is_over:
            await stats.press(screen, char("u"), "undo")  # (the warning answered yes)
            for key, key_kind in keys_for(kind, move, screen.cursor, form):
                await stats.press(screen, key, key_kind)
            terminal.bells = 0
        seen.add(position_key(screen.game))
    return full, screen.game.won


async def screenshot(path: Path, number: int = 617, actions: int = 14) -> None:
    """Write the CP437 bytes of a full repaint of a game in progress (for ansilove).

    Game ``number`` in the 3+2 setup, ``actions`` actions of the benchmark's player, then
    a whole group selected, so the picture shows the outline and where it may go.
    """
    terminal = CountingTerminal("cp437", answer=b"y")
    terminal.charset = Charset("cp437", c0_glyphs=True)       # suits as CP437 glyphs
    session = Session(terminal, Services(load_settings(HOME)))
    screen = MariantScreen(session, Mariant.new(number, fd=3, fu=2))
    seen = {position_key(screen.game)}
    for _ in range(actions):
        kind, move = next_action(screen.game, seen) or ("", "")
        for key, _kind in keys_for(kind, move, screen.cursor, "typed"):
            await screen.on_key(key)
        seen.add(position_key(screen.game))
    hints = screen.game.hints()
    if hints:
        await screen.on_key(char(hints[0][0]))
    screen.draw()
    path.write_bytes(plain_repaint(session.screen, terminal.charset))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--fd", type=int, default=2)
    parser.add_argument("--fu", type=int, default=1)
    parser.add_argument("--screenshot", type=Path, help="write a full repaint (CP437) here")
    args = parser.parse_args()
    if args.screenshot:
        await screenshot(args.screenshot)
        return
    numbers = range(args.first, args.first + args.games)
    print(f"Mariant screen, {args.games} games ({numbers.start}-{numbers.stop - 1}), setup "
          f"{args.fd}+{args.fu}, HELP-move player; bytes per move "
          f"(target: median <= {TARGET_MEDIAN}, p95 <= {TARGET_P95}); {build_name()}")
    print(f"{'charset':<8} {'form':<7} {'kind':<7} {'moves':>6} {'median':>7} {'p95':>5} "
          f"{'max':>5} {'mean':>6} {'full screen':>12} {'ok':>4}")
    keys: list[str] = []
    for charset in ("cp437", "utf8", "ascii"):
        for form in ("typed", "cursor"):
            per_move: dict[str, list[int]] = defaultdict(list)
            stats = KeyStats()
            start = time.perf_counter()
            results = [await play(n, args.fd, args.fu, charset, form, per_move, stats)
                       for n in numbers]
            keys += stats.rows(f"Mariant, {charset}, {form}")
            seconds = time.perf_counter() - start
            full = max(f for f, _ in results)
            won = sum(w for _, w in results)
            for kind in ("all", "move", "deal", "remove", "auto"):
                values = per_move.get(kind)
                if not values:
                    continue
                median = statistics.median(values)
                ok = median <= TARGET_MEDIAN and p95(values) <= TARGET_P95
                print(f"{charset:<8} {form:<7} {kind:<7} {len(values):>6} {median:>7.0f} "
                      f"{p95(values):>5} {max(values):>5} {statistics.mean(values):>6.1f} "
                      f"{full:>12} {('yes' if ok else 'NO') if kind == 'all' else '':>4}"
                      + (f"   ({seconds:.1f} s, {won} won)" if kind == "all" else ""))
    print("\nBytes and CPU per key (targets: median <= 100 B, p95 <= 300 B)")
    print(KEY_TABLE_HEAD)
    print("\n".join(keys))


if __name__ == "__main__":
    asyncio.run(main())
