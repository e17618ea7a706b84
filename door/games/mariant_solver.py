"""Mariant solver: find a winning line with full knowledge of the deal, and its penalty.

104 cards leave far too many positions to explore them all, so this solver searches for a
win and says ``winnable`` (with the line, replayed through the engine before it is given)
or, when the budget runs out first, ``unknown`` -- never a guess.  It says ``unwinnable``
only for a position with no legal action left that is not won.

Method (figures in ``docs/solvability.md``): the game is a string of *phases*, each ending
with a DEAL that puts one card on every non-empty column.  Within a phase a best-first
search (no deals) ranks positions by a weighted count of face-down cards, *breaks* (a card
not on the card it could continue), empty columns, same-suit pairs and cards dealt; the
best few positions it reached are dealt and their phases searched in turn, the deepest
phase first (a depth-first search over phases with a small beam).  After the last deal the
goal is a win, or Auto Ending: every column one K..A group of 13.  Complete suits are
removed as soon as they form (free, and never a loss: nothing can go on an Ace).

The penalty of the line is then lowered by dropping the moves it can do without.  A run is
deterministic for a given node limit; a seconds limit (CPU time) may stop it earlier on a
busy machine.
"""

from __future__ import annotations

import hashlib
import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .base import IllegalMove, Status
from .cards import SUITS, Card
from .mariant import COLUMNS, SUIT_LENGTH, Mariant, auto_ending_plan, column_key

WINNABLE = "winnable"
UNWINNABLE = "unwinnable"
UNKNOWN = "unknown"

DOWN = 64
"""Added to a card id (``(rank - 1) * 4 + suit``, suits S H D C) while it is face down."""
ATTEMPTS = ((10.0, 2.0, 4.0, 1.0, 2.0), (10.0, 3.0, 4.0, 1.0, 1.0), (10.0, 3.0, 6.0, 1.0, 1.0))
"""Weights of the position score -- face-down cards, breaks, empty columns (minus), cards
dealt (minus), same-suit pairs (minus) -- for the successive attempts: a search that stalls
is started again with the next set (each finds wins the others miss).  Chosen on deals
10001 … 10200, away from the figures' deals."""
ATTEMPT_NODES = 15_000
"""Positions expanded per attempt; the cap doubles after each round of ATTEMPTS."""
PHASE_NODES = 1500
"""Positions expanded in one phase before its best ones are dealt."""
BEAM = 4
"""Positions of a phase that are dealt and searched further."""


def _compatible(x: int, y: int) -> bool:
    """Card x may lie on card y: one rank lower, any suit but y's partner (S-C, H-D)."""
    return y >> 2 == (x >> 2) + 1 and x & 3 != 3 - (y & 3)


COMPAT = [[_compatible(x, y) for y in range(52)] for x in range(52)]


def card_id(card: Card) -> int:
    return (card.rank - 1) * 4 + SUITS.index(card.suit)


@dataclass(frozen=True)
class SolveResult:
    """``moves``: a winning line from the position in engine notation (when winnable);
    ``penalty``: the game's score once that line is played (lower is better)."""

    verdict: str
    nodes: int
    seconds: float
    moves: list[str] | None = field(default=None)
    penalty: int | None = None

    @property
    def winnable(self) -> bool | None:
        return {WINNABLE: True, UNWINNABLE: False}.get(self.verdict)


class _OutOfBudget(Exception):
    pass


State = tuple[tuple[bytes, ...], int]
"""(columns bottom first, cards dealt from the stock so far)."""
Action = tuple[Any, ...]
"""``("m", src, count, dst)``, ``("r", col)`` (remove a suit), ``("d",)`` (deal)."""


def group_length(col: bytes) -> int:
    n = len(col)
    if not n or col[-1] >= DOWN:
        return 0
    i = n - 1
    while i and col[i - 1] < DOWN and COMPAT[col[i]][col[i - 1]]:
        i -= 1
    return n - i


