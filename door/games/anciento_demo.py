"""Computer players for Anciento: the demo player, and a random and a greedy placer to compare.

The demo player sees only what the caller sees: the board, the current stone, the stones
still to come as a multiset (everything not on the board), and in Easy mode the next four
stones.  It never reads the pouch order.

How it judges a placement: the placement's own points in units of BONUS (so the weights hold
all game long), a premium for a Quatro, plus a *board value* after the placement, summed over
every empty square that touches a stone.  For such a square let ``f`` be how many stones
still to come could legally go there (twins counted twice):

* ``f = 0``: the square is dead for good (constraints only grow): a penalty, larger in the
  interior and for squares with more neighbours;
* an interior square with 4 neighbours and ``f > 0`` is a Quatro waiting: a large premium;
* an interior square with 3 neighbours is a *pocket*: a premium per stone to come that could
  go on its 4th side and still leave a stone to come that makes the Quatro (half as much
  when that 4th side touches no stone yet, so nothing can go there now);
* every live square adds a little for mobility, so the game does not jam;
* every stone still to come that fits no square touching the board costs a lot: when it is
  drawn the game is over.

Search: one ply over every legal square, then the best four squares deeper.  Without Easy
mode: one more ply averaged over the kinds of stones still to come, weighted by how many of
each are left (expectimax); that reply ply values the board with the stones to come *before*
the reply stone is taken out, a small approximation that lets all replies share one scan of
the board.  In Easy mode: a beam search (two squares per stone) through the next three shown
stones, each board valued without the stones already placed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from .anciento_rules import BASE_POINTS, END, KINDS, Geometry, PlayerView
from .numbers import lcg_outputs

EMPTY = -1
ALL_KINDS = (1 << KINDS) - 1
_SHIFT = tuple(1 << (3 * kind) for kind in range(KINDS))
"""A multiset of neighbour kinds is the sum of these: 3 bits per kind, order-free."""


@dataclass(frozen=True)
class Weights:
    """The demo player's evaluation weights (tuned with ``bench/bench_anciento.py``)."""

    points: float = 0.5        # per immediate point, in units of BONUS
    quatro: float = 40.0       # extra for making a Quatro (BONUS doubles)
    hole4: float = 40.0        # per fitting stone (capped) of a live interior 4-neighbour hole
    hole3: float = 3.0         # per stone (capped) that can turn a pocket into a live hole
    cap: int = 2               # stones counted at most per square
    mobility: float = 0.6      # per fitting stone (capped) of any live square
    dead: tuple[float, ...] = (0.0, 1.0, 2.0, 4.0, 8.0)   # dead interior square, by neighbours
    dead_edge: float = 2.0     # dead edge square, per neighbour
    lookahead: int = 4         # squares of the current stone searched one ply deeper
    expect: bool = True        # without a shown next stone, average over the stones to come
    stuck: float = 30.0        # value of a reply stone that has no square at all
    shown: int = 3             # Easy mode: shown stones searched after the current one
    beam: int = 2              # Easy mode: squares tried per shown stone
    trust: float = 1.0         # Easy mode: weight of the shown line against the expectimax
    orphan: float = 40.0       # per stone to come that fits no square touching the board
    open_side: float = 0.5     # share of a pocket counted when its 4th side touches nothing
    edge: float = 0.0          # extra for a placement on an edge square


DEFAULT = Weights()
FAST = Weights(expect=False)
"""One ply only (Easy mode still searches the shown stones): about 20 times faster."""


def _fits_kind(kind: int, around: list[int]) -> bool:
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


class _FitMasks(dict[int, int]):
    """neighbour multiset -> fit mask, worked out on first use (a subscript, no call)."""

    def __missing__(self, key: int) -> int:
        around = [kind for kind in range(KINDS) for _ in range(key >> (3 * kind) & 7)]
        mask = 0
        if around:
            for kind in range(KINDS):
                if _fits_kind(kind, around):
                    mask |= 1 << kind
        self[key] = mask
        return mask


_MASKS = _FitMasks()


def fit_mask(key: int) -> int:
    """Bit k set when a stone of kind k fits next to the neighbour multiset ``key``."""
    return _MASKS[key]


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class View:
    """The caller's view of a game, as compact integers: board kinds and stones to come."""

    def __init__(self, game: PlayerView) -> None:
        self.geo: Geometry = game.geo
        self.board = _Board(game.geo, [EMPTY if s is None else s.kind for s in game.board])
        counts = [2] * KINDS
        for kind in self.board.cells:
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


