"""Time to answer "still winnable?": wall seconds from the question to the answer, through the
door's own solver pool (worker processes, niceness +10), as a caller waits for it.

    nice -n 19 python bench/still_winnable.py [--deals 20] [--moves 0 5 15] [--budget 10]
                                              [--workers 1] [--only montecarlo auntmary]

Positions: deals 1..N of each game (Monte Carlo strict, Aunt Mary), after 0, 5, 15 ... moves
chosen the same way every run (the first hint, else the first legal move).  Prints, per
game and number of moves, the verdicts and the median / p95 / max seconds, with the
machine's load average.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections import Counter
from typing import Any

from door.catalog.registry import engine
from door.games import Game
from door.games.solvers import percentile
from door.solvers.pool import SolverPool

OPTIONS: dict[str, dict[str, Any]] = {"montecarlo": {"mode": "strict"}, "auntmary": {}}


def position(game_name: str, number: int, moves: int) -> Game | None:
    """Deal ``number`` after ``moves`` moves (None if the game ended before)."""
    game = engine(game_name).new(number, **OPTIONS[game_name])
    for _ in range(moves):
        if game.status.value in ("won", "lost"):
            return None
        choices = game.hints() or game.legal_moves()
        if not choices:
            return None
        game.play(choices[0])
    return game


async def run(args: argparse.Namespace) -> None:
    pool = SolverPool(args.workers, args.budget)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{args.workers} worker(s), budget {args.budget:g} s")
    try:
        for game_name in args.only:
            for moves in args.moves:
                times: list[float] = []
                verdicts: Counter[str] = Counter()
                for number in range(1, args.deals + 1):
                    game = position(game_name, number, moves)
                    if game is None:
                        continue
                    start = time.monotonic()
                    verdict = await pool.solve(game_name, number, position=game.to_json())
                    times.append(time.monotonic() - start)
                    verdicts[verdict.verdict] += 1
                load = os.getloadavg()[0]
                print(f"{game_name:<10} after {moves:>2} moves: {len(times):>3} positions "
                      f"({dict(verdicts)}); seconds median {percentile(times, 0.5):.3f} "
                      f"p95 {percentile(times, 0.95):.3f} max {max(times, default=0):.3f}; "
                      f"load {load:.2f}")
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--moves", type=int, nargs="+", default=[0, 5, 15])
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", nargs="+", choices=list(OPTIONS), default=list(OPTIONS))
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
