"""CPU per key of a game screen: the screen's reaction, its full redraw and the renderer's
diff, as ``GameScreen.run`` does for every key (no network: what the server pays on top of
telnetlib3 and asyncio).

Each game: a numbered deal, the cursor walked right, down, left, up over and over (a key
that changes two cells of the frame, the commonest key of a cursor player).  Prints the
CPU time per key (median and mean; ``time.thread_time``, so a busy machine slows the run
but not the figure), in-process, for the four screens: issue #20's target is a median of
0.10 ms.

    python bench/bench_key_cpu.py [--keys 3000] [--callers 200]

With ``--callers N`` it also plays N screens of each game in turn, a key each (N deals),
as a server of N callers does: each key then finds its caller's state (cells, renderer
rows, game) out of the caches, as in the server, where a key costs several times the
one-screen figure.

Figures only: the test suite never runs this.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from pathlib import Path

from benchkit import WALK, CountingTerminal, cpu_per_key

from door.compiled import build_name
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

HOME = Path(__file__).resolve().parent.parent
SCREENS = (("Mariant", MariantScreen, Mariant), ("Monte Carlo", MonteCarloScreen, MonteCarlo),
           ("Aunt Mary", AuntMaryScreen, AuntMary), ("Anciento", AncientoScreen, Anciento))
async def per_key(screen_class, engine, keys: int) -> tuple[float, float, float]:
    """(median ms of CPU per key, mean ms, bytes per key) over ``keys`` cursor keys."""
    terminal = CountingTerminal("cp437", answer=b"y")
    session = Session(terminal, Services(load_settings(HOME)))
    screen = screen_class(session, engine.new(11982))
    screen.draw()
    await session.show()
    sent = terminal.sent
    times = await cpu_per_key(screen, keys)
    return (1000 * statistics.median(times), 1000 * statistics.mean(times),
            (terminal.sent - sent) / keys)


async def per_key_cold(screen_class, engine, callers: int, keys: int) -> float:
    """Median µs of CPU per key over five rounds of ``keys`` cursor keys shared by
    ``callers`` screens in turn (one key each, then the next screen)."""
    settings = load_settings(HOME)
    screens = []
    for i in range(callers):
        session = Session(CountingTerminal("cp437", answer=b"y"), Services(settings))
        screen = screen_class(session, engine.new(11982 + i))
        screen.draw()
        await session.show()
        screens.append(screen)
    rounds = []
    for _ in range(5):
        start = time.thread_time()
        for i in range(keys):
            screen = screens[i % callers]
            await screen.on_key(WALK[(i // callers) % len(WALK)])
            screen.draw()
            await screen.session.show()
        rounds.append(1e6 * (time.thread_time() - start) / keys)
    return statistics.median(rounds)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=3000)
    parser.add_argument("--callers", type=int, default=0,
                        help="also play this many screens of each game in turn")
    args = parser.parse_args()
    print(f"{args.keys} cursor keys per screen, deal #11982, CP437; {build_name()} (load "
          f"{os.getloadavg()[0]:.1f})")
    print("| screen | median ms of CPU per key | mean ms | bytes per key |\n"
          "|---|---:|---:|---:|")
    for name, screen_class, engine in SCREENS:
        await per_key(screen_class, engine, 200)  # warm-up: caches, first draws
        median, mean, sent = await per_key(screen_class, engine, args.keys)
        print(f"| {name} | {median:.3f} | {mean:.3f} | {sent:.0f} |")
    if args.callers:
        keys = max(args.keys, 10 * args.callers)
        print(f"\n{args.callers} screens of each game in turn, {keys} cursor keys a round"
              f" (median of five rounds; load {os.getloadavg()[0]:.1f})")
        print("| screen | µs of CPU per key, callers' state out of the caches |\n|---|---:|")
        for name, screen_class, engine in SCREENS:
            cold = await per_key_cold(screen_class, engine, args.callers, keys)
            print(f"| {name} | {cold:.1f} |")


if __name__ == "__main__":
    asyncio.run(main())
