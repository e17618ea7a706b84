"""Toy Patience's solver: a complete search of its few positions (door/games/solvers.py
asks it as it asks the built-in games' solvers: ``solve`` and ``best_line``)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .engine import Toy


@dataclass(frozen=True)
class Found:
    verdict: str  # "winnable", "unwinnable" or "unknown"
    nodes: int
    moves: list[str] | None = field(default=None)
    seconds: float = 0.0


def _position(game_or_position: Toy | dict[str, Any] | int) -> Toy:
    if isinstance(game_or_position, Toy):
        return game_or_position.copy()
    if isinstance(game_or_position, dict):
        return Toy.from_json(game_or_position)
    return Toy.new(game_or_position)


def _search(start: Toy, node_limit: int | None) -> tuple[list[str], int, bool]:
    """The line to the most cards home (a win when there is one), the nodes, and whether
    the search was complete."""
    best: list[str] = []
    best_home = start.home
    seen: set[str] = set()
    nodes = 0
    stack: list[tuple[Toy, list[str]]] = [(start, [])]
    while stack:
        game, line = stack.pop()
        key = game.position_key()
        if key in seen:
            continue
        seen.add(key)
        nodes += 1
        if game.home > best_home:
            best, best_home = line, game.home
        if game.home == 8:
            return line, nodes, True
        if node_limit is not None and nodes >= node_limit:
            return best, nodes, False
        for move in game.legal_moves():
            after = game.copy()
            after.play(move)
            stack.append((after, [*line, move]))
    return best, nodes, True


def solve(game_or_position: Toy | dict[str, Any] | int, *, node_limit: int | None = None,
          seconds: float | None = None) -> Found:
    start = time.process_time()
    game = _position(game_or_position)
    line, nodes, complete = _search(game, node_limit)
    game.actions = []
    won = _replays_to_win(game, line)
    verdict = "winnable" if won else "unwinnable" if complete else "unknown"
    return Found(verdict, nodes, line if won else None, time.process_time() - start)


def best_line(game_or_position: Toy | dict[str, Any] | int, *,
              seconds: float | None = None) -> Found:
    start = time.process_time()
    game = _position(game_or_position)
    line, nodes, _ = _search(game, None)
    verdict = "winnable" if _replays_to_win(game, line) else "unwinnable"
    return Found(verdict, nodes, line, time.process_time() - start)


def _replays_to_win(game: Toy, line: list[str]) -> bool:
    trial = game.copy()
    for move in line:
        trial.play(move)
    return trial.home == 8
