"""Anciento benchmark: the demo player against a random and a greedy placer, and engine speed.

    python bench/bench_anciento.py [--games 200] [--first 1] [--board 8x12] [--players ...]
                                   [--jobs N] [--log FILE [--summary]]

Default players: search (the search player: Hint and Demo), demo (the demo player, normal
mode), demo-fast (one ply), greedy, random; add ``demo-easy`` / ``search-easy`` (Easy mode,
seeing the next four stones) with ``--players``.  The issue's comparison is
``--games 1000 --players search demo``: about 45 CPU minutes (search 30 ms, demo 6.5 ms a
move on a loaded machine), so give it ``--jobs`` and a ``--log`` to take it up again.

For each player, over numbered games ``first`` … ``first + games - 1``: final score and stones
placed (mean, min, median, p90, max), the mean score's 95 % confidence interval (and that
of the first player's lead over each other, game by game), Quatros,
games with all 72 stones placed (with the share's 95 % Wilson interval), and time per move:
CPU milliseconds (what the player costs) and wall milliseconds (what a caller would wait on
this machine, at the load printed beside it).  ``--jobs N`` plays the games in N processes.
Then the engine alone: placements per second and legal-square generations per second.
Never run by the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from door.games.anciento import Anciento
from door.games.anciento_demo import RandomPlacer, choose_move, fast_move, greedy_move
from door.games.anciento_player import search_move
from door.games.solvers import wilson

Player = Callable[[Anciento], str]


@dataclass
class Tally:
    scores: list[int] = field(default_factory=list)
    placed: list[int] = field(default_factory=list)
    quatros: list[int] = field(default_factory=list)
    moves: int = 0
    seconds: float = 0.0
    cpu: float = 0.0

    @classmethod
    def of(cls, game: dict[str, Any]) -> Tally:
        return cls([game["score"]], [game["placed"]], [game["quatros"]], game["moves"],
                   game["seconds"], game["cpu"])

    def add(self, other: Tally) -> None:
        self.scores += other.scores
        self.placed += other.placed
        self.quatros += other.quatros
        self.moves += other.moves
        self.seconds += other.seconds
        self.cpu += other.cpu


def players(names: list[str]) -> dict[str, tuple[Player, bool]]:
    """name -> (player, easy mode)."""
    known: dict[str, tuple[Player, bool]] = {
        "search": (search_move, False),
        "search-easy": (search_move, True),
        "demo": (choose_move, False),
        "demo-easy": (choose_move, True),
        "demo-fast": (fast_move, False),
        "greedy": (greedy_move, False),
        "random": (RandomPlacer(2026), False),
    }
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit(f"unknown players {unknown}; known: {', '.join(known)}")
    return {n: known[n] for n in names}


def play(number: int, board: str, player: Player, easy: bool, tally: Tally) -> None:
    tally.add(Tally.of(play_game(number, board, player, easy)))


def play_game(number: int, board: str, player: Player, easy: bool) -> dict[str, Any]:
    """One game to its end: what the tallies and the log keep of it."""
    game = Anciento.new(number, board=board, easy=easy)
    start, cpu = time.perf_counter(), time.process_time()
    moves = 0
    while not game.is_over:
        game.play(player(game))
        moves += 1
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    game.end()
    return {"number": number, "score": game.score, "placed": game.placed,
            "quatros": game.quatros, "moves": moves, "seconds": seconds, "cpu": cpu}


def play_job(job: tuple[str, int, str]) -> dict[str, Any]:
    """One game of one player, in a worker process: (player, number, board)."""
    name, number, board = job
    player, easy = players([name])[name]
    return {"player": name, "board": board, **play_game(number, board, player, easy)}


def play_all(names: list[str], numbers: range, board: str, jobs: int,
             log: Path | None) -> dict[str, Tally]:
    """Every game of every player, in ``jobs`` processes, game numbers in order (both
    players of a number together, so that a run stopped early covers the same games for
    each).  With ``log``, each game is appended to it as a JSON line when done, and games
    already there are not played again (a run can be stopped and taken up again)."""
    done = read_log(log, board) if log else {}
    todo = [(name, n, board) for n in numbers for name in names if (name, n) not in done]
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(log, "a", encoding="utf-8")) if log else None
        if jobs == 1:
            results: Iterator[dict[str, Any]] = map(play_job, todo)
        else:
            results = stack.enter_context(get_context("spawn").Pool(jobs)).imap(play_job, todo)
        for result in results:
            done[(result["player"], result["number"])] = result
            if out:
                out.write(json.dumps(result) + "\n")
                out.flush()
    return tallies(done, names, numbers)


def read_log(log: Path, board: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The games of a log (``--log``) on ``board``, by (player, number)."""
    found: dict[tuple[str, int], dict[str, Any]] = {}
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            if line.strip():
                result = json.loads(line)
                if result["board"] == board:
                    found[(result["player"], result["number"])] = result
    return found


def tallies(done: dict[tuple[str, int], dict[str, Any]], names: list[str],
            numbers: range) -> dict[str, Tally]:
    """Each player's tally over the numbers every player has finished."""
    common = [n for n in numbers if all((name, n) in done for name in names)]
    out = {}
    for name in names:
        tally = out[name] = Tally()
        for n in common:
            tally.add(Tally.of(done[(name, n)]))
    return out


