"""Monte Carlo on the caller's screen: the 5 × 5 grid, picking pairs, consolidations shown.

Two ways to pick a pair, both keyboard-only:

* the cursor: arrow keys move the ``[ ]`` brackets, Enter or Space picks the card under them;
* typing positions as the engine writes them, the chess way (docs/notation.md): a column
  letter a–e, then a row number 1–5 (``b2``), twice — ``b2c3`` removes the pair.

Consolidation is the one command that is not a position, so it lives on ``F`` (fill):
``c`` must stay free for column c.  The engine consolidates by itself when no pair is left;
``F`` asks for it earlier in relaxed mode (sysop.ini ``[montecarlo] consolidation``).

A consolidation is shown as it happens: the cards it moved up carry an up mark, the cards
dealt from the stock ``+``, and the legend under the board says how many of each.  The marks
stay until the next consolidation rewrites those faces anyway: a mark is one cell in the
face's own colours, so it costs one byte, where clearing marks at the next key would cost
some 180 bytes on the caller's line (which may be a 2400 baud modem; see
bench/bench_ui_montecarlo.py).

A consolidation rewrites nearly every card of the board in one key (issue #20: at most 300
bytes for 95 % of keys), so three looks are chosen for it.  The up mark is ``↑`` only where
it is one byte (CP437 with glyphs), ``^`` elsewhere (three bytes a card in UTF-8).  Every
face is black on white: pairs go by rank, so red and black told the caller nothing in this
game, and switching colour between the cards a consolidation rewrites cost more than 30
bytes.  The counts sit in the legend, where only their digits change, not on the message
line, where the whole sentence went out each time.
At the end, the solver pool says whether the deal could be won (``solver_view``).

A consolidation that deals from the stock cannot be undone (R-MC-4: it would show the
stock's order), and with it every pair before it.  The seed has the door consolidate by
itself once no pair is left, so the door cannot wait for a key to do it; instead the pair
(or ``F``) that would bring such a consolidation on is asked about first, saying what it
closes, with No for an answer to Enter -- unless nothing would be lost (no pair to take
back and no other pair to choose).
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import compress
from operator import is_not
from typing import Any, ClassVar

from ...catalog import registry as gamelist
from ...games import IllegalMove, Status
from ...games.montecarlo import (
    CELLS,
    CONSOLIDATE,
    SIZE,
    Consolidation,
    MonteCarlo,
    adjacent,
    pair_name,
    parse_position,
    position_name,
)
from ...session import Session
from ...term import Key
from ...term.charset import ASCII_FALLBACK, Charset
from ...term.screen import BLACK, YELLOW, Attr
from ..game.screen import GameScreen, play_game
from ..shared import theme
from ..shared.canvas import Canvas
from ..shared.cards import BLACK_CARD, card_label
from ..shared.keymap import HELP, HINT, QUIT, UNDO
from ..shared.widgets import confirm, plural
from .keys import KEY_MAP

# -- layout (rows and columns on the 80-column screen) ------------------------------------
GRID_TOP = 3                      # the grid's top border
GRID_LEFT = 4                     # the grid's left border (row numbers at column 2)
CELL_WIDTH = 7                    # six cells inside, one border
PANEL_LEFT, PANEL_WIDTH = 44, 34
LEGEND_ROW = GRID_TOP + 2 * SIZE + 2
LEGEND_COUNTS = (8, 27)           # the columns of the legend's two counts (moved, dealt)

# -- looks ----------------------------------------------------------------------------------
CURSOR = theme.HOTKEY
PICKED = Attr(BLACK, YELLOW)
HINTED = theme.HINTED
GAP = theme.DIM
GAP_TEXT = " ·· "
LOOKS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
"""Every cell's look (card, cursor, pick, hint, mark) ever drawn, once: what each caller keeps
of its 25 cells are these shared tuples, a few hundred at most (issue #36: 1.8 KiB a caller
as tuples of its own)."""
FACE = BLACK_CARD                 # every face: red and black mean nothing here (above)
MOVED_MARK, DEALT_MARK = "↑", "+"

ARROWS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
COLUMN_KEYS, ROW_KEYS = "abcde", "12345"
UNDO_KEY, NO_UNDO_KEY = f"{UNDO.label} undo", f"{UNDO.label} none"
STRICT_KEY_LINE, RELAXED_KEY_LINE = KEY_MAP.key_lines()
"""U on the key line: greyed when nothing can be undone (the pairs since cards were last
dealt from the stock, as the panel says), and in monochrome, which cannot grey, worded.
Short: it changes at every consolidation that deals, and back at the next pair."""


def cell_origin(p: int) -> tuple[int, int]:
    """Screen (row, column) of the first of position ``p``'s six inner cells."""
    return GRID_TOP + 1 + 2 * (p // SIZE), GRID_LEFT + 1 + CELL_WIDTH * (p % SIZE)


def mark_glyph(mark: str, charset: Charset) -> str:
    """``mark`` as the caller's charset sends it in one byte, else its ASCII stand-in (the
    charset's own table): ``↑`` in CP437 with glyphs, ``^`` in UTF-8, CP437 and ASCII."""
    return mark if len(charset.encode_char(mark)) == 1 else ASCII_FALLBACK.get(mark, mark)


def closing_deal(game: MonteCarlo, move: str) -> int:
    """The cards the stock deals after ``move`` when that is worth a question first (R-MC-4:
    nothing before it can be undone then); 0 when the move deals none, or when nothing
    would be lost: no pair to take back and no other move that does not deal."""
    dealt = game.deals_after(move)
    if not dealt:
        return 0
    if not game.can_undo and all(game.deals_after(m) for m in game.legal_moves() if m != move):
        return 0
    return dealt


def closing_question(move: str, dealt: int, pairs_before: bool) -> str:
    """What the question before a dealing consolidation says: what is dealt and what can
    no longer be undone, in one row of the message line (≤ 78 columns with ``(y/N)``).
    Two rows covered the key line, and putting it back after the answer cost ~90 bytes of
    the move (bench/bench_ui_montecarlo.py)."""
    what = "This pair" if move != CONSOLIDATE else "Consolidating"
    before = " or the pairs before" if pairs_before else ""
    return f"{what} deals {plural(dealt, 'card')}: no undo of it{before}. Go on?"


def consolidation_summary(event: Consolidation) -> str:
    """``Consolidated: 6 up, 4 dealt`` (the stock's emptiness said plainly).  Terse: the
    marks on the board show which cards, and every byte of it goes out with the move."""
    dealt = f"{len(event.dealt)} dealt" if event.dealt else "none dealt, stock empty"
    return f"Consolidated: {len(event.moves)} up, {dealt}"


class MonteCarloScreen(GameScreen):
    info = gamelist.MONTECARLO
    keys = KEY_MAP
    game: MonteCarlo
    help_lines: ClassVar[list[str]] = [
        "Remove pairs of the same rank that touch: side by side, above",
        "each other or corner to corner.  Suits do not matter.",
        "A card is named by its place, column a-e then row 1-5: b2c3",
        "removes the pair at b2 and c3.",
        "",
        "Undo takes pairs back to the last cards dealt from the stock: a",
        "deal from the stock cannot be undone, so you are asked first.",
        "Consolidating early is allowed only when the sysop says so.",
        "",
        "With no pair left the door consolidates: cards slide up (^ or ↑)",
        "and the stock fills the grid (+); the legend counts them.",
        "Score: A=1 ... K=13 per card removed, 100 more for clearing all 52.",
    ]

    def __init__(self, view: Canvas, game: Any) -> None:
        super().__init__(view, game)
        self.cursor = 0
        self.picked: int | None = None
        self.typed = ""
        self.marks: dict[int, str] = {}     # the last consolidation: position -> mark
        if game.last_consolidation is not None:  # a resumed game shows them as they were
            self._mark(game.last_consolidation)
        self.hinted: tuple[int, ...] = ()

    # -- options and keys --------------------------------------------------------------------
    @classmethod
    def game_options(cls, session: Session) -> dict[str, Any]:
        return {"mode": session.settings.game_settings("montecarlo",
                                                         gamelist.MonteCarloSettings).consolidation}

    @property
    def key_line(self) -> str:
        return RELAXED_KEY_LINE if self.game.relaxed else STRICT_KEY_LINE

    def key_line_state(self) -> Hashable:
        return (self.key_line, self.view.renderer.color)

    def key_marks_state(self) -> Hashable:
        return self._can_undo()

    _undo_known: tuple[MonteCarlo, int, bool] | None = None  # game, actions, undo allowed

    def _can_undo(self) -> bool:
        """Whether U is allowed (it greys on the key line): asked every key, worked out
        again only after an action (every change of the position is one)."""
        game = self.game
        known = self._undo_known
        if known is None or known[0] is not game or known[1] != len(game.actions):
            known = self._undo_known = (game, len(game.actions), game.undo_refusal() is None)
        return known[2]

    def draw_key_marks(self) -> None:
        """U greyed while there is nothing to undo (``U none`` without colour), else as the
        rest of the key line."""
        screen = self.view.screen
        at = self.key_line.find(UNDO_KEY)
        if self._can_undo():
            screen.put(screen.rows - 3, 1 + at, UNDO_KEY, theme.DIM)
        elif self.view.renderer.color:
            screen.put(screen.rows - 3, 1 + at, UNDO_KEY, theme.GREYED)
        else:
            screen.put(screen.rows - 3, 1 + at, NO_UNDO_KEY, theme.DIM)

    async def on_key(self, key: Key) -> bool:
        if key.name == "resize":
            return False
        self.hinted = ()
        char = key.char.lower() if key.is_char else ""
        if key.name in ARROWS:
            self._move_cursor(*ARROWS[key.name])
        elif key.name in ("home", "end"):
            row = self.cursor // SIZE
            self.cursor = row * SIZE + (0 if key.name == "home" else SIZE - 1)
        elif key.name == "enter" or char == " ":
            self.typed = ""
            await self._pick(self.cursor)
        elif char and char in COLUMN_KEYS + ROW_KEYS:
            await self._type(char)
        elif char.isdigit():
            where = f"No square {self.typed}{char}: " if self.typed else ""
            self.typed = ""
            self.refuse(f"{where}a card's place is its column a-e, then its row 1-5: b2.")
        elif key.name == "backspace":
            self._back()
        elif key.name == "esc" and (self.typed or self.picked is not None):
            self.typed, self.picked = "", None
            self.say("Pick dropped.")
        elif char == "f":
            self.typed, self.picked = "", None
            await self._play(CONSOLIDATE)
        else:
            return False
        return True

    # -- actions ---------------------------------------------------------------------------
    def _move_cursor(self, drow: int, dcol: int) -> None:
        row = min(SIZE - 1, max(0, self.cursor // SIZE + drow))
        col = min(SIZE - 1, max(0, self.cursor % SIZE + dcol))
        self.cursor = row * SIZE + col

    async def _type(self, char: str) -> None:
        """A column letter, then a row number, make a position (the chess way: b2)."""
        if char in COLUMN_KEYS:
            self.typed = char        # two letters running: the last one counts
            return
        if not self.typed:
            self.refuse(f"A card's place is its column a-e, then its row 1-5: b{char}.")
            return
        column, self.typed = self.typed, ""
        await self._pick(COLUMN_KEYS.index(column) + SIZE * ROW_KEYS.index(char))

    def _back(self) -> None:
        if self.typed:
            self.typed = self.typed[:-1]
        elif self.picked is not None:
            self.picked = None
        else:
            self.refuse(f"Nothing to take back: {UNDO.label} undoes a move.")

    async def _pick(self, p: int) -> None:
        card = self.game.grid[p]
        if card is None:
            self.refuse(f"There is no card at {position_name(p)}.")
            return
        if self.picked is None:
            self.picked = p
        elif self.picked == p:
            self.picked = None
            self.say("Pick dropped.")
        else:
            first = self.picked
            refusal = self._pair_refusal(first, p)
            if refusal:
                self.picked = None
                self.refuse(refusal)
            else:   # picked until played: under a question first, the pick is not redrawn
                await self._play(pair_name(first, p))  # twice (bench_ui_montecarlo.py)

    def _pair_refusal(self, p: int, q: int) -> str:
        """Why two cards are no pair, naming them as the caller sees them (``9♣``, which
        an ASCII terminal shows as ``9C``); "" when they are one (the engine has the last
        word)."""
        a, b = self.game.grid[p], self.game.grid[q]
        if a is None or b is None or (a.rank == b.rank and adjacent(p, q)):
            return ""
        where = f"{position_name(p)} {card_label(a)} and {position_name(q)} {card_label(b)}"
        if a.rank != b.rank:
            return f"{where} are not the same rank."
        return f"{where} do not touch (side by side, above or corner to corner)."

    async def _closing_agreed(self, move: str) -> bool:
        """Before a move that brings on a consolidation dealing from the stock: say what
        it closes and ask (No unless Y).  True to play it."""
        game = self.game
        dealt = closing_deal(game, move)
        if not dealt:
            return True
        self.draw()                             # the first card still picked (see _pick)
        if await confirm(self.session, closing_question(move, dealt, game.can_undo),
                         default=False):
            return True
        self.say(f"Not played: pick another pair, or {UNDO.label} to take pairs back.")
        return False

    async def _play(self, move: str) -> None:
        """Play a pair or ``c``; say what it removed and what a consolidation did."""
        game = self.game
        agreed = await self._closing_agreed(move)
        self.picked = None
        if not agreed:
            return
        before_events, said = len(game.consolidations), self.note
        if not self.play(move):
            return
        event = game.last_consolidation
        if len(game.consolidations) > before_events and event is not None:
            self._mark(event)
            if not self._legend_shown():  # the legend counts them, when the screen has room
                self.say(consolidation_summary(event))
        elif self.marks and event is not None and said == consolidation_summary(event):
            # The message stays with the marks it explains while nothing replaced it (it
            # then costs nothing); once a hint or an undo has, the legend explains them.
            self.say(said)

    def _mark(self, event: Consolidation) -> None:
        self.marks = {dst: MOVED_MARK for _, dst in event.moves}
        self.marks.update({p: DEALT_MARK for p, _ in event.dealt})

    # -- the end ---------------------------------------------------------------------------
    def no_moves_words(self) -> str:
        return "No pair is left, and consolidating would change nothing."

    async def offer_take_back(self) -> None:
        self._undo()

    def _undo(self) -> None:
        self.typed, self.picked = "", None
        game = self.game
        before_score, before_events = game.score, len(game.consolidations)
        refusal = game.undo_refusal()
        if refusal is not None and "dealt" in refusal:
            self.refuse(f"No undo past cards dealt from the stock: {UNDO.label} undoes the "
                        "pairs taken since.")
            return
        try:
            game.undo()
        except IllegalMove as exc:
            self.refuse(f"No undo: {exc}.")
            return
        if len(game.consolidations) < before_events:
            self.marks = {}
        slid = ", cards slid back" if len(game.consolidations) < before_events else ""
        lost = before_score - game.score
        self.say(f"Undone{slid}: -{lost} points." if lost else f"Undone{slid}.")

    async def hint_key(self) -> None:
        self.typed, self.picked = "", None
        self.ask_hint()

    def show_hint(self, move: str) -> str:
        """A hint's pair lit on the board (the cursor stays where it is: moving it would
        cost its brackets twice), named in a few bytes on the message line."""
        if move == CONSOLIDATE:
            return "consolidate (F)."
        p, q = parse_position(move[:2]), parse_position(move[2:])
        a, b = self.game.grid[p], self.game.grid[q]
        if a is None or b is None:
            return move
        self.hinted = (p, q)
        return f"{move}, {card_label(a)} {card_label(b)}"

    # -- drawing ---------------------------------------------------------------------------
    def draw_board(self) -> None:
        screen, parts = self.view.screen, self.parts
        if parts.changed("labels", self.typed):
            for c in range(SIZE):
                letter = COLUMN_KEYS[c]
                screen.put(GRID_TOP - 1, GRID_LEFT + 3 + CELL_WIDTH * c, letter,
                           theme.SELECTED if self.typed == letter else theme.LABEL)
            for r in range(SIZE):
                digit = ROW_KEYS[r]
                screen.put(GRID_TOP + 1 + 2 * r, GRID_LEFT - 2, digit,
                           theme.SELECTED if self.typed == digit else theme.LABEL)
        if parts.changed("grid", None):  # the frame and the legend never change
            self._draw_grid()
            self._draw_legend()
        for p, face in self._changed_cells():
            self._draw_cell(p, face)
        self._draw_legend_counts()
        self._draw_panel()

    _looks: list[tuple[Any, ...]] | None = None  # each cell's look as last drawn …
    _board: tuple[Any, ...] | None = None  # … the game and marks then …
    _cards: list[Any] | tuple[()] = ()  # … the cards on the grid then (after an action) …
    _actions = -1  # … and how many actions there were
    _lit: frozenset[int | None] = frozenset()  # … and the cells the cursor, pick, hint lit

    def _changed_cells(self) -> list[tuple[int, bool]]:
        """The positions whose look (card, cursor, pick, hint, mark) changed since drawn,
        each with whether more than the cursor's brackets changed there (its face did).
        While the game and the marks are the same, only the cells lit then or now can
        have changed, and those whose card an action since replaced (found by identity,
        in C): a cursor key or a pick costs a few comparisons, a pair or its undo two or
        three looks more, not 25.  New marks (a consolidation) look at every cell."""
        grid, marks, game = self.game.grid, self.marks, self.game
        cursor, picked, hinted = self.cursor, self.picked, self.hinted

        def look(p: int) -> tuple[Any, ...]:
            now = (grid[p], p == cursor, p == picked, p in hinted, marks.get(p))
            return LOOKS.setdefault(now, now)

        board, lit = (game, marks), frozenset((cursor, picked, *hinted))
        looks, old_lit, self._lit = self._looks, self._lit, lit
        if self.parts.full or looks is None or board != self._board:
            new = [look(p) for p in range(CELLS)]
            self._looks, self._board = new, board
            self._cards, self._actions = list(grid), len(game.actions)
            if self.parts.full or looks is None:
                return [(p, True) for p in range(CELLS)]
            return [(p, True) for p in range(CELLS) if new[p] != looks[p]]
        where = old_lit | lit
        if self._actions != len(game.actions):
            where = where.union(compress(range(CELLS), map(is_not, grid, self._cards)))
            self._cards, self._actions = list(grid), len(game.actions)
        changed = []
        for p in sorted(p for p in where if p is not None):
            now, then = look(p), looks[p]
            if now != then:
                looks[p] = now
                changed.append((p, now[0] is not then[0] or now[2:] != then[2:]))
        return changed

    def _draw_grid(self) -> None:
        screen = self.view.screen
        span = ["─" * (CELL_WIDTH - 1)] * SIZE
        for r in range(SIZE + 1):
            left, joint, right = ("┌┬┐" if r == 0 else "└┴┘" if r == SIZE else "├┼┤")
            screen.put(GRID_TOP + 2 * r, GRID_LEFT, left + joint.join(span) + right, theme.FRAME)
        for r in range(SIZE):
            row = GRID_TOP + 1 + 2 * r
            for c in range(SIZE + 1):
                screen.put(row, GRID_LEFT + CELL_WIDTH * c, "│", theme.FRAME)

    def _draw_cell(self, p: int, face: bool = True) -> None:
        """The six cells of position ``p``: the cursor's brackets (or blanks), and the face
        between them unless ``face`` is False (only the cursor came or went)."""
        screen = self.view.screen
        row, col = cell_origin(p)
        if self.cursor == p:
            screen.put(row, col, "[", CURSOR)
            screen.put(row, col + 5, "]", CURSOR)
        else:
            screen.put(row, col, " ")
            screen.put(row, col + 5, " ")
        if not face:
            return
        card = self.game.grid[p]
        if card is None:
            screen.put(row, col + 1, GAP_TEXT, GAP)
            return
        label = card_label(card)
        if p == self.picked:
            screen.put(row, col + 1, f"»{label}«", PICKED)
        elif p in self.hinted:
            screen.put(row, col + 1, f"*{label}*", HINTED)
        else:
            # The mark shares the face's colours: a consolidation rewrites the faces anyway,
            # so the marks cost a byte each and no colour change.
            mark = self.marks.get(p)
            shown = mark_glyph(mark, self.view.renderer.charset) if mark else " "
            screen.put(row, col + 1, f" {label}{shown}", FACE)

    def _draw_panel(self) -> None:
        screen, game = self.view.screen, self.game
        if not self.parts.changed("panel inputs", (game, len(game.actions),
                                                   self.deal_verdict())):
            return  # all it shows comes from these: no action, no verdict since, no change
        top, left = GRID_TOP, PANEL_LEFT
        fill = "consolidate now" if game.relaxed else "(the door consolidates)"
        rows = [  # the score is on the status line: twice, it cost every pair twice
            ("Stock", f"{len(game.stock):>2} cards", theme.BRIGHT),  # 10 to 9: one cell
            ("Consolidate", "relaxed" if game.relaxed else "strict", theme.LABEL),
            ("", "", theme.LABEL),
            (HINT.label, "hint: the solver's move", theme.LABEL),
            (UNDO.label, "undo to the last deal", theme.LABEL),  # greyed on the key line
            ("F" if game.relaxed else "", fill, theme.LABEL),
            (HELP.label, "all the keys", theme.LABEL),
            (QUIT.label, "leave (the game is kept)", theme.LABEL),
        ]
        verdict = self.deal_verdict()
        if game.status is not Status.PLAYING and verdict is not None:
            rows[4:] = [("Deal", verdict.verdict, theme.BRIGHT)]
        if self.parts.changed("panel box", game.number):
            screen.box(top, left, 2 * SIZE + 1, PANEL_WIDTH, theme.FRAME)
            screen.put(top, left + 2, f" Deal #{game.number} ", theme.TITLE)
        if not self.parts.changed("panel", tuple(rows),
                                  (top + 1, left + 1, 2 * SIZE - 1, PANEL_WIDTH - 2)):
            return
        for i, (label, value, attr) in enumerate(rows):
            screen.put(top + 1 + i, left + 2, label,
                       theme.LABEL if len(label) > 1 else theme.HOTKEY)
            col = left + (15 if len(label) > 1 else 6)
            screen.put(top + 1 + i, col, value[: left + PANEL_WIDTH - 2 - col], attr)

    def _legend_shown(self) -> bool:
        """The legend fits under the board (24 rows do; a shorter screen goes without)."""
        return self.view.screen.rows - 4 >= LEGEND_ROW + 4

    def _draw_legend(self) -> None:
        screen = self.view.screen
        row = LEGEND_ROW
        if not self._legend_shown():
            return
        col = screen.put(row, 2, "[", CURSOR)
        col = screen.put(row, col, " K♠ ", FACE)
        col = screen.put(row, col, "]", CURSOR)
        col = screen.put(row, col, " cursor   ", theme.LABEL)
        col = screen.put(row, col, "»7♥«", PICKED)
        col = screen.put(row, col, " picked   ", theme.LABEL)
        col = screen.put(row, col, "*Q♣*", HINTED)
        screen.put(row, col, " hint", theme.LABEL)
        moved = mark_glyph(MOVED_MARK, self.view.renderer.charset)
        col = screen.put(row + 1, 3, f" 5♦{moved}", FACE)
        col = screen.put(row + 1, col, f" {'':>2} moved up   ", theme.LABEL)
        col = screen.put(row + 1, col, f" 9♠{DEALT_MARK}", FACE)
        screen.put(row + 1, col, f" {'':>2} dealt from the stock, at the last consolidation",
                   theme.LABEL)
        screen.put(row + 3, 2, "Remove two cards of the same rank that touch: in a row, a column",
                   theme.LABEL)
        screen.put(row + 4, 2, "or corner to corner.  Type a card's place as column and row: b2.",
                   theme.LABEL)

    def _draw_legend_counts(self) -> None:
        """How many cards each mark is on (the last consolidation's moved and dealt): two
        digits in place, where a sentence on the message line cost ~35 bytes a time; blank
        while no marks show (none yet, or the consolidation was undone)."""
        # Drawn under the marks themselves (a new dict whenever they change: _mark, _undo),
        # so that a key which changes none of them costs one comparison, not a count.
        if not self._legend_shown() or not self.parts.changed("legend counts", self.marks):
            return
        marks = list(self.marks.values())
        counts = [f"{marks.count(MOVED_MARK):>2}", f"{marks.count(DEALT_MARK):>2}"]
        if not marks:
            counts = ["  ", "  "]
        screen, attr = self.view.screen, theme.BRIGHT
        screen.put(LEGEND_ROW + 1, LEGEND_COUNTS[0], counts[0], attr)
        screen.put(LEGEND_ROW + 1, LEGEND_COUNTS[1], counts[1], attr)


async def play_montecarlo(session: Session) -> None:
    """The main menu's Monte Carlo: resume or deal, play, record, again."""
    await play_game(session, MonteCarloScreen)
