"""Mariant ("Marie Antoinette"): two decks, ten columns, build down by partner-suit rules.

The rules are docs/rules.md (labels R-MAR-1 … R-MAR-11); the notation and the JSON
form are documented in ``docs/mariant.md``.  Scoring counts penalty points, so LOWER is
better: +1 per MOVE, +2 per UNDO (never refunded), +5 per empty column at a DEAL unless
every non-empty column is one single group, +1 per Auto Ending move; the final score is the
raw points times the setup multiplier, rounded half up.

Internally columns are indexed 0..9; notation writes them ``1`` … ``9``, ``0``.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Self

from .base import RESIGN, UNDO, Game, IllegalMove, Status
from .cards import RANKS, SUITS, Card, new_deck
from .numbers import check_number, shuffled

COLUMNS = 10
SUIT_LENGTH = 13
PARTNER = {"S": "C", "C": "S", "H": "D", "D": "H"}
"""The suit a card may never go onto: the other suit of its own colour."""

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
DEAL = "d"
AUTO = "auto"
JSON_FORMAT = 1

_CARD = {str(card): card for card in new_deck()}
_MOVE_RE = re.compile(r"^([0-9])(?::([0-9]{1,3}))?>([0-9])$")
_REMOVE_RE = re.compile(r"^r([0-9])$")


# -- small pure helpers ------------------------------------------------------------------------

def compatible(card: Card, onto: Card) -> bool:
    """Whether ``card`` may lie on ``onto``: next lower rank, any suit but ``onto``'s partner."""
    return onto.rank == card.rank + 1 and card.suit != PARTNER[onto.suit]


def multiplier_tenths(fd: int, fu: int) -> int:
    """The setup multiplier in tenths: 10 for the default 2+1 setup, down to 2."""
    return 10 - 2 * (fd - 2) - (fu - 1)


def final_score(raw: int, fd: int, fu: int) -> int:
    """Raw points times the setup multiplier, rounded half up (R-MAR-8), in integers."""
    return (raw * multiplier_tenths(fd, fu) + 5) // 10


