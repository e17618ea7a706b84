"""Perfect-information solver for Monte Carlo: can this position still be cleared?

The stock order is known to the solver (it is not to the player), so "winnable" is an upper
bound on what a player can do.  It powers "winnable deals only" and "this deal was / was not
winnable".

Search: depth-first over pair choices (and, in relaxed mode, over when to type ``c``).
Only ranks matter, so a position is ``grid`` (25 bytes, rank or 0 for a gap) plus the stock
index.  Between two consolidations the grid positions do not move, so a *phase* is explored
as a set of removed-position bitmasks: the order in which pairs are taken never matters, only
which were taken.  Each phase's distinct outcomes are searched most promising first, and
phase starts proven lost are memoised by (grid, stock index).
Consolidation is automatic when no pair is left (as in the engine), so a solution lists
``c`` only where the player must type it (relaxed mode, a pair still on the grid).
"""

from __future__ import annotations

import operator
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .montecarlo import (
    ADJACENT_PAIRS,
    CELLS,
    CLEAR_BONUS,
    CONSOLIDATE,
    MODES,
    MonteCarlo,
    pair_name,
)

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


class _OutOfTime(Exception):
    pass


Pair = tuple[int, int]
Parents = dict[int, tuple[int, int, int] | None]
"""Each set of emptied cells (a mask) and how it was reached: the set before, and the pair."""


class _Search:
    """One search over one stock; ``phase`` answers "can this phase start be cleared?"."""

    def __init__(self, stock: bytes, relaxed: bool) -> None:
        self.stock = stock
        self.relaxed = relaxed
        self.node_limit: int | None = None
        self.deadline: float | None = None
        self.fewest_first = True
        self.nodes = 0
        self.dead: set[bytes] = set()
        self.path: list[str | Pair] = []

    def phase(self, grid: bytes, sidx: int) -> bool:
        """Enumerate every set of pairs the phase can remove, collect the distinct positions
        the consolidations lead to, and search them most promising first (fewest cards left,
        then most pairs showing); a winning set ends the search at once."""
        key = grid + bytes((sidx,))
        if key in self.dead:
            return False
        occupied = sum(1 << p for p in range(CELLS) if grid[p])
        parent: Parents = {}
        successors: dict[bytes, tuple[int, int, int, bool, bytes]] = {}
        for mask, any_pair in self.phase_ends(grid, parent):
            after = self._consolidated(grid, sidx, mask, occupied & ~mask)
            if after is None:
                continue
            if after == b"":                      # nothing left anywhere: won
                self.path += _pairs_to(parent, mask)
                return True
            if after not in self.dead and after not in successors:
                cards_left = (occupied & ~mask).bit_count() + len(self.stock) - sidx
                successors[after] = (cards_left, -_count_pairs(after), mask, any_pair, after)
        order = sorted(successors.values(), key=_promise if self.fewest_first else _promise_most)
        for _, _, mask, typed, after in order:
            depth = len(self.path)
            self.path += _pairs_to(parent, mask)
            if typed:
                self.path.append(CONSOLIDATE)
            if self.phase(after[:CELLS], after[CELLS]):
                return True
            del self.path[depth:]
        self.dead.add(key)
        return False

    def phase_ends(self, grid: bytes, parent: Parents) -> Iterator[tuple[int, bool]]:
        """Every set of cells the phase's pairs can empty (a mask), once each, where the
        phase may end: with no pair left, or in relaxed mode anywhere (the bool: a pair is
        still showing).  ``parent`` is filled with the pair each mask was reached by.  Each
        set counts as a node against the node limit and the deadline."""
        pairs = [step for step, a, b in zip(_STEPS, _FIRST(grid), _SECOND(grid.translate(_GAP)),
                                            strict=True) if a == b]
        parent[0] = None
        todo = [0]
        while todo:
            mask = todo.pop()
            self.nodes += 1
            if self.node_limit is not None and self.nodes > self.node_limit:
                raise _LimitReached
            if self.deadline is not None and not self.nodes & 1023 and (
                    time.process_time() > self.deadline):
                raise _OutOfTime
            any_pair = False
            for p, q, bits in pairs:
                if not mask & bits:
                    any_pair = True
                    if mask | bits not in parent:
                        parent[mask | bits] = (mask, p, q)
                        todo.append(mask | bits)
            if any_pair and not self.relaxed:
                continue
            yield mask, any_pair

    def _consolidated(self, grid: bytes, sidx: int, mask: int, left: int) -> bytes | None:
        """The key (grid + stock index) after consolidating once the cells in ``mask`` were
        emptied (``left``: the cells still holding a card); ``b""`` if no card is left
        anywhere, None if consolidation would change nothing."""
        k = left.bit_count()
        stock_left = len(self.stock) - sidx
        if k == 0 and stock_left == 0:
            return b""
        if left == (1 << k) - 1 and (k == CELLS or stock_left == 0):
            return None
        take = min(CELLS - k, stock_left)
        cells = bytearray(grid)
        while mask:
            low = mask & -mask
            cells[low.bit_length() - 1] = 0
            mask ^= low
        cards = cells.replace(b"\0", b"") + self.stock[sidx:sidx + take]
        return bytes(cards + bytes(CELLS - len(cards)) + bytes((sidx + take,)))


