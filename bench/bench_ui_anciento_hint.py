"""Anciento's Hint key: bytes sent to the caller per hint, and the search player's time.

    python bench/bench_ui_anciento_hint.py [--games 10] [--first 1] [--board 8x12]

Plays numbered games with the search player through a real :class:`Session` and
:class:`Renderer` on a counting terminal, as the screen's loop does.  Before every move the
caller presses P: the hint's bytes are those of the frame after the key plus the frame that
shows the answer (its square lit, the cursor on it, "Hint: e4." on the message line); the
answer is worked out here, in this process, as a pool worker would (the frames are the same
as long as it comes within the screen's quiet time, HINT_QUIET_S).  Then Enter places the
stone on the hinted square.  Prints bytes per hint (issue #20's key target: median <= 100 B,
p95 <= 300 B), bytes of the Enter that follows, and the search player's CPU ms per hint.
Never run by the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from pathlib import Path

from benchkit import KEY_MEDIAN_B, KEY_P95_B, CountingTerminal, p95

from door.config import load_settings
from door.games.anciento import Anciento
from door.games.anciento_player import search_move
from door.session import Services, Session
from door.term import Key
from door.term.keys import char
from door.ui.anciento.screen import AncientoScreen
from door.ui.shared.keymap import HINT

HOME = Path(__file__).resolve().parent.parent


async def play(number: int, board: str, charset: str, hints: list[int], enters: list[int],
               thinking: list[float]) -> None:
    terminal = CountingTerminal(charset)
    session = Session(terminal, Services(load_settings(HOME)))
    screen = AncientoScreen(session, Anciento.new(number, board=board))
    game = screen.game

    async def answer() -> str:          # what the pool's worker would do, timed
        start = time.process_time()
        move = search_move(game)
        thinking.append(time.process_time() - start)
        return move

    screen._search_move = answer        # type: ignore[method-assign]
    screen.draw()
    await session.show()
    while not game.is_over:
        sent = terminal.sent
        if not await screen.on_key(char(HINT.key)):   # the key map's hint: the frame's
            await screen.common_key(char(HINT.key))
        screen.draw()
        await session.show()
        job = screen._hint_job
        assert job is not None
        await job
        screen._collect_hint()
        screen.draw()
        await session.show()
        hints.append(terminal.sent - sent)
        assert screen.hinted is not None and screen.cursor == screen.hinted, screen.note
        sent, left = terminal.sent, game.stones_left
        await screen.on_key(Key("enter"))
        screen.draw()
        await session.show()
        enters.append(terminal.sent - sent)
        assert game.stones_left == left - 1, screen.note


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--board", choices=["8x12", "8x8"], default="8x12")
    args = parser.parse_args()
    print(f"Anciento Hint, games {args.first}-{args.first + args.games - 1}, board "
          f"{args.board} (load average {os.getloadavg()[0]:.1f}); target per key: median <= "
          f"{KEY_MEDIAN_B} B, p95 <= {KEY_P95_B} B")
    print(f"{'charset':<8} {'hints':>6} {'median B':>9} {'p95 B':>6} {'max B':>6}"
          f" {'Enter after, median B':>22} {'search CPU ms: median':>22} {'p95':>6}")
    for charset in ("cp437", "utf8", "ascii"):
        hints: list[int] = []
        enters: list[int] = []
        thinking: list[float] = []
        for number in range(args.first, args.first + args.games):
            await play(number, args.board, charset, hints, enters, thinking)
        print(f"{charset:<8} {len(hints):6d} {statistics.median(hints):9.0f} {p95(hints):6d}"
              f" {max(hints):6d} {statistics.median(enters):22.0f}"
              f" {1000 * statistics.median(thinking):22.1f} {1000 * p95(thinking):6.1f}")


if __name__ == "__main__":
    asyncio.run(main())
