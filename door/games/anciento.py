"""Anciento (Ishido family): place 72 stones on a board so that neighbours match.

Rules: docs/rules.md (R-ANC-1 … R-ANC-7).  Formats and notation: ``docs/anciento.md``.

* A stone has a shape 0..5 and a pattern 0..5; text form is a shape letter ``A``–``F`` and a
  pattern digit ``1``–``6`` (``C4``).  72 stones = 36 kinds × 2.
* The board is 8 rows × 12 columns (default, R-ANC-1) or 8 × 8 (sysop option).  A square is
  written ``<column><row>``: columns ``a``… left to right, rows ``1``–``8`` top to bottom, so
  ``a1`` is the top-left corner.  A placement is just its square (``e4``); ``end`` ends the game.
* The game is dealt from a game number: the 72 stones in their initial order are shuffled by
  :func:`door.games.numbers.shuffled`; the six start stones are taken greedily from that list
  (R-ANC-7) and the other 66, in shuffled order, form the pouch.

The engine has no clock: when a caller's timer runs out the UI plays ``end``.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple, Self

from .anciento_player import rank_squares
from .anciento_rules import BASE_POINTS, KINDS, Geometry
from .anciento_rules import END as END  # the action that ends a game: part of this API
from .base import Game, IllegalMove, Status
from .numbers import check_number, random_number, shuffled

SHAPES = "ABCDEF"
PATTERNS = "123456"
STONES = 72

SELECT_NUMBERS = range(1, 32001)
"""Numbered games ("Pick a Game" / "Select a Game"), as the seed says."""
RANDOM_NUMBERS = range(32001, 2**31)
"""Unnumbered "Random game" deals: drawn from here, kept in the record, never offered to select."""

BOARDS = {"8x12": (8, 12), "8x8": (8, 8)}
DEFAULT_BOARD = "8x12"

LEFT_BONUS = {0: 1000, 1: 500, 2: 100}
"""End bonus by stones not placed (L counts the current stone)."""
PREVIEW = 4
"""Easy mode shows this many stones after the current one."""


class Stone(NamedTuple):
    """A stone: shape 0..5 and pattern 0..5.  Two stones of the same kind are twins."""

    shape: int
    pattern: int

    @property
    def kind(self) -> int:
        """0..35, shape-major: the stone's index in the documented initial order."""
        return self.shape * 6 + self.pattern

    def __str__(self) -> str:
        return SHAPES[self.shape] + PATTERNS[self.pattern]

    @classmethod
    def parse(cls, text: str) -> Stone:
        """Parse ``C4`` (case-insensitive); ValueError with a readable reason."""
        t = str(text).strip().upper()
        if len(t) != 2 or t[0] not in SHAPES or t[1] not in PATTERNS:
            raise ValueError(f"not a stone: {text!r} (expected shape A-F + pattern 1-6)")
        return cls(SHAPES.index(t[0]), PATTERNS.index(t[1]))

    @classmethod
    def of_kind(cls, kind: int) -> Stone:
        return cls(*divmod(kind, 6))


def new_stones() -> list[Stone]:
    """The 72 stones in the documented initial order: two sets of A1 … A6, B1 … F6."""
    one = [Stone(shape, pattern) for shape in range(6) for pattern in range(6)]
    return one * 2


def start_squares(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """The six start squares (row, column), in the order the start stones are put there.

    Top-left, top-right, bottom-left, bottom-right corner, then the upper-left and the
    lower-right centre square (PySolFC's squares, docs/rules.md).
    """
    mid_r, mid_c = rows // 2 - 1, cols // 2 - 1
    return ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1),
            (mid_r, mid_c), (mid_r + 1, mid_c + 1))


def deal(number: int) -> tuple[list[Stone], list[Stone]]:
    """Return (start stones, pouch) for a game number.

    Walk the shuffled stones from the first; take a stone when neither its shape nor its
    pattern is taken yet, until six are taken (this always succeeds).  The k-th stone taken
    goes to the k-th start square.  The 66 others keep their shuffled order as the pouch.
    """
    stones = shuffled_stones(number)
    shapes: set[int] = set()
    patterns: set[int] = set()
    start: list[Stone] = []
    pouch: list[Stone] = []
    for stone in stones:
        if len(start) < 6 and stone.shape not in shapes and stone.pattern not in patterns:
            start.append(stone)
            shapes.add(stone.shape)
            patterns.add(stone.pattern)
        else:
            pouch.append(stone)
    return start, pouch


