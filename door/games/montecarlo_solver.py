"""Perfect-information solver for Monte Carlo: can this position still be cleared?

The stock order is known to the solver (it is not to the player), so "winnable" is an upper
bound on what a player can do.  It powers "winnable deals only" and "this deal was / was not
winnable".

Search: depth-first over pair choices (and, in relaxed mode, over when to type ``c``).
Only ranks matter, so a position is ``grid`` (25 bytes, rank or 0 for a gap) plus the stock
index.  Between two consolidations the grid positions do not move, so a *phase* is explored
as a set of removed-position bitmasks: the order in which pairs are taken never matters, only
which were taken.  Phase starts that were proven lost are memoised by (grid, stock index).
Consolidation is automatic when no pair is left (as in the engine), so a solution lists
``c`` only where the player must type it (relaxed mode, a pair still on the grid).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .montecarlo import ADJACENT_PAIRS, CELLS, CONSOLIDATE, MODES, MonteCarlo, pair_name

WINNABLE = "winnable"
UNWINNABLE = "unwinnable"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class SolveResult:
    """``verdict`` is ``winnable``, ``unwinnable`` or ``unknown`` (node limit reached).
    ``moves`` is a winning move list from the position (engine notation) when winnable."""

    verdict: str
    mode: str
    nodes: int
    moves: list[str] | None = field(default=None)

    @property
    def winnable(self) -> bool | None:
        return {WINNABLE: True, UNWINNABLE: False}.get(self.verdict)


class _LimitReached(Exception):
    pass


class _Search:
    """One search over one stock; ``phase`` answers "can this phase start be cleared?"."""

    def __init__(self, stock: bytes, relaxed: bool, node_limit: int | None) -> None:
        self.stock = stock
        self.relaxed = relaxed
        self.node_limit = node_limit
        self.nodes = 0
        self.dead: set[bytes] = set()
        self.path: list[str | tuple[int, int]] = []

    def phase(self, grid: bytes, sidx: int) -> bool:
        key = grid + bytes((sidx,))
        if key in self.dead:
            return False
        pairs = [(p, q, (1 << p) | (1 << q)) for p, q in ADJACENT_PAIRS
                 if grid[p] and grid[p] == grid[q]]
        occupied = 0
        for p in range(CELLS):
            if grid[p]:
                occupied |= 1 << p
        if self._explore(grid, sidx, pairs, occupied, 0, set()):
            return True
        self.dead.add(key)
        return False

    def _explore(self, grid: bytes, sidx: int, pairs: list[tuple[int, int, int]],
                 occupied: int, mask: int, seen: set[int]) -> bool:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _LimitReached
        any_pair = False
        for p, q, bits in pairs:
            if mask & bits:
                continue
            any_pair = True
            after = mask | bits
            if after in seen:
                continue
            seen.add(after)
            self.path.append((p, q))
            if self._explore(grid, sidx, pairs, occupied, after, seen):
                return True
            self.path.pop()
        if any_pair and not self.relaxed:
            return False
        return self._consolidate(grid, sidx, occupied & ~mask, typed=any_pair)

    def _consolidate(self, grid: bytes, sidx: int, left: int, typed: bool) -> bool:
        """Consolidate the cards in ``left`` (a bitmask) and search the next phase."""
        k = left.bit_count()
        stock_left = len(self.stock) - sidx
        if k == 0 and stock_left == 0:
            return True
        if left == (1 << k) - 1 and (k == CELLS or stock_left == 0):
            return False   # consolidation would change nothing: dead end
        cards = bytes(grid[p] for p in range(CELLS) if left >> p & 1)
        take = min(CELLS - k, stock_left)
        new_grid = cards + self.stock[sidx:sidx + take]
        new_grid += bytes(CELLS - len(new_grid))
        if typed:
            self.path.append(CONSOLIDATE)
        if self.phase(new_grid, sidx + take):
            return True
        if typed:
            self.path.pop()
        return False


def _position(game_or_position: MonteCarlo | dict[str, Any] | int,
              mode: str | None) -> tuple[MonteCarlo, str]:
    if isinstance(game_or_position, MonteCarlo):
        game = game_or_position
    elif isinstance(game_or_position, dict):
        game = MonteCarlo.from_json(game_or_position)
    else:
        game = MonteCarlo.new(game_or_position, mode=mode or "strict")
    mode = mode or game.mode
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return game, mode


def solve(game_or_position: MonteCarlo | dict[str, Any] | int, mode: str | None = None, *,
          node_limit: int | None = None) -> SolveResult:
    """Decide whether the position (a game, its JSON, or a game number) can be cleared.

    ``mode`` defaults to the game's own mode.  With ``node_limit`` the search gives up after
    that many nodes and answers ``unknown``.
    """
    game, mode = _position(game_or_position, mode)
    grid = bytes(0 if c is None else c.rank for c in game.grid)
    search = _Search(bytes(c.rank for c in game.stock), mode == "relaxed", node_limit)
    try:
        won = search.phase(grid, 0)
    except _LimitReached:
        return SolveResult(UNKNOWN, mode, search.nodes)
    if not won:
        return SolveResult(UNWINNABLE, mode, search.nodes)
    moves = [m if isinstance(m, str) else pair_name(*m) for m in search.path]
    if moves and not game.pairs() and game.can_consolidate_change():
        moves.insert(0, CONSOLIDATE)   # a position left unconsolidated: the player types c
    return SolveResult(WINNABLE, mode, search.nodes, moves)
