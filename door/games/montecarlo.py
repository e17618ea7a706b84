"""Monte Carlo (the Wildcat! door's pairing solitaire): one deck, a fixed 5x5 grid.

Rules: docs/rules.md (decisions R-MC-1 … R-MC-5); notation and JSON: ``docs/montecarlo.md``.

Positions are numbered 0..24 in reading order (row = p // 5, column = p % 5) and written
``a1`` … ``e5`` (column letter a–e left to right, row 1–5 top to bottom).  A pair move is the
two positions run together, lower one first (``b2c3``); ``c`` is CONSOLIDATE.

Consolidation is automatic in both modes as soon as no adjacent pair is left and it would
change the grid (the only move left then, so doing it for the player loses nothing).  The
"relaxed" mode (Aisleriot/PySolFC) additionally lets the player type ``c`` at any time it
would change the grid; the default "strict" mode (the seed, R-MC-1) does not.

A consolidation that deals from the stock cannot be undone (R-MC-4: it would show the stock
order), so neither can the pairs before it: :meth:`MonteCarlo.deals_after` tells a screen
which move would do that, to warn first.  ``resign`` gives the game up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from .base import RESIGN, Game, IllegalMove, Status
from .cards import Card, new_deck
from .numbers import check_number, shuffled

SIZE = 5
CELLS = SIZE * SIZE
DECK_SIZE = 52
CLEAR_BONUS = 100
"""R-MC-3: points added when all 52 cards are removed."""
MODES = ("strict", "relaxed")
CONSOLIDATE = "c"
COLUMN_LETTERS = "abcde"


# -- positions and adjacency --------------------------------------------------------------

def position_name(p: int) -> str:
    """``0`` -> ``a1``, ``6`` -> ``b2``, ``24`` -> ``e5``."""
    return COLUMN_LETTERS[p % SIZE] + str(p // SIZE + 1)


def parse_position(text: str) -> int:
    """``b2`` -> 6; ValueError with a readable reason otherwise."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in COLUMN_LETTERS or t[1] not in "12345":
        raise ValueError(f"not a position: {text!r} (expected a1 … e5)")
    return (int(t[1]) - 1) * SIZE + COLUMN_LETTERS.index(t[0])


def _adjacent_pairs() -> tuple[tuple[int, int], ...]:
    """Every adjacent (p, q), p < q, in hint order (R-MC-5, Aisleriot ``get-hint``):
    horizontal, vertical, "\\" diagonal, "/" diagonal, each scanning p in reading order."""
    horizontal = [(p, p + 1) for p in range(CELLS) if p % SIZE != SIZE - 1]
    vertical = [(p, p + SIZE) for p in range(CELLS - SIZE)]
    backslash = [(p, p + SIZE + 1) for p in range(CELLS - SIZE) if p % SIZE != SIZE - 1]
    slash = [(p, p + SIZE - 1) for p in range(CELLS - SIZE) if p % SIZE != 0]
    return tuple(horizontal + vertical + backslash + slash)


ADJACENT_PAIRS = _adjacent_pairs()
"""The 72 adjacent position pairs of the 5x5 grid, in hint order."""
_ADJACENT = frozenset(ADJACENT_PAIRS)


def adjacent(p: int, q: int) -> bool:
    """Geometric adjacency on the fixed grid: row, column or diagonal neighbours, no wrap."""
    return (min(p, q), max(p, q)) in _ADJACENT


def pair_name(p: int, q: int) -> str:
    """Canonical pair notation: the lower position (reading order) first, e.g. ``b2c3``."""
    return position_name(min(p, q)) + position_name(max(p, q))


def parse_move(text: str) -> str | tuple[int, int]:
    """``c`` -> ``"c"``; ``resign`` -> ``"resign"``; ``b2c3`` / ``C3 b2`` / ``b2-c3`` ->
    (6, 12); ValueError otherwise."""
    t = "".join(text.split()).replace("-", "").lower()
    if t in (CONSOLIDATE, RESIGN):
        return t
    if len(t) != 4:
        raise ValueError(f"not a move: {text!r} (expected two positions like b2c3, or c)")
    p, q = parse_position(t[:2]), parse_position(t[2:])
    if p == q:
        raise ValueError(f"not a move: {text!r} (the two positions are the same)")
    return (min(p, q), max(p, q))


