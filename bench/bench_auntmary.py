"""Aunt Mary benchmark: legal moves, play+undo, hints, status (hopeless test), JSON, playouts.

    python bench/bench_auntmary.py [--playouts 300] [--seed 1] [--max-moves 300]

Positions are sampled (every 10th) from random playouts of deals 1, 2, 3 …: a playout picks
uniformly among the legal moves (``resign`` excluded) until none is left or ``--max-moves``
moves have been played.  The playout row includes a status check after every move, as the
UI does.  Never run by the test suite.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from door.games.auntmary import AuntMary, Position, is_hopeless
from door.games.base import Status


def playout(number: int, rng: random.Random, max_moves: int, with_status: bool) -> AuntMary:
    game = AuntMary.new(number)
    for _ in range(max_moves):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
        if with_status and (game.status != Status.PLAYING or game.hopeless):
            break  # what the screen asks after every move
    return game


def sample_positions(count: int, rng: random.Random, max_moves: int) -> list[Position]:
    positions: list[Position] = []
    for number in range(1, count + 1):
        game = AuntMary.new(number)
        for i in range(max_moves):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
            if i % 10 == 0:
                positions.append(game.position)
    return positions


def rate(label: str, unit: str, fn: Callable[[], int], rows: list[tuple[str, str, str]]) -> None:
    start = time.perf_counter()
    done = fn()
    seconds = time.perf_counter() - start
    rows.append((label, f"{done / seconds:>12,.0f}", unit))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    positions = sample_positions(max(20, args.playouts // 5), rng, args.max_moves)
    games = [AuntMary(1, p) for p in positions]
    rows: list[tuple[str, str, str]] = []

    def legal() -> int:
        n = 0
        for _ in range(5):
            for g in games:
                g.legal_moves()
                n += 1
        return n

    def play_undo() -> int:
        n = 0
        for p in positions:
            g = AuntMary(1, p)
            for move in g.legal_moves():
                g.play(move)
                g.undo()
                n += 1
        return n

    def hints() -> int:
        for g in games:
            g.hints()
        return len(games)

    def stuck() -> int:
        for p in positions:
            is_hopeless(p)
        return len(positions)

    def json_round_trip() -> int:
        for g in games:
            AuntMary.from_json(g.to_json())
        return len(games)

    moves_played = 0
    stuck_count = 0
    scores: list[int] = []

    def playouts(with_status: bool) -> Callable[[], int]:
        def run() -> int:
            nonlocal moves_played, stuck_count
            moves_played = 0
            for number in range(1, args.playouts + 1):
                g = playout(number, rng, args.max_moves, with_status)
                moves_played += len(g.actions)
                if with_status:
                    scores.append(g.score)
                    stuck_count += g.hopeless
            return args.playouts
        return run

    rate("legal-move generation", "calls/s", legal, rows)
    rate("play + undo", "pairs/s", play_undo, rows)
    rate("hints", "calls/s", hints, rows)
    rate("hopeless test (is_hopeless)", "positions/s", stuck, rows)
    rate("JSON round trip", "games/s", json_round_trip, rows)
    rate("random playouts, no status", "playouts/s", playouts(False), rows)
    plain_moves = moves_played
    rate("random playouts, status each move", "playouts/s", playouts(True), rows)

    sizes = [len(g.legal_moves()) for g in games]
    print(f"Aunt Mary benchmark: {len(positions)} sampled positions, {args.playouts} playouts "
          f"of at most {args.max_moves} moves, seed {args.seed}")
    print(f"legal moves per position: mean {statistics.mean(sizes):.1f}, max {max(sizes)}")
    print(f"moves per playout (no status): {plain_moves / args.playouts:.1f}; "
          f"with status: {moves_played / args.playouts:.1f}, ended hopeless (or stuck) "
          f"{stuck_count}/{args.playouts}, mean score {statistics.mean(scores):.1f}")
    print()
    print(f"{'operation':<36}{'rate':>12}  unit")
    print("-" * 62)
    for label, value, unit in rows:
        print(f"{label:<36}{value}  {unit}")


if __name__ == "__main__":
    main()
