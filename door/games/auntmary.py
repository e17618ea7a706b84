"""Aunt Mary: a one-deck Klondike variant with six columns and three passes (docs/rules.md).

The rules, the notation and the JSON form are described in ``docs/auntmary.md``.  In short:

* Deal (R-AM-1): ``shuffled(new_deck(1), number)`` is dealt from its **front**: card 0 goes
  first.  Six rounds of six cards; in round r (1..6) columns 1..r get a face-up card and
  columns r+1..6 a face-down one, so column k ends with k−1 face-down cards under 7−k face-up
  ones.  Cards 36..51 form the stock and card 36 is the first one turned.
* Moves: ``s`` turn a stock card, ``r`` redeal (two allowed: three passes), ``w>3`` / ``w>f``
  waste top to a column / its foundation, ``2>5`` or ``2:3>5`` tableau run, ``2>f`` column top
  home, ``fH>4`` foundation top back to the tableau, ``auto`` finish a won game, ``resign``.
* Score = cards on the foundations (+1 in, −1 out).  No automatic loss (R-AM-2): ``resign``
  ends the game as RESIGNED.  STUCK (no move of any kind left: ``no_moves_left``) and
  ``hopeless`` (moves left, but none can ever raise the score or turn a card, proven:
  ``cannot_win``) leave the choice to the player: take back, or end the game there.
  Unlimited undo and redo (R-AM-4).

The position is an immutable :class:`Position`, so undo and redo are stacks of positions: a
move can never be half undone, and the score and redeal counter travel with the board.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, ClassVar, NamedTuple, Self

from .base import Game, GameRecord, IllegalMove, Status
from .cards import SUITS, Card, new_deck
from .numbers import check_number, shuffled

COLUMNS = 6
PASSES = 3
"""Two redeals: the stock is gone through three times (SEED-AM, AIS ``max-redeal 2``)."""
KING = 13
DEALT = 36
"""Cards dealt to the tableau; the other 16 form the stock."""
HOPELESS_SEARCH_LIMIT = 5000
"""Positions the hopeless test may visit; past this it answers "not proven" (False): it
never raises a false alarm."""


class Position(NamedTuple):
    """One Aunt Mary position.  Every pile is listed bottom to top (the last item is on top)."""

    columns: tuple[tuple[Card, ...], ...]
    down: tuple[int, ...]
    """Face-down cards per column; they are always the bottom ``down[i]`` cards."""
    stock: tuple[Card, ...]
    """``stock[-1]`` is the next card turned."""
    waste: tuple[Card, ...]
    """``waste[-1]`` is the only playable waste card."""
    foundations: tuple[int, ...]
    """Top rank per suit, in ``SUITS`` order (S H D C); 0 = empty.  Holds A..rank of the suit."""
    redeals: int
    """Redeals used so far, 0..2."""
    resigned: bool = False

    @property
    def home(self) -> int:
        """Cards on the foundations, which is the score."""
        return sum(self.foundations)


class Move(NamedTuple):
    """A parsed move.  ``src``/``dst``: column index 0..5, ``"w"``, ``"f"`` or ``"f"+suit``."""

    kind: str            # "s", "r", "auto", "resign" or "move"
    src: int | str | None = None
    cards: int | None = None
    """How many cards of the run move (None: as many as fit)."""
    dst: int | str | None = None

    def __str__(self) -> str:
        if self.kind != "move":
            return self.kind
        src = str(self.src + 1) if isinstance(self.src, int) else str(self.src)
        dst = str(self.dst + 1) if isinstance(self.dst, int) else str(self.dst)
        count = f":{self.cards}" if self.cards is not None else ""
        return f"{src}{count}>{dst}"


_MOVE_RE = re.compile(
    r"(?P<word>s|r|auto|resign)"
    r"|(?P<src>w|[1-6]|f[shdc])(?::(?P<count>[0-9]+))?>(?P<dst>f|[1-6])"
)


def parse_move(text: str) -> Move:
    """Parse notation (case and spaces ignored); IllegalMove with a reason if it is not a move."""
    t = "".join(text.split()).lower()
    m = _MOVE_RE.fullmatch(t)
    if m is None:
        raise IllegalMove(f"not an Aunt Mary move: {text!r}")
    if m["word"]:
        return Move(m["word"])
    src_t, dst_t, count_t = m["src"], m["dst"], m["count"]
    src: int | str = int(src_t) - 1 if src_t.isdigit() else src_t
    if isinstance(src, str) and src.startswith("f"):
        src = "f" + src[1].upper()
    dst: int | str = int(dst_t) - 1 if dst_t.isdigit() else dst_t
    count = int(count_t) if count_t is not None else None
    if count is not None and (not isinstance(src, int) or dst == "f"):
        raise IllegalMove(f"{text!r}: a card count only goes with a column-to-column move")
    if count == 0:
        raise IllegalMove(f"{text!r}: the card count must be at least 1")
    if isinstance(src, str) and src.startswith("f") and dst == "f":
        raise IllegalMove(f"{text!r}: a foundation card can only go back to a column")
    if src == dst:
        raise IllegalMove(f"{text!r}: source and destination are the same column")
    return Move("move", src, count, dst)


# -- pure rules on positions ----------------------------------------------------------------

def fits(card: Card, column: tuple[Card, ...]) -> bool:
    """Can ``card`` (alone or heading a run) be put on this column?  Kings-only spaces."""
    if not column:
        return card.rank == KING
    top = column[-1]
    return top.rank == card.rank + 1 and top.is_red != card.is_red


def goes_home(card: Card, foundations: tuple[int, ...]) -> bool:
    """Is ``card`` the next card of its suit's foundation?"""
    return foundations[SUITS.index(card.suit)] == card.rank - 1


