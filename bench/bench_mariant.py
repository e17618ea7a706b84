"""Mariant benchmark: legal-move generation, play+undo, random playouts, Auto Ending, JSON.

    python bench/bench_mariant.py [--playouts 300] [--seed 1]

Positions are gathered from random playouts of the default 2+1 setup (deals 1, 2, 3 …);
the "heavy" row is an Auto Ending board (eight K..A groups and two empty columns, about
250 legal moves), the largest move list a real game reaches.  Runs in well under 30 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from door.games.mariant import Mariant

MAX_ACTIONS = 400
RANKS = "KQJT98765432A"


def random_action(game: Mariant, rng: random.Random) -> str | None:
    """A random legal move, dealing only a quarter of the time when something else exists."""
    moves = game.legal_moves()
    if not moves:
        return None
    others = [m for m in moves if m != "d"]
    if others and rng.random() < 0.75:
        moves = others
    return rng.choice(moves)


def playout(number: int, rng: random.Random) -> Mariant:
    game = Mariant.new(number)
    for _ in range(MAX_ACTIONS):
        if game.won:
            break
        move = random_action(game, rng)
        if move is None:
            break
        game.play(move)
    return game


def sample_positions(count: int, rng: random.Random) -> list[Mariant]:
    """Positions taken at random points of random playouts."""
    out = []
    number = 1
    while len(out) < count:
        game = Mariant.new(number)
        stop = rng.randrange(0, 120)
        for _ in range(stop):
            move = random_action(game, rng)
            if move is None or game.won:
                break
            game.play(move)
        out.append(game)
        number += 1
    return out


def auto_board() -> Mariant:
    """Eight mixed K..A groups (S/H and D/C alternating) and two empty columns."""
    def chain(a: str, b: str) -> list[str]:
        return [r + (a if i % 2 == 0 else b) for i, r in enumerate(RANKS)]
    groups = [chain("S", "H"), chain("S", "H"), chain("H", "S"), chain("H", "S"),
              chain("D", "C"), chain("D", "C"), chain("C", "D"), chain("C", "D")]
    columns = [{"down": [], "up": g} for g in groups] + [{"down": [], "up": []}] * 2
    return Mariant.from_json({"game": "mariant", "number": 1, "options": {"fd": 2, "fu": 1},
                              "columns": columns, "stock": [], "removed": []})


def time_legal_moves(positions: list[Mariant], repeat: int) -> tuple[float, float, float, float]:
    """Per-call microseconds: mean, median, p95, max (each position timed ``repeat`` times)."""
    per_call = []
    for game in positions:
        t = time.perf_counter()
        for _ in range(repeat):
            game.legal_moves()
        per_call.append((time.perf_counter() - t) / repeat * 1e6)
    per_call.sort()
    p95 = per_call[min(len(per_call) - 1, int(0.95 * len(per_call)))]
    return statistics.mean(per_call), statistics.median(per_call), p95, per_call[-1]


def time_play_undo(positions: list[Mariant]) -> tuple[int, float]:
    """Play then undo every legal move of every position; returns (pairs, seconds)."""
    games = [g.copy() for g in positions]
    pairs = 0
    t = time.perf_counter()
    for game in games:
        for move in game.legal_moves():
            game.play(move)
            game.undo()
            pairs += 1
    return pairs, time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1, help="seeds the move choices only")
    args = parser.parse_args()
    rng = random.Random(args.seed)     # chooses moves only; deals come from game numbers

    positions = sample_positions(400, rng)
    sizes = [len(g.legal_moves()) for g in positions]
    heavy = auto_board()
    rows = []

    mean, median, p95, worst = time_legal_moves(positions, 50)
    rows.append(("legal_moves, sampled positions (µs/call)",
                 f"mean {mean:.1f}  median {median:.1f}  p95 {p95:.1f}  max {worst:.1f}"))
    rows.append(("  moves per sampled position",
                 f"mean {statistics.mean(sizes):.1f}  max {max(sizes)}"))
    mean, *_ = time_legal_moves([heavy], 2000)
    rows.append((f"legal_moves, Auto Ending board ({len(heavy.legal_moves())} moves)",
                 f"{mean:.1f} µs/call"))

    pairs, secs = time_play_undo(positions)
    rows.append(("play+undo", f"{pairs / secs:,.0f} pairs/s  ({pairs} pairs)"))

    t = time.perf_counter()
    games = [playout(n, rng) for n in range(1, args.playouts + 1)]
    secs = time.perf_counter() - t
    actions = sum(len(g.actions) for g in games)
    rows.append(("random playouts (2+1, ≤400 actions)",
                 f"{len(games) / secs:,.1f} playouts/s  {actions / secs:,.0f} actions/s"))
    rows.append(("  ended stuck / won / cut at 400",
                 f"{sum(g.stuck for g in games)} / {sum(g.won for g in games)} / "
                 f"{sum(len(g.actions) >= MAX_ACTIONS for g in games)}"))

    n = 300
    t = time.perf_counter()
    for _ in range(n):
        board = heavy.copy()
        board.auto_end()
    secs = time.perf_counter() - t
    rows.append(("Auto Ending (plan + play)",
                 f"{n / secs:,.0f} per s  {board.auto_moves} computer moves"))

    data = [g.to_json() for g in positions]
    t = time.perf_counter()
    for d in data:
        Mariant.from_json(d).to_json()
    secs = time.perf_counter() - t
    rows.append(("JSON from_json + to_json", f"{len(data) / secs:,.0f} round trips/s"))

    width = max(len(r[0]) for r in rows)
    print("Mariant engine benchmark")
    print("-" * (width + 44))
    for label, value in rows:
        print(f"{label:<{width}}  {value}")


if __name__ == "__main__":
    main()
