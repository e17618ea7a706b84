"""Anciento screen benchmark: bytes sent to the caller per move.

    python bench/bench_ui_anciento.py [--games 100] [--first 1] [--board 8x12] [--easy]
    python bench/bench_ui_anciento.py --screenshot out.ans   # then: ansilove -o out.png out.ans

Plays numbered games ``first`` … ``first + games - 1`` until no stone can be placed, with the
demo player's fast variant choosing the squares, by keys, through a real :class:`Session`
and :class:`Renderer` on a fake Terminal, exactly as the screen's loop does (draw, show,
key, act).  A *move* is every key that brings the cursor to the chosen square and places
the stone there, and its bytes are all the frames those keys produced.  Three input forms:
``typed`` (row digit and column letter, ``4e``), ``cursor`` (arrow keys, then Enter) and
``check`` (N until Check shows the square, then Enter).  Every fifth move the player takes
the stone back (U) and puts it back (R).  Prints bytes per key by kind of key (cursor, pick
— a typed column letter —, move — the key that places the stone —, undo, hint — N, Check —:
issue #20's targets, median <= 100 B and p95 <= 300 B; redo beside them) with the CPU each
key took, then median, p95 and max bytes per move per charset and form, and the full-screen
repaint.  The moves are worked out once per game and replayed for every charset and form.
Never run by the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from benchkit import KEY_TABLE_HEAD, CountingTerminal, KeyStats, p95, plain_repaint

from door.compiled import build_name
from door.config import Settings, load_settings
from door.games.anciento import Anciento
from door.games.anciento_demo import fast_move
from door.session import Services, Session
from door.term import Charset, Key
from door.term.keys import char
from door.ui.anciento.screen import AncientoScreen
from door.ui.anciento.timer import Timer

HOME = Path(__file__).resolve().parent.parent
TARGET_MEDIAN, TARGET_P95 = 150, 400


def keys_for(game: Anciento, target: int, cursor: int, form: str) -> list[tuple[Key, str]]:
    """The keys a caller types to put the current stone on ``target``, each with its kind
    (the last one places the stone)."""
    if form == "typed":  # the chess way: column letter, then row (e4)
        column, row = game.geo.names[target][0], game.geo.names[target][1:]
        return [(char(column), "pick"), *((char(c), "move") for c in row)]
    if form == "check":  # N steps through the squares that take the stone
        names = [name for name, _ in game.check()]
        return ([(char("n"), "hint")] * (names.index(game.geo.names[target]) + 1)
                + [(Key("enter"), "move")])
    cols = game.geo.cols
    dr, dc = target // cols - cursor // cols, target % cols - cursor % cols
    keys = [(Key("down" if dr > 0 else "up"), "cursor")] * abs(dr)
    keys += [(Key("right" if dc > 0 else "left"), "cursor")] * abs(dc)
    return [*keys, (Key("enter"), "move")]


def moves_of(number: int, board: str, easy: bool) -> list[str]:
    """The fast demo player's game (the same for every charset and form: worked out once)."""
    game = Anciento.new(number, board=board, easy=easy)
    moves = []
    while not game.is_over:
        moves.append(fast_move(game))
        game.play(moves[-1])
    return moves


async def play(settings: Settings, number: int, moves: list[str], board: str, easy: bool,
               charset: str, form: str, per_move: list[int], stats: KeyStats) -> int:
    """Play one game by keys; append bytes per move, count each key; return the full
    repaint."""
    terminal = CountingTerminal(charset)
    session = Session(terminal, Services(settings))
    screen = AncientoScreen(session, Anciento.new(number, board=board, easy=easy))
    game = screen.game
    screen.draw()
    await session.show()
    full = terminal.sent
    for done, move in enumerate(moves, 1):
        target = game.geo.names.index(move)
        before, placed = terminal.sent, game.stones_left
        for key, kind in keys_for(game, target, screen.cursor, form):
            if not await stats.press(screen, key, kind):
                raise AssertionError(f"key {key} refused")
        if game.stones_left != placed - 1:
            raise AssertionError(f"game {number}: the stone was not placed: {screen.note}")
        per_move.append(terminal.sent - before)
        if done % 5 == 0 and not game.is_over:
            await stats.press(screen, char("u"), "undo")
            await stats.press(screen, char("r"), "redo")
            if game.stones_left != placed - 1:
                raise AssertionError(f"game {number}: {move} not put back: {screen.note}")
    return full


async def screenshot(path: Path, number: int = 505, moves: int = 24) -> None:
    """Write the CP437 bytes of a full repaint of a game in progress (for ansilove): game
    ``number`` in Easy mode with a 25-minute timer, ``moves`` stones of the fast demo player,
    then Check once, so the picture shows the shapes, the shaded edge and the next stones."""
    terminal = CountingTerminal("cp437")
    terminal.charset = Charset("cp437", c0_glyphs=True)       # shapes as CP437 glyphs
    session = Session(terminal, Services(load_settings(HOME)))
    screen = AncientoScreen(session, Anciento.new(number, easy=True))
    screen.timer = Timer(25, lambda: 0.0)
    screen.timer.start()
    for _ in range(moves):
        screen.place(screen.game.geo.names.index(fast_move(screen.game)))
    screen.check()
    screen.draw()
    path.write_bytes(plain_repaint(session.screen, terminal.charset))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--board", choices=["8x12", "8x8"], default="8x12")
    parser.add_argument("--easy", action="store_true", help="Easy mode (the next 4 shown)")
    parser.add_argument("--screenshot", type=Path, help="write a full repaint (CP437) here")
    args = parser.parse_args()
    if args.screenshot:
        await screenshot(args.screenshot)
        return
    numbers = range(args.first, args.first + args.games)
    settings = load_settings(HOME)
    games = {n: moves_of(n, args.board, args.easy) for n in numbers}
    print(f"Anciento screen, {args.games} games ({numbers.start}-{numbers.stop - 1}), board "
          f"{args.board}{', easy' if args.easy else ''}, fast demo player; bytes per move "
          f"(target: median <= {TARGET_MEDIAN}, p95 <= {TARGET_P95}); {build_name()}")
    print(f"{'charset':<8} {'form':<7} {'moves':>6} {'median':>7} {'p95':>5} {'max':>5} "
          f"{'mean':>6} {'key median':>11} {'full screen':>12} {'ok':>4}")
    keys: list[str] = []
    for charset in ("cp437", "utf8", "ascii"):
        for form in ("typed", "cursor", "check"):
            per_move: list[int] = []
            stats = KeyStats()
            start = time.perf_counter()
            fulls = [await play(settings, n, games[n], args.board, args.easy, charset, form,
                                per_move, stats) for n in numbers]
            keys += stats.rows(f"Anciento, {charset}, {form}")
            per_key = [b for values in stats.bytes.values() for b in values]
            seconds = time.perf_counter() - start
            median = statistics.median(per_move)
            ok = median <= TARGET_MEDIAN and p95(per_move) <= TARGET_P95
            print(f"{charset:<8} {form:<7} {len(per_move):>6} {median:>7.0f} "
                  f"{p95(per_move):>5} {max(per_move):>5} {statistics.mean(per_move):>6.1f} "
                  f"{statistics.median(per_key):>11.0f} {max(fulls):>12} "
                  f"{'yes' if ok else 'NO':>4}   ({seconds:.1f} s)")
    print("\nBytes and CPU per key (targets: median <= 100 B, p95 <= 300 B)")
    print(KEY_TABLE_HEAD)
    print("\n".join(keys))


if __name__ == "__main__":
    asyncio.run(main())
