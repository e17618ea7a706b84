"""The solvers on a stated range of deals: decided share, winnable share with its 95 % CI,
median / p95 / max CPU seconds per deal, per game and option.

    python bench/solvers.py [--first 1] [--deals 200] [--budget S] [--jobs N]
                            [--only montecarlo-strict auntmary mariant-2+1 …]

Lines: Monte Carlo strict and relaxed, Aunt Mary, Mariant at setups 2+1 (the default),
2+2, 3+2 and 2+4.  Every winning line is replayed through its engine (a line that does not win
would be a bug; the count is printed).  Times are CPU seconds of the solving process; the
machine's load average is printed beside them.  The figures of docs/solvability.md come
from ``reussite solve GAME --range 1-10000`` (same code, longer).  Never run by the tests.
"""

from __future__ import annotations

import argparse
import os
import sys
from multiprocessing import get_context
from typing import Any

from door.catalog.registry import engine, solve
from door.compiled import build_name
from door.games import IllegalMove, Status
from door.games.solvers import Verdict, summarize

LINES: dict[str, tuple[str, dict[str, Any]]] = {
    "montecarlo-strict": ("montecarlo", {"mode": "strict"}),
    "montecarlo-relaxed": ("montecarlo", {"mode": "relaxed"}),
    "auntmary": ("auntmary", {}),
    "mariant-2+1": ("mariant", {"fd": 2, "fu": 1}),
    "mariant-2+2": ("mariant", {"fd": 2, "fu": 2}),
    "mariant-3+2": ("mariant", {"fd": 3, "fu": 2}),
    "mariant-2+4": ("mariant", {"fd": 2, "fu": 4}),
}
BUDGET = {"montecarlo": 10.0, "auntmary": 30.0, "mariant": 10.0}


def _one(job: tuple[str, int, dict[str, Any], float]) -> tuple[dict[str, Any], bool]:
    """Solve one deal; with a winning line, check it wins through the engine."""
    game, number, options, budget = job
    verdict = solve(game, number, options, seconds=budget)
    replays = True
    if verdict.line is not None:
        played = engine(game).new(number, **options)
        try:
            for move in verdict.line:
                played.play(move)
        except IllegalMove:
            replays = False
        replays = replays and played.status is Status.WON
    return verdict.to_json(), replays


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--budget", type=float, help="CPU seconds per deal (default per game: "
                        + ", ".join(f"{g} {b:g}" for g, b in BUDGET.items()) + ")")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", nargs="+", choices=list(LINES), default=list(LINES))
    args = parser.parse_args(argv)
    numbers = range(args.first, args.first + args.deals)
    print(f"deals {numbers.start} … {numbers.stop - 1}, {args.jobs} job(s); "
          f"load average {os.getloadavg()[0]:.1f} at start; {build_name()}")
    print(f"{'line':20s} {'decided':>8s} {'winnable':>9s} {'95 % CI':>16s} {'median s':>9s}"
          f" {'p95 s':>7s} {'max s':>7s} {'lines ok':>9s} {'load':>5s}")
    for name in args.only:
        game, options = LINES[name]
        budget = args.budget if args.budget is not None else BUDGET[game]
        jobs = [(game, n, options, budget) for n in numbers]
        if args.jobs > 1:
            with get_context("spawn").Pool(args.jobs) as pool:
                results = pool.map(_one, jobs)
        else:
            results = [_one(job) for job in jobs]
        verdicts = [Verdict.from_json(data) for data, _ in results]
        bad = sum(not ok for _, ok in results)
        summary = summarize(verdicts)
        share, low, high = summary.share()
        print(f"{name:20s} {summary.decided / summary.deals:8.1%} {share:9.2%}"
              f" {low:7.2%}–{high:7.2%} {summary.median_seconds:9.3f}"
              f" {summary.p95_seconds:7.3f} {summary.max_seconds:7.2f}"
              f" {summary.winnable - bad:5d}/{summary.winnable:<3d} {os.getloadavg()[0]:5.1f}",
              flush=True)
        if bad:
            print(f"  {bad} winning line(s) did not replay to a win: a bug", file=sys.stderr)


if __name__ == "__main__":
    main()