Grid = list[Card | None]


def changes_on_consolidation(grid: Grid, stock_left: int) -> bool:
    """Would CONSOLIDATE change the grid?  Iff a gap is followed by a card, or a gap exists and
    the stock is not empty (PySolFC ``canDealCards``)."""
    gap = False
    for card in grid:
        if card is None:
            gap = True
        elif gap:
            return True
    return gap and stock_left > 0


# -- events kept for the UI and for undo --------------------------------------------------

@dataclass(frozen=True)
class Consolidation:
    """One consolidation, as it happened: which cards slid where, and what the stock dealt.

    ``moves`` are (from, to) positions in the order they were made (reading order);
    ``dealt`` are (position, card) in dealing order.  ``auto`` is False for a typed ``c``.
    """

    moves: tuple[tuple[int, int], ...]
    dealt: tuple[tuple[int, Card], ...]
    auto: bool

    @property
    def dealt_cards(self) -> bool:
        return bool(self.dealt)

    def to_json(self) -> dict[str, Any]:
        return {"moves": [[position_name(a), position_name(b)] for a, b in self.moves],
                "dealt": [[position_name(p), str(c)] for p, c in self.dealt],
                "auto": self.auto}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Consolidation:
        moves = tuple((parse_position(a), parse_position(b)) for a, b in data["moves"])
        dealt = tuple((parse_position(p), Card.parse(c)) for p, c in data["dealt"])
        if any(a <= b for a, b in moves):
            raise ValueError("a consolidation only moves cards towards a1")
        return cls(moves, dealt, bool(data["auto"]))


@dataclass(frozen=True)
class _Step:
    """One undoable player action: a pair (with the shift-only consolidation it triggered, if
    any) or a typed ``c`` that only shifted cards."""

    move: str
    pair: tuple[int, int] | None
    shift: Consolidation | None

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "shift": self.shift.to_json() if self.shift else None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> _Step:
        parsed = parse_move(str(data["move"]))
        if parsed == RESIGN:
            raise ValueError("'resign' cannot be undone")
        shift = Consolidation.from_json(data["shift"]) if data.get("shift") else None
        if shift is not None and shift.dealt:
            raise ValueError("an undoable step cannot contain cards dealt from the stock")
        pair = None if isinstance(parsed, str) else parsed  # a str is CONSOLIDATE
        if pair is None and shift is None:
            raise ValueError("an undoable 'c' must record its shift")
        return cls(CONSOLIDATE if pair is None else pair_name(*pair), pair, shift)


# -- the engine ---------------------------------------------------------------------------