class _Board:
    """Board kinds plus, per square, its neighbour multiset, count and fit mask, kept up to
    date."""

    def __init__(self, geo: Geometry, cells: list[int]) -> None:
        self.neighbours = geo.neighbours
        self.cells = [EMPTY] * geo.size
        self.keys = [0] * geo.size
        self.ns = [0] * geo.size
        self.masks = [0] * geo.size
        for square, kind in enumerate(cells):
            if kind != EMPTY:
                self.place(square, kind)

    def place(self, square: int, kind: int) -> None:
        self.cells[square] = kind
        shift = _SHIFT[kind]
        keys, ns, masks = self.keys, self.ns, self.masks
        for near in self.neighbours[square]:
            key = keys[near] + shift
            keys[near] = key
            ns[near] += 1
            masks[near] = _MASKS[key]

    def lift(self, square: int) -> None:
        shift = _SHIFT[self.cells[square]]
        self.cells[square] = EMPTY
        keys, ns, masks = self.keys, self.ns, self.masks
        for near in self.neighbours[square]:
            key = keys[near] - shift
            keys[near] = key
            ns[near] -= 1
            masks[near] = _MASKS[key]


class Scan(NamedTuple):
    """One look at a board: what :meth:`_Judge.ply` needs to value every placement on it."""

    values: list[float]             # value of each empty square (0 when it touches nothing)
    raw: float                      # sum of the values
    total: float                    # board value: raw minus the orphan penalty
    frontier: list[int]             # empty squares touching a stone
    cover: list[int]                # per kind, how many frontier squares it fits
    orphans: int                    # kinds of stones to come that fit no frontier square
    fragile: int                    # kinds of stones to come that fit at most 5 squares


JUDGES_KEPT = 512
"""Judges (with their square values) remembered between searches; then all are forgotten."""
_JUDGES: dict[tuple[int, int, int, int, Weights], _Judge] = {}


def judge_for(geo: Geometry, one: int, two: int, w: Weights) -> _Judge:
    """The judge of a multiset of stones to come, shared: a search asks for the same few
    dozen again and again (every square it tries, and the next move), and each one keeps the
    values of the squares it has judged."""
    key = (geo.rows, geo.cols, one, two, w)
    judge = _JUDGES.get(key)
    if judge is None:
        if len(_JUDGES) >= JUDGES_KEPT:
            _JUDGES.clear()
        judge = _JUDGES[key] = _Judge(geo, one, two, w)
    return judge


