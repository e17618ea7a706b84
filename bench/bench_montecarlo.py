"""Monte Carlo benchmark: engine speed, random playouts, and the solver table.

    python bench/bench_montecarlo.py [--deals 2000] [--start 1] [--playouts 2000]
                                     [--node-limit N] [--verify]

Prints moves/s and playouts/s of the engine, then for deals ``start`` … ``start+deals-1``
the share the perfect-information solver proves winnable in strict and relaxed mode, with
the time per deal (median, p95, max).  ``--verify`` replays every solution through the engine.
Times are CPU seconds of this process (the box is shared; wall time would measure the others).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from door.games.base import Status
from door.games.montecarlo import MonteCarlo
from door.games.montecarlo_solver import UNKNOWN, solve


def playouts(count: int, mode: str, policy: str) -> tuple[int, int, int, float]:
    """Play ``count`` deals to the end; returns (moves, wins, total score, seconds)."""
    rng = random.Random(12345)     # chooses moves only; deals come from game numbers
    moves = wins = score = 0
    start = time.process_time()
    for number in range(1, count + 1):
        game = MonteCarlo.new(number, mode=mode)
        while True:
            legal = game.hints() if policy == "first hint" else game.legal_moves()
            if not legal:
                break
            game.play(legal[0] if policy == "first hint" else rng.choice(legal))
            moves += 1
        wins += game.status is Status.WON
        score += game.score
    return moves, wins, score, time.process_time() - start


def percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, max(0, math.ceil(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


def solver_row(mode: str, numbers: range, node_limit: int | None, verify: bool) -> str:
    times, nodes, slow = [], [], []
    won = unknown = 0
    for number in numbers:
        t = time.process_time()
        result = solve(number, mode, node_limit=node_limit)
        times.append(time.process_time() - t)
        nodes.append(result.nodes)
        slow.append((times[-1], number, result.verdict))
        won += bool(result.winnable)
        unknown += result.verdict == UNKNOWN
        if verify and result.winnable:
            game = MonteCarlo.new(number, mode=mode)
            for move in result.moves or []:
                game.play(move)
            assert game.status is Status.WON, (number, mode)
    n = len(numbers)
    share = won / n
    margin = 1.96 * math.sqrt(share * (1 - share) / n)
    times.sort()
    ms = [1000 * x for x in (statistics.median(times), percentile(times, 0.95), times[-1])]
    slowest = ", ".join(f"{n} ({v}, {t:.1f}s)" for t, n, v in sorted(slow)[-3:][::-1])
    return (f"{mode:8} {won:6}/{n:<6} {100 * share:6.1f}% ±{100 * margin:4.1f}  {unknown:7}"
            f"  {ms[0]:8.2f} {ms[1]:8.2f} {ms[2]:8.1f}  {max(nodes):9}  {sum(times):7.1f}"
            f"\n{'':8} slowest: {slowest}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=2000)
    parser.add_argument("--node-limit", type=int, default=None)
    parser.add_argument("--verify", action="store_true")
    args = parser.parse_args()

    print(f"Monte Carlo engine: {args.playouts} playouts per line (deals 1..{args.playouts})")
    print(f"{'mode':8} {'policy':11} {'moves/s':>9} {'playouts/s':>10} {'won':>6} "
          f"{'mean score':>10}")
    for mode in ("strict", "relaxed"):
        for policy in ("random", "first hint"):
            moves, wins, score, secs = playouts(args.playouts, mode, policy)
            print(f"{mode:8} {policy:11} {moves / secs:9.0f} {args.playouts / secs:10.0f} "
                  f"{100 * wins / args.playouts:5.1f}% {score / args.playouts:10.1f}")

    numbers = range(args.start, args.start + args.deals)
    print()
    print(f"Solver (perfect information), deals {numbers.start}..{numbers.stop - 1}, "
          f"node limit {args.node_limit or 'none'}")
    print(f"{'mode':8} {'winnable':>13} {'share':>7} {'95%':>5}  {'unknown':>7}  {'median ms':>8} "
          f"{'p95 ms':>8} {'max ms':>8}  {'max nodes':>9}  {'total s':>7}")
    for mode in ("strict", "relaxed"):
        print(solver_row(mode, numbers, args.node_limit, args.verify))


if __name__ == "__main__":
    main()
