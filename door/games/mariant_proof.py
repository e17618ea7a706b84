"""Mariant: decide a small position by trying every line from it.

The solver's searches only ever find wins; they cannot say that none exists.  This search
can, for the positions whose whole game graph is small -- late in a game, when the stock
is (nearly) empty and few cards still move -- which is where a caller asks "still
winnable?" most.  It never guesses: past its cap of positions it answers "unknown".

Sound by construction, and the tests hold it to the engine:

* every legal action is tried: every subgroup of the topmost group onto every column that
  takes it, *every* empty column (while deals remain, which column a group goes to
  decides which stock card it gets: a deal fills the non-empty columns left to right),
  the removal of a complete suit (optional in the rules, so also not done), the deal;
* a position counts as won exactly when the engine would call it won or offer Auto
  Ending (stock empty, every non-empty column one K..A group of 13);
* positions are remembered by their full bytes, not a hash; once the stock is empty the
  columns' order changes nothing (no deal is left to tell them apart) and is ignored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .mariant import COLUMNS, SUIT_LENGTH
from .mariant_ids import COMPAT, ends_with_suit, flip, group_length

Columns = tuple[bytes, ...]
Node = tuple[Columns, int]
"""(columns bottom first, cards dealt from the stock so far)."""
Step = tuple[Any, ...]
"""``("m", src, count, dst)``, ``("r", col)`` or ``("d",)``: the solver's actions."""

WON = "won"
NO_WIN = "no win"
UNDECIDED = "unknown"


@dataclass(frozen=True)
class Proof:
    """``outcome``: WON (``line`` reaches a won or Auto Ending position), NO_WIN (every
    reachable position was tried and none is), or UNDECIDED (the cap came first)."""

    outcome: str
    positions: int
    line: list[Step] | None = None


def finished(cols: Columns) -> bool:
    """With the stock empty: what the engine calls won (every column empty or complete
    suits) or offers Auto Ending for (every non-empty column one K..A group of 13)."""
    return all(_column_done(col) for col in cols)


def _column_done(col: bytes) -> bool:
    if not col or (len(col) == SUIT_LENGTH and group_length(col) == SUIT_LENGTH):
        return True
    return not len(col) % SUIT_LENGTH and all(
        ends_with_suit(col[:end]) for end in range(SUIT_LENGTH, len(col) + 1, SUIT_LENGTH))


def successors(node: Node, stock: bytes) -> list[tuple[Step, Node]]:
    """Every legal action from the position and the position it leads to."""
    cols, dealt = node
    out: list[tuple[Step, Node]] = []
    tops = [col[-1] if col else -1 for col in cols]
    for a, col in enumerate(cols):
        g = group_length(col)
        if not g:
            continue
        low = col[-1] >> 2
        for b, top in enumerate(tops):
            if b == a:
                continue
            counts: range | tuple[int, ...]
            if top < 0:
                counts = range(g, 0, -1)
            else:
                k = (top >> 2) - low
                if not (1 <= k <= g and COMPAT[col[-k]][top]):
                    continue
                counts = (k,)
            for k in counts:
                new = list(cols)
                new[b] = cols[b] + col[-k:]
                new[a] = flip(col[:-k])
                out.append((("m", a, k, b), (tuple(new), dealt)))
        if ends_with_suit(col):
            new = list(cols)
            new[a] = flip(col[:-SUIT_LENGTH])
            out.append((("r", a), (tuple(new), dealt)))
    if dealt < len(stock):
        new = list(cols)
        filled = [i for i in range(COLUMNS) if new[i]] or [0]
        for i in filled[:len(stock) - dealt]:
            new[i] += stock[dealt:dealt + 1]
            dealt += 1
        out.append((("d",), (tuple(new), dealt)))
    return out


def _key(node: Node, stock: int) -> bytes:
    cols, dealt = node
    if dealt >= stock:
        cols = tuple(sorted(cols))
    return b"\xff".join(cols) + bytes((dealt,))


def exhaust(cols: Columns, stock: bytes, cap: int, deadline: float | None = None,
            clock: Callable[[], float] = time.process_time) -> Proof:
    """Depth-first over every position reachable from ``cols`` with the whole ``stock``
    still to deal, at most ``cap`` positions (and not past ``deadline`` on ``clock``)."""
    start: Node = (cols, 0)
    parents: dict[bytes, tuple[bytes, Step] | None] = {_key(start, len(stock)): None}
    stack: list[tuple[Node, bytes]] = [(start, _key(start, len(stock)))]
    positions = 0
    while stack:
        node, key = stack.pop()
        positions += 1
        if node[1] >= len(stock) and finished(node[0]):
            return Proof(WON, positions, _line(parents, key))
        if positions > cap or (deadline is not None and not positions & 255
                               and clock() > deadline):
            return Proof(UNDECIDED, positions)
        for step, child in successors(node, stock):
            child_key = _key(child, len(stock))
            if child_key not in parents:
                parents[child_key] = (key, step)
                stack.append((child, child_key))
    return Proof(NO_WIN, positions)


def _line(parents: dict[bytes, tuple[bytes, Step] | None], key: bytes) -> list[Step]:
    steps = []
    link = parents[key]
    while link is not None:
        key, step = link
        steps.append(step)
        link = parents[key]
    return steps[::-1]
