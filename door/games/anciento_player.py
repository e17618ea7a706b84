"""The search player for Anciento: it drives Hint and Demo.

It sees what the caller sees -- the board, the current stone, the stones still to come as a
multiset, and in Easy mode the next four -- and never reads the pouch order.  It judges a
board with the demo player's evaluation (``anciento_demo``: points, Quatros, live holes and
pockets, dead squares, stones that fit nowhere) and searches one stone deeper than it:

1. every legal square of the current stone is valued by one ply; the best ``LOOKAHEAD``
   squares (within ``MARGIN`` of the best one: all of them) are searched further;
2. for each of those, every kind of stone that can come next (weighted by how many are
   left; in Easy mode, the stone shown) is put on its best square;
3. and the board after that is valued by the best square of the stone after it, averaged
   over the ``SECOND_KINDS`` most numerous kinds left (in Easy mode, the stone shown).

So it sees a Quatro two stones away, and the pockets that need two stones to close.  About
40 ms of CPU per move on 8x12 on a loaded machine (the demo player: 6.5 ms); figures in
docs/solvability.md.
"""

from __future__ import annotations

import math

from .anciento_demo import DEFAULT, Scan, Weights, _Board, _Judge, first_ply
from .anciento_rules import END, PlayerView

LOOKAHEAD = 4
"""Squares of the current stone searched three stones deep (at most)."""
MARGIN = math.inf
"""Only squares whose one-ply value is within this of the best are searched deeper.  Off:
at 10 it saved about 30 % of the time and chose the full search's square in 99.5 % of 396
positions (games 101-106), yet on games 1-100 it placed all 72 stones in 91 games where
the full search does in 95 (games 17, 18, 33, 48, 55 lost, 13 won; at 40 all six are
placed).  Kept as a knob for a faster machine's trade-off."""
SECOND_KINDS = 4
"""Kinds of the stone after next averaged over (the most numerous left)."""


def rank_squares(game: PlayerView, weights: Weights = DEFAULT) -> list[int]:
    """The current stone's legal squares, best first (see the module docstring)."""
    first = first_ply(game, weights)
    if first is None:
        return []
    view, judge, ranked = first
    board = view.board
    counts = {kind: n for kind, n in enumerate(view.counts) if n > 0}
    if len(ranked) < 2 or not counts:
        return [square for _, square in ranked]
    close = [item for item in ranked[:LOOKAHEAD] if item[0] >= ranked[0][0] - MARGIN]
    if len(close) < 2:
        return [square for _, square in ranked]
    preview = view.preview
    deep = []
    for value, square in close:
        board.place(square, view.current)
        scanned = judge.scan(board)
        nexts = {preview[0]: 1} if preview else counts
        total = 0.0
        for kind, weight in nexts.items():
            total += weight * _reply(judge, board, kind, counts, preview[1:2], scanned, weights)
        board.lift(square)
        deep.append((value - scanned.total + total / sum(nexts.values()), square))
    deep.sort(key=lambda item: (-item[0], item[1]))
    return [square for _, square in deep] + [square for _, square in ranked[len(close):]]


def _reply(judge: _Judge, board: _Board, kind: int, counts: dict[int, int],
           shown: list[int], scanned: Scan, weights: Weights) -> float:
    """Value of the board once a stone of ``kind`` is on its best square, looking one stone
    further (the stone ``shown``, else the most numerous kinds left)."""
    best = judge.ply(board, kind, scanned)
    if not best:
        return scanned.total - weights.stuck
    value, square = best[0]
    after = judge.without(kind)
    left = dict(counts)
    left[kind] -= 1
    if shown:
        second = [(1, shown[0])]
    else:
        second = sorted(((n, k) for k, n in left.items() if n),
                        key=lambda t: (-t[0], t[1]))[:SECOND_KINDS]
    if not second:
        return value
    board.place(square, kind)
    rescanned = after.scan(board)
    expected = 0.0
    for n, second_kind in second:
        reply = after.ply(board, second_kind, rescanned)
        expected += n * (reply[0][0] if reply else rescanned.total - weights.stuck)
    board.lift(square)
    return value - rescanned.total + expected / sum(n for n, _ in second)


def search_move(game: PlayerView) -> str:
    """The search player's move: its best square, or ``end`` when nothing can be placed."""
    ranked = rank_squares(game)
    return game.square_name(ranked[0]) if ranked else END
