"""Anciento on the caller's screen: the board, the stones, Check, take back, timer, demo.

The board is a grid of 8 rows × 12 columns (8 × 8 when the sysop says so), each square three
cells wide: a mark, the stone's shape glyph and its pattern digit (``»♦4``; the mark ``»``
shows the last stone placed).  Edge squares, which score nothing, are shaded.  The cursor is
a pair of brackets in place of the square's side lines, so it reads in monochrome and ASCII.

Keys follow the DOS original's F-keys, each with a letter twin: arrows move the cursor (O/F2
skips occupied squares), Enter places the stone, N/F6 checks the fitting squares one by one,
S/F4 saves under a name, W/F3 pauses the timer and T/F5 removes it, M shows the demo player.
The keys every game shares are the key map's (door/ui/shared/keymap.py), the seed's own as aliases:
U (or ``-``) takes back and R (``+``) puts back, X (F10) ends the game and adds the bonuses,
P (F7) asks the search player for a hint (not H: h is a column).
A square is typed the chess way, column letter then row number (``e4``, docs/notation.md):
the letters a–l name columns and are never command keys, on either board size (so the
instructions are ``I`` inside the ``?`` help, not on the board).

When no stone can be placed (the pouch is empty, or the current stone fits nowhere) the game
does not end by itself: take back is still allowed, so the frame's end offer says so and
lets the caller end it (the engine's ``end``), take the stone back, or look first.  After
``end`` the engine is finished: WON (all 72 placed) or LOST, what the frame's ``is_over``
looks for.

A hint is the search player's square for the current stone, worked out in the solver pool
like a demo move: keys work meanwhile (Esc drops the question), the answer is dropped if
the board changed before it came, and the question goes with the caller when they leave.
The square is lit and the cursor put on it, so Enter places the stone there.  Hints shown
are counted with the game (``games.still_asks``, the count of the solver's help the card
games keep for "still winnable?"): the hall of fame marks such games.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import Any, ClassVar

from ...catalog import registry as gamelist
from ...games import IllegalMove, Status
from ...games.anciento import (
    END,
    SELECT_NUMBERS,
    Anciento,
    quatro_bonus,
    stones_left_bonus,
)
from ...games.anciento_player import search_move
from ...session import Session
from ...term import Key
from ...term.digits import is_digit
from ...term.screen import Attr
from ..game.screen import GameScreen, play_game
from ..shared import theme
from ..shared.canvas import Canvas
from ..shared.key_overlay import is_help, show_menu_keys
from ..shared.key_waiter import KeyWaiter
from ..shared.keymap import RESIGN, UNDO, Action
from ..shared.number_input import choice_number
from ..shared.widgets import confirm, plural, read_line
from .keys import KEY_MAP
from .menu import anciento_menu, screen_choices
from .stones import (
    EDGE,
    INSIDE,
    SHAPE_GLYPHS,
    SHAPE_TEXT,
    misfit_reason,
    stone_attr,
    stone_label,
)
from .timer import Timer

# -- layout --------------------------------------------------------------------------------
GRID_TOP = 2                # the grid's top line (column letters on the row above)
GRID_LEFT = 3               # the grid's left line (row numbers two columns to the left)
SQUARE = 4                  # three cells inside, one line
PANEL_LEFT, PANEL_WIDTH = 53, 27
LAST_MARK = "»"
PLAYED, STOPPED, LEFT = "played", "stopped", "left"
"""How a demo move ended (``_demo_move``)."""
log = logging.getLogger(__name__)

DEMO_KEYS = [("Enter Space N", "the demo player's next move"),
             ("R", "let it run (any key stops it)"), ("Esc Q", "leave the demo")]
"""The demo's keys, as ``?`` shows them during it."""
DEMO_KEY = "m"
"""The demo player on a fresh game: "watch the master play" (the seed's sample game).  V is
"still winnable?" in the key map, which Anciento has not."""
HINTED = theme.HINTED
"""The hinted empty square: a lit ``<->`` (the text reads in monochrome too)."""
HINT_THINKING = "Hint: thinking...  keys work meanwhile · Esc drops it."
HINT_QUIET_S = 0.3
"""A hint that comes within this says nothing in between (fewer bytes than a 'thinking')."""

