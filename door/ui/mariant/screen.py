"""Mariant on the caller's screen: ten columns, select a group, send it to a column.

Keyboard only.  The column keys ``1`` … ``9``, ``0`` do almost everything, as the mouse did
in the original: the first press selects the column's topmost group, a press on another
column moves the selection there, and pressing the selected column again takes one card
fewer (the last press drops the selection).  Arrows do the same for callers who prefer a
cursor: ← → move it, Enter acts on its column, ↑ ↓ grow or shrink the selection.  A
complete suit is removed with ``R`` and its column, or by pressing its own column again
(the original's "move it to its own column"), and the door offers the removal when a
move or a deal completes one.

Deal (D), Undo (U, with a warning first when the undo would mark the caller a cheater),
Hint (P as in every game, and H, the original's HELP: the solver's next move, its cards
selected and ``ok`` under where they go, so that the destination's key plays it:
door/ui/game/solver_hint.py), "still winnable?" (V, as in the other card games), View (L:
scroll through columns too tall for the screen), Info (I: points, cards to deal, the hall
of fame), removing a complete suit (E, then its column: R is redo in the key map, which
Mariant has not) and
Auto Ending (A, or D with an empty stock; offered by itself the first time it becomes
possible) complete the original's control panel.  Scores are penalty points: the lowest
wins, which the info line, Info and the end box all say.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from typing import Any, ClassVar

from ...catalog import registry as gamelist
from ...games import IllegalMove
from ...games.cards import Card
from ...games.mariant import SUIT_NAMES, Mariant, auto_ending_plan, compatible
from ...session import Session
from ...term import Key
from ..game.screen import GameScreen, play_game
from ..shared import theme
from ..shared.canvas import Canvas
from ..shared.cards import card_label, shown_cards
from ..shared.widgets import box_text, confirm, plural
from .board import (
    CARDS_TOP,
    COLUMNS,
    FACE_OFFSET,
    FITS_MARK,
    INFO_ROW,
    KEYS,
    card_rows,
    column_x,
    draw_cell,
    draw_labels,
    draw_mark,
    fitted_column,
    full_column,
    move_label_cursor,
    view_height,
    view_rows,
    visible_rows,
)
from .keys import KEY_MAP
from .setup import choose_mariant

log = logging.getLogger(__name__)

SUIT_LENGTH = 13
UNDO_LABEL = "U undo"
SCROLL_KEYS = ("up", "down", "pgup", "pgdn", "home", "end")
REMOVE_KEY = "e"
"""Remove a complete suit (then its column): "eliminate", the seed's word; R is redo in
every game's key map (door/ui/shared/keymap.py), which Mariant has not."""
VIEW_KEY = "l"
"""View (look at every row of long columns): V is "still winnable?", as in the other card
games."""
CHEATER_QUESTION = "Undo a card you have seen? You are marked a cheater: no Hit Parade."
"""One line with its "(y/N)" (No unless Y: the mark is for good): a question that wraps
covers the key line, which then has to be sent again (issue #20: the undo of a deal is the
dearest key)."""


def complete_suit(game: Mariant, col: int,
                  visible: list[tuple[int, tuple[Card, ...]]] | None = None) -> str | None:
    """The suit letter if column ``col`` ends with K … A of one suit, face up; else None.
    ``visible``: ``game.visible()`` when the caller has it (it copies every column)."""
    up = (visible or game.visible())[col][1]
    if len(up) < SUIT_LENGTH:
        return None
    tail = up[-SUIT_LENGTH:]
    suit = tail[-1].suit
    if all(c.suit == suit and c.rank == SUIT_LENGTH - i for i, c in enumerate(tail)):
        return suit
    return None


def deal_penalty(game: Mariant) -> tuple[int, int]:
    """(empty columns, points) a DEAL would cost now, by the rule the engine applies."""
    columns, down = game.columns, game.face_down
    filled = [c for c in range(COLUMNS) if columns[c]]
    empty = COLUMNS - len(filled)
    clean = all(down[c] == 0 and game.group_length(c) == len(columns[c]) for c in filled)
    return empty, 0 if clean else 5 * empty