class MonteCarlo(Game):
    """Monte Carlo on the 5x5 grid.  ``grid[p]`` is the card at position p or None (a gap);
    ``stock`` lists the undealt cards, next to be dealt first; ``removed`` is in removal order."""

    name = "montecarlo"

    def __init__(self, number: int, mode: str, grid: Sequence[Card | None], stock: list[Card],
                 removed: list[Card]) -> None:
        super().__init__()
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.number = number
        self.mode = mode
        self.options = {"mode": mode}
        self.grid: Grid = list(grid)
        self.stock: list[Card] = list(stock)
        self.removed: list[Card] = list(removed)
        self.consolidations: list[Consolidation] = []
        self._history: list[_Step] = []
        self._status: tuple[int, Status] | None = None  # (actions so far, status then)
        self._score: tuple[int, int] | None = None  # (actions so far, score then)
        self.resigned = False

    @classmethod
    def new(cls, number: int, mode: str = "strict", **options: Any) -> Self:
        """Deal game ``number``: the shuffled deck's first card goes to a1, the 25th to e5,
        cards 26..52 form the stock in that order (card 26 is dealt first)."""
        if options:
            raise ValueError(f"unknown option(s): {', '.join(sorted(options))}")
        check_number(number)
        deck = shuffled(new_deck(1), number)
        return cls(number, mode, deck[:CELLS], deck[CELLS:], [])

    # -- queries ---------------------------------------------------------------------------
    @property
    def relaxed(self) -> bool:
        return self.mode == "relaxed"

    @property
    def last_consolidation(self) -> Consolidation | None:
        """The most recent consolidation (for the UI to show it as it happens)."""
        return self.consolidations[-1] if self.consolidations else None

    def pairs(self) -> list[tuple[int, int]]:
        """Adjacent same-rank pairs on the grid, in hint order."""
        g = self.grid
        return [(p, q) for p, q in ADJACENT_PAIRS
                if (a := g[p]) is not None and (b := g[q]) is not None and a.rank == b.rank]

    def _has_pair(self) -> bool:
        g = self.grid
        for p, q in ADJACENT_PAIRS:  # a plain loop: asked twice a move, any() over a
            a, b = g[p], g[q]        # generator cost twice as much
            if a is not None and b is not None and a.rank == b.rank:
                return True
        return False

    def can_consolidate_change(self) -> bool:
        return changes_on_consolidation(self.grid, len(self.stock))

    def _consolidate_refusal(self) -> str | None:
        """Why ``c`` is refused now, or None if it is legal."""
        if not self.can_consolidate_change():
            return "consolidating now would change nothing"
        if not self.relaxed and self._has_pair():
            return "an adjacent pair is left: remove pairs first (strict consolidation)"
        return None

    def legal_moves(self) -> list[str]:
        """Pairs in hint order, then ``c`` when consolidating is allowed."""
        if self.status is not Status.PLAYING:
            return []
        moves = [pair_name(p, q) for p, q in self.pairs()]
        if self._consolidate_refusal() is None:
            moves.append(CONSOLIDATE)
        return moves

    def hints(self) -> list[str]:
        """R-MC-5: every adjacent pair in Aisleriot order; if none, ``["c"]`` when a
        consolidation would change the grid; else nothing (the game is over)."""
        if self.status is not Status.PLAYING:
            return []
        pairs = self.pairs()
        if pairs:
            return [pair_name(p, q) for p, q in pairs]
        return [CONSOLIDATE] if self.can_consolidate_change() else []

    @property
    def score(self) -> int:
        """R-MC-2/3: pips of every removed card (A=1 … K=13), +100 once all 52 are gone.
        Worked out once per action, as :attr:`status` (the screen asks several times a key)."""
        done = len(self.actions)
        if self._score is None or self._score[0] != done:
            points = sum(card.pips for card in self.removed)
            self._score = (done, points + (CLEAR_BONUS if len(self.removed) == DECK_SIZE
                                           else 0))
        return self._score[1]

    @property
    def status(self) -> Status:
        """Won, lost or playing; worked out once per action (every change of the position
        is an action: the screen asks several times a key)."""
        done = len(self.actions)
        if self._status is None or self._status[0] != done:
            self._status = (done, self._status_now())
        return self._status[1]

    def _status_now(self) -> Status:
        if len(self.removed) == DECK_SIZE:
            return Status.WON
        if self.resigned:
            return Status.RESIGNED
        if self._has_pair() or self.can_consolidate_change():
            return Status.PLAYING
        return Status.LOST

    def canonical(self, move: str) -> str:
        try:
            parsed = parse_move(move)
        except ValueError:
            return move.strip()
        return parsed if isinstance(parsed, str) else pair_name(*parsed)

    def deals_after(self, move: str) -> int:
        """How many stock cards the consolidation that ``move`` brings on would deal (0:
        none, or an illegal move): after such a move nothing before it can be undone."""
        try:
            parsed = parse_move(move)
        except ValueError:
            return 0
        if self.status is not Status.PLAYING:
            return 0
        if isinstance(parsed, str):
            if parsed != CONSOLIDATE or self._consolidate_refusal() is not None:
                return 0
        else:
            p, q = parsed
            a, b = self.grid[p], self.grid[q]
            if a is None or b is None or a.rank != b.rank or not adjacent(p, q):
                return 0
            self.grid[p] = self.grid[q] = None   # looked at in place, then put back
            try:
                if self._has_pair():
                    return 0
            finally:
                self.grid[p], self.grid[q] = a, b
        gaps = sum(card is None for card in self.grid) + (0 if isinstance(parsed, str) else 2)
        return min(gaps, len(self.stock))

    # -- moves -----------------------------------------------------------------------------
    def _apply(self, move: str) -> None:
        try:
            parsed = parse_move(move)
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None
        status = self.status
        if status is not Status.PLAYING:
            raise IllegalMove(f"the game is over ({status.value})")
        if parsed == RESIGN:
            self.resigned = True
        elif parsed == CONSOLIDATE:
            self._play_consolidate()
        else:
            self._play_pair(*parsed)

    def _play_pair(self, p: int, q: int) -> None:
        a, b = self.grid[p], self.grid[q]
        name = pair_name(p, q)
        if a is None or b is None:
            gap = position_name(p if a is None else q)
            raise IllegalMove(f"{name}: there is no card at {gap}")
        if not adjacent(p, q):
            raise IllegalMove(f"{name}: {a} and {b} are not adjacent")
        if a.rank != b.rank:
            raise IllegalMove(f"{name}: {a} and {b} are not the same rank")
        self.grid[p] = self.grid[q] = None
        self.removed += [a, b]
        shift = None
        if not self._has_pair() and self.can_consolidate_change():
            event = self._consolidate(auto=True)
            if event.dealt:
                self._history.clear()   # R-MC-4: never undo past cards dealt from the stock
                return
            shift = event
        self._history.append(_Step(name, (p, q), shift))

    def _play_consolidate(self) -> None:
        refusal = self._consolidate_refusal()
        if refusal:
            raise IllegalMove(refusal)
        event = self._consolidate(auto=False)
        if event.dealt:
            self._history.clear()
        else:
            self._history.append(_Step(CONSOLIDATE, None, event))

    def _consolidate(self, auto: bool) -> Consolidation:
        """Slide the cards left in reading order to 0..k-1, then deal from the stock to fill."""
        moves = []
        k = 0
        for p, card in enumerate(self.grid):
            if card is None:
                continue
            if p != k:
                moves.append((p, k))
                self.grid[k], self.grid[p] = card, None
            k += 1
        take = min(CELLS - k, len(self.stock))
        dealt = tuple((k + i, card) for i, card in enumerate(self.stock[:take]))
        for p, card in dealt:
            self.grid[p] = card
        del self.stock[:take]
        event = Consolidation(tuple(moves), dealt, auto)
        self.consolidations.append(event)
        return event

    # -- undo ------------------------------------------------------------------------------
    def undo_refusal(self) -> str | None:
        """Why :meth:`undo` would be refused now, or None (for the UI to grey the key)."""
        if self.status is Status.WON:
            return "the game is won"
        if self.resigned:
            return "the game was resigned"
        if not self._history:
            if any(event.dealt for event in self.consolidations):
                return "cannot undo past a consolidation that dealt cards from the stock"
            return "nothing to undo"
        return None

    @property
    def can_undo(self) -> bool:
        return self.undo_refusal() is None

    @property
    def no_moves_left(self) -> bool:
        return self.status is Status.LOST

    def _undo(self) -> None:
        refusal = self.undo_refusal()
        if refusal:
            raise IllegalMove(refusal)
        self._take_back(self._history.pop(), self.grid, self.removed, self.consolidations)

    @staticmethod
    def _take_back(step: _Step, grid: Grid, removed: list[Card],
                   log: list[Consolidation] | None) -> None:
        """Reverse one step in place; ValueError if the step does not fit the position."""
        if step.shift is not None:
            for src, dst in reversed(step.shift.moves):
                if grid[dst] is None or grid[src] is not None:
                    raise ValueError(f"undo step {step.move}: its shift does not fit the grid")
                grid[src], grid[dst] = grid[dst], None
            if log is not None:
                if not log or log[-1] != step.shift:
                    raise ValueError(f"undo step {step.move}: not the last consolidation")
                log.pop()
        if step.pair is not None:
            p, q = step.pair
            if len(removed) < 2 or grid[p] is not None or grid[q] is not None:
                raise ValueError(f"undo step {step.move}: does not fit the position")
            a, b = removed[-2], removed[-1]
            if a.rank != b.rank or not adjacent(p, q):
                raise ValueError(f"undo step {step.move}: the last removed cards are no pair")
            grid[p], grid[q] = a, b
            del removed[-2:]

    def copy(self) -> MonteCarlo:
        """An independent copy (cards and events are immutable, so shallow lists suffice)."""
        other = type(self)(self.number, self.mode, self.grid, self.stock, self.removed)
        other.consolidations = list(self.consolidations)
        other._history = list(self._history)
        other.actions = list(self.actions)
        other.resigned = self.resigned
        return other

    def position_key(self) -> str:
        """The grid and how many cards the stock holds (door/games/hints.py)."""
        return "".join(str(c) if c is not None else ".." for c in self.grid) + \
            f"/{len(self.stock)}"

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "version": 1,
            "number": self.number,
            "options": {"mode": self.mode},
            "grid": [None if c is None else str(c) for c in self.grid],
            "stock": [str(c) for c in self.stock],
            "removed": [str(c) for c in self.removed],
            "score": self.score,
            "status": self.status.value,
            "resigned": self.resigned,
            "undo": [step.to_json() for step in self._history],
            "consolidations": [event.to_json() for event in self.consolidations],
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a position; ValueError unless the 52 cards are all there exactly once and
        the undo history can be taken back step by step."""
        try:
            return cls._from_json(data)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a Monte Carlo position: {exc!r}") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> Self:
        if data.get("game", cls.name) != cls.name:
            raise ValueError(f"not a Monte Carlo position: game {data.get('game')!r}")
        number = check_number(data["number"])
        mode = (data.get("options") or {}).get("mode", "strict")
        grid_data = data["grid"]
        if not isinstance(grid_data, list) or len(grid_data) != CELLS:
            raise ValueError(f"the grid must list {CELLS} cells")
        grid = [None if c is None else Card.parse(c) for c in grid_data]
        stock = [Card.parse(c) for c in data["stock"]]
        removed = [Card.parse(c) for c in data["removed"]]
        check_cards(grid, stock, removed)
        if len(removed) % 2:
            raise ValueError("cards are removed in pairs: the removed count must be even")
        game = cls(number, mode, grid, stock, removed)
        game.consolidations = [Consolidation.from_json(e) for e in data.get("consolidations", [])]
        game._history = [_Step.from_json(s) for s in data.get("undo", [])]
        game.actions = [str(a) for a in data.get("actions", [])]
        game.resigned = data.get("resigned", False)
        if not isinstance(game.resigned, bool):
            raise ValueError("resigned must be true or false")
        game._check_history()
        if "score" in data and data["score"] != game.score:
            raise ValueError(f"score {data['score']!r} does not match the removed cards "
                             f"({game.score})")
        return game

    def _check_history(self) -> None:
        """Take every undo step back on a scratch copy: each must fit, or the JSON is bad."""
        grid, removed, log = list(self.grid), list(self.removed), list(self.consolidations)
        for step in reversed(self._history):
            self._take_back(step, grid, removed, log if step.shift else None)


def check_cards(grid: Grid, stock: list[Card], removed: list[Card]) -> None:
    """Card conservation: the 52 cards of one deck, each exactly once, over the three places."""
    cards = [c for c in grid if c is not None] + stock + removed
    if len(cards) != DECK_SIZE or set(cards) != set(new_deck(1)):
        twice = sorted(str(c) for c, n in Counter(cards).items() if n > 1)
        missing = sorted(str(c) for c in set(new_deck(1)) - set(cards))
        raise ValueError(f"cards not conserved: {len(cards)} cards; duplicated {twice or '-'}; "
                         f"missing {missing or '-'}")