class _Judge:
    """Values squares and placements for one multiset of stones to come (``one``/``two``)."""

    def __init__(self, geo: Geometry, one: int, two: int, w: Weights) -> None:
        self.geo, self.one, self.two, self.w = geo, one, two, w
        self.interior = tuple(not edge for edge in geo.edge)
        self._values: dict[int | tuple[int, int], float] = {}  # see square()

    def without(self, kind: int) -> _Judge:
        """The judge for the stones to come once one stone of ``kind`` is placed."""
        bit = 1 << kind
        if self.two & bit:
            return judge_for(self.geo, self.one, self.two & ~bit, self.w)
        return judge_for(self.geo, self.one & ~bit, self.two, self.w)

    def count(self, mask: int) -> int:
        """Stones to come among the kinds of ``mask`` (twins count twice)."""
        return (mask & self.one).bit_count() + (mask & self.two).bit_count()

    def square(self, board: _Board, square: int) -> float:
        """Value of one empty square (see the module docstring); 0 when it touches nothing."""
        n = board.ns[square]
        if not n:
            return 0.0
        key = board.keys[square]
        interior = self.interior[square]
        if interior and n == 3:
            cells = board.cells
            for fourth in board.neighbours[square]:
                if cells[fourth] == EMPTY:
                    break
            outer = board.keys[fourth] or -1
            cached: int | tuple[int, int] = (key, outer)
        else:
            outer = 0
            cached = key << 1 | interior
        value = self._values.get(cached)
        if value is None:
            value = self._square(key, n, outer, interior)
            self._values[cached] = value
        return value

    def _square(self, key: int, n: int, outer: int, interior: bool) -> float:
        w = self.w
        f = self.count(_MASKS[key])
        if f == 0:
            return -w.dead[n] if interior else -w.dead_edge * n
        value = w.mobility * min(f, w.cap)
        if interior:
            if n == 4:
                value += w.hole4 * min(f, w.cap)
            elif n == 3:
                value += w.hole3 * min(self._pocket(key, outer), w.cap)
        return value

    def _pocket(self, key: int, outer: int) -> int:
        """Stones that could go on a pocket's 4th side and leave a stone to make the Quatro."""
        one, two = self.one, self.two
        found = 0
        sides = (_MASKS[outer] if outer > 0 else ALL_KINDS) & one
        for kind in _bits(sides):
            bit = 1 << kind
            fillers = _MASKS[key + _SHIFT[kind]]
            if fillers & one & ~bit or fillers & two & bit:
                found += 2 if two & bit else 1
        return found if outer > 0 else int(found * self.w.open_side)

    def scan(self, board: _Board) -> Scan:
        """Square values, board value, frontier, and which stones to come fit somewhere."""
        values = [0.0] * self.geo.size
        frontier = []
        cover = [0] * KINDS    # counted for the kinds of stones to come only
        cells, ns, masks = board.cells, board.ns, board.masks
        one = self.one
        square_value = self.square
        for square in range(self.geo.size):
            if ns[square] and cells[square] == EMPTY:
                values[square] = square_value(board, square)
                frontier.append(square)
                fits = masks[square] & one
                while fits:
                    low = fits & -fits
                    cover[low.bit_length() - 1] += 1
                    fits ^= low
        orphans = fragile = 0
        for kind in _bits(one):
            if cover[kind] <= 5:   # a placement changes the masks of at most 5 squares
                fragile |= 1 << kind
                if not cover[kind]:
                    orphans |= 1 << kind
        raw = sum(values)
        return Scan(values, raw, raw - self.w.orphan * self.count(orphans), frontier, cover,
                    orphans, fragile)

    def _orphans_after(self, board: _Board, square: int, kind: int, scanned: Scan) -> int:
        """Stones to come that fit no frontier square once ``square`` holds ``kind`` (it does).

        Only the filled square and its empty neighbours change their fit masks; a kind can
        lose its last square only if every square that took it is among those.
        """
        cells, keys, masks = board.cells, board.keys, board.masks
        shift = _SHIFT[kind]
        empty = [near for near in board.neighbours[square] if cells[near] == EMPTY]
        new = 0
        for near in empty:
            new |= masks[near]
        fragile = scanned.fragile & ~new
        if not fragile:
            return scanned.orphans & ~new
        old = [_MASKS[keys[square]]] + [_MASKS[keys[near] - shift] for near in empty]
        cover = scanned.cover
        lost = 0
        for lone in _bits(_or(old) & fragile):
            if cover[lone] <= len(old) and cover[lone] == sum(
                    1 for mask in old if mask >> lone & 1):
                lost |= 1 << lone
        return (scanned.orphans & ~new) | lost

    def ply(self, board: _Board, kind: int, scanned: Scan | None = None,
            ) -> list[tuple[float, int]]:
        """(value, square) for every legal square of a stone of ``kind``, best first.

        A placement changes the value of its empty neighbours (their neighbours changed) and
        of the pockets whose 4th side is one of those; no other square's value moves."""
        w = self.w
        scanned = scanned or self.scan(board)
        values, total = scanned.values, scanned.raw
        neighbours, cells, ns, masks = board.neighbours, board.cells, board.ns, board.masks
        interior = self.interior
        square_value = self.square
        bit = 1 << kind
        orphan = w.orphan
        out = []
        for square in scanned.frontier:
            if not masks[square] & bit:
                continue
            score = total - values[square]
            if interior[square]:
                n = ns[square]
                score += w.points * BASE_POINTS[n] + (w.quatro if n == 4 else 0.0)
            else:
                score += w.edge
            board.place(square, kind)
            pockets: list[int] = []
            for near in neighbours[square]:   # never a square two steps away (a grid)
                if cells[near] != EMPTY:
                    continue
                score += square_value(board, near) - values[near]
                for far in neighbours[near]:   # pockets whose 4th side is ``near``
                    if (ns[far] == 3 and interior[far] and cells[far] == EMPTY
                            and far not in pockets):
                        pockets.append(far)
                        score += square_value(board, far) - values[far]
            if orphan:
                score -= orphan * self.count(self._orphans_after(board, square, kind, scanned))
            board.lift(square)
            out.append((score, square))
        out.sort(key=lambda item: (-item[0], item[1]))
        return out