class MariantScreen(GameScreen):
    info = gamelist.MARIANT
    keys = KEY_MAP
    game: Mariant
    instructions_key = False          # I is Info here; Info's I (again) opens the rules
    help_lines: ClassVar[list[str]] = [
        "Build down, one rank at a time, in any suit but the partner suit:",
        "spades never go on clubs nor clubs on spades, hearts never on",
        "diamonds nor diamonds on hearts.  Sort all 104 cards into 8 suits.",
        "",
        "A column key selects the topmost group of that column (cards that",
        "follow down in one suit); a second column key moves it there.  A",
        "complete suit, King down to Ace, leaves the board for free.",
        "Deal puts one card on each column; Auto Ending sorts the rest once",
        "every column is one clean group.",
        "",
        "An undo costs 2 points, and one that takes back a card you have",
        "seen marks you a cheater (the undo key lights up first).",
        "",
        "Points: 1 a move, 2 an undo, 5 per empty column at a deal unless",
        "each column is one clean group.  The LOWEST score wins.",
    ]

    def __init__(self, view: Canvas, game: Any) -> None:
        super().__init__(view, game)
        self.cursor = 0
        self.sel: int | None = None           # the selected column
        self.count = 0                        # how many of its last cards are selected
        self.marks: dict[int, str] = {}       # Help markers, until the next key
        self.viewing = False
        self.scroll = 0
        self.pending_remove = False
        self.suits_seen = self._complete_columns()
        self._marks_drawn: dict[int, int] = {}  # column -> row of the mark drawn under it
        self._labels_cursor: int | None = None  # the column the labels' ► was drawn over

    # -- creating a game ---------------------------------------------------------------------
    @classmethod
    def game_options(cls, session: Session) -> dict[str, Any]:
        settings = session.settings.game_settings("mariant", gamelist.MariantSettings)
        return {"fd": settings.face_down, "fu": settings.face_up}

    @classmethod
    async def choose_game(cls, session: Session) -> Mariant | None:
        """The setup screen: face-down and face-up counts (score counts …%) and the number."""
        return await choose_mariant(session, cls.numbers)

    def header_title(self) -> str:
        game = self.game
        return f"{self.title} #{game.number} ({game.fd} down, {game.fu} up)"

    # -- keys --------------------------------------------------------------------------------
    async def on_key(self, key: Key) -> bool:
        if key.name == "resize":
            return False
        char = key.char.lower() if key.is_char else ""
        if self.viewing:
            if self._view_key(key, char):
                return True
            self.viewing = False              # any other key leaves the view and acts
        self.marks = {}
        if self.pending_remove:
            self.pending_remove = False
            if char and char in KEYS:
                self._remove(KEYS.index(char))
                await self._after_action()
                return True
            if key.name == "esc":
                self.say("No suit removed.")
                return True
        if char and char in KEYS:
            await self._column(KEYS.index(char))
        elif key.name in ("left", "right"):
            self.cursor = (self.cursor + (1 if key.name == "right" else -1)) % COLUMNS
        elif key.name in ("home", "end"):
            self.cursor = 0 if key.name == "home" else COLUMNS - 1
        elif key.name == "enter" or char == " ":
            await self._column(self.cursor)
        elif key.name in ("up", "down"):
            self._resize_selection(1 if key.name == "up" else -1)
        elif key.name in ("esc", "backspace") and self.sel is not None:
            self.sel = None
            self.say("Selection dropped.")
        elif char == "d":
            await self._deal()
        elif char == VIEW_KEY:
            self._start_view()
        elif char == "i":
            await self._info()
        elif char == REMOVE_KEY:
            await self._remove_key()
        elif char == "a":
            await self._auto_ending(offered=False)
        else:
            return False
        return True

    async def hint_key(self) -> None:
        self.sel = None                   # the hint selects its own cards
        self.ask_hint()

    def refuse(self, reason: str) -> None:
        """The engine's reasons name cards as ``6D``: said as the board shows them."""
        super().refuse(shown_cards(reason))

    # -- selecting and moving ----------------------------------------------------------------
    def _selected_cards(self) -> tuple[Card, ...]:
        if self.sel is None:
            return ()
        return self.game.visible()[self.sel][1][-self.count:]

    def _quiet(self) -> None:
        """A selection or a move speaks through the board alone: no message-line bytes."""
        self.note = ""

    async def _column(self, col: int) -> None:
        """A column key (or Enter on the cursor's column): select, move, fewer, remove."""
        game = self.game
        if self.sel is None:
            group = game.group_length(col)
            if not group:
                self.refuse(f"Column {KEYS[col]} is empty: select cards first, then press "
                            f"{KEYS[col]} to put them here.")
                return
            self.sel, self.count = col, group
            self._quiet()
        elif self.sel == col:
            if self.count == SUIT_LENGTH and complete_suit(game, col):
                self._remove(col)
                await self._after_action()
                return
            self._resize_selection(-1)
        else:
            if self.play(f"{KEYS[self.sel]}:{self.count}>{KEYS[col]}"):
                self.sel = None
                await self._after_action()

    def _resize_selection(self, step: int) -> None:
        game = self.game
        if self.sel is None:
            if step < 0:
                self.refuse("Nothing is selected: press a column key 1-0 first.")
                return
            if not game.group_length(self.cursor):
                self.refuse(f"Column {KEYS[self.cursor]} is empty.")
                return
            self.sel, self.count = self.cursor, 1
            self._quiet()
            return
        group = game.group_length(self.sel)
        if self.count + step > group:
            self.refuse(f"The topmost group of column {KEYS[self.sel]} has "
                        f"{plural(group, 'card')}: no more can move together.")
            return
        self.count += step
        if self.count == 0:
            self.sel = None
            self.say("Selection dropped.")
        else:
            self._quiet()

    # -- the control panel -------------------------------------------------------------------
    async def _deal(self) -> None:
        game = self.game
        if not game.stock_count:
            if game.auto_ending_available:
                await self._auto_ending(offered=False)
            else:
                self.play("d")                # the engine says why not
            return
        empty, points = deal_penalty(game)
        if points and not await self._ask(
                f"{plural(empty, 'empty column')}: this deal costs +{points}. Deal anyway?",
                default=False):
            self.say("No deal.")
            return
        self.sel = None
        if self.play("d"):
            if not game.stock_count:
                self.say("That was the last deal: the stock is empty.")
            await self._after_action()

    async def _undo(self) -> None:
        game = self.game
        if not game.can_undo:
            try:
                game.undo()
            except IllegalMove as exc:
                self.refuse(f"No undo: {exc}.")
            return
        if game.undo_flags_cheater and not game.cheater and not await self._ask(
                CHEATER_QUESTION, default=False):
            self.say("Not undone.")
            return
        was_cheater = game.cheater
        try:
            game.undo()
        except IllegalMove as exc:
            self.refuse(f"No undo: {exc}.")
            return
        self.sel = None
        self.suits_seen = self._complete_columns()
        self.say("Undone: +2." + (" Marked a cheater." if game.cheater and not was_cheater
                                  else ""))

    def show_hint(self, move: str) -> str:
        """A hint's move: its cards selected (the destination's key then plays it) and
        ``ok`` under where they go; a removal, a deal or Auto Ending is named."""
        game = self.game
        text = "".join(move.split())
        if text == "d":
            return "deal (D)."
        if text == "auto":
            return "Auto Ending (A)."
        if text.startswith("r"):
            return (f"remove the complete suit of column {text[1:]} "
                    f"({REMOVE_KEY.upper()}, {text[1:]}).")
        src_key, dst_key = text.split(">")
        src, dst = KEYS.index(src_key[0]), KEYS.index(dst_key)
        count = int(src_key[2:]) if ":" in src_key else game.group_length(src)
        cards = game.columns[src]
        if not count or count > len(cards):
            return text
        if self.sel is None:                  # not when the caller picked cards meanwhile
            self.sel, self.count = src, count
        self.marks = {dst: FITS_MARK}
        more = f"+{count - 1}" if count > 1 else ""
        onto = (f"onto {card_label(game.columns[dst][-1])}" if game.columns[dst]
                else f"to empty column {dst_key}")
        return f"{card_label(cards[-count])}{more} {onto}: press {dst_key}."

    def _start_view(self) -> None:
        rows = self.view.screen.rows
        total = view_height(self.game.visible())
        if total <= card_rows(rows):
            self.say("Every card is on the screen already: nothing to scroll.")
            return
        self.viewing, self.scroll = True, 0
        if total <= view_rows(rows):
            self.say(f"View: every card of every column.  {VIEW_KEY.upper()} or Esc goes back "
                     "to play.")
        else:
            self.say(f"View: ↑↓ PgUp PgDn Home End scroll; {VIEW_KEY.upper()} or Esc goes back "
                     "to play.")

    def _view_key(self, key: Key, char: str) -> bool:
        """Scroll the view; False for a key that is not the view's (it leaves the view)."""
        total, height = view_height(self.game.visible()), view_rows(self.view.screen.rows)
        last = max(0, total - height)
        if key.name in SCROLL_KEYS:
            step = {"up": -1, "down": 1, "pgup": -height + 1, "pgdn": height - 1,
                    "home": -total, "end": total}[key.name]
            self.scroll = min(last, max(0, self.scroll + step))
            return True
        if char == VIEW_KEY or key.name == "esc":
            self.viewing = False
            self.say("Back to play: long columns show their first and last cards.")
            return True
        return False

    async def _remove_key(self) -> None:
        game = self.game
        if self.sel is not None and self.count == SUIT_LENGTH and complete_suit(game, self.sel):
            self._remove(self.sel)
            await self._after_action()
            return
        columns = self._complete_columns()
        if not columns:
            self.refuse("No column ends with a complete suit (King down to Ace of one suit).")
            return
        self.pending_remove = True
        self.say(f"Remove a complete suit: press its column ({', '.join(KEYS[c] for c in columns)})"
                 f"; Esc: none.")

    def _remove(self, col: int) -> None:
        suit = complete_suit(self.game, col)
        if self.play(f"r{KEYS[col]}"):
            self.sel = None
            self.say(f"The {SUIT_NAMES[suit or 'S']} of column {KEYS[col]} are off the board "
                     f"(free). {len(self.game.removed)} of 8 suits done.")

    async def _auto_ending(self, offered: bool) -> None:
        game = self.game
        if not game.auto_ending_available:
            self.play("auto")                 # the engine says why not
            return
        steps = len(auto_ending_plan([list(c) for c in game.columns]))
        intro = "Auto Ending is possible now!" if offered else "Auto Ending:"
        if not await self._ask(f"{intro} The door sorts the suits in {steps} moves, "
                               f"+{steps} points. Go?"):
            self.say("Sort them yourself, or press A (or D) for Auto Ending later.")
            return
        self.sel = None
        if self.play("auto"):
            self.say(f"Auto Ending: {plural(steps, 'move')}, +{steps}.")

    async def _ask(self, question: str, default: bool = True) -> bool:
        """Ask on the message line over the board as it stands (``default``: Enter's
        answer; No where a yes costs what cannot be had back)."""
        self.draw()
        return await confirm(self.session, question, default)

    def _complete_columns(self) -> set[int]:
        visible = self.game.visible()
        return {c for c in range(COLUMNS) if complete_suit(self.game, c, visible)}

    async def _after_action(self) -> None:
        """Offer what an action made possible: removing a new complete suit, Auto Ending."""
        game = self.game
        while not game.won:
            new = sorted(self._complete_columns() - self.suits_seen)
            if not new:
                break
            col = new[0]
            self.suits_seen.add(col)
            suit = SUIT_NAMES[complete_suit(game, col) or "S"]
            note = self.note
            if await self._ask(f"Column {KEYS[col]} ends with all the {suit}: remove them "
                               f"(free)?"):
                self._remove(col)
            else:
                self.say(note)
        self.suits_seen &= self._complete_columns()
        if game.auto_ending_offer and not game.won:
            await self._auto_ending(offered=True)

    async def _info(self) -> None:
        """INFO: the points in detail, the cards left to deal, and the hall of fame."""
        game = self.game
        percent = round(game.multiplier * 100)
        lines = [
            f"Points so far {game.raw_points}: {plural(game.moves, 'move')}, "
            f"{plural(game.undos, 'undo')} × 2,",
            f"  {game.deal_penalty} for empty columns at deals, {game.auto_moves} Auto Ending",
            f"Setup {game.fd} down + {game.fu} up: your score counts {percent} %",
            f"Score now {game.raw_points} × {percent} % = {game.score}   (the LOWEST score wins)",
            f"Cards left to deal: {game.stock_count}    Suits off the board: "
            f"{len(game.removed)} of 8",
        ]
        if game.cheater:
            lines.append("Marked a cheater (an undo took back a seen card): not in the hall.")
        lines += ["", *await self._top_ten(), "", "I: how to play · any other key: back"]
        box_text(self.view, lines, title=f"Mariant #{game.number}: info")
        await self.session.show()
        key = await self.session.key()
        if key.is_char and key.char in "iI":
            await self.show_instructions()

    async def _top_ten(self) -> list[str]:
        store = self.session.store
        if store is None:
            return ["Hall of fame: not kept on this door."]
        try:
            entries = await store.scores.top(self.name, 10)
        except Exception as exc:  # the store says why; the game goes on without it
            log.warning("hall of fame unavailable: %s", exc)
            return ["Hall of fame: unavailable right now."]
        if not entries:
            return ["Top 10 (lowest first): nobody yet. Win a game to be the first!"]
        lines = ["Top 10, lowest score first (won games only):"]
        lines += [f"{e.rank:>3}. {e.alias[:24]:<24} {e.score:>6}   game #{e.number}"
                  for e in entries]
        return lines

    # -- the end ---------------------------------------------------------------------------
    def no_moves_words(self) -> str:
        return "Nothing can move and nothing is left to deal."

    def score_words(self) -> str:
        return f"Points so far: {self.game.score} (the lowest score wins)"

    def take_back_words(self) -> str:
        cheat = ", marks you a cheater" if self.game.undo_flags_cheater \
            and not self.game.cheater else ""
        return f"take the last move back (+2 points{cheat})"

    async def offer_take_back(self) -> None:
        await self._undo()

    def resign_question(self) -> str:
        return "Resign? The game ends unwon: only won games enter the Hit Parade."

    def end_notes(self) -> list[str]:
        game = self.game
        percent = round(game.multiplier * 100)
        notes = [f"{game.raw_points} points × {percent} % (setup {game.fd}+{game.fu}).",
                 "In Mariant the LOWEST score wins."]
        if game.cheater:
            notes.append("Marked a cheater: this game stays out of the hall of fame.")
        elif not game.won:
            notes.append("Not won: only won games enter the Hit Parade.")
        return notes

    # -- drawing ---------------------------------------------------------------------------
    def _undo_lit(self) -> bool:
        """U is "lighted" (R-MAR-10): the next undo would mark a cheater (not once over)."""
        game = self.game
        return game.undo_flags_cheater and not game.cheater and not self.is_over

    def key_line_state(self) -> Hashable:
        return (self.key_line, self._undo_lit())

    def draw_key_line(self) -> None:
        super().draw_key_line()
        if self._undo_lit():
            screen = self.view.screen
            at = self.key_line.find(UNDO_LABEL)
            screen.put(screen.rows - 3, 1 + at, UNDO_LABEL.upper(), theme.WARNING)

    def draw_board(self) -> None:
        """The info row, the column keys, each column's cards and each column's mark are
        parts of their own: a pick lights up one column and marks a few others, a move
        redraws two columns."""
        screen, game, parts = self.view.screen, self.game, self.parts
        height = view_rows(screen.rows) if self.viewing else card_rows(screen.rows)
        visible = game.visible()
        self._draw_info(height, visible)
        if parts.changed("labels", self.cursor):
            if parts.full or self._labels_cursor is None:
                draw_labels(screen, self.cursor)
            else:
                move_label_cursor(screen, self._labels_cursor, self.cursor)
            self._labels_cursor = self.cursor
        marks = {} if self.viewing else (self.marks or self._fit_marks())
        redraw, moved = [], []
        for col, (down, up) in enumerate(visible):
            rows = visible_rows((down, up), height)
            if parts.changed(("mark", col), (marks.get(col), rows)):
                moved.append(col)
                old = self._marks_drawn.pop(col, None)
                if old is not None and not parts.full:  # blank it before anything draws
                    screen.put(old, column_x(col) + FACE_OFFSET, "    ")
            selected_from = len(up) - self.count if self.sel == col else None
            # (the column's top group, which fitted_column keeps whole, follows from down, up)
            state = (self.viewing, self.scroll, height, down, up, selected_from)
            if parts.changed(("column", col), state):
                redraw.append((col, down, up, selected_from))
        for col, down, up, selected_from in redraw:
            if self.viewing:
                cells = full_column(down, len(up))[self.scroll:self.scroll + height]
            else:
                cells = fitted_column(down, len(up), height, game.group_length(col))
            for i, cell in enumerate(cells[:height]):
                draw_cell(screen, CARDS_TOP + i, col, cell, up, selected_from)
            parts.shrink(("column", col), CARDS_TOP, column_x(col) + FACE_OFFSET,
                         len(cells[:height]), 4)
        for col in moved:
            if col in marks:
                self._marks_drawn[col] = draw_mark(screen, col, marks[col],
                                                   visible_rows(visible[col], height))
            else:
                self._marks_drawn.pop(col, None)

    def _draw_info(self, height: int, visible: list[tuple[int, tuple[Card, ...]]]) -> None:
        screen, game = self.view.screen, self.game
        if self.viewing:
            total = view_height(visible)
            text = (f"VIEW rows {self.scroll + 1}-{min(total, self.scroll + height)} of "
                    f"{total} · ↑↓ PgUp PgDn scroll · {VIEW_KEY.upper()} back")
            cheater = False
            attr = theme.TITLE
        else:
            percent = round(game.multiplier * 100)
            text = (f"To deal {game.stock_count:<2} · Suits off {len(game.removed)}/8 · Your "
                    f"score counts {percent} % · Lowest wins")
            cheater, attr = game.cheater, theme.LABEL
        if not self.parts.changed("info", (text, attr, cheater),
                                  (INFO_ROW, 0, 1, screen.cols)):
            return
        end = screen.put(INFO_ROW, 1, text, attr)
        if cheater:
            screen.put(INFO_ROW, end + 2, "CHEATER", theme.WARNING)

    def _fit_marks(self) -> dict[int, str]:
        """``ok`` under every column the selection may go to."""
        cards = self._selected_cards()
        if not cards:
            return {}
        columns = self.game.columns
        return {c: FITS_MARK for c in range(COLUMNS)
                if c != self.sel and (not columns[c] or compatible(cards[0], columns[c][-1]))}


async def play_mariant(session: Session) -> None:
    """The main menu's Mariant: resume or set up a deal, play, record, again."""
    await play_game(session, MariantScreen)