def _pips(grid: bytes, mask: int) -> int:
    """The pips of the cards in the cells of ``mask`` (what removing them scores)."""
    total = 0
    while mask:
        low = mask & -mask
        total += grid[low.bit_length() - 1]
        mask ^= low
    return total


def _pairs_to(parent: dict[int, tuple[int, int, int] | None], mask: int) -> list[Pair]:
    """The pairs removed to reach ``mask`` in this phase, in playing order."""
    pairs = []
    while (step := parent[mask]) is not None:
        mask, p, q = step
        pairs.append((p, q))
    return pairs[::-1]


def _promise(successor: tuple[int, int, int, bool, bytes]) -> tuple[int, int]:
    """Sort key: fewest cards left, then most pairs showing (ties keep discovery order)."""
    return successor[0], successor[1]


def _promise_most(successor: tuple[int, int, int, bool, bytes]) -> tuple[int, int]:
    """The other order tried on restarts: most cards left (fewest pairs taken) first."""
    return -successor[0], successor[1]


def _count_pairs(grid: bytes) -> int:
    """Adjacent same-rank pairs showing (gaps read as 0 on one side, 255 on the other)."""
    return sum(map(operator.eq, _FIRST(grid), _SECOND(grid.translate(_GAP))))


# Adjacent pairs as (p, q, bitmask), and getters pulling both cells of all 72 pairs at once.
_STEPS = [(p, q, (1 << p) | (1 << q)) for p, q in ADJACENT_PAIRS]
_FIRST = operator.itemgetter(*(p for p, _ in ADJACENT_PAIRS))
_SECOND = operator.itemgetter(*(q for _, q in ADJACENT_PAIRS))
_GAP = bytes([255]) + bytes(range(1, 256))
"""Translation table: a gap (0) becomes 255, so two gaps never compare equal."""


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


def _restarts() -> Iterator[tuple[int | None, bool]]:
    """Node budgets for the restarts, alternating the two orders, then no budget.

    A winnable deal's search time is heavy-tailed: one order finds the win at once where the
    other wanders; lost phases stay memoised across restarts, so little work is repeated."""
    budget = 20_000
    for _ in range(4):
        yield budget, True
        yield budget, False
        budget *= 4
    yield None, True