def _ends_with_suit(col: bytes) -> bool:
    n = len(col)
    if n < SUIT_LENGTH or col[-1] >> 2:
        return False
    suit = col[-1] & 3
    return all(col[n - 1 - r] == r * 4 + suit for r in range(SUIT_LENGTH))


def _remove_suits(cols: list[bytes], touched: tuple[int, ...] | range,
                  done: list[Action]) -> None:
    """Remove the complete suits ending the ``touched`` columns (free, and nothing can go
    on an Ace, so never a loss), noting each removal in ``done``."""
    for i in touched:
        while _ends_with_suit(cols[i]):
            cols[i] = _flip(cols[i][:-SUIT_LENGTH])
            done.append(("r", i))


def _flip(col: bytes) -> bytes:
    return col[:-1] + bytes((col[-1] - DOWN,)) if col and col[-1] >= DOWN else col


class _Search:
    def __init__(self, game: Mariant, node_limit: int | None, deadline: float | None,
                 weights: tuple[float, ...] = ATTEMPTS[0]) -> None:
        cols = []
        for cards, down in zip(game.columns, game.face_down, strict=True):
            ids = [card_id(c) for c in cards]
            for i in range(down):
                ids[i] += DOWN
            cols.append(bytes(ids))
        self.start: tuple[bytes, ...] = tuple(cols)
        self.stock = bytes(card_id(c) for c in game.stock)
        self.node_limit = node_limit
        self.deadline = deadline
        self.weights = weights
        self.nodes = 0
        self.seen: set[int] = set()
        self._features: dict[bytes, tuple[int, int, int]] = {}
        # expanded positions: (state, parent index, actions from the parent)
        self.tree: list[tuple[State, int, list[Action]]] = []

    # -- rules on states -------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> tuple[State, list[Action]]:
        """The state after ``action`` and the complete suits removed, with the actions
        (the action, then the removals) that lead there."""
        cols, dealt = list(state[0]), state[1]
        if action[0] == "m":
            _, a, k, b = action
            src = cols[a]
            cols[b] += src[-k:]
            cols[a] = _flip(src[:-k])
            touched: tuple[int, ...] = (b,)
        else:
            filled = [i for i in range(COLUMNS) if cols[i]] or [0]
            targets = filled[:len(self.stock) - dealt]
            for i in targets:
                cols[i] += self.stock[dealt:dealt + 1]
                dealt += 1
            touched = tuple(targets)
        done = [action]
        _remove_suits(cols, touched, done)
        return (tuple(cols), dealt), done

    def moves(self, state: State) -> list[Action]:
        """Group and subgroup moves onto a card they continue; subgroups into the first
        empty column (not a whole column, which would change nothing)."""
        cols = state[0]
        tops = [c[-1] if c else -1 for c in cols]
        first_empty = tops.index(-1) if -1 in tops else -1
        out: list[Action] = []
        for a, col in enumerate(cols):
            g = group_length(col)
            if not g:
                continue
            low = col[-1] >> 2
            for b, top in enumerate(tops):
                if b == a:
                    continue
                if top < 0:
                    if b == first_empty:
                        out.extend(("m", a, k, b) for k in range(g, 0, -1) if k < len(col))
                    continue
                k = (top >> 2) - low
                if 1 <= k <= g and COMPAT[col[-k]][top]:
                    out.append(("m", a, k, b))
        return out

    def finished(self, state: State) -> bool:
        """Stock empty and every column empty or one K..A group of 13 (Auto Ending sorts
        those into suits; complete suits were removed already)."""
        if state[1] < len(self.stock):
            return False
        return all(not col or (len(col) == SUIT_LENGTH and group_length(col) == SUIT_LENGTH)
                   for col in state[0])

    # -- evaluation --------------------------------------------------------------------------
    def score(self, state: State) -> float:
        """Lower is better: see ATTEMPTS."""
        down = breaks = same = empty = 0
        features = self._features
        for col in state[0]:
            if not col:
                empty += 1
                continue
            f = features.get(col)
            if f is None:
                f = _column_features(col)
                if len(features) > 200_000:
                    features.clear()
                features[col] = f
            down += f[0]
            breaks += f[1]
            same += f[2]
        w = self.weights
        return w[0] * down + w[1] * breaks - w[2] * empty - w[3] * state[1] - w[4] * same

    def score_dealt(self, state: State) -> float:
        if state[1] < len(self.stock):
            state = self.apply(state, ("d",))[0]
        return self.score(state)

    def _new(self, state: State) -> bool:
        key = int.from_bytes(hashlib.blake2b(b"\xff".join(state[0]) + bytes((state[1],)),
                                             digest_size=12).digest(), "little")
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    # -- the search --------------------------------------------------------------------------
    def run(self) -> int | None:
        """Search; the index in ``tree`` of a finished position, or None if the search ran
        dry (possible only because it does not try everything)."""
        cols = list(self.start)
        removals: list[Action] = []
        _remove_suits(cols, range(COLUMNS), removals)
        start = (tuple(cols), 0)
        self.tree.append((start, -1, removals))
        self._new(start)
        if self.finished(start):
            return 0
        outer = [(0, 0.0, 0, 0)]    # (-dealt, score, order, tree index)
        order = 0
        while outer:
            _, _, _, root = heapq.heappop(outer)
            found, best = self._phase(root)
            if found is not None:
                return found
            root_state = self.tree[root][0]
            if root_state[1] >= len(self.stock):
                continue
            ranked = sorted(best, key=lambda item: item[0])[:BEAM * 8]
            dealt = sorted(((self.score_dealt(self.tree[i][0]), i) for _, i in ranked),
                           key=lambda item: item[0])
            for value, i in dealt[:BEAM]:
                child, actions = self.apply(self.tree[i][0], ("d",))
                if not self._new(child):
                    continue
                self.tree.append((child, i, actions))
                index = len(self.tree) - 1
                if self.finished(child):
                    return index
                order += 1
                heapq.heappush(outer, (-child[1], value, order, index))
        return None

    def _phase(self, root: int) -> tuple[int | None, list[tuple[float, int]]]:
        """Best-first over the moves of one phase (no deal) from ``tree[root]``: a finished
        position's index if one turns up, and the (score, index) of the positions expanded."""
        local: list[tuple[float, int, int, Action | None]] = [
            (self.score(self.tree[root][0]), 0, root, None)]
        expanded: list[tuple[float, int]] = []
        order = 0
        while local and len(expanded) < PHASE_NODES:
            value, _, parent, action = heapq.heappop(local)
            if action is None:
                index = parent
            else:
                state, actions = self.apply(self.tree[parent][0], action)
                self.tree.append((state, parent, actions))
                index = len(self.tree) - 1
            expanded.append((value, index))
            self.nodes += 1
            if not self.nodes & 255:
                self._check_budget()
            state = self.tree[index][0]
            for move in self.moves(state):
                child, _ = self.apply(state, move)
                if not self._new(child):
                    continue
                if self.finished(child):
                    self.tree.append((child, index, self.apply(state, move)[1]))
                    return len(self.tree) - 1, expanded
                order += 1
                heapq.heappush(local, (self.score(child), order, index, move))
        return None, expanded

    def _check_budget(self) -> None:
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfBudget
        if self.deadline is not None and time.process_time() > self.deadline:
            raise _OutOfBudget

    def line(self, index: int) -> list[Action]:
        actions: list[list[Action]] = []
        while index >= 0:
            _, parent, done = self.tree[index]
            actions.append(done)
            index = parent
        return [a for step in reversed(actions) for a in step]


