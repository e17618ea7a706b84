"""Computer players for Anciento: the demo player, and a random and a greedy placer to compare.

The demo player sees only what the caller sees: the board, the current stone, the stones
still to come as a multiset (everything not on the board), and in Easy mode the next four
stones.  It never reads the pouch order.

How it judges a square (one ply): the placement's own points (in units of BONUS, so the
weights hold all game long), a large premium for a Quatro, plus a *board value* after the
placement summed over every empty square that touches a stone:

* ``f`` = how many stones still to come could legally go there (twins counted twice);
* ``f = 0``: the square is dead for good (constraints only grow) — a penalty, larger in the
  interior and for squares with more neighbours;
* an interior square with 4 neighbours and ``f > 0`` is a Quatro waiting: a premium rising
  with ``f`` (capped), likewise a smaller one for 3 neighbours (a Quatro in the making);
* every live square adds a little for mobility (``min(f, cap)``), so the game does not jam.

With a known next stone (Easy mode) it looks two plies ahead: for the best few squares of the
current stone it adds the best reply of the next stone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .anciento import BASE_POINTS, END, KINDS, Anciento, Geometry
from .numbers import lcg_outputs

EMPTY = -1


@dataclass(frozen=True)
class Weights:
    """The demo player's evaluation weights (tuned with ``bench/bench_anciento.py``)."""

    points: float = 1.0        # per immediate point, in units of BONUS
    quatro: float = 40.0       # extra for making a Quatro (BONUS doubles)
    hole4: float = 6.0         # per fitting stone (capped) of a live interior 4-neighbour hole
    hole3: float = 1.5         # same for a live interior 3-neighbour square
    cap: int = 4               # fitting stones counted at most
    mobility: float = 0.3      # per fitting stone (capped) of any live square
    dead: tuple[float, ...] = (0.0, 3.0, 6.0, 10.0, 16.0)   # dead interior square, by neighbours
    dead_edge: float = 2.0     # dead edge square (per neighbour)
    lookahead: int = 4         # squares of the current stone explored two plies deep


DEFAULT = Weights()

_masks: dict[tuple[int, ...], int] = {}


def _fits_kind(kind: int, around: tuple[int, ...]) -> bool:
    shape, pattern = divmod(kind, 6)
    a = b = 0
    for other in around:
        same_shape = other // 6 == shape
        same_pattern = other % 6 == pattern
        if not (same_shape or same_pattern):
            return False
        a += same_shape
        b += same_pattern
    n = len(around)
    if n == 1:
        return True
    if n == 4:
        return a >= 2 and b >= 2
    return a >= 1 and b >= 1


def fit_mask(around: tuple[int, ...]) -> int:
    """Bit k set when a stone of kind k fits next to these neighbour kinds (sorted tuple)."""
    mask = _masks.get(around)
    if mask is None:
        mask = 0
        for kind in range(KINDS):
            if _fits_kind(kind, around):
                mask |= 1 << kind
        _masks[around] = mask
    return mask


class View:
    """The caller's view of a game, as compact integers: board kinds and stones to come."""

    def __init__(self, game: Anciento) -> None:
        self.geo: Geometry = game.geo
        self.cells = [EMPTY if s is None else s.kind for s in game.board]
        self.quatros = game.quatros
        counts = [2] * KINDS
        for kind in self.cells:
            if kind != EMPTY:
                counts[kind] -= 1
        current = game.current
        self.current = EMPTY if current is None else current.kind
        if current is not None:
            counts[current.kind] -= 1
        self.counts = counts
        self.preview = [s.kind for s in game.next_stones()] if game.easy else []

    def masks(self) -> tuple[int, int]:
        """(kinds with at least one stone to come, kinds with two)."""
        one = two = 0
        for kind, count in enumerate(self.counts):
            if count >= 1:
                one |= 1 << kind
            if count >= 2:
                two |= 1 << kind
        return one, two


def _around(cells: list[int], geo: Geometry, square: int, extra: int = EMPTY) -> tuple[int, ...]:
    near = [cells[i] for i in geo.neighbours[square] if cells[i] != EMPTY]
    if extra != EMPTY:
        near.append(extra)
    return tuple(sorted(near))


def _value(around: tuple[int, ...], interior: bool, one: int, two: int, w: Weights) -> float:
    """Board value of one empty square touching stones (see the module docstring)."""
    mask = fit_mask(around)
    f = (mask & one).bit_count() + (mask & two).bit_count()
    n = len(around)
    if f == 0:
        return -w.dead[n] if interior else -w.dead_edge * n
    capped = min(f, w.cap)
    value = w.mobility * capped
    if interior:
        if n == 4:
            value += w.hole4 * capped
        elif n == 3:
            value += w.hole3 * capped
    return value