def solve(game_or_position: MonteCarlo | dict[str, Any] | int, mode: str | None = None, *,
          node_limit: int | None = None, seconds: float | None = None) -> SolveResult:
    """Decide whether the position (a game, its JSON, or a game number) can be cleared.

    ``mode`` defaults to the game's own mode.  With ``node_limit`` the search gives up after
    that many nodes, with ``seconds`` after that much CPU time, and answers ``unknown``.
    """
    game, mode = _position(game_or_position, mode)
    grid = bytes(0 if c is None else c.rank for c in game.grid)
    search = _Search(bytes(c.rank for c in game.stock), mode == "relaxed")
    if seconds is not None:
        search.deadline = time.process_time() + seconds
    won = None
    for budget, fewest_first in _restarts():
        cap = None if budget is None else search.nodes + budget
        if node_limit is not None:
            cap = node_limit if cap is None else min(cap, node_limit)
        search.node_limit = cap
        search.fewest_first = fewest_first
        search.path.clear()
        try:
            won = search.phase(grid, 0)
            break
        except _LimitReached:
            if node_limit is not None and search.nodes > node_limit:
                return SolveResult(UNKNOWN, mode, search.nodes)
        except _OutOfTime:
            return SolveResult(UNKNOWN, mode, search.nodes)
    if not won:
        return SolveResult(UNWINNABLE, mode, search.nodes)
    moves = [m if isinstance(m, str) else pair_name(*m) for m in search.path]
    if moves and not game.pairs() and game.can_consolidate_change():
        moves.insert(0, CONSOLIDATE)   # a position left unconsolidated: the player types c
    return SolveResult(WINNABLE, mode, search.nodes, moves)


# -- the best score when no win is left (hints) ---------------------------------------------

@dataclass(frozen=True)
class BestLine:
    """The most points a position can still score (pips of the cards removed from here,
    with the clearing bonus) and a line that scores them; ``complete`` is False when the
    time ran out first (the line is then None)."""

    points: int
    moves: list[str] | None
    complete: bool


class _Best:
    """Every phase's best: the pips its pairs remove plus the best of the phase the
    consolidation leads to (a game over scores what it removed).  Memoised by phase start,
    as the search above; a phase is explored as the same set of removed-position masks."""

    def __init__(self, stock: bytes, relaxed: bool, deadline: float | None) -> None:
        self.stock = stock
        self.memo: dict[bytes, tuple[int, list[Pair], bool, bytes | None]] = {}
        self._search = _Search(stock, relaxed)
        self._search.deadline = deadline

    def value(self, grid: bytes, sidx: int) -> int:
        key = grid + bytes((sidx,))
        known = self.memo.get(key)
        if known is not None:
            return known[0]
        occupied = sum(1 << p for p in range(CELLS) if grid[p])
        parent: Parents = {}
        best: tuple[int, int, bool, bytes | None] = (-1, 0, False, None)
        ceiling = sum(grid) + sum(self.stock[sidx:]) + CLEAR_BONUS   # every card: a win
        for mask, any_pair in self._search.phase_ends(grid, parent):
            after = self._search._consolidated(grid, sidx, mask, occupied & ~mask)
            if after is None and any_pair:
                continue                      # relaxed: pairs are left, play goes on
            pips = _pips(grid, mask)
            if after is None:
                total = pips                  # the game is over here
            elif after == b"":
                total = pips + CLEAR_BONUS
            else:
                total = pips + self.value(after[:CELLS], after[CELLS])
            if total > best[0]:
                best = (total, mask, any_pair, after or None)
                if total >= ceiling:
                    break
        self.memo[key] = (best[0], _pairs_to(parent, best[1]), best[2], best[3])
        return best[0]

    def line(self, grid: bytes, sidx: int) -> list[str | Pair]:
        out: list[str | Pair] = []
        key: bytes | None = grid + bytes((sidx,))
        while key is not None:
            _, pairs, typed, after = self.memo[key]
            out += pairs
            if typed and after is not None:
                out.append(CONSOLIDATE)
            key = after
        return out


def best_line(game_or_position: MonteCarlo | dict[str, Any] | int, mode: str | None = None,
              *, seconds: float | None = None) -> BestLine:
    """The line to the best score from the position (the hint when no win is left).

    Exhaustive like :func:`solve`'s proof of a lost position, and about as long."""
    game, mode = _position(game_or_position, mode)
    grid = bytes(0 if c is None else c.rank for c in game.grid)
    best = _Best(bytes(c.rank for c in game.stock), mode == "relaxed",
                 None if seconds is None else time.process_time() + seconds)
    try:
        points = best.value(grid, 0)
    except _OutOfTime:
        return BestLine(0, None, False)
    moves = [m if isinstance(m, str) else pair_name(*m) for m in best.line(grid, 0)]
    if moves and not game.pairs() and game.can_consolidate_change():
        moves.insert(0, CONSOLIDATE)
    return BestLine(max(points, 0), moves, True)