def run_length(column: tuple[Card, ...], down: int) -> int:
    """Length of the top run: face-up cards built down in alternating colours from the top."""
    n = len(column)
    if n == down:
        return 0
    length = 1
    i = n - 1
    while i - 1 >= down:
        below, above = column[i - 1], column[i]
        if below.rank != above.rank + 1 or below.is_red == above.is_red:
            break
        length += 1
        i -= 1
    return length


def _flip(column: tuple[Card, ...], down: int) -> int:
    """Auto flip: the face-down count after a move, turning a face-down top card face up."""
    return len(column) - 1 if column and down >= len(column) else down


def _replace_column(pos: Position, i: int, column: tuple[Card, ...], down: int) -> Position:
    cols = list(pos.columns)
    downs = list(pos.down)
    cols[i], downs[i] = column, down
    return pos._replace(columns=tuple(cols), down=tuple(downs))


def _set_foundation(foundations: tuple[int, ...], suit: str, rank: int) -> tuple[int, ...]:
    f = list(foundations)
    f[SUITS.index(suit)] = rank
    return tuple(f)


def is_won(pos: Position) -> bool:
    return pos.home == 4 * KING


def auto_finish_ready(pos: Position) -> bool:
    """R-AM-3: stock and waste empty, nothing face down, every column one valid run.

    Then the lowest card left is always on top of a column and is the next card of its
    foundation, so the game is certainly won.  "All face up" alone is not enough here.
    """
    if pos.stock or pos.waste or any(pos.down) or is_won(pos):
        return False
    return all(run_length(col, 0) == len(col) for col in pos.columns)


def finish(pos: Position) -> Position:
    """Send every card home, lowest card first (only called when :func:`auto_finish_ready`)."""
    cols = list(pos.columns)
    found = list(pos.foundations)
    while True:
        tops = [(col[-1].rank, i) for i, col in enumerate(cols) if col]
        if not tops:
            break
        _rank, i = min(tops)
        card = cols[i][-1]
        s = SUITS.index(card.suit)
        if found[s] != card.rank - 1:  # cannot happen when auto_finish_ready held
            raise IllegalMove("auto-finish is not possible here")
        found[s] = card.rank
        cols[i] = cols[i][:-1]
    return pos._replace(columns=tuple(cols), foundations=tuple(found))


def _tableau_moves(pos: Position) -> Iterator[Move]:
    """Column-to-column run moves (explicit counts), sources then destinations ascending."""
    for a, col in enumerate(pos.columns):
        length = run_length(col, pos.down[a])
        if not length:
            continue
        for b, dest in enumerate(pos.columns):
            if a == b:
                continue
            n = _fitting_count(col, length, dest)
            if n:
                yield Move("move", a, n, b)


def _fitting_count(col: tuple[Card, ...], length: int, dest: tuple[Card, ...]) -> int:
    """The one number of top-run cards (0 if none) whose head fits on ``dest``."""
    if dest:
        top = dest[-1]
        n = top.rank - 1 - col[-1].rank + 1   # head rank must be top.rank - 1
    else:
        n = KING - col[-1].rank + 1
    if 1 <= n <= length and fits(col[-n], dest):
        return n
    return 0