def _ply(cells: list[int], geo: Geometry, kind: int, one: int, two: int,
         w: Weights) -> list[tuple[float, int]]:
    """(value, square) for every legal square of a stone of ``kind``, best first."""
    values: dict[int, float] = {}
    candidates = []
    edge = geo.edge
    for square, around_sq in enumerate(geo.neighbours):
        if cells[square] != EMPTY:
            continue
        around = tuple(sorted(cells[i] for i in around_sq if cells[i] != EMPTY))
        if not around:
            continue
        values[square] = _value(around, not edge[square], one, two, w)
        if fit_mask(around) >> kind & 1:
            candidates.append((square, len(around)))
    total = sum(values.values())
    out = []
    for square, n in candidates:
        score = total - values[square]
        if not edge[square]:
            score += w.points * BASE_POINTS[n] + (w.quatro if n == 4 else 0.0)
        for near in geo.neighbours[square]:
            if cells[near] == EMPTY:
                score -= values.get(near, 0.0)
                score += _value(_around(cells, geo, near, kind), not edge[near], one, two, w)
        out.append((score, square))
    out.sort(key=lambda item: (-item[0], item[1]))
    return out


def _remove(one: int, two: int, kind: int) -> tuple[int, int]:
    """The masks after one stone of ``kind`` is taken from the stones to come."""
    bit = 1 << kind
    if two & bit:
        return one, two & ~bit
    return one & ~bit, two


def rank_squares(game: Anciento, weights: Weights = DEFAULT) -> list[int]:
    """The current stone's legal squares, best first, by the demo player's judgement."""
    view = View(game)
    if view.current == EMPTY or game.ended:
        return []
    one, two = view.masks()
    ranked = _ply(view.cells, view.geo, view.current, one, two, weights)
    if not view.preview or len(ranked) < 2:
        return [square for _, square in ranked]
    following = view.preview[0]
    one2, two2 = _remove(one, two, following)
    deep = []
    for value, square in ranked[:weights.lookahead]:
        view.cells[square] = view.current
        replies = _ply(view.cells, view.geo, following, one2, two2, weights)
        view.cells[square] = EMPTY
        own = value - _board_total(view, square, one, two, weights)
        best = replies[0][0] if replies else -sum(weights.dead)
        deep.append((own + best, square))
    deep.sort(key=lambda item: (-item[0], item[1]))
    rest = [square for _, square in ranked[weights.lookahead:]]
    return [square for _, square in deep] + rest


def _board_total(view: View, square: int, one: int, two: int, w: Weights) -> float:
    """Board value after placing the current stone on ``square`` (the reply re-counts it)."""
    cells = view.cells
    cells[square] = view.current
    total = 0.0
    geo = view.geo
    for sq, around_sq in enumerate(geo.neighbours):
        if cells[sq] == EMPTY:
            around = tuple(sorted(cells[i] for i in around_sq if cells[i] != EMPTY))
            if around:
                total += _value(around, not geo.edge[sq], one, two, w)
    cells[square] = EMPTY
    return total


# -- players: each takes a game and returns a move in notation --------------------------------

def choose_move(game: Anciento, weights: Weights = DEFAULT) -> str:
    """The demo player's move: its best square, or ``end`` when nothing can be placed."""
    ranked = rank_squares(game, weights)
    return game.square_name(ranked[0]) if ranked else END


def greedy_move(game: Anciento) -> str:
    """Most immediate points; ties go to the first square in row-major order."""
    best = max(game.check(), key=lambda item: item[1], default=None)
    return best[0] if best else END


class RandomPlacer:
    """Places each stone on a uniformly drawn legal square (its own LCG, so runs repeat)."""

    def __init__(self, seed: int = 1) -> None:
        self._outputs: Iterator[int] = lcg_outputs(seed)

    def __call__(self, game: Anciento) -> str:
        squares = game.legal_squares()
        if not squares:
            return END
        draw = next(self._outputs) << 15 | next(self._outputs)
        return game.square_name(squares[draw % len(squares)])


def play_out(game: Anciento, player: Callable[[Anciento], str]) -> Anciento:
    """Let ``player`` place stones until nothing can be placed, then end the game."""
    while not game.ended:
        game.play(player(game) if not game.is_over else END)
    return game