def _or(masks: list[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def first_ply(game: PlayerView, weights: Weights = DEFAULT,
              ) -> tuple[View, _Judge, list[tuple[float, int]]] | None:
    """Where every search of a move starts: the view of the game, its judge, and the
    current stone's legal squares valued one ply deep, best first (None: no stone to place)."""
    view = View(game)
    if view.current == EMPTY or game.ended:
        return None
    one, two = view.masks()
    judge = judge_for(view.geo, one, two, weights)
    return view, judge, judge.ply(view.board, view.current)


def rank_squares(game: PlayerView, weights: Weights = DEFAULT) -> list[int]:
    """The current stone's legal squares, best first, by the demo player's judgement.

    One ply for every square; then the best ``weights.lookahead`` squares are searched
    deeper: in Easy mode through the shown stones (``weights.shown`` of them, best
    ``weights.beam`` squares per stone), else one ply averaged over the stones still to
    come (expectimax) when ``weights.expect`` is set.
    """
    first = first_ply(game, weights)
    if first is None:
        return []
    view, judge, ranked = first
    board = view.board
    shown = view.preview[:weights.shown]
    if len(ranked) < 2 or not (shown or weights.expect):
        return [square for _, square in ranked]
    replies = {kind: count for kind, count in enumerate(view.counts) if count > 0}
    if not (shown or replies):
        return [square for _, square in ranked]
    deep = []
    for value, square in ranked[:weights.lookahead]:
        board.place(square, view.current)
        scanned = judge.scan(board)
        later = 0.0
        if shown:
            later += weights.trust * _line(judge, board, shown, weights)
        if weights.expect and replies and not (shown and weights.trust == 1):
            share = 1 - weights.trust if shown else 1.0
            later += share * _expect(judge, board, replies, scanned, weights)
        board.lift(square)
        deep.append((value - scanned.total + later, square))
    deep.sort(key=lambda item: (-item[0], item[1]))
    return [square for _, square in deep] + [square for _, square in ranked[weights.lookahead:]]


def _expect(judge: _Judge, board: _Board, replies: dict[int, int], scanned: Scan,
            w: Weights) -> float:
    """Average, over the stones still to come, of the value of the best square for each."""
    total = 0.0
    for kind, count in replies.items():
        best = judge.ply(board, kind, scanned)
        total += count * (best[0][0] if best else scanned.total - w.stuck)
    return total / sum(replies.values())


def _line(judge: _Judge, board: _Board, stones: list[int], w: Weights) -> float:
    """Value of the best way to place the known ``stones`` in order (beam search).

    Each placed stone leaves the stones to come, so later boards are valued without it.
    """
    judge = judge.without(stones[0])
    scanned = judge.scan(board)
    ranked = judge.ply(board, stones[0], scanned)
    if not ranked:
        return scanned.total - w.stuck * len(stones)
    if len(stones) == 1:
        return ranked[0][0]
    best = None
    for value, square in ranked[:w.beam]:
        board.place(square, stones[0])
        after = judge.scan(board).total
        found = value - after + _line(judge, board, stones[1:], w)
        board.lift(square)
        best = found if best is None else max(best, found)
    return best if best is not None else scanned.total


# -- players: each takes a game and returns a move in notation --------------------------------

def choose_move(game: PlayerView, weights: Weights = DEFAULT) -> str:
    """The demo player's move: its best square, or ``end`` when nothing can be placed."""
    ranked = rank_squares(game, weights)
    return game.square_name(ranked[0]) if ranked else END


def fast_move(game: PlayerView) -> str:
    """The demo player without the expectimax ply (Easy mode still searches the shown stones)."""
    return choose_move(game, FAST)


def greedy_move(game: PlayerView) -> str:
    """Most immediate points; ties go to the first square in row-major order."""
    best = max(game.check(), key=lambda item: item[1], default=None)
    return best[0] if best else END


class RandomPlacer:
    """Places each stone on a uniformly drawn legal square (its own LCG, so runs repeat)."""

    def __init__(self, seed: int = 1) -> None:
        self._outputs: Iterator[int] = lcg_outputs(seed)

    def __call__(self, game: PlayerView) -> str:
        squares = game.legal_squares()
        if not squares:
            return END
        draw = next(self._outputs) << 15 | next(self._outputs)
        return game.square_name(squares[draw % len(squares)])


Played = TypeVar("Played", bound=PlayerView)


def play_out(game: Played, player: Callable[[Played], str]) -> Played:
    """Let ``player`` place stones until nothing can be placed, then end the game."""
    while not game.ended:
        game.play(player(game) if not game.is_over else END)
    return game