def _move_run(pos: Position, a: int, n: int, b: int) -> Position:
    col = pos.columns[a]
    rest = col[:-n]
    p = _replace_column(pos, a, rest, _flip(rest, pos.down[a]))
    return _replace_column(p, b, pos.columns[b] + col[-n:], pos.down[b])


def _column_home(pos: Position, a: int) -> Position:
    col = pos.columns[a]
    card = col[-1]
    rest = col[:-1]
    p = _replace_column(pos, a, rest, _flip(rest, pos.down[a]))
    return p._replace(foundations=_set_foundation(pos.foundations, card.suit, card.rank))


def _foundation_down(pos: Position, suit: str, b: int) -> Position:
    rank = pos.foundations[SUITS.index(suit)]
    p = _replace_column(pos, b, pos.columns[b] + (Card(rank, suit),), pos.down[b])
    return p._replace(foundations=_set_foundation(pos.foundations, suit, rank - 1))


def _home_moves(pos: Position) -> Iterator[Move]:
    """Column tops to their foundations, columns ascending."""
    for a, col in enumerate(pos.columns):
        if len(col) > pos.down[a] and goes_home(col[-1], pos.foundations):
            yield Move("move", a, None, "f")


def _down_moves(pos: Position) -> Iterator[Move]:
    """Foundation tops back to the tableau, suits S H D C then columns ascending."""
    for s, rank in enumerate(pos.foundations):
        if not rank:
            continue
        card = Card(rank, SUITS[s])
        for b, dest in enumerate(pos.columns):
            if fits(card, dest):
                yield Move("move", "f" + SUITS[s], None, b)


def _board_moves(pos: Position) -> Iterator[Position]:
    """The positions after every move that involves only the tableau and the foundations."""
    for m in _home_moves(pos):
        assert isinstance(m.src, int)
        yield _column_home(pos, m.src)
    for m in _tableau_moves(pos):
        assert isinstance(m.src, int) and isinstance(m.dst, int) and m.cards
        yield _move_run(pos, m.src, m.cards, m.dst)
    for m in _down_moves(pos):
        assert isinstance(m.src, str) and isinstance(m.dst, int)
        yield _foundation_down(pos, m.src[1], m.dst)


def reachable_stock_cards(pos: Position) -> set[Card]:
    """Cards that can still become the waste top by turning and redealing alone."""
    cards = set(pos.stock)
    if pos.waste:
        cards.add(pos.waste[-1])
        if pos.redeals < PASSES - 1:
            cards.update(pos.waste)
    return cards


def _card_playable(card: Card, pos: Position) -> bool:
    return goes_home(card, pos.foundations) or any(fits(card, col) for col in pos.columns)


def is_hopeless(pos: Position, limit: int = HOPELESS_SEARCH_LIMIT) -> bool:
    """True when the score can never rise again and no new card can ever come into play,
    whatever is played (moves may remain: turning useless stock cards, shuffling runs).

    Precisely: among all positions reachable by tableau and foundation moves alone
    (column to column, column to foundation, foundation to column), none has more cards on
    the foundations, none turns a face-down card, and none lets any card that can still
    become the waste top (:func:`reachable_stock_cards`) be played.  Stock turns and redeals
    change nothing else, so then no sequence of moves can do better than now.  If the search
    passes ``limit`` positions the answer is False (not proven): never a false alarm.
    """
    if pos.resigned or is_won(pos):
        return False
    home, down = pos.home, sum(pos.down)
    stock_cards = reachable_stock_cards(pos)
    start = (pos.columns, pos.foundations)
    seen = {start}
    todo = [pos]
    while todo:
        p = todo.pop()
        if any(_card_playable(c, p) for c in stock_cards):
            return False
        for nxt in _board_moves(p):
            if nxt.home > home or sum(nxt.down) < down:
                return False
            key = (nxt.columns, nxt.foundations)
            if key not in seen:
                if len(seen) >= limit:
                    return False
                seen.add(key)
                todo.append(nxt)
    return True