def _column_features(col: bytes) -> tuple[int, int, int]:
    """(face-down cards, breaks, same-suit pairs) of one column."""
    down = breaks = same = 0
    below = -1
    for c in col:
        if c >= DOWN:
            down += 1
        elif 0 <= below < DOWN:
            if not COMPAT[c][below]:
                breaks += 1
            elif c & 3 == below & 3:
                same += 1
        below = c
    return down, breaks, same


def _notation(action: Action) -> str:
    if action[0] == "m":
        _, a, k, b = action
        return f"{column_key(a)}:{k}>{column_key(b)}"
    if action[0] == "r":
        return f"r{column_key(action[1])}"
    return "d"


def _play(game: Mariant, actions: list[str]) -> Mariant | None:
    """A copy of ``game`` after ``actions`` (and Auto Ending when it is on), or None if an
    action is refused or the game is not won at the end."""
    copy = game.copy()
    try:
        for action in actions:
            copy.play(action)
        if not copy.won and copy.auto_ending_available:
            copy.play("auto")
    except IllegalMove:
        return None
    return copy if copy.won else None


def _shorten(game: Mariant, line: list[str], deadline: float | None) -> list[str]:
    """Drop moves the line can do without (each checked by replaying the rest), last first;
    keep the version with the lowest final score."""
    best = line
    best_score = _final_score(game, line)
    i = len(best) - 1
    while i >= 0:
        if deadline is not None and time.process_time() > deadline:
            break
        if ":" in best[i]:
            trial = best[:i] + best[i + 1:]
            played = _play(game, trial)
            if played is not None and played.score <= best_score:
                best, best_score = trial, played.score
        i -= 1
    return best