def shuffled_stones(number: int) -> list[Stone]:
    """The 72 stones of :func:`new_stones` shuffled by the documented game-number generator."""
    return shuffled(new_stones(), number)


def fits(stone: Stone, neighbours: list[Stone]) -> bool:
    """R-ANC-2: may ``stone`` go on an empty square whose occupied neighbours are these?

    Every neighbour shares the shape or the pattern; with 2 or 3 neighbours at least one
    shares the shape and one the pattern, with 4 at least two and two.  A twin counts for
    both.  No neighbour at all is illegal.
    """
    n = a = b = 0
    shape, pattern = stone
    for other in neighbours:
        same_shape = other[0] == shape
        same_pattern = other[1] == pattern
        if not (same_shape or same_pattern):
            return False
        n += 1
        a += same_shape
        b += same_pattern
    if n == 0:
        return False
    if n == 1:
        return True
    if n == 4:
        return a >= 2 and b >= 2
    return a >= 1 and b >= 1


@cache
def geometry(board: str) -> Geometry:
    """The geometry of a board option ("8x12" or "8x8"); ValueError otherwise."""
    if board not in BOARDS:
        raise ValueError(f"board must be one of {', '.join(BOARDS)}, got {board!r}")
    rows, cols = BOARDS[board]
    neighbours = []
    edge = []
    names = []
    for r in range(rows):
        for c in range(cols):
            around = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
            neighbours.append(tuple(rr * cols + cc for rr, cc in around
                                    if 0 <= rr < rows and 0 <= cc < cols))
            edge.append(r in (0, rows - 1) or c in (0, cols - 1))
            names.append(f"{chr(ord('a') + c)}{r + 1}")
    start = tuple(r * cols + c for r, c in start_squares(rows, cols))
    return Geometry(rows, cols, tuple(neighbours), tuple(edge), tuple(names), start)


def stones_left_bonus(left: int) -> int:
    """End bonus for ``left`` stones not placed (current stone included): 1000/500/100/0."""
    return LEFT_BONUS.get(left, 0)


def quatro_bonus(quatros: int) -> int:
    """End bonus for Q Quatros, R-ANC-3: 0, then 25 × 2^(Q−1)."""
    return 25 * 2 ** (quatros - 1) if quatros > 0 else 0