def check_setup(fd: Any, fu: Any) -> tuple[int, int]:
    """Return ``(fd, fu)`` if they are a legal setup, else raise ValueError saying why."""
    for label, value in (("fd (face-down cards per column)", fd),
                         ("fu (face-up cards per column)", fu)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{label} must be a whole number, got {value!r}")
    if fd < 2:
        raise ValueError(f"at least 2 face-down cards per column are needed, got fd={fd}")
    if fu < 1:
        raise ValueError(f"at least 1 face-up card per column is needed, got fu={fu}")
    if fd + fu > 7:
        raise ValueError(f"a column holds at most 7 cards at the start, got fd+fu={fd + fu}")
    return fd, fu


def column_key(index: int) -> str:
    """Notation of column ``index`` (0..9): ``1`` … ``9``, and ``0`` for the tenth."""
    return str((index + 1) % 10)


def _column_index(key: str) -> int:
    return (int(key) + 9) % 10


def _parse_card(text: Any) -> Card:
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    card = _CARD.get(text)
    return card if card is not None else Card.parse(text)


def _why_not(card: Card, onto: Card) -> str:
    """A caller-readable reason why ``card`` may not lie on ``onto``."""
    if card.rank == 13:
        return f"{card} is a King: a King goes only into an empty column"
    if onto.rank != card.rank + 1:
        return (f"{card} does not go onto {onto}: a card goes only onto the next higher rank "
                f"({RANKS[card.rank]})")
    return (f"{card} does not go onto {onto}: {SUIT_NAMES[card.suit]} never go onto "
            f"{SUIT_NAMES[onto.suit]}")


def _step_text(src: int, count: int, dst: int) -> str:
    return f"{column_key(src)}:{count}>{column_key(dst)}"


# -- history entries (what undo needs) -----------------------------------------------------------
# ("m", src, count, dst, flipped)   a MOVE of ``count`` cards
# ("r", src, suit, flipped)         a REMOVE of a complete suit
# ("d", (col, col, ...))            a DEAL: the columns that got a card, in dealing order
# ("a", ((src, count, dst), ...))   an Auto Ending: the computer's moves in order
Entry = tuple[Any, ...]


class Mariant(Game):
    """A Mariant game: the board, the stock, the points and the undo history."""

    name = "mariant"

    def __init__(self) -> None:
        super().__init__()
        self.number = 1
        self.fd, self.fu = 2, 1
        self.options = {"fd": 2, "fu": 1}
        self._cols: list[list[Card]] = [[] for _ in range(COLUMNS)]
        self._down: list[int] = [0] * COLUMNS
        self._stock: list[Card] = []          # in dealing order: _stock[0] is dealt next
        self._removed: list[str] = []         # suits removed, in order
        self.moves = 0                        # player MOVEs (1 point each)
        self.undos = 0                        # UNDO steps (2 points each)
        self.deal_penalty = 0                 # empty-column penalties of DEALs
        self.auto_moves = 0                   # Auto Ending moves (1 point each)
        self._history: list[Entry] = []
        self._ae_first: int | None = None     # len(actions) when AE first became available
        self.resigned = False                 # ``resign`` was played: the game is over

    # -- creation ------------------------------------------------------------------------------
    @classmethod
    def new(cls, number: int, fd: int = 2, fu: int = 1, **unknown: Any) -> Self:
        """Deal game ``number`` with ``fd`` face-down and ``fu`` face-up cards per column.

        The deck is ``shuffled(new_deck(2), number)``; card ``deck[i]`` for
        ``i < 10*(fd+fu)`` goes to column ``i % 10`` in round ``i // 10`` (the first ``fd``
        rounds face down), and the rest, ``deck[10*(fd+fu):]``, is the stock, dealt from its
        start (R-MAR-2).
        """
        if unknown:
            raise ValueError(f"unknown Mariant option(s): {', '.join(sorted(unknown))}")
        check_number(number)
        fd, fu = check_setup(fd, fu)
        game = cls()
        game.number, game.fd, game.fu = number, fd, fu
        game.options = {"fd": fd, "fu": fu}
        deck = shuffled(new_deck(2), number)
        dealt = COLUMNS * (fd + fu)
        for i, card in enumerate(deck[:dealt]):
            game._cols[i % COLUMNS].append(card)
        game._down = [fd] * COLUMNS
        game._stock = deck[dealt:]
        return game

    # -- reading the position ------------------------------------------------------------------
    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        """Every column bottom first, face-down cards included (never show those)."""
        return tuple(tuple(col) for col in self._cols)

    @property
    def face_down(self) -> tuple[int, ...]:
        """How many cards at the bottom of each column are face down."""
        return tuple(self._down)

    def visible(self) -> list[tuple[int, tuple[Card, ...]]]:
        """What a player sees: per column, the face-down count and the face-up cards."""
        return [(d, tuple(col[d:])) for d, col in zip(self._down, self._cols, strict=True)]

    @property
    def stock_count(self) -> int:
        """Cards still to be dealt (the seed's "reste")."""
        return len(self._stock)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock in dealing order (hidden information)."""
        return tuple(self._stock)

    @property
    def removed(self) -> tuple[str, ...]:
        """Suits removed as complete suits, in the order they were removed."""
        return tuple(self._removed)

    def group_length(self, col: int) -> int:
        """Length of the topmost group of column ``col`` (0..9); 0 for an empty column."""
        cards = self._cols[col]
        i = len(cards) - 1
        if i < 0:
            return 0
        low = self._down[col]
        while i > low and compatible(cards[i], cards[i - 1]):
            i -= 1
        return len(cards) - i

    def _single_group(self, col: int) -> bool:
        """Non-empty, nothing face down, and the whole column is one group."""
        cards = self._cols[col]
        return bool(cards) and self._down[col] == 0 and self.group_length(col) == len(cards)

    def _ends_with_suit(self, col: int) -> bool:
        cards = self._cols[col]
        if len(cards) - self._down[col] < SUIT_LENGTH or cards[-1].rank != 1:
            return False
        suit = cards[-1].suit
        tail = cards[-SUIT_LENGTH:]
        return all(c.suit == suit and c.rank == SUIT_LENGTH - i for i, c in enumerate(tail))

    # -- points --------------------------------------------------------------------------------
    @property
    def raw_points(self) -> int:
        """Penalty points before the setup multiplier."""
        return self.moves + 2 * self.undos + self.deal_penalty + self.auto_moves

    @property
    def score(self) -> int:
        """Final score: raw points times the setup multiplier, rounded half up (lower wins)."""
        return final_score(self.raw_points, self.fd, self.fu)

    @property
    def multiplier(self) -> float:
        """The setup multiplier (1.0 … 0.2), for display."""
        return multiplier_tenths(self.fd, self.fu) / 10

    # -- status --------------------------------------------------------------------------------
    @property
    def won(self) -> bool:
        """Stock empty and every card on the board belongs to a complete suit."""
        if self._stock:
            return False
        for cards, down in zip(self._cols, self._down, strict=True):
            if down or len(cards) % SUIT_LENGTH:
                return False
            for start in range(0, len(cards), SUIT_LENGTH):
                suit = cards[start].suit
                if any(c.suit != suit or c.rank != SUIT_LENGTH - i
                       for i, c in enumerate(cards[start:start + SUIT_LENGTH])):
                    return False
        return True

    @property
    def status(self) -> Status:
        """WON, RESIGNED, STUCK (no action at all is possible: an undo may still be) or
        PLAYING."""
        if self.won:
            return Status.WON
        if self.resigned:
            return Status.RESIGNED
        if not self.legal_moves():
            return Status.STUCK
        return Status.PLAYING

    @property
    def stuck(self) -> bool:
        return self.status is Status.STUCK

    @property
    def auto_ending_available(self) -> bool:
        """Stock empty, not won, and every non-empty column is one K..A group of 13 cards."""
        if self._stock or self.won or self.resigned:
            return False
        for col, cards in enumerate(self._cols):
            if cards and (len(cards) != SUIT_LENGTH or self._down[col]
                          or cards[0].rank != 13 or self.group_length(col) != SUIT_LENGTH):
                return False
        return True

    @property
    def auto_ending_offered(self) -> bool:
        """Whether Auto Ending has ever become available in this game (it was offered)."""
        return self._ae_first is not None

    @property
    def auto_ending_offer(self) -> bool:
        """True right after the action that made Auto Ending available for the first time.

        The UI proposes Auto Ending then; afterwards the player asks for it (``auto``, or
        ``d`` with an empty stock).
        """
        return self._ae_first == len(self.actions) and self.auto_ending_available

    @property
    def undo_flags_cheater(self) -> bool:
        """Whether the NEXT undo would flag the player as a cheater (R-MAR-10): warn first."""
        if not self._history or self.finished:
            return False
        entry = self._history[-1]
        kind = entry[0]
        return kind == "d" or (kind in ("m", "r") and bool(entry[-1]))

    @property
    def can_undo(self) -> bool:
        return bool(self._history) and not self.finished

    @property
    def finished(self) -> bool:
        return self.resigned or self.won      # asked every key: no list of moves for it

    @property
    def no_moves_left(self) -> bool:
        return self.status is Status.STUCK

    # -- legal moves, help ---------------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        """Every legal action, in this order (documented in docs/mariant.md):

        MOVEs by source column 1..10, then destination column 1..10, then larger groups
        first (whole group ``3>7`` before ``3:2>7``); then REMOVEs ``r1``..``r0``; then
        ``d`` if the stock is not empty; then ``auto`` if Auto Ending is available.
        ``resign`` is always accepted but not listed.
        """
        if self.won or self.resigned:
            return []
        cols = self._cols
        tops = [cards[-1] if cards else None for cards in cols]
        glen = [self.group_length(c) for c in range(COLUMNS)]
        keys = [column_key(c) for c in range(COLUMNS)]
        out: list[str] = []
        for src in range(COLUMNS):
            g = glen[src]
            if not g:
                continue
            cards = cols[src]
            low_rank = cards[-1].rank
            ks = keys[src]
            for dst in range(COLUMNS):
                if dst == src:
                    continue
                onto = tops[dst]
                if onto is None:
                    out.append(f"{ks}>{keys[dst]}")
                    out.extend(f"{ks}:{n}>{keys[dst]}" for n in range(g - 1, 0, -1))
                    continue
                n = onto.rank - low_rank          # the card of rank onto.rank-1 is cards[-n]
                if 1 <= n <= g and cards[-n].suit != PARTNER[onto.suit]:
                    out.append(f"{ks}>{keys[dst]}" if n == g else f"{ks}:{n}>{keys[dst]}")
        out.extend(f"r{keys[c]}" for c in range(COLUMNS)
                   if glen[c] >= SUIT_LENGTH and self._ends_with_suit(c))
        if self._stock:
            out.append(DEAL)
        elif self.auto_ending_available:
            out.append(AUTO)
        return out

    def help_columns(self) -> list[int]:
        """HELP markers: columns (0..9) whose whole topmost group fits on another non-empty column.

        Subgroups and empty destinations are ignored, as in the seed's HELP.
        """
        return sorted({src for src, _dst in self._group_moves()})

    def _group_moves(self) -> list[tuple[int, int]]:
        """Whole-group moves onto non-empty columns, as (src, dst) in column order."""
        if self.won or self.resigned:
            return []
        tops = [cards[-1] if cards else None for cards in self._cols]
        pairs: list[tuple[int, int]] = []
        for src, cards in enumerate(self._cols):
            if not cards:
                continue
            head = cards[-self.group_length(src)]
            pairs.extend((src, dst) for dst, onto in enumerate(tops)
                         if dst != src and onto is not None and compatible(head, onto))
        return pairs

    def hints(self) -> list[str]:
        """Whole-group moves onto non-empty columns (the HELP moves), best first.

        First those that turn a face-down card, then those that empty a column, then the
        rest, each in column order.  Empty when HELP would mark nothing (then the advice is:
        use an empty column or deal).
        """
        def rank(pair: tuple[int, int]) -> int:
            src = pair[0]
            rest = len(self._cols[src]) - self.group_length(src)
            if rest and rest == self._down[src]:
                return 0
            return 1 if rest == 0 else 2

        pairs = sorted(self._group_moves(), key=rank)
        return [f"{column_key(s)}>{column_key(d)}" for s, d in pairs]

    # -- notation ------------------------------------------------------------------------------
    @staticmethod
    def _parse(move: str) -> tuple[Any, ...]:
        """Notation to an action tuple; IllegalMove (a readable reason) if it is not notation."""
        if not isinstance(move, str):
            raise IllegalMove(f"a move is text, got {move!r}")
        text = "".join(move.split()).lower()
        if text == DEAL:
            return ("d",)
        if text == AUTO:
            return ("a",)
        if text == RESIGN:
            return ("x",)
        if text == UNDO:
            raise IllegalMove("'undo' is not a move: call undo()")
        m = _MOVE_RE.match(text)
        if m:
            count = int(m.group(2)) if m.group(2) is not None else None
            return ("m", _column_index(m.group(1)), count, _column_index(m.group(3)))
        m = _REMOVE_RE.match(text)
        if m:
            return ("r", _column_index(m.group(1)))
        raise IllegalMove(f"not a Mariant move: {move!r} (try 3>7, 3:2>7, r3, d, auto or "
                          "resign)")

    def canonical(self, move: str) -> str:
        """The move as records store it, in the current position.

        ``3:N>7`` with N the whole topmost group of column 3 becomes ``3>7``; ``d`` with an
        empty stock becomes ``auto``; spaces and case are dropped.
        """
        action = self._parse(move)
        return self._canonical(action)

    def _canonical(self, action: tuple[Any, ...]) -> str:
        kind = action[0]
        if kind == "m":
            _, src, count, dst = action
            if count is None or count == self.group_length(src):
                return f"{column_key(src)}>{column_key(dst)}"
            return _step_text(src, count, dst)
        if kind == "r":
            return f"r{column_key(action[1])}"
        if kind == "x":
            return RESIGN
        if kind == "d" and self._stock:
            return DEAL
        return AUTO

    # -- playing -------------------------------------------------------------------------------
    def play(self, move: str) -> None:
        """Play a move; the record keeps its canonical form (computed before the move)."""
        action = self._parse(move)
        canon = self._canonical(action)
        self._execute(action)
        self.actions.append(canon)
        self._note_auto_ending()

    def undo(self) -> None:
        self._undo()
        self.actions.append(UNDO)
        self._note_auto_ending()

    def auto_end(self) -> None:
        """Let the computer finish (Auto Ending), at 1 point per move; recorded as ``auto``."""
        self.play(AUTO)

    def _apply(self, move: str) -> None:
        self._execute(self._parse(move))

    def _note_auto_ending(self) -> None:
        if self._ae_first is None and self.auto_ending_available:
            self._ae_first = len(self.actions)

    def _execute(self, action: tuple[Any, ...]) -> None:
        if self.won:
            raise IllegalMove("the game is won: nothing more to play")
        if self.resigned:
            raise IllegalMove("the game was resigned: nothing more to play")
        kind = action[0]
        if kind == "x":
            self.resigned = True
        elif kind == "m":
            _, src, count, dst = action
            count = self._check_move(src, count, dst)
            flipped = self._move(src, count, dst)
            self.moves += 1
            self._history.append(("m", src, count, dst, flipped))
        elif kind == "r":
            self._remove(action[1])
        elif kind == "d" and self._stock:
            self._deal()
        else:
            self._auto()

    def _check_move(self, src: int, count: int | None, dst: int) -> int:
        """Validate a MOVE; return the number of cards it moves."""
        if src == dst:
            raise IllegalMove("a group cannot move onto its own column")
        g = self.group_length(src)
        if not g:
            raise IllegalMove(f"column {src + 1} is empty")
        if count is None:
            count = g
        elif count < 1:
            raise IllegalMove("move at least one card")
        elif count > g:
            raise IllegalMove(f"the topmost group of column {src + 1} has only {g} card"
                              f"{'s' if g > 1 else ''}; {count} cannot move together")
        if self._cols[dst]:
            card, onto = self._cols[src][-count], self._cols[dst][-1]
            if not compatible(card, onto):
                raise IllegalMove(_why_not(card, onto))
        return count

    def _move(self, src: int, count: int, dst: int) -> bool:
        """Move ``count`` cards (already checked); return whether a card was turned."""
        cards = self._cols[src]
        self._cols[dst].extend(cards[-count:])
        del cards[-count:]
        return self._flip(src)

    def _flip(self, col: int) -> bool:
        """Turn a face-down last card face up (R-MAR-5); return whether one was turned."""
        if self._cols[col] and self._down[col] == len(self._cols[col]):
            self._down[col] -= 1
            return True
        return False

    def _remove(self, col: int) -> None:
        if not self._ends_with_suit(col):
            raise IllegalMove(f"column {col + 1} does not end with a complete suit "
                              f"(K down to A of one suit)")
        suit = self._cols[col][-1].suit
        del self._cols[col][-SUIT_LENGTH:]
        self._removed.append(suit)
        flipped = self._flip(col)
        self._history.append(("r", col, suit, flipped))

    def _deal(self) -> None:
        """DEAL one card face up on each non-empty column (R-MAR-3, R-MAR-4), with penalty."""
        filled = [c for c in range(COLUMNS) if self._cols[c]]
        empty = COLUMNS - len(filled)
        if empty and not all(self._single_group(c) for c in filled):
            self.deal_penalty += 5 * empty
        targets = tuple((filled or [0])[:len(self._stock)])
        for col, card in zip(targets, self._stock, strict=False):
            self._cols[col].append(card)
        del self._stock[:len(targets)]
        self._history.append(("d", targets))

    def _auto(self) -> None:
        if not self.auto_ending_available:
            if self._stock:
                raise IllegalMove("Auto Ending needs an empty stock")
            raise IllegalMove("the stock is empty and Auto Ending is not available: every "
                              "non-empty column must be one K..A group of 13 cards")
        steps = auto_ending_plan(self._cols)
        for src, count, dst in steps:
            self._check_move(src, count, dst)
            self._move(src, count, dst)
        self.auto_moves += len(steps)
        self._history.append(("a", tuple(steps)))

    # -- undo ----------------------------------------------------------------------------------
    def _undo(self) -> None:
        if self.won:
            raise IllegalMove("the game is won: nothing to undo")
        if self.resigned:
            raise IllegalMove("the game was resigned: nothing to undo")
        if not self._history:
            raise IllegalMove("nothing to undo")
        flags = self.undo_flags_cheater
        self._reverse(self._history.pop())
        self.undos += 1
        self.cheater = self.cheater or flags

    def _redo(self) -> None:
        raise IllegalMove("Mariant has no redo")

    def _reverse(self, entry: Entry) -> None:
        """Put the board back as it was before ``entry``; ValueError if it does not fit."""
        kind = entry[0]
        if kind == "m":
            _, src, count, dst, flipped = entry
            self._unmove(src, count, dst, flipped)
        elif kind == "r":
            _, col, suit, flipped = entry
            if not self._removed or self._removed[-1] != suit:
                raise ValueError(f"suit {suit} was not the last suit removed")
            self._unflip(col, flipped)
            self._removed.pop()
            self._cols[col].extend(Card(rank, suit) for rank in range(13, 0, -1))
        elif kind == "d":
            cards = []
            for col in entry[1]:
                if len(self._cols[col]) <= self._down[col]:
                    raise ValueError(f"column {col + 1} has no dealt card to take back")
                cards.append(self._cols[col].pop())
            self._stock[0:0] = cards
        elif kind == "a":
            for src, count, dst in reversed(entry[1]):
                self._unmove(src, count, dst, False)
        else:
            raise ValueError(f"unknown history entry {entry!r}")

    def _unmove(self, src: int, count: int, dst: int, flipped: bool) -> None:
        cards = self._cols[dst]
        if count < 1 or len(cards) - self._down[dst] < count:
            raise ValueError(f"column {dst + 1} does not hold the {count} moved card(s)")
        self._unflip(src, flipped)
        self._cols[src].extend(cards[-count:])
        del cards[-count:]

    def _unflip(self, col: int, flipped: bool) -> None:
        if flipped:
            if self._down[col] != len(self._cols[col]) - 1:
                raise ValueError(f"column {col + 1} has no turned card to hide again")
            self._down[col] += 1

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole position; see docs/mariant.md for the format."""
        return {
            "game": self.name,
            "format": JSON_FORMAT,
            "number": self.number,
            "options": dict(self.options),
            "columns": [{"down": [str(c) for c in cards[:down]],
                         "up": [str(c) for c in cards[down:]]}
                        for cards, down in zip(self._cols, self._down, strict=True)],
            "stock": [str(c) for c in self._stock],
            "removed": list(self._removed),
            "points": {"moves": self.moves, "undos": self.undos,
                       "deal_penalty": self.deal_penalty, "auto_moves": self.auto_moves},
            "raw_points": self.raw_points,
            "score": self.score,
            "cheater": self.cheater,
            "resigned": self.resigned,
            "auto_ending_first": self._ae_first,
            "history": [_entry_json(e) for e in self._history],
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a position; ValueError naming what is inconsistent."""
        try:
            game = cls._from_json(data)
        except ValueError:
            raise
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a Mariant position: {type(exc).__name__} {exc}") from None
        return game

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> Self:
        if data.get("game") != cls.name:
            raise ValueError(f"not a Mariant position (game={data.get('game')!r})")
        if data.get("format", JSON_FORMAT) != JSON_FORMAT:
            raise ValueError(f"unknown Mariant JSON format {data.get('format')!r}")
        game = cls()
        game.number = check_number(data["number"])
        options = dict(data.get("options") or {})
        unknown = set(options) - {"fd", "fu"}
        if unknown:
            raise ValueError(f"unknown Mariant option(s): {', '.join(sorted(unknown))}")
        game.fd, game.fu = check_setup(options.get("fd", 2), options.get("fu", 1))
        game.options = {"fd": game.fd, "fu": game.fu}
        columns = data["columns"]
        if not isinstance(columns, list) or len(columns) != COLUMNS:
            raise ValueError(f"a Mariant position has {COLUMNS} columns")
        for i, col in enumerate(columns):
            down = [_parse_card(c) for c in col["down"]]
            up = [_parse_card(c) for c in col["up"]]
            if down and not up:
                raise ValueError(f"column {i + 1}: the last card of a column is face up")
            game._cols[i] = down + up
            game._down[i] = len(down)
        game._stock = [_parse_card(c) for c in data["stock"]]
        game._removed = [str(s) for s in data.get("removed") or []]
        if any(s not in SUITS for s in game._removed):
            raise ValueError(f"removed suits must be among {SUITS}: {game._removed}")
        game._check_cards()
        points = data.get("points") or {}
        for key in ("moves", "undos", "deal_penalty", "auto_moves"):
            value = points.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"points.{key} must be a whole number >= 0, got {value!r}")
            setattr(game, key, value)
        for key, value in (("raw_points", game.raw_points), ("score", game.score)):
            if key in data and data[key] != value:
                raise ValueError(f"{key} is {data[key]!r} but the counters give {value}")
        game.cheater = data.get("cheater", False)
        if not isinstance(game.cheater, bool):
            raise ValueError("cheater must be true or false")
        game.resigned = data.get("resigned", False)
        if not isinstance(game.resigned, bool):
            raise ValueError("resigned must be true or false")
        first = data.get("auto_ending_first")
        if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
            raise ValueError("auto_ending_first must be a whole number or null")
        game._ae_first = first
        game.actions = [str(a) for a in data.get("actions") or []]
        game._history = [_entry_from_json(e) for e in data.get("history") or []]
        game._check_history()
        return game

    def _check_cards(self) -> None:
        """Every card of the two decks exactly twice: board + stock + removed suits."""
        count = Counter(c for cards in self._cols for c in cards)
        count.update(self._stock)
        for suit in self._removed:
            count.update(Card(rank, suit) for rank in range(1, 14))
        wrong = sorted(str(c) for c in set(count) | set(_CARD.values()) if count[c] != 2)
        if wrong:
            raise ValueError("each card must be present exactly twice (board, stock, removed "
                             f"suits); wrong count for: {', '.join(wrong[:8])}"
                             f"{' …' if len(wrong) > 8 else ''}")

    def _check_history(self) -> None:
        """Undo every history entry on a copy, so a later undo cannot fail."""
        scratch = self._clone()
        for entry in reversed(self._history):
            for col in _entry_columns(entry):
                if not 0 <= col < COLUMNS:
                    raise ValueError(f"history entry {_entry_json(entry)!r}: bad column")
            try:
                scratch._reverse(entry)
            except ValueError as exc:
                raise ValueError(f"history entry {_entry_json(entry)!r} does not fit the "
                                 f"position: {exc}") from None

    def _clone(self) -> Self:
        other = type(self)()
        other.number, other.fd, other.fu = self.number, self.fd, self.fu
        other.options = dict(self.options)
        other._cols = [list(c) for c in self._cols]
        other._down = list(self._down)
        other._stock = list(self._stock)
        other._removed = list(self._removed)
        other.moves, other.undos = self.moves, self.undos
        other.deal_penalty, other.auto_moves = self.deal_penalty, self.auto_moves
        other.cheater = self.cheater
        other.resigned = self.resigned
        other._history = list(self._history)
        other._ae_first = self._ae_first
        other.actions = list(self.actions)
        return other

    def copy(self) -> Self:
        """An independent copy of the game (cheaper than a JSON round trip)."""
        return self._clone()

    def position_key(self) -> str:
        """The columns, face-down counts, stock and removed cards (door/games/hints.py)."""
        columns = "|".join(f"{d}{''.join(map(str, col))}"
                           for col, d in zip(self.columns, self.face_down, strict=True))
        return f"{columns}/{self.stock_count}/{''.join(self.removed)}"

    def move_spots(self, move: str) -> tuple[str, str] | None:
        """A card move's source column and destination (redeals and removals: None)."""
        text = "".join(move.split())
        if ">" not in text or text.startswith("r"):
            return None
        src, dst = text.split(">", 1)
        return src.split(":")[0], dst


# -- history entries in JSON ---------------------------------------------------------------------

def _entry_json(entry: Entry) -> dict[str, Any]:
    kind = entry[0]
    if kind == "m":
        _, src, count, dst, flipped = entry
        return {"action": _step_text(src, count, dst), "flip": flipped}
    if kind == "r":
        _, col, suit, flipped = entry
        return {"action": f"r{column_key(col)}", "suit": suit, "flip": flipped}
    if kind == "d":
        return {"action": DEAL, "to": [col + 1 for col in entry[1]]}
    return {"action": AUTO, "steps": [_step_text(*step) for step in entry[1]]}


def _entry_from_json(data: dict[str, Any]) -> Entry:
    action = data["action"]
    flipped = data.get("flip", False)
    if not isinstance(flipped, bool):
        raise ValueError(f"history flip must be true or false: {data!r}")
    if action == DEAL:
        to = data["to"]
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in to):
            raise ValueError(f"history deal columns must be numbers 1..10: {data!r}")
        return ("d", tuple(c - 1 for c in to))
    if action == AUTO:
        return ("a", tuple(_step_from_text(s) for s in data["steps"]))
    m = _REMOVE_RE.match(action)
    if m:
        suit = data["suit"]
        if suit not in SUITS:
            raise ValueError(f"history removal of an unknown suit: {data!r}")
        return ("r", _column_index(m.group(1)), suit, flipped)
    src, count, dst = _step_from_text(action)
    return ("m", src, count, dst, flipped)


def _step_from_text(text: str) -> tuple[int, int, int]:
    m = _MOVE_RE.match(text)
    if not m or m.group(2) is None:
        raise ValueError(f"history move must be written src:count>dst, got {text!r}")
    return _column_index(m.group(1)), int(m.group(2)), _column_index(m.group(3))


def _entry_columns(entry: Entry) -> list[int]:
    kind = entry[0]
    if kind == "m":
        return [entry[1], entry[3]]
    if kind == "r":
        return [entry[1]]
    if kind == "d":
        return list(entry[1])
    return [c for step in entry[1] for c in (step[0], step[2])]


# -- Auto Ending -------------------------------------------------------------------------------

def auto_ending_plan(columns: list[list[Card]]) -> list[tuple[int, int, int]]:
    """The computer's moves that sort K..A mixed groups into single-suit columns.

    Precondition: every non-empty column is one 13-card K..A group, nothing face down, and
    at most 8 columns are filled, so one column is empty.  Each column keeps the suit of its
    King.  Rank by rank from Queen down to Ace, the tails (rank r down to the Ace) are
    permuted along cycles through the empty column: park one wrong tail there, then fill
    each opened column with a tail whose head is of that column's suit (same suit, so always
    compatible), and finally drop the parked tail where it belongs.  A cycle of L columns
    costs L + 1 moves.  Not optimal (the seed says manual play may score better), but it
    always finishes: at every rank the suits present are the same multiset as the Kings'.
    """
    cols = [list(c) for c in columns]
    steps: list[tuple[int, int, int]] = []

    def move(src: int, count: int, dst: int) -> None:
        steps.append((src, count, dst))
        cols[dst].extend(cols[src][-count:])
        del cols[src][-count:]

    filled = [c for c in range(COLUMNS) if cols[c]]
    target = {c: cols[c][0].suit for c in filled}
    for rank in range(12, 0, -1):
        at = 13 - rank                       # index of the card of this rank
        wrong = [c for c in filled if cols[c][at].suit != target[c]]
        while wrong:
            spare = next(c for c in range(COLUMNS) if not cols[c])
            first = wrong.pop(0)
            parked = cols[first][at].suit
            move(first, rank, spare)
            opened = first
            while target[opened] != parked:
                donor = next(c for c in wrong if cols[c][at].suit == target[opened])
                wrong.remove(donor)
                move(donor, rank, opened)
                opened = donor
            move(spare, rank, opened)
    return steps
