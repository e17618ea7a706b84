"""Following the hints: how many winnable deals the card games' hints win, and how long a
hint takes.

    nice -n 10 python bench/hints.py [--first 1] [--deals 300] [--budget 5] [--verdict 10]
                                     [--only montecarlo-strict auntmary mariant-2+1 …]
                                     [--pool] [--jobs N]

Per line (game and options), over deals first … first+deals−1:

* the deal's verdict, as the door asks it when play starts (``--verdict`` CPU seconds);
* for every deal proven winnable, the game played by its hints from the deal
  (``door.games.solvers.follow_hints``) two ways: **door** -- as the door gives them, the
  deal's winning line kept from its verdict, so the hints follow it and the solver is
  asked only off it; **cold** -- with no line known at the start, every line coming from
  the hints' own answers (``--budget`` CPU seconds each, sysop.ini ``hint_budget``);
* the hint latency, wall milliseconds from the key to the move shown: p50 / p95 over every
  hint of the door runs (most are a look-up on the line kept), and over the hints of the
  cold runs that had to ask the solver.  In this process by default (the solver's search
  plus the lines followed on the engine); ``--pool`` asks a real solver pool (one worker
  process at nice +10, as the door does), pipes and worker start included.

Prints one row per line with the machine's load average; ``--jobs N`` plays N deals at once
(separate processes; each line's figures are the same, the latencies longer on a busy
machine).  Never run by the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from door.catalog.registry import engine, solve
from door.games import Game
from door.games.hints import WIN, Lines
from door.games.solvers import WINNABLE, Verdict, follow_hints, percentile
from door.solvers.pool import SolverPool

LINES: dict[str, tuple[str, dict[str, Any]]] = {
    "montecarlo-strict": ("montecarlo", {"mode": "strict"}),
    "montecarlo-relaxed": ("montecarlo", {"mode": "relaxed"}),
    "auntmary": ("auntmary", {}),
    "mariant-2+1": ("mariant", {"fd": 2, "fu": 1}),
    "mariant-2+2": ("mariant", {"fd": 2, "fu": 2}),
}


class PoolAsker:
    """Hints asked of a real solver pool, run on an event loop in a thread of its own."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.pool = asyncio.run_coroutine_threadsafe(self._pool(), self.loop).result()

    async def _pool(self) -> SolverPool:
        return SolverPool(1, self.seconds)

    def __call__(self, game: Game) -> Verdict:
        job = self.pool.hint(game.name, game.number, dict(game.options),
                             position=game.to_json(), seconds=self.seconds)
        return asyncio.run_coroutine_threadsafe(job, self.loop).result()

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.pool.close(), self.loop).result()
        self.loop.call_soon_threadsafe(self.loop.stop)


_ASKER: PoolAsker | None = None


def one_deal(job: tuple[str, int, dict[str, Any], float, float, bool]) -> dict[str, Any]:
    """The deal's verdict, and, if winnable, its games played by the hints (door, cold)."""
    global _ASKER
    name, number, options, verdict_budget, budget, pool = job
    verdict = solve(name, number, options, seconds=verdict_budget)
    out: dict[str, Any] = {"number": number, "verdict": verdict.verdict}
    if verdict.verdict != WINNABLE or not verdict.line:
        return out
    deal = engine(name).new(number, **options)
    book = Lines()
    book.learn(deal, list(verdict.line), WIN)
    if pool and _ASKER is None:
        _ASKER = PoolAsker(budget)
    door = follow_hints(deal, budget, lines=book, ask=_ASKER)
    cold = follow_hints(deal, budget, ask=_ASKER)
    out.update(door=door.won, cold=cold.won, door_hints=door.asked + door.looked_up,
               asked=cold.asked, repeated=bool(door.repeated or cold.repeated),
               take_back=door.take_back or cold.take_back)
    return out


def ms(values: list[float]) -> str:
    """p50 and p95 in milliseconds."""
    if not values:
        return "       -        -"
    return f"{percentile(values, 0.5) * 1000:8.1f} {percentile(values, 0.95) * 1000:8.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--budget", type=float, default=5.0,
                        help="CPU seconds a hint may take (sysop.ini hint_budget)")
    parser.add_argument("--verdict", type=float, default=10.0,
                        help="CPU seconds of the deal's verdict (sysop.ini budget)")
    parser.add_argument("--only", nargs="+", choices=list(LINES), default=list(LINES))
    parser.add_argument("--pool", action="store_true",
                        help="ask the hints of a real solver pool (one worker)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    numbers = range(args.first, args.first + args.deals)
    where = "through a pool" if args.pool else "in process"
    print(f"deals {numbers.start} … {numbers.stop - 1}; hint budget {args.budget:g} s, "
          f"verdict budget {args.verdict:g} s; hints {where}; {args.jobs} job(s); "
          f"load average {os.getloadavg()[0]:.1f} at start")
    print(f"{'':19s} {'':8s} {'door: as the door hints':>35s}   {'cold: no line at first':>33s}")
    print(f"{'line':19s} {'winnable':>8s} {'won':>9s} {'hints':>6s} {'p50 ms':>8s} "
          f"{'p95 ms':>8s}   {'won':>9s} {'asked':>6s} {'p50 ms':>8s} {'p95 ms':>8s} "
          f"{'load':>5s}")
    for name in args.only:
        game, options = LINES[name]
        jobs = [(game, n, options, args.verdict, args.budget, args.pool) for n in numbers]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as workers:
                results = list(workers.map(one_deal, jobs))
        else:
            results = [one_deal(job) for job in jobs]
        played = [r for r in results if "door" in r]
        door_hints = [t for r in played for t in r["door_hints"]]
        asked = [t for r in played for t in r["asked"]]
        door = sum(r["door"] for r in played)
        cold = sum(r["cold"] for r in played)
        print(f"{name:19s} {len(played):8d} {door:4d}/{len(played):<4d} {len(door_hints):6d} "
              f"{ms(door_hints)}   {cold:4d}/{len(played):<4d} {len(asked):6d} {ms(asked)} "
              f"{os.getloadavg()[0]:5.1f}", flush=True)
        unknown = sum(r["verdict"] == "unknown" for r in results)
        lost = [r["number"] for r in played if not (r["door"] and r["cold"])]
        if unknown:
            print(f"  {unknown} deal(s) undecided by the verdict (not counted)")
        if lost:
            print(f"  not won by the hints: {lost[:20]}{' …' if len(lost) > 20 else ''}")
        if any(r["repeated"] or r["take_back"] for r in played):
            print("  a position came twice, or a take-back: a bug")
    if _ASKER is not None:
        _ASKER.close()


if __name__ == "__main__":
    main()