def deal(number: int) -> Position:
    """The starting position of game ``number`` (R-AM-1, see the module docstring)."""
    deck = shuffled(new_deck(1), number)
    cols: list[list[Card]] = [[] for _ in range(COLUMNS)]
    for i, card in enumerate(deck[:DEALT]):
        cols[i % COLUMNS].append(card)
    return Position(
        columns=tuple(tuple(c) for c in cols),
        down=tuple(range(COLUMNS)),     # column k (1-based) has k-1 face-down cards
        stock=tuple(reversed(deck[DEALT:])),
        waste=(),
        foundations=(0, 0, 0, 0),
        redeals=0,
    )


# -- the engine --------------------------------------------------------------------------------

class AuntMary(Game):
    """Aunt Mary engine: see the module docstring and ``docs/auntmary.md``."""

    name: ClassVar[str] = "auntmary"
    passes: ClassVar[int] = PASSES
    OPTIONS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, number: int, position: Position) -> None:
        super().__init__()
        self.number = number
        self.options = {}
        self.position = position
        self._undo_stack: list[Position] = []
        self._redo_stack: list[Position] = []
        self._hopeless_cache: tuple[Position, bool] | None = None
        self._stuck_cache: tuple[Position, bool] | None = None

    # -- creation ---------------------------------------------------------------------------
    @classmethod
    def new(cls, number: int, **options: Any) -> Self:
        unknown = set(options) - cls.OPTIONS
        if unknown:
            raise ValueError(f"auntmary has no option {', '.join(sorted(unknown))}")
        return cls(check_number(number), deal(number))

    # -- views for the UI -------------------------------------------------------------------
    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        return self.position.columns

    @property
    def face_down(self) -> tuple[int, ...]:
        return self.position.down

    @property
    def stock(self) -> tuple[Card, ...]:
        return self.position.stock

    @property
    def waste(self) -> tuple[Card, ...]:
        return self.position.waste

    @property
    def foundations(self) -> dict[str, int]:
        """Top rank per suit (0 = empty)."""
        return dict(zip(SUITS, self.position.foundations, strict=True))

    @property
    def pass_number(self) -> int:
        """Which pass through the stock this is, 1..3 (for "pass 2 of 3")."""
        return self.position.redeals + 1

    @property
    def redeals_left(self) -> int:
        return PASSES - 1 - self.position.redeals

    @property
    def can_undo(self) -> bool:
        return bool(self._undo_stack) and not self.over

    @property
    def can_redo(self) -> bool:
        return bool(self._redo_stack) and not self.over

    @property
    def over(self) -> bool:
        """Won or resigned: no further action is accepted."""
        return self.position.resigned or is_won(self.position)

    @property
    def auto_finish_available(self) -> bool:
        return not self.over and auto_finish_ready(self.position)

    def top_run_length(self, column: int) -> int:
        """Cards in the movable top run of ``column`` (1-based)."""
        if not 1 <= column <= COLUMNS:
            raise ValueError(f"column must be 1..{COLUMNS}, got {column!r}")
        return run_length(self.position.columns[column - 1], self.position.down[column - 1])

    def send_home(self, source: str | int) -> str | None:
        """The move sending the top card of ``source`` (``"w"`` or a column 1..6) home, or None."""
        src = str(source).strip().lower()
        move = f"{src}>f"
        return move if move in self._home_list() else None

    def deal_move(self) -> str | None:
        """What the stock key does now: ``s`` (turn a card), ``r`` (redeal) or None."""
        pos = self.position
        if self.over:
            return None
        if pos.stock:
            return "s"
        if pos.waste and pos.redeals < PASSES - 1:
            return "r"
        return None

    # -- moves ------------------------------------------------------------------------------
    def _home_list(self) -> list[str]:
        if self.over:
            return []
        pos = self.position
        moves = []
        if pos.waste and goes_home(pos.waste[-1], pos.foundations):
            moves.append("w>f")
        moves.extend(str(m) for m in _home_moves(pos))
        return moves

    def legal_moves(self) -> list[str]:
        """Home moves (waste, then columns), waste to columns, column runs, foundation to
        column, then ``s``/``r``, then ``auto``.  ``resign`` is always accepted but not listed."""
        if self.over:
            return []
        pos = self.position
        moves = self._home_list()
        if pos.waste:
            moves.extend(f"w>{b + 1}" for b, col in enumerate(pos.columns)
                         if fits(pos.waste[-1], col))
        moves.extend(str(m) for m in _tableau_moves(pos))
        moves.extend(str(m) for m in _down_moves(pos))
        turn = self.deal_move()
        if turn:
            moves.append(turn)
        if auto_finish_ready(pos):
            moves.append("auto")
        return moves

    def canonical(self, move: str) -> str:
        """Lower case, no spaces, foundation suit in capitals: ``F h > 4`` -> ``fH>4``."""
        try:
            return str(parse_move(move))
        except IllegalMove:
            return move.strip()

    def _apply(self, move: str) -> None:
        if self.over:
            raise IllegalMove("the game is over")
        new = self._next(self.position, parse_move(move))
        self._undo_stack.append(self.position)
        self._redo_stack.clear()
        self.position = new

    def _next(self, pos: Position, mv: Move) -> Position:
        """The position after ``mv``, or IllegalMove with the reason."""
        if mv.kind == "s":
            if not pos.stock:
                raise IllegalMove("the stock is empty" + (": redeal with r" if
                                  pos.waste and pos.redeals < PASSES - 1 else ""))
            return pos._replace(stock=pos.stock[:-1], waste=pos.waste + pos.stock[-1:])
        if mv.kind == "r":
            if pos.stock:
                raise IllegalMove("the stock is not empty yet")
            if pos.redeals >= PASSES - 1:
                raise IllegalMove(f"no redeal left: this was the last of {PASSES} passes")
            if not pos.waste:
                raise IllegalMove("the waste is empty: nothing to redeal")
            return pos._replace(stock=pos.waste[::-1], waste=(), redeals=pos.redeals + 1)
        if mv.kind == "auto":
            if not auto_finish_ready(pos):
                raise IllegalMove("auto-finish needs an empty stock and waste and every "
                                  "column one run built down in alternating colours")
            return finish(pos)
        if mv.kind == "resign":
            return pos._replace(resigned=True)
        return self._next_card_move(pos, mv)

    def _next_card_move(self, pos: Position, mv: Move) -> Position:
        src, dst = mv.src, mv.dst
        if src == "w":
            if not pos.waste:
                raise IllegalMove("the waste is empty")
            card = pos.waste[-1]
            rest = pos.waste[:-1]
            if dst == "f":
                if not goes_home(card, pos.foundations):
                    raise IllegalMove(f"{card} cannot go to its foundation yet")
                return pos._replace(waste=rest, foundations=_set_foundation(
                    pos.foundations, card.suit, card.rank))
            assert isinstance(dst, int)
            self._check_fits(card, pos.columns[dst], dst)
            p = _replace_column(pos, dst, pos.columns[dst] + (card,), pos.down[dst])
            return p._replace(waste=rest)
        if isinstance(src, str):  # "fS" .. "fC"
            suit = src[1]
            rank = pos.foundations[SUITS.index(suit)]
            if not rank:
                raise IllegalMove(f"the {suit} foundation is empty")
            assert isinstance(dst, int)
            self._check_fits(Card(rank, suit), pos.columns[dst], dst)
            return _foundation_down(pos, suit, dst)
        assert isinstance(src, int)
        col, down = pos.columns[src], pos.down[src]
        if len(col) == down:
            raise IllegalMove(f"column {src + 1} is empty")
        if dst == "f":
            if not goes_home(col[-1], pos.foundations):
                raise IllegalMove(f"{col[-1]} cannot go to its foundation yet")
            return _column_home(pos, src)
        assert isinstance(dst, int)
        length = run_length(col, down)
        n = mv.cards
        if n is None:
            n = _fitting_count(col, length, pos.columns[dst])
            if not n:
                if not pos.columns[dst]:
                    raise IllegalMove(f"only a King or a run headed by a King may go to the "
                                      f"empty column {dst + 1}")
                raise IllegalMove(f"nothing in column {src + 1} fits on {pos.columns[dst][-1]}")
        elif n > length:
            raise IllegalMove(f"column {src + 1} has only {length} card(s) in its top run")
        self._check_fits(col[-n], pos.columns[dst], dst)
        return _move_run(pos, src, n, dst)

    @staticmethod
    def _check_fits(card: Card, column: tuple[Card, ...], dst: int) -> None:
        if fits(card, column):
            return
        if not column:
            raise IllegalMove(f"only a King may go to the empty column {dst + 1}")
        raise IllegalMove(f"{card} does not go on {column[-1]} "
                          "(build down in alternating colours)")

    def _undo(self) -> None:
        if self.over:
            raise IllegalMove("the game is over")
        if not self._undo_stack:
            raise IllegalMove("nothing to undo")
        self._redo_stack.append(self.position)
        self.position = self._undo_stack.pop()

    def _redo(self) -> None:
        if self.over:
            raise IllegalMove("the game is over")
        if not self._redo_stack:
            raise IllegalMove("nothing to redo")
        self._undo_stack.append(self.position)
        self.position = self._redo_stack.pop()

    # -- state ------------------------------------------------------------------------------
    @property
    def score(self) -> int:
        return self.position.home

    @property
    def stuck(self) -> bool:
        """No move of any kind is left: no stock turn or redeal, no card to move anywhere
        (``resign`` is all there is).  Cached per position (screens ask at every frame)."""
        pos = self.position
        if self._stuck_cache is None or self._stuck_cache[0] is not pos:
            self._stuck_cache = (pos, not self.over and not self.legal_moves())
        return self._stuck_cache[1]

    @property
    def hopeless(self) -> bool:
        """See :func:`is_hopeless` (proven by a complete search); cached per position."""
        pos = self.position
        if self._hopeless_cache is None or self._hopeless_cache[0] is not pos:
            self._hopeless_cache = (pos, not self.over and is_hopeless(pos))
        return self._hopeless_cache[1]

    @property
    def status(self) -> Status:
        if is_won(self.position):
            return Status.WON
        if self.position.resigned:
            return Status.RESIGNED
        return Status.STUCK if self.stuck else Status.PLAYING

    @property
    def finished(self) -> bool:
        return self.over

    @property
    def no_moves_left(self) -> bool:
        return self.stuck

    @property
    def cannot_win(self) -> bool:
        return self.hopeless

    def hints(self) -> list[str]:
        """Moves in the AIS ``get-hint`` order (docs/rules.md), best first, no repeats.

        1 an Ace home (waste, then columns); 2 a whole top run onto another column (not a King
        run that is already the whole column); 3 the waste card onto a column; 4 another card
        home (foundations S H D C; source waste, then columns); 5 ``s`` or ``r``; 6 foundation
        cards back down to the tableau.  ``auto`` is not a hint: see auto_finish_available.
        """
        if self.over:
            return []
        pos = self.position
        out: list[str] = []
        home = self._home_list()
        out.extend(m for m in home if self._source_card(m).rank == 1)
        for m in _tableau_moves(pos):
            assert isinstance(m.src, int)
            col, length = pos.columns[m.src], run_length(pos.columns[m.src], pos.down[m.src])
            whole_king = col[-length].rank == KING and length == len(col)
            if m.cards == length and not whole_king:
                out.append(str(m))
        if pos.waste:
            out.extend(f"w>{b + 1}" for b, col in enumerate(pos.columns)
                       if fits(pos.waste[-1], col))
        others = [m for m in home if self._source_card(m).rank > 1]
        out.extend(sorted(others, key=lambda m: SUITS.index(self._source_card(m).suit)))
        turn = self.deal_move()
        if turn:
            out.append(turn)
        out.extend(str(m) for m in _down_moves(pos))
        return list(dict.fromkeys(out))

    def _source_card(self, move: str) -> Card:
        """The card a home move (``w>f`` / ``3>f``) sends."""
        src = move.split(">")[0]
        pos = self.position
        return pos.waste[-1] if src == "w" else pos.columns[int(src) - 1][-1]

    def copy(self) -> Self:
        """An independent copy, undo and redo included (positions are immutable)."""
        other = type(self)(self.number, self.position)
        other._undo_stack, other._redo_stack = list(self._undo_stack), list(self._redo_stack)
        other.actions, other.cheater = list(self.actions), self.cheater
        return other

    def position_key(self) -> str:
        """The cards in their places and the redeals used (door/games/hints.py)."""
        pos = self.position
        columns = "|".join(f"{d}{''.join(map(str, col))}"
                           for col, d in zip(pos.columns, pos.down, strict=True))
        found = "".join(f"{r:x}" for r in pos.foundations)
        return (f"{columns}/{''.join(map(str, pos.waste))}/{len(pos.stock)}/{found}"
                f"/{pos.redeals}{'R' if pos.resigned else ''}")

    def move_spots(self, move: str) -> tuple[str, str] | None:
        """A card move's source and destination (home: the suit's foundation)."""
        try:
            mv = parse_move(move)
        except IllegalMove:
            return None
        if mv.kind != "move":
            return None
        src = str(mv.src)
        if mv.dst == "f":
            pos = self.position
            pile = pos.columns[mv.src] if isinstance(mv.src, int) else pos.waste
            return (src, "f" + pile[-1].suit) if pile else None
        return src, str(mv.dst)

    # -- JSON -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        pos = self.position
        return {
            "game": self.name,
            "number": self.number,
            "options": dict(self.options),
            "tableau": [{"down": [str(c) for c in col[:d]], "up": [str(c) for c in col[d:]]}
                        for col, d in zip(pos.columns, pos.down, strict=True)],
            "stock": [str(c) for c in pos.stock],
            "waste": [str(c) for c in pos.waste],
            "foundations": dict(zip(SUITS, pos.foundations, strict=True)),
            "redeals": pos.redeals,
            "resigned": pos.resigned,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a position.  With actions, they are replayed (giving back undo and redo)
        and must lead to exactly this position; without, the position is taken as it is."""
        if not isinstance(data, dict):
            raise ValueError("auntmary JSON must be an object")
        if data.get("game", cls.name) != cls.name:
            raise ValueError(f"not an auntmary game: {data.get('game')!r}")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        try:
            number = check_number(data["number"])
        except KeyError:
            raise ValueError("auntmary JSON has no number") from None
        pos = _position_from_json(data)
        actions = data.get("actions") or []
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("actions must be a list of strings")
        if not actions:
            cls.new(number, **options)  # validates the options
            return cls(number, pos)
        try:
            game = cls.replay(GameRecord(cls.name, number, dict(options), list(actions)))
        except IllegalMove as exc:
            raise ValueError(f"actions do not replay: {exc}") from None
        if game.position != pos:
            raise ValueError("the position does not match the replayed actions")
        return game


def _cards(value: Any, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list of cards")
    out = []
    for item in value:
        if not isinstance(item, str):
            raise ValueError(f"{what}: not a card: {item!r}")
        out.append(Card.parse(item))
    return out


def _position_from_json(data: dict[str, Any]) -> Position:
    """Parse and validate the position part of the JSON form (see docs/auntmary.md)."""
    try:
        tableau, stock_t, waste_t = data["tableau"], data["stock"], data["waste"]
        found_t, redeals = data["foundations"], data["redeals"]
    except KeyError as exc:
        raise ValueError(f"auntmary JSON lacks {exc}") from None
    resigned = data.get("resigned", False)
    if not isinstance(tableau, list) or len(tableau) != COLUMNS:
        raise ValueError(f"tableau must be a list of {COLUMNS} columns")
    columns, downs = [], []
    for k, col in enumerate(tableau, 1):
        if not isinstance(col, dict) or set(col) - {"down", "up"}:
            raise ValueError(f"column {k} must be an object with 'down' and 'up'")
        down = _cards(col.get("down", []), f"column {k} down")
        up = _cards(col.get("up", []), f"column {k} up")
        if down and not up:
            raise ValueError(f"column {k} has face-down cards but no face-up card")
        columns.append(tuple(down + up))
        downs.append(len(down))
    if not isinstance(found_t, dict) or set(found_t) != set(SUITS):
        raise ValueError(f"foundations must map each of {' '.join(SUITS)} to a rank 0..13")
    found = []
    for s in SUITS:
        r = found_t[s]
        if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= KING:
            raise ValueError(f"foundation {s} must be a rank 0..13, got {r!r}")
        found.append(r)
    if isinstance(redeals, bool) or not isinstance(redeals, int) or not 0 <= redeals < PASSES:
        raise ValueError(f"redeals must be 0..{PASSES - 1}, got {redeals!r}")
    if not isinstance(resigned, bool):
        raise ValueError("resigned must be true or false")
    stock, waste = _cards(stock_t, "stock"), _cards(waste_t, "waste")
    every = [c for col in columns for c in col] + stock + waste
    every += [Card(r, s) for s, top in zip(SUITS, found, strict=True) for r in range(1, top + 1)]
    if len(every) != 52 or len(set(every)) != 52:
        raise ValueError(f"a position needs the 52 cards once each; got {len(every)} cards, "
                         f"{len(set(every))} distinct")
    return Position(tuple(columns), tuple(downs), tuple(stock), tuple(waste), tuple(found),
                    redeals, resigned)