CURSOR = theme.FRAME
"""The cursor's brackets share the grid's colour: a move of the cursor then costs no colour
change on the caller's line (about 15 bytes instead of 30), and brackets read in mono."""

ARROWS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
CORNERS = {"home": (0, 0), "pgup": (0, -1), "end": (-1, 0), "pgdn": (-1, -1)}
COLUMN_LETTERS = "abcdefghijkl"
"""Letters that start a square name on the widest board: never command keys here."""


def square_origin(game: Anciento, square: int) -> tuple[int, int]:
    """Screen (row, column) of the first of a square's three inner cells."""
    row, col = divmod(square, game.geo.cols)
    return GRID_TOP + 1 + 2 * row, GRID_LEFT + 1 + SQUARE * col


class AncientoScreen(GameScreen):
    info = gamelist.ANCIENTO
    keys = KEY_MAP
    game: Anciento
    numbers = SELECT_NUMBERS
    score_on_board = True       # in the panel, beside the BONUS and the stones left
    help_lines: ClassVar[list[str]] = [
        "Put the stone next to stones it matches: every neighbour must share",
        "its shape or its pattern; with 2 or 3 neighbours one of each, with",
        f"4 (a Quatro) two of each.  Shapes {' '.join(SHAPE_GLYPHS)}"
        f" ({' '.join(SHAPE_TEXT)}), patterns 1-6.",
        "",
        "A square is its column letter and row number: e4.  Taking back and",
        "putting back are unlimited and free.  The game ends when you end it",
        "(nothing can be placed, or all is placed): the bonuses are added.",
        "A hint is the search player's square: the hall marks the game.",
        "",
        "Points: 0 on the shaded edge; inside 1 2 4 8 for 1 2 3 4 neighbours,",
        "times BONUS, which doubles after every Quatro.  At the end: 1000,",
        "500 or 100 for 0, 1 or 2 stones left, and 25 for one Quatro,",
        "doubled for each more (50, 100, 200 ...).",
    ]
    instructions_key = False  # i is a column: the help box offers the instructions
    clock = staticmethod(time.monotonic)
    tick: ClassVar[float] = 1.0
    """Longest wait for a key while the timer runs (the clock is redrawn at least this often)."""
    demo_pause: ClassVar[float] = 0.4
    """Seconds between the demo player's moves when it runs by itself."""

    def __init__(self, view: Canvas, game: Anciento, demo: bool = False) -> None:
        super().__init__(view, game)
        choices = screen_choices(view)
        self.demo = demo
        self.cursor = game.geo.start[4]
        self.typed = ""                 # a column letter typed, waiting for its row number
        self.skip = False
        self.check_index = -1
        self.last: int | None = None
        self.timed_out = False
        minutes = 0 if demo else choices.timer_minutes
        self.timer = Timer(minutes, self.clock) if minutes else None
        self._over_told = False
        self._brackets: int | None = None  # the square the cursor's brackets are drawn on
        self.hints = 0                  # hints shown in this game (kept and recorded with it)
        self.hinted: int | None = None  # the last hint's square, lit while the board stays
        self._hint_board: tuple[str, ...] | None = None  # the board the hint is about
        self._hint_job: asyncio.Future[str] | None = None
        self._hint_asked = 0.0
        self._hint_told = False         # "thinking" said for the hint on its way
        self._lit: int | None = None    # the hinted square as drawn
        if game.history:
            self.last = game.geo.names.index(game.history[-1])
            self.cursor = self.last
        if not demo and choices.note:
            self.say(choices.note)
            choices.note = ""

    # -- options, titles, lines ------------------------------------------------------------
    @functools.cached_property
    def waiter(self) -> KeyWaiter:
        """The player's keys across short waits (the clock's ticks, the demo's pauses)."""
        return KeyWaiter(self.session)

    @classmethod
    def game_options(cls, session: Session) -> dict[str, Any]:
        settings = session.settings.game_settings("anciento", gamelist.AncientoSettings)
        return {"board": settings.board, "easy": settings.easy}

    @classmethod
    async def choose_game(cls, session: Session) -> Anciento | None:
        """Random / Pick / Select a game, timer, easy mode, load, demo: the seed's menu."""
        async def play_demo(game: Anciento) -> None:
            await cls(session, game, demo=True).run_demo()

        return await anciento_menu(session, play_demo)

    def header_title(self) -> str:
        game = self.game
        deal = "random game" if game.options.get("random") else f"#{game.number}"
        return f"{self.title} {'demo ' if self.demo else ''}{deal}"

    @property
    def key_line(self) -> str:
        if self.demo:
            return "DEMO  Enter/Space: next move · R: run (any key stops) · Esc: leave the demo"
        return KEY_MAP.key_line()

    # -- the game loop: the frame's, with a clock ------------------------------------------
    async def run(self) -> None:
        self.start_keeping()
        self.session.autosave = self.autosave
        if self.timer:
            self.timer.start()
        self._tell_if_over()            # a loaded or resumed game may be stuck already
        try:
            await self.check_end()
            while not self.is_over:
                self._collect_hint()
                if not self.session.in_burst:  # a pasted burst: only its last keys draw
                    self.draw()
                await self.session.show()
                key = await self._next_key()
                if key is not None and not await self.on_key(key) \
                        and not await self.common_key(key):
                    self.refuse("That key does nothing here: press ? for the keys.")
                if self.timer and self.timer.expired and not self.game.ended:
                    self._time_up()
                if self._hint_job is not None and self._hint_board != self._board_now():
                    self._drop_hint()           # the board moved on: the answer is stale
                if key is not None and not self.session.in_burst and not self.is_over:
                    await self.check_end()
                self.note_moves()
        finally:
            self.session.autosave = None
            self._drop_hint()
            await self.waiter.close()

    async def _next_key(self) -> Key | None:
        """The next key, or None when the shown clock changes first, or a hint comes (the
        loop redraws)."""
        timer = self.timer
        timeout = None
        if timer is not None and timer.running:
            timeout = min(self.tick, timer.next_change(), timer.left() + 0.01)
        job = self._hint_job
        if job is not None and not self._hint_told:
            quiet = HINT_QUIET_S - (time.monotonic() - self._hint_asked)
            if quiet <= 0:
                self._hint_told = True
                self.say(HINT_THINKING)
                return None
            timeout = quiet if timeout is None else min(timeout, quiet)
        if job is None and not self.waiter.waiting:  # the clock's tick: no task, no wait
            return await self.session.key_unless(None, timeout)
        return await self.waiter.get(timeout, unless=job)

    def _time_up(self) -> None:
        self.timed_out = True
        self.game.end()

    @property
    def still_asks(self) -> int:
        """Anciento has no "still winnable?": its count of the solver's help is its hints."""
        return self.hints

    def restore_asks(self, asks: int) -> None:
        self.hints = asks

    def help_note(self) -> str:
        if not self.hints:
            return ""
        return f"{plural(self.hints, 'hint')} used: the hall of fame marks this game."

    def verdict(self) -> str:
        game = self.game
        if self.timed_out:
            return "Time is up: the game is over, like it or not."
        if game.status is Status.WON:
            return "All 72 stones placed!"
        return self.ended_here or f"Game ended with {plural(game.stones_left, 'stone')} " \
            "not placed."

    # -- the end offer ----------------------------------------------------------------------
    def no_moves_words(self) -> str:
        stone = self.game.current
        if stone is None:
            return "All 72 stones are placed!"
        return f"{stone_label(stone)} fits nowhere: no stone can be placed."

    def score_words(self) -> str:
        game = self.game
        return f"Score so far: {game.points}, and {game.end_bonus()} more as the game ends"

    def take_back_words(self) -> str:
        return "take the last stone back"

    async def offer_take_back(self) -> None:
        self.take_back()

    def end_here(self, reason: str) -> None:
        super().end_here(reason)
        self.play(END)

    def end_notes(self) -> list[str]:
        game = self.game
        left, quatros = stones_left_bonus(game.stones_left), quatro_bonus(game.quatros)
        notes = [f"Placements {game.points} + stones-left bonus {left}"
                 f" + Quatro bonus {quatros} ({plural(game.quatros, 'Quatro')})"]
        if self.ended_here and game.stones_left and not self.timed_out:
            notes.insert(0, f"Game ended with {plural(game.stones_left, 'stone')} not placed.")
        return notes

    # -- keys ------------------------------------------------------------------------------
    async def on_key(self, key: Key) -> bool:
        char = key.char.lower() if key.is_char else ""
        if self._hint_job is not None and key.name == "esc" and not self.typed:
            self._drop_hint()
            self.say("Hint dropped.")
            return True
        if char and char in COLUMN_LETTERS:
            self._type_column(char)
            return True
        if self.typed:
            column, self.typed = self.typed, ""
            if is_digit(char):
                self._type_row(column, char)
                return True
            if key.name in ("esc", "backspace"):
                self.say("Typed column dropped.")
                return True
        elif is_digit(char):
            shown = char if choice_number(char, self.game.geo.rows) is not None else "4"
            self.refuse(f"A square is its column letter, then its row (1 to "
                        f"{self.game.geo.rows}): e{shown}.")
            return True
        checking = False
        if key.name in ARROWS:
            self._move(*ARROWS[key.name])
        elif key.name in CORNERS:
            row, col = CORNERS[key.name]
            geo = self.game.geo
            self.cursor = (row % geo.rows) * geo.cols + col % geo.cols
        elif char == "*":
            self.cursor = self.game.geo.start[4]
        elif key.name in ("enter", "ins") or char == " ":
            self.place(self.cursor)
        elif char == "n" or key.name == "f6":
            self.check()
            checking = True
        elif char == "s" or key.name == "f4":
            await self.save()
        elif char == DEMO_KEY:
            await self.demo_here()
        elif char == "o" or key.name == "f2":
            self.skip = not self.skip
            self.say(f"Skip occupied squares: {'on' if self.skip else 'off'}.")
        elif char == "w" or key.name == "f3":
            self.wait()
        elif char == "t" or key.name == "f5":
            self.toggle_timer()
        else:
            return False
        if not checking:
            self.check_index = -1
        return True

    def _type_column(self, char: str) -> None:
        """A column letter starts a square name (a second letter replaces the first)."""
        cols = self.game.geo.cols
        if COLUMN_LETTERS.index(char) >= cols:
            self.typed = ""
            self.refuse(f"No column {char}: the columns are a to {COLUMN_LETTERS[cols - 1]}.")
            return
        self.typed = char           # its column letter lights up: that says enough

    def _type_row(self, column: str, char: str) -> None:
        geo = self.game.geo
        row = choice_number(char, geo.rows)
        if row is None:
            self.refuse(f"No square {column}{char}: the rows are 1 to {geo.rows}.")
            return
        self.check_index = -1
        self.cursor = (row - 1) * geo.cols + COLUMN_LETTERS.index(column)
        self.place(self.cursor)

    def _move(self, drow: int, dcol: int) -> None:
        geo, board = self.game.geo, self.game.board
        row, col = divmod(self.cursor, geo.cols)
        while True:
            row, col = row + drow, col + dcol
            if not (0 <= row < geo.rows and 0 <= col < geo.cols):
                if not self.skip:
                    return
                self.refuse("No empty square that way.")
                return
            if not self.skip or board[row * geo.cols + col] is None:
                self.cursor = row * geo.cols + col
                return

    # -- actions ---------------------------------------------------------------------------
    def place(self, square: int) -> None:
        game = self.game
        name = game.square_name(square)
        stone = game.current
        if stone is None:
            self.refuse(f"Every stone is placed: press {RESIGN.label} to end the game and "
                        "collect the bonus.")
            return
        taken = game.board[square]
        if taken is not None:
            self.refuse(f"{name} is taken by {stone_label(taken)}.")
            return
        near = game.neighbours(square)
        if not game.can_place(square):
            self.refuse(misfit_reason(stone, near, name))
            return
        points = game.points_at(square)
        if not self.play(name):
            return
        self.last = square
        if len(near) == 4:
            self.say(f"Quatro! {stone_label(stone)} on {name} scores {points}; "
                     f"BONUS is now x{game.bonus}.")
        self._tell_if_over()

    def _tell_if_over(self) -> None:
        """R-ANC-4: nothing more can be placed, but only X (or a take back) ends it."""
        game = self.game
        if game.ended or not game.is_over:
            self._over_told = False
            return
        if game.current is None:
            self.say(f"All 72 stones are placed! Press {RESIGN.label} to end the game and "
                     "collect 1000.")
        else:
            self.say(f"{stone_label(game.current)} fits nowhere: take back ({UNDO.label}) or "
                     f"end the game ({RESIGN.label}).")
        if not self._over_told:
            self.session.bell()
            self._over_told = True

    def check(self) -> None:
        game = self.game
        squares = game.check()
        if not squares:
            if game.current is None:
                self.refuse(f"Every stone is placed: press {RESIGN.label} to end the game.")
            else:
                self.refuse(f"{stone_label(game.current)} fits nowhere: take back "
                            f"({UNDO.label}) or end the game ({RESIGN.label}).")
            return
        self.check_index = (self.check_index + 1) % len(squares)
        name, points = squares[self.check_index]
        square = game.geo.names.index(name)
        self.cursor = square
        quatro = " (a Quatro)" if len(game.neighbours(square)) == 4 else ""
        self.say(f"Check {self.check_index + 1} of {len(squares)}: {name} scores "
                 f"{plural(points, 'point')}{quatro}.  N: next · Enter: place.")

    async def resign(self) -> None:
        """X (or F10): the seed's End, the key map's resign."""
        await self.end_game()

    async def shared_key(self, action: Action, key: Key) -> None:
        """The key map's keys, as any key but N: Check starts again from its first square."""
        self.check_index = -1
        await super().shared_key(action, key)

    async def redo_key(self) -> None:
        self.put_back()

    def take_back(self) -> None:
        game = self.game
        if not game.history:
            self.refuse("Nothing to take back: the six start stones stay." if not game.ended
                        else "The game has ended.")
            return
        square = game.geo.names.index(game.history[-1])
        stone = game.board[square]
        game.undo()
        self.cursor = square
        self.last = game.geo.names.index(game.history[-1]) if game.history else None
        self.say(f"Took back {stone_label(stone)} from {game.square_name(square)}."
                 if stone else "Took back.")
        self._tell_if_over()

    def put_back(self) -> None:
        game = self.game
        try:
            game.redo()
        except IllegalMove as exc:
            self.refuse(f"Nothing to put back: {exc}." if "nothing" not in str(exc)
                        else "Nothing to put back.")
            return
        square = game.geo.names.index(game.history[-1])
        self.cursor = self.last = square
        stone = game.board[square]
        self.say(f"Put back {stone_label(stone)} on {game.square_name(square)}."
                 if stone else "Put back.")
        self._tell_if_over()

    async def end_game(self) -> None:
        """X or F10: the seed's End.  With stones still to place it asks first (No unless
        Y): what ending throws away is every stone not placed yet."""
        game = self.game
        reason = self.end_reason()
        if reason:
            await self.offer_end(reason)
            return
        self.draw()
        if not await confirm(self.session, f"End the game now? The {game.stones_left} stones "
                             "left are never placed.", default=False):
            self.say("The game goes on.")
            return
        self.play(END)

    def wait(self) -> None:
        if self.timer is None or self.timer.removed:
            self.refuse("No timer is running: set one in the Anciento menu (T) before a game.")
            return
        paused = self.timer.toggle_pause()
        self.say("Timer paused: W starts it again." if paused else "Timer running again.")

    def toggle_timer(self) -> None:
        if self.timer is None:
            self.refuse("No timer was set: choose one in the Anciento menu (T) before a game.")
            return
        removed = self.timer.toggle_removed()
        self.say("Timer removed: no time limit.  T puts it back, with the full time."
                 if removed else f"Timer back: {plural(self.timer.minutes, 'minute')}.")

    async def save(self) -> None:
        store, player = self.session.store, self.session.player
        if store is None or player is None:
            self.refuse("Saving is unavailable: this door has no saved-games database.")
            return
        self.draw()
        self.note = ""
        row = self.view.screen.rows - 2
        self.view.screen.put(row, 0, " " * self.view.screen.cols)
        name = await read_line(self.session, row, 1, "Save this game as: ", 24)
        self.view.screen.cursor = None
        if not name or not name.strip():
            self.say("Not saved.")
            return
        if await self._save_taken(name) and not await confirm(
                self.session, f"Replace your save \"{name.strip()}\"? The game saved under "
                "that name is lost.", default=False):
            self.say("Not saved: choose another name (S).")
            return
        try:
            stored = await store.saves.save_named(player.id, self.name, name, self.game.to_json())
        except ValueError as exc:          # SaveRefused: no name, or too many saves
            self.refuse(f"Not saved: {exc}.")
        except Exception:                  # the store logs why; the game goes on
            self.refuse("Saving is unavailable right now; your game goes on.")
        else:
            self.say(f"Saved as \"{stored}\": load it from the Anciento menu (L).")

    async def _save_taken(self, name: str) -> bool:
        """Whether a save of that name (whatever its case) exists: saving replaces it."""
        store, player = self.session.store, self.session.player
        if store is None or player is None:
            return False
        try:
            saves = await store.saves.list_named(player.id, self.name)
        except Exception:                  # the store logs why; the save itself will say
            return False
        key = " ".join(name.split()).lower()
        return any(save.name.lower() == key for save in saves)

    # -- the hint --------------------------------------------------------------------------
    def _board_now(self) -> tuple[str, ...]:
        """What a hint is about: the placements so far (the deal fixes everything else)."""
        return tuple(self.game.history)

    def ask_hint(self) -> None:
        """Send the board to the search player (in the solver pool); the answer is shown by
        :meth:`_collect_hint` when it comes.  The same board's hint again costs nothing."""
        game = self.game
        if game.ended or game.current is None or game.is_over:
            self._tell_if_over()
            return
        board = self._board_now()
        if self._hint_job is not None:
            self.say(HINT_THINKING)
            return
        if self.hinted is not None and self._hint_board == board:
            self.cursor = self.hinted
            self.say(f"Hint: {game.square_name(self.hinted)}.")
            return
        self.hinted, self._hint_board = None, board
        self._hint_asked, self._hint_told = time.monotonic(), False
        self._hint_job = asyncio.ensure_future(self._search_move())

    def _collect_hint(self) -> None:
        """A hint that came: light its square, put the cursor on it, count it."""
        job = self._hint_job
        if job is None or not job.done():
            return
        self._hint_job = None
        if job.cancelled():
            return
        try:
            move = job.result()
        except Exception:               # logged by _search_move's callers' pool
            log.exception("the hint could not be worked out")
            self.refuse("No hint right now: the search player could not be asked.")
            return
        if move == END or self._hint_board != self._board_now():
            return
        self.hinted = self.cursor = self.game.geo.names.index(move)
        self.check_index = -1
        self.hints += 1
        self.still_asked()              # the count goes into the resume slot
        self.say(f"Hint: {move}.")

    def _drop_hint(self) -> None:
        """Forget the hint on its way: its pool job is cancelled (the worker killed)."""
        job, self._hint_job = self._hint_job, None
        if job is not None and not job.done():
            job.cancel()

    async def demo_here(self) -> None:
        game = self.game
        if game.history or game.can_redo:
            self.refuse("The demo plays a fresh game: start a new one, or choose D in the menu.")
            return
        copy = Anciento.from_json(game.to_json())
        await AncientoScreen(self.session, copy, demo=True).run_demo()
        self.view.renderer.invalidate()
        self.say("Back to your game: the demo changed nothing here.")

    # -- the demo --------------------------------------------------------------------------
    async def run_demo(self) -> None:
        """The demo player plays this (throw-away) game move by move; never recorded."""
        game, running = self.game, False
        self.say("The demo player sees what you see.  Enter: next move · R: run.")
        try:
            while not game.is_over:
                self.draw()
                await self.session.show()
                if running:
                    key = await self.waiter.get(self.demo_pause)
                    if key is not None:
                        running = False
                        self.say("Stopped.  Enter: next move · R: run · Esc: leave.")
                        continue
                else:
                    key = await self.waiter.get()
                    assert key is not None
                    char = key.char.lower() if key.is_char else ""
                    if key.name == "esc" or char == "q":
                        return
                    if char == "r":
                        running = True
                    elif is_help(key):
                        self.draw()
                        await show_menu_keys(self.session, "The demo", DEMO_KEYS)
                        continue
                    elif key.name != "enter" and char not in (" ", "n"):
                        if key.name != "resize":
                            self.refuse("Enter or Space: next move · R: run · Esc: leave.")
                        continue
                played = await self._demo_move()
                if played == LEFT:
                    return
                if played == STOPPED and running:   # a key came while it was thinking
                    running = False
                    self.say("Stopped.  Enter: next move · R: run · Esc: leave.")
            game.end()
            self.say(f"Demo over: final score {game.score}, {plural(game.placed, 'stone')} "
                     f"on the board.  Press any key.")
            self.draw()
            await self.session.show()
            await self.waiter.get()
        finally:
            await self.waiter.close()

    async def _demo_move(self) -> str:
        """Ask the solver pool for the search player's move and play it: PLAYED.  Keys are
        answered while it is worked out: Esc or Q leaves (LEFT, the job is cancelled), any
        other key stops a run (STOPPED, the move is still played)."""
        game = self.game
        stone = game.current
        assert stone is not None
        job = asyncio.ensure_future(self._search_move())
        outcome = PLAYED
        try:
            while not job.done():
                key = await self.waiter.get_unless(job)
                if key is None:
                    continue
                char = key.char.lower() if key.is_char else ""
                if key.name == "esc" or char == "q":
                    return LEFT
                if key.name != "resize":
                    outcome = STOPPED
                    self.say("The demo player is thinking...  Esc: leave the demo.")
                    self.draw()
                    await self.session.show()
        finally:
            if not job.done():
                job.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await job
        move = job.result()
        square = game.geo.names.index(move)
        points, quatro = game.points_at(square), len(game.neighbours(square)) == 4
        game.play(move)
        self.cursor = self.last = square
        self.say(f"Demo: {stone_label(stone)} on {move}, {plural(points, 'point')}"
                 f"{'  Quatro! BONUS x' + str(game.bonus) if quatro else ''}.")
        return outcome

    async def _search_move(self) -> str:
        """The search player's move, from the solver pool (never on the event loop); in a
        thread when the pool cannot be asked (logged)."""
        try:
            move = await self.session.solvers.player_move("anciento", self.game.to_json())
        except (OSError, ValueError, ConnectionError, RuntimeError) as exc:
            log.warning("solver pool unavailable for the demo move: %s", exc)
            move = None
        if move is None:
            move = await asyncio.to_thread(search_move, self.game)
        return move

    # -- drawing ---------------------------------------------------------------------------
    def draw_board(self) -> None:
        """The column letters, each square, the cursor's brackets and the panel are parts
        of their own; the grid lines, row numbers and legend never change."""
        screen, game, parts = self.view.screen, self.game, self.parts
        geo = game.geo
        if parts.changed("letters", self.typed):
            for c in range(geo.cols):
                letter = COLUMN_LETTERS[c]
                screen.put(GRID_TOP - 1, GRID_LEFT + 2 + SQUARE * c, letter,
                           theme.SELECTED if self.typed == letter else theme.LABEL)
        if parts.changed("grid", None):
            self._draw_grid()
        last = self.last if self.demo else None
        hinted = self._lit = self.hinted if self._hint_board == self._board_now() else None
        if parts.changed("stones", (tuple(game.board), last, hinted)):
            board = game.board
            looks = [(board[square], square in (last, hinted))
                     for square in range(geo.size)]
            for square in parts.changed_items("squares", looks):
                self._draw_square(square)
        if parts.changed("cursor", self.cursor):
            if not parts.full and self._brackets is not None:  # the lines they covered
                row, col = square_origin(game, self._brackets)
                screen.put(row, col - 1, "│", theme.FRAME)
                screen.put(row, col + 3, "│", theme.FRAME)
            row, col = square_origin(game, self.cursor)
            screen.put(row, col - 1, "[", CURSOR)
            screen.put(row, col + 3, "]", CURSOR)
            self._brackets = self.cursor
        self._draw_panel()

    def _draw_grid(self) -> None:
        screen, geo = self.view.screen, self.game.geo
        span = ["───"] * geo.cols
        for r in range(geo.rows + 1):
            left, joint, right = ("┌┬┐" if r == 0 else "└┴┘" if r == geo.rows else "├┼┤")
            screen.put(GRID_TOP + 2 * r, GRID_LEFT, left + joint.join(span) + right,
                       theme.FRAME)
        for r in range(geo.rows):
            row = GRID_TOP + 1 + 2 * r
            screen.put(row, GRID_LEFT - 2, str(r + 1), theme.LABEL)
            screen.put(row, GRID_LEFT, "│" * (SQUARE * geo.cols + 1), theme.FRAME)
        legend = GRID_TOP + 2 * geo.rows + 1
        if legend < screen.rows - 3:
            screen.put(legend, GRID_LEFT - 2,
                       f"Shapes {' '.join(SHAPE_GLYPHS)}  patterns 1-6 (by colour)  "
                       "shaded: the edge, 0 points", theme.DIM)

    def _draw_square(self, square: int) -> None:
        screen, game = self.view.screen, self.game
        row, col = square_origin(game, square)
        edge = game.geo.edge[square]
        stone = game.board[square]
        if stone is None and square == self._lit:
            screen.put(row, col, "<->", HINTED)
        elif stone is None:
            screen.put(row, col, "   ", EDGE if edge else INSIDE)
        else:
            # The demo marks its last move; in play the cursor stays on the stone just put.
            mark = LAST_MARK if self.demo and square == self.last else " "
            screen.put(row, col, mark + stone_label(stone), stone_attr(stone, edge))

    def _draw_panel(self) -> None:
        screen, game = self.view.screen, self.game
        top, left, width = 1, PANEL_LEFT, PANEL_WIDTH
        lines: list[tuple[str, str, Attr]] = []
        stone = game.current
        if game.ended:
            lines.append(("Stone", "game over", theme.LABEL))
        elif stone is None:
            lines.append(("Stone", "none left", theme.LABEL))
        else:
            lines.append(("Stone", "", theme.LABEL))
        if game.easy:
            lines.append(("Next", "", theme.LABEL))
        lines += [
            ("", "", theme.LABEL),
            ("Score", f"{game.score}", theme.BRIGHT),  # here only (score_on_board)
            ("BONUS", f"x{game.bonus}", theme.BRIGHT),
            ("Quatros", f"{game.quatros}", theme.BRIGHT),
            ("Stones left", f"{game.stones_left}", theme.BRIGHT),
            ("Timer", self.timer.text() if self.timer else "off", theme.BRIGHT),
            ("Skip taken", "on" if self.skip else "off", theme.LABEL),
            ("Easy mode", "on" if game.easy else "off", theme.LABEL),
            ("Board", f"{game.geo.rows} x {game.geo.cols}", theme.LABEL),
        ]
        parts = self.parts
        if parts.changed("panel box", (len(lines), self.demo)):
            screen.box(top, left, len(lines) + 2, width, theme.FRAME)
            screen.put(top, left + 2, " Demo " if self.demo else " Your stone ", theme.TITLE)
        upcoming = tuple(game.next_stones(4)) if game.easy and not game.ended else ()
        if not parts.changed("panel", (tuple(lines), stone, game.ended, upcoming),
                             (top + 1, left + 1, len(lines), width - 2)):
            return
        for i, (label, value, attr) in enumerate(lines):
            row = top + 1 + i
            screen.put(row, left + 2, label, theme.LABEL)
            screen.put(row, left + 14, value[: width - 16], attr)
        if stone is not None and not game.ended:
            col = screen.put(top + 1, left + 9, "[", theme.FRAME)
            col = screen.put(top + 1, col, stone_label(stone), stone_attr(stone))
            screen.put(top + 1, col, "]", theme.FRAME)
        col = left + 9
        for nxt in upcoming:
            col = screen.put(top + 2, col, stone_label(nxt), stone_attr(nxt)) + 1


async def play_anciento(session: Session) -> None:
    """The main menu's Anciento: resume or the Anciento menu, play, record, again."""
    await play_game(session, AncientoScreen)