def mean_ci(values: list[int]) -> str:
    """The mean with its 95 % confidence interval (normal approximation)."""
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return f"{mean:.1f} ± {half:.1f}"


def spread(values: list[int]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"{statistics.mean(ordered):8.1f} {ordered[0]:6d} {statistics.median(ordered):7.0f}"
            f" {p90:6d} {ordered[-1]:6d}")


def engine_speed(first: int, games: int, board: str) -> tuple[float, float]:
    """(placements per second, legal-square generations per second) on random games."""
    scripts = []
    placer = RandomPlacer(99)
    for number in range(first, first + games):
        game = Anciento.new(number, board=board)
        while not game.is_over:
            game.play(placer(game))
        scripts.append((number, list(game.actions)))
    start = time.perf_counter()
    placements = 0
    for number, actions in scripts:
        game = Anciento.new(number, board=board)
        for move in actions:
            game.play(move)
        placements += len(actions)
    place_rate = placements / (time.perf_counter() - start)
    start = time.perf_counter()
    generations = 0
    for number, actions in scripts:
        game = Anciento.new(number, board=board)
        for move in actions:
            game.legal_squares()
            game.play(move)
            generations += 1
    gen_rate = generations / (time.perf_counter() - start - generations / place_rate)
    return place_rate, gen_rate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=1, help="first game number")
    parser.add_argument("--board", default="8x12", choices=("8x12", "8x8"))
    parser.add_argument("--players", nargs="+",
                        default=["search", "demo", "demo-fast", "greedy", "random"],
                        help="search, search-easy, demo, demo-easy (Easy mode), demo-fast, "
                             "greedy, random")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in")
    parser.add_argument("--log", type=Path, help="append each game to this file (JSON "
                        "lines); games already in it are not played again")
    parser.add_argument("--summary", action="store_true",
                        help="play nothing: the figures of the games in --log")
    args = parser.parse_args(argv)
    if not 1 <= args.first <= args.first + args.games - 1 <= 32000:
        sys.exit("games must lie in 1 … 32000")
    if args.jobs < 1:
        sys.exit("--jobs must be at least 1")
    if args.summary and not args.log:
        sys.exit("--summary reads --log FILE")
    chosen = players(args.players)
    numbers = range(args.first, args.first + args.games)
    started = time.monotonic()
    print(f"Anciento, board {args.board}, games {numbers.start} … {numbers.stop - 1},"
          f" {args.jobs} process(es) (load average {os.getloadavg()[0]:.1f}: wall ms/move"
          f" grow with it)", flush=True)
    if args.summary:
        results = tallies(read_log(args.log, args.board), list(chosen), numbers)
    else:
        results = play_all(list(chosen), numbers, args.board, args.jobs, args.log)
    counted = len(next(iter(results.values())).scores)
    if counted < len(numbers):
        print(f"{counted} of the {len(numbers)} games finished by every player: the figures "
              "are theirs")
    if not counted:
        return
    print()
    print(f"{'player':10s} | {'final score: mean':>17s} {'min':>6s} {'median':>7s} {'p90':>6s}"
          f" {'max':>6s} | {'stones placed: mean':>19s} {'min':>6s} {'median':>7s} {'p90':>6s}"
          f" {'max':>6s} | {'Quatros':>7s} | {'all 72':>6s} | {'ms/move':>7s}")
    for name, tally in results.items():
        all_placed = sum(1 for p in tally.placed if p == 72)
        print(f"{name:10s} | {spread(tally.scores):>45s} | {spread(tally.placed):>47s} |"
              f" {statistics.mean(tally.quatros):7.2f} | {all_placed:6d} |"
              f" {1000 * tally.seconds / max(1, tally.moves):7.2f}")
    print()
    print(f"{'player':10s} | {'mean score, 95 % CI':>20s} | {'all 72 placed, 95 % CI':>28s} |"
          f" {'CPU ms/move':>11s} | {'wall ms/move':>12s} | {'moves':>7s}")
    for name, tally in results.items():
        n = len(tally.placed)
        won = sum(1 for p in tally.placed if p == 72)
        low, high = wilson(won, n)
        print(f"{name:10s} | {mean_ci(tally.scores):>20s} |"
              f" {f'{won}/{n} = {won / n:.1%} ({low:.1%}–{high:.1%})':>28s} |"
              f" {1000 * tally.cpu / max(1, tally.moves):11.2f} |"
              f" {1000 * tally.seconds / max(1, tally.moves):12.2f} | {tally.moves:7d}")
    first, *others = results.items()
    for name, tally in others:          # the same games: the paired difference is sharper
        gaps = [a - b for a, b in zip(first[1].scores, tally.scores, strict=True)]
        print(f"{first[0]} - {name}, game by game: {mean_ci(gaps)} points")
    print(f"\nwall time {(time.monotonic() - started) / 60:.1f} min, load average now "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    if args.summary:
        return
    place_rate, gen_rate = engine_speed(args.first, min(args.games, 100), args.board)
    print()
    print(f"engine: {place_rate:,.0f} placements/s (play() with legality check and scoring), "
          f"{gen_rate:,.0f} legal-square lists/s (legal_squares() for the current stone)")


if __name__ == "__main__":
    main()