def _final_score(game: Mariant, line: list[str]) -> int:
    played = _play(game, line)
    return played.score if played is not None else 1 << 30


def _game(game_or_position: Mariant | dict[str, Any] | int, fd: int, fu: int) -> Mariant:
    if isinstance(game_or_position, Mariant):
        return game_or_position
    if isinstance(game_or_position, dict):
        return Mariant.from_json(game_or_position)
    return Mariant.new(game_or_position, fd=fd, fu=fu)


def solve(game_or_position: Mariant | dict[str, Any] | int, *, fd: int = 2, fu: int = 1,
          node_limit: int | None = None, seconds: float | None = None,
          clock: Callable[[], float] = time.process_time) -> SolveResult:
    """Look for a winning line from the position (a game, its JSON, or a game number dealt
    with ``fd``/``fu``).  ``node_limit`` (positions expanded) and ``seconds`` (CPU time)
    bound the search; past either the verdict is ``unknown``.  The game is not modified."""
    game = _game(game_or_position, fd, fu)
    begin = clock()
    deadline = None if seconds is None else begin + seconds
    if game.won:
        return SolveResult(WINNABLE, 0, 0.0, [], game.score)
    if game.status is Status.STUCK:
        return SolveResult(UNWINNABLE, 0, clock() - begin)
    nodes = 0
    found = None
    cap = ATTEMPT_NODES
    while found is None:
        stopped = False     # an attempt hit its cap (rather than running dry)
        for weights in ATTEMPTS:
            limit = nodes + cap if node_limit is None else min(nodes + cap, node_limit)
            search = _Search(game, limit, deadline, weights)
            search.nodes = nodes
            try:
                found = search.run()
            except _OutOfBudget:
                stopped = True
            nodes = search.nodes
            if found is not None:
                break
            if (node_limit is not None and nodes >= node_limit) or (
                    deadline is not None and clock() > deadline):
                return SolveResult(UNKNOWN, nodes, clock() - begin)
        if found is None and not stopped:
            return SolveResult(UNKNOWN, nodes, clock() - begin)
        cap *= 2
    line = [_notation(a) for a in search.line(found)]
    if _play(game, line) is None:     # never give a line the engine does not accept
        return SolveResult(UNKNOWN, nodes, clock() - begin)
    line = _shorten(game, line, deadline)
    played = _play(game, line)
    assert played is not None
    if played.actions[-1:] == ["auto"] and line[-1:] != ["auto"]:
        line = [*line, "auto"]
    return SolveResult(WINNABLE, nodes, clock() - begin, line, played.score)


__all__ = ["UNKNOWN", "UNWINNABLE", "WINNABLE", "SolveResult", "auto_ending_plan", "solve"]