class Anciento(Game):
    """One game of Anciento.  Moves are squares (``e4``) or ``end``; undo/redo take back/put back.

    Status is PLAYING until ``end`` is played, even when :attr:`is_over` says no stone can
    be placed (the player may still take back).  After ``end`` it is WON when all 72 stones
    were placed, else LOST; the final score is what counts either way.
    """

    name = "anciento"

    def __init__(self, number: int, options: dict[str, Any], geo: Geometry,
                 board: list[Stone | None], sequence: list[Stone]) -> None:
        super().__init__()
        self.number = number
        self.options = options
        self.geo = geo
        self.board = board
        self._seq = sequence          # pouch stones in draw order, placed ones included
        self._pos = 0                 # index in _seq of the current stone
        self._history: list[int] = []  # squares of placements that can be taken back
        self._put_back: list[int] = []  # squares taken back, the next to put back last
        self.points = 0               # placement points so far
        self.quatros = 0
        self.ended = False

    # -- creation -------------------------------------------------------------------------
    @classmethod
    def new(cls, number: int, board: str = DEFAULT_BOARD, easy: bool = False,
            random: bool = False, **unknown: Any) -> Self:
        """Deal game ``number``: 1..32000, or from RANDOM_NUMBERS when ``random`` is true."""
        if unknown:
            raise ValueError(f"unknown Anciento option(s): {', '.join(sorted(unknown))}")
        check_number(number, RANDOM_NUMBERS if random else SELECT_NUMBERS)
        geo = geometry(board)
        if not isinstance(easy, bool) or not isinstance(random, bool):
            raise ValueError("easy and random must be true or false")
        start, pouch = deal(number)
        cells: list[Stone | None] = [None] * geo.size
        for square, stone in zip(geo.start, start, strict=True):
            cells[square] = stone
        options: dict[str, Any] = {"board": board, "easy": easy}
        if random:
            options["random"] = True
        return cls(number, options, geo, cells, pouch)

    @classmethod
    def random_game(cls, board: str = DEFAULT_BOARD, easy: bool = False) -> Self:
        """An unnumbered "Random game": its number (from RANDOM_NUMBERS) is for replay only."""
        return cls.new(random_number(RANDOM_NUMBERS), board=board, easy=easy, random=True)

    # -- what the caller sees --------------------------------------------------------------
    @property
    def easy(self) -> bool:
        """Easy mode: the UI shows :meth:`next_stones`.  Changes nothing in rules or score."""
        return bool(self.options.get("easy"))

    @easy.setter
    def easy(self, on: bool) -> None:
        """Toggle Easy mode during play (the seed's key E); the record keeps the last setting."""
        self.options["easy"] = bool(on)

    @property
    def current(self) -> Stone | None:
        """The stone to place now, or None when the pouch is empty."""
        return self._seq[self._pos] if self._pos < len(self._seq) else None

    def next_stones(self, count: int = PREVIEW) -> list[Stone]:
        """The next ``count`` stones after the current one (what Easy mode shows)."""
        return self._seq[self._pos + 1:self._pos + 1 + count]

    @property
    def stones_left(self) -> int:
        """Stones not placed yet, the current one included (L of R-ANC-3)."""
        return len(self._seq) - self._pos

    @property
    def pouch(self) -> list[Stone]:
        """The stones not on the board, in draw order, the current one first."""
        return self._seq[self._pos:]

    @property
    def bonus(self) -> int:
        """BONUS = 2^(Quatros made so far): the multiplier of the next placement."""
        return 1 << self.quatros

    @property
    def placed(self) -> int:
        """Stones on the board (start stones included)."""
        return sum(1 for stone in self.board if stone is not None)

    def square_name(self, square: int) -> str:
        return self.geo.names[square]

    def parse_square(self, text: str) -> int:
        """Square index of ``e4``-style text; IllegalMove with a reason if it is not one."""
        try:
            return self.geo.names.index(str(text).strip().lower())
        except ValueError:
            last = self.geo.names[-1]
            raise IllegalMove(f"not a square: {text!r} (a1 … {last})") from None

    def neighbours(self, square: int) -> list[Stone]:
        board = self.board
        return [s for s in (board[i] for i in self.geo.neighbours[square]) if s is not None]

    def can_place(self, square: int, stone: Stone | None = None) -> bool:
        """May ``stone`` (default: the current stone) go on ``square`` now?"""
        stone = self.current if stone is None else stone
        if stone is None or self.board[square] is not None:
            return False
        return fits(stone, self.neighbours(square))

    def points_at(self, square: int) -> int:
        """Points a placement on ``square`` scores now (legality not checked)."""
        if self.geo.edge[square]:
            return 0
        return BASE_POINTS[len(self.neighbours(square))] << self.quatros

    def legal_squares(self, stone: Stone | None = None) -> list[int]:
        """Every square ``stone`` (default: the current one) may go on, in row-major order."""
        stone = self.current if stone is None else stone
        if stone is None or self.ended:
            return []
        board = self.board
        out = []
        for square, around in enumerate(self.geo.neighbours):
            if board[square] is None:
                near = [s for s in (board[i] for i in around) if s is not None]
                if near and fits(stone, near):
                    out.append(square)
        return out

    def check(self) -> list[tuple[str, int]]:
        """F6 Check (R-ANC-6): every legal square in row-major order, with its points."""
        return [(self.geo.names[sq], self.points_at(sq)) for sq in self.legal_squares()]

    @property
    def is_over(self) -> bool:
        """True when nothing more can be placed (pouch empty or current stone stuck).

        Information only: the game goes on until ``end``, so the player may still take back.
        """
        return self.ended or self.current is None or not self.legal_squares()

    def legal_moves(self) -> list[str]:
        """Legal squares in row-major order, then ``end`` (always playable until the end)."""
        if self.ended:
            return []
        return [self.geo.names[sq] for sq in self.legal_squares()] + [END]

    def hints(self) -> list[str]:
        """The search player's ranking of the legal squares, best first; ``end`` if none.

        About 40 ms of CPU: a screen asks for it off its event loop."""
        if self.ended:
            return []
        squares = rank_squares(self)
        return [self.geo.names[sq] for sq in squares] if squares else [END]

    # -- score ----------------------------------------------------------------------------
    def end_bonus(self) -> int:
        """Stones-left bonus plus Quatro bonus, as ending now would award them."""
        return stones_left_bonus(self.stones_left) + quatro_bonus(self.quatros)

    @property
    def score(self) -> int:
        """Placement points while playing; the final score (with end bonuses) once ended."""
        return self.points + self.end_bonus() if self.ended else self.points

    @property
    def status(self) -> Status:
        if not self.ended:
            return Status.PLAYING
        return Status.WON if self.stones_left == 0 else Status.LOST

    # -- moves ----------------------------------------------------------------------------
    def canonical(self, move: str) -> str:
        return move.strip().lower()

    def _apply(self, move: str) -> None:
        if self.ended:
            raise IllegalMove("the game has ended")
        text = self.canonical(move)
        if text == END:
            self.ended = True
            return
        square = self.parse_square(text)
        self._place(square)
        self._put_back.clear()

    def end(self) -> None:
        """End the game now (F10, or the caller's timer ran out): the final score counts."""
        self.play(END)

    def _place(self, square: int) -> None:
        stone = self.current
        if stone is None:
            raise IllegalMove("no stone left to place")
        name = self.geo.names[square]
        if self.board[square] is not None:
            raise IllegalMove(f"{name} is taken")
        near = self.neighbours(square)
        if not near:
            raise IllegalMove(f"{stone} on {name} would touch no stone")
        if not fits(stone, near):
            raise IllegalMove(f"{stone} does not match its neighbours on {name}")
        self.points += self.points_at(square)
        if len(near) == 4:
            self.quatros += 1
        self.board[square] = stone
        self._pos += 1
        self._history.append(square)

    def _take_back(self) -> int:
        """Remove the last placement and its points exactly; return its square."""
        square = self._history.pop()
        self.board[square] = None
        self._pos -= 1
        if len(self.neighbours(square)) == 4:
            self.quatros -= 1
        self.points -= self.points_at(square)
        return square

    def _undo(self) -> None:
        if self.ended:
            raise IllegalMove("the game has ended")
        if not self._history:
            raise IllegalMove("nothing to take back")
        self._put_back.append(self._take_back())

    def _redo(self) -> None:
        if self.ended:
            raise IllegalMove("the game has ended")
        if not self._put_back:
            raise IllegalMove("nothing to put back")
        self._place(self._put_back[-1])
        self._put_back.pop()

    @property
    def can_undo(self) -> bool:
        return not self.ended and bool(self._history)

    @property
    def finished(self) -> bool:
        """Ended (``end``, the seed's F10, or the timer): the final score counts."""
        return self.ended

    @property
    def no_moves_left(self) -> bool:
        """No stone can be placed (all 72 are, or the current one fits nowhere), and the
        game is not ended yet: take back, or end it (R-ANC-4)."""
        return not self.ended and self.is_over

    @property
    def can_redo(self) -> bool:
        return not self.ended and bool(self._put_back)

    @property
    def history(self) -> list[str]:
        """The placements that can be taken back, oldest first, as squares."""
        return [self.geo.names[sq] for sq in self._history]

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        rows = []
        for r in range(self.geo.rows):
            cells = self.board[r * self.geo.cols:(r + 1) * self.geo.cols]
            rows.append(" ".join(".." if s is None else str(s) for s in cells))
        names = self.geo.names
        return {
            "game": self.name,
            "number": self.number,
            "options": dict(self.options),
            "board": rows,
            "pouch": [str(s) for s in self.pouch],
            "history": [names[sq] for sq in self._history],
            "redo": [names[sq] for sq in self._put_back],
            "points": self.points,
            "quatros": self.quatros,
            "ended": self.ended,
            "score": self.score,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        try:
            return cls._from_json(data)
        except (KeyError, TypeError, AttributeError, IllegalMove) as exc:
            raise ValueError(f"not an anciento position: {exc}") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> Self:
        if data.get("game", cls.name) != cls.name:
            raise ValueError(f"not an anciento position: game {data.get('game')!r}")
        options = dict(data.get("options") or {})
        board_name = options.get("board", DEFAULT_BOARD)
        geo = geometry(board_name)
        random = options.get("random", False)
        easy = options.get("easy", False)
        if not isinstance(random, bool) or not isinstance(easy, bool):
            raise ValueError("easy and random must be true or false")
        number = check_number(data["number"], RANDOM_NUMBERS if random else SELECT_NUMBERS)
        clean = {"board": board_name, "easy": easy} | ({"random": True} if random else {})
        cells = _parse_board(data["board"], geo)
        pouch = [Stone.parse(s) for s in data["pouch"]]
        _check_stone_set([s for s in cells if s is not None] + pouch)
        history = [_parse_square(t, geo) for t in data.get("history", [])]
        redo = [_parse_square(t, geo) for t in data.get("redo", [])]
        placed = [stone for sq in history if (stone := cells[sq]) is not None]
        if len(set(history)) != len(history) or len(placed) != len(history):
            raise ValueError("history must name distinct occupied squares")
        game = cls(number, clean, geo, cells, placed + pouch)
        game._pos = len(history)
        game.points = _int(data.get("points", 0), "points")
        game.quatros = _int(data.get("quatros", 0), "quatros")
        game._history = list(history)
        game._rebuild_check(redo)
        ended = data.get("ended", False)
        if not isinstance(ended, bool):
            raise ValueError("ended must be true or false")
        game.ended = ended
        game.actions = [str(a) for a in data.get("actions", [])]
        return game

    def _rebuild_check(self, redo: list[int]) -> None:
        """Take back the whole history and put it back, then the redo list: all must be legal."""
        points, quatros = self.points, self.quatros
        history = list(self._history)
        while self._history:
            square = self._history[-1]
            stone = self.board[square]
            self._take_back()
            if not self.can_place(square, stone):
                raise ValueError(f"history: {self.geo.names[square]} was not a legal placement")
        if self.points < 0 or self.quatros < 0:
            raise ValueError("points or quatros do not match the history")
        for square in history:
            self._place(square)
        if (self.points, self.quatros) != (points, quatros):
            raise ValueError("points or quatros do not match the history")
        for square in reversed(redo):
            self._place(square)
        for _ in redo:
            self._take_back()
        self._put_back = list(redo)


def _parse_board(rows: list[str], geo: Geometry) -> list[Stone | None]:
    if not isinstance(rows, list) or len(rows) != geo.rows:
        raise ValueError(f"board must have {geo.rows} rows")
    cells: list[Stone | None] = []
    for row in rows:
        tokens = str(row).split()
        if len(tokens) != geo.cols:
            raise ValueError(f"every board row must have {geo.cols} squares: {row!r}")
        cells.extend(None if t == ".." else Stone.parse(t) for t in tokens)
    return cells


def _parse_square(text: str, geo: Geometry) -> int:
    try:
        return geo.names.index(str(text).strip().lower())
    except ValueError:
        raise ValueError(f"not a square: {text!r}") from None


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer")
    return value


def _check_stone_set(stones: list[Stone]) -> None:
    """Board + pouch must hold each of the 36 kinds exactly twice (72 stones)."""
    counts = [0] * KINDS
    for stone in stones:
        counts[stone.kind] += 1
    if len(stones) != STONES or any(c != 2 for c in counts):
        bad = [str(Stone.of_kind(k)) for k, c in enumerate(counts) if c != 2]
        raise ValueError(f"board + pouch must hold every stone kind twice; wrong: {bad}")
