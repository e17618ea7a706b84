"""CPU per key of a game screen: the screen's reaction, its full redraw and the renderer's
diff, as ``GameScreen.run`` does for every key (no network: what the server pays on top of
telnetlib3 and asyncio).

Each game: a numbered deal, the cursor walked right, down, left, up over and over (a key
that changes two cells of the frame, the commonest key of a cursor player).  Prints the
mean time per key, in-process, for the four screens.

    python bench/bench_key_cpu.py [--keys 3000]

Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from benchkit import CountingTerminal

from door.config import load_settings
from door.games.anciento import Anciento
from door.games.auntmary import AuntMary
from door.games.mariant import Mariant
from door.games.montecarlo import MonteCarlo
from door.session import Session
from door.term import Key
from door.ui.anciento_screen import AncientoScreen
from door.ui.auntmary_screen import AuntMaryScreen
from door.ui.mariant_screen import MariantScreen
from door.ui.montecarlo_screen import MonteCarloScreen

HOME = Path(__file__).resolve().parent.parent
SCREENS = (("Mariant", MariantScreen, Mariant), ("Monte Carlo", MonteCarloScreen, MonteCarlo),
           ("Aunt Mary", AuntMaryScreen, AuntMary), ("Anciento", AncientoScreen, Anciento))
WALK = [Key("right"), Key("down"), Key("left"), Key("up")]


async def per_key(screen_class, engine, keys: int) -> tuple[float, float]:
    """(ms per key, bytes per key) over ``keys`` cursor keys."""
    terminal = CountingTerminal("cp437", answer=b"y")
    session = Session(terminal, load_settings(HOME))
    screen = screen_class(session, engine.new(11982))
    screen.draw()
    await session.show()
    sent = terminal.sent
    start = time.perf_counter()
    for i in range(keys):
        await screen.on_key(WALK[i % len(WALK)])
        screen.draw()
        await session.show()
    return (time.perf_counter() - start) * 1000 / keys, (terminal.sent - sent) / keys


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=3000)
    args = parser.parse_args()
    print(f"{args.keys} cursor keys per screen, deal #11982, CP437")
    print("| screen | ms of CPU per key | bytes per key |\n|---|---:|---:|")
    for name, screen_class, engine in SCREENS:
        await per_key(screen_class, engine, 200)  # warm-up: caches, first draws
        ms, sent = await per_key(screen_class, engine, args.keys)
        print(f"| {name} | {ms:.3f} | {sent:.0f} |")


if __name__ == "__main__":
    asyncio.run(main())
