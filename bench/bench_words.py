"""CPU of the screen in words: what a web caller with the screen-reader switch on costs the
door per frame (the board in sentences, and the lines that changed sent to the live
region: ``ScreenAccess.after_frame``), and what F9 costs once (the same sentences).

Each game: a numbered deal, its first legal moves played, the cursor walked as in
bench_key_cpu.py, and after each key the frame and its announcement.  Prints the CPU per
frame with the announcement and without (a page that did not ask pays nothing more), and
the bytes of the sentences sent per key.

    python bench/bench_words.py [--keys 2000]

Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from benchkit import CountingTerminal, cpu_per_key

from door.config import load_settings
from door.games.anciento import Anciento
from door.games.auntmary import AuntMary
from door.games.mariant import Mariant
from door.games.montecarlo import MonteCarlo
from door.session import Services, Session
from door.ui.anciento.screen import AncientoScreen
from door.ui.auntmary.screen import AuntMaryScreen
from door.ui.mariant.screen import MariantScreen
from door.ui.montecarlo.screen import MonteCarloScreen
from door.ui.shared.access import ScreenAccess

HOME = Path(__file__).resolve().parent.parent
SCREENS = (("Mariant", MariantScreen, Mariant), ("Monte Carlo", MonteCarloScreen, MonteCarlo),
           ("Aunt Mary", AuntMaryScreen, AuntMary), ("Anciento", AncientoScreen, Anciento))
class AnnouncingTerminal(CountingTerminal):
    """A page with the screen-reader switch on: counts the sentences' bytes too."""

    def __init__(self, announces: bool) -> None:
        super().__init__("utf8")
        self.announces = announces
        self.said = 0

    def announce(self, text: str) -> None:
        self.said += len(text.encode())


async def per_frame(screen_class, engine, keys: int, announces: bool) -> tuple[float, float]:
    """(median µs of CPU per key and frame, sentence bytes per key)."""
    terminal = AnnouncingTerminal(announces)
    session = Session(terminal, Services(load_settings(HOME)))
    session.attach(ScreenAccess(session))
    game = engine.new(11982)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    screen = screen_class(session, game)
    screen.draw()
    await session.show()
    times = await cpu_per_key(screen, keys)
    return statistics.median(times) * 1e6, terminal.said / keys


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=2000)
    args = parser.parse_args()
    print("| screen | µs per key, no words | µs per key, words announced | said B per key |"
          " F9's words µs |")
    print("|---|---:|---:|---:|---:|")
    for name, screen_class, engine in SCREENS:
        plain, _ = await per_frame(screen_class, engine, args.keys, False)
        spoken, said = await per_frame(screen_class, engine, args.keys, True)
        session = Session(AnnouncingTerminal(False), Services(load_settings(HOME)))
        access = ScreenAccess(session)
        game = engine.new(11982)
        screen = screen_class(session, game)
        start = time.thread_time()
        for _ in range(200):
            access.words(screen)  # type: ignore[arg-type]
        words = (time.thread_time() - start) / 200 * 1e6
        print(f"| {name} | {plain:.0f} | {spoken:.0f} | {said:.0f} | {words:.0f} |")


if __name__ == "__main__":
    asyncio.run(main())
