"""What every game screen shares: layout, keys, help, refusals, quitting, the end of a game.

A game screen subclasses :class:`GameScreen`: it draws its board between the header (row 0)
and the message line, and turns keys into engine moves with :meth:`GameScreen.play`.
:func:`play_game` runs the whole round: choose a deal (or resume), play, store the result,
and offer "again with the same number / new deal / menu".

How a game ends, the same in all four (docs/rules.md, "The end of a game"): a won game goes
straight to the end box.  When no move is left, or none can win (the engine's own proof, or
the solver's answer to "still winnable?"), the *end offer* says so: end the game here (the
end box follows), take the last move back, or look at the board first (Esc; ``X`` brings
the offer back).  ``X`` resigns anywhere else, after a question that defaults to No.

Layout on an 80 × N screen (N ≥ 24):

* row 0 — header: door name, game title and game number (always visible);
* rows 1 … N−4 — the board, drawn by the subclass;
* row N−3 — the key line (short list of keys);
* row N−2 — the message line (why a move was refused, what happened);
* row N−1 — the status line (caller, time left).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, ClassVar

from ...catalog import registry
from ...catalog.record import GameInfo
from ...games import Game, IllegalMove, Status
from ...games.base import RESIGN, UNDO
from ...games.numbers import CARD_GAME_NUMBERS, random_number
from ...games.solvers import NOT_WINNABLE, WINNABLE, Verdict
from ...session import Session
from ...store.errors import StoreError, StoreUnavailable
from ...store.failures import SHORT_REASONS
from ...store.keeper import KeptGame
from ...store.records import DailyEntry
from ...store.visit import node_doing
from ...term import Key
from ...term.digits import is_digit, parse_number
from ...watching.hub import WatchedGame, watching_on
from ..shared import theme
from ..shared.canvas import Canvas
from ..shared.instructions import show_instructions
from ..shared.key_overlay import show_key_map, show_menu_keys
from ..shared.key_waiter import KeyWaiter
from ..shared.keymap import DESCRIBE, Action, GameKeys, key_of
from ..shared.keymap import HELP as HELP_ACTION
from ..shared.keymap import RESIGN as RESIGN_ACTION
from ..shared.keymap import UNDO as UNDO_ACTION
from ..shared.news import messages_news
from ..shared.number_input import DIGITS_ONLY, read_digits
from ..shared.redraw import Parts
from ..shared.widgets import box_text, confirm, fit_keys, header, message, plural, status_line
from .daily_status import attempt_note, daily_attempt
from .replay import Replay
from .solver_hint import hint_words
from .solver_view import (
    deal_verdict_line,
    pick_winnable,
    start_deal_verdict,
    toggle_winnable_only,
    winnable_only,
    winnable_only_label,
)
from .still_winnable import DAILY_DAY, STILL_ASKS, StillWinnable, auto_label, auto_on, toggle_auto
from .view import Advice

log = logging.getLogger(__name__)
NUMBER_PROMPT, NUMBER_WIDTH = "Game number: ", 10

AGAIN, NEW_DEAL, MENU = "again", "new", "menu"
SOLVER_PROVED = "The solver proved it: this game cannot be won any more."


class LeaveGame(Exception):
    """The caller left the game screen (quit with confirmation)."""


class Wakeup(asyncio.Event):
    """A game screen's "redraw now" for background work (a solver's answer).  Setting it
    also wakes the caller's pending read (``Terminal.wake``), so the wait for a key can
    watch it with no task of its own (``Session.key_unless``)."""

    def __init__(self, session: Session | None) -> None:
        super().__init__()
        self._session = session  # None: a screen nobody plays on, no read to wake
        # Who waits on it (append, remove, iterate): a list, 56 bytes, where asyncio makes
        # a deque of 760 for every game screen (issue #36), as door/net/telnet.py does for
        # the drain waiters.
        self._waiters: list[asyncio.Future[bool]] = []  # type: ignore[assignment]

    def set(self) -> None:
        super().set()
        if self._session is not None:
            self._session.terminal.wake()


class GameScreen(ABC):
    """One game in progress on one caller's screen."""

    info: ClassVar[GameInfo]     # the game's record (door.catalog.registry), which names the screen
    name: ClassVar[str]          # from the record: registry name, e.g. "pebbles"
    title: ClassVar[str]         # from the record: shown in the header, e.g. "Pebbles"
    help_lines: ClassVar[list[str]]
    """The rules in short, on one screen: ``?`` twice (the first shows the key map)."""
    keys: ClassVar[GameKeys]
    """The game's part of the key map (door/ui/shared/keymap.py): its own moves, set in the
    game's own screen module (``keys = KEY_MAP``, from door/ui/<name>_keys.py); a screen
    that sets none gets the shared keys alone."""
    numbers: ClassVar[range] = CARD_GAME_NUMBERS
    solvable: ClassVar[bool] = False
    """A solver says at the end whether the deal could be won (the record has a solver)."""
    still_winnable: ClassVar[bool] = False
    """V asks the solver whether the game can still be won from here (door/ui/still_winnable)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's screen takes its name, title, solver and "still winnable?" from its
        record (``info``)."""
        super().__init_subclass__(**kwargs)
        if "info" in cls.__dict__:
            cls.name, cls.title = cls.info.name, cls.info.title
            cls.solvable = cls.info.solver is not None
            cls.still_winnable = cls.info.still_winnable
            if "keys" not in cls.__dict__:
                cls.keys = GameKeys(title=cls.title, moves=())

    def __init__(self, view: Canvas, game: Game) -> None:
        self.view = view
        """Where the screen is drawn: the caller's session, or a watcher's viewport
        (door/ui/menus/watch.py), which only draws.  Drawing reads nothing else."""
        self._session = view if isinstance(view, Session) else None
        self.game = game
        self.note = ""
        self.note_attr = theme.MESSAGE
        self.started = datetime.now(UTC)
        self.kept: KeptGame | None = None
        """The game as the keeper follows it (None: no database, or not started yet)."""
        self.parts = Parts()
        """What was last drawn, part by part: a key redraws only what it changed."""
        self._kept_actions = len(game.actions)
        self.watched: WatchedGame | None = None
        """The game as watchers see it, while it is offered to them (door/watching/hub.py)."""
        self.watching = False
        """This screen only shows positions (a replay, a solver's line: door/ui/game/replay.py):
        nothing is played, kept or asked of the solver on it."""
        self.deal_task: asyncio.Task[Verdict | None] | None = None
        """The solver's verdict on the deal, asked for when play starts."""
        self.wakeup = Wakeup(self._session)
        """Set by background work (a solver's answer): the screen redraws without a key."""
        self.still = StillWinnable(self) if self.still_winnable else None
        """"Still winnable?" (V), on the screens that offer it."""
        self.daily_day: date | None = None
        """Set when the game was started as that UTC day's challenge (door/ui/menus/daily.py)."""
        self.daily_before: DailyEntry | None = None
        """The caller's counted attempt at that challenge when this game started (None: this
        one counts)."""
        self.back_label = "main menu"
        """Where M goes from the end box (the daily board, for its challenges)."""
        self.ended_here = ""
        """Why the caller ended the game at the end offer (no move left, no win possible):
        "" while it goes on.  The engine's own end states (won, resigned) need none."""
        self._offer_declined: tuple[str, int] | None = None
        """The end offer turned down (Esc): its reason and ``len(game.actions)`` then.  Not
        made again for that reason until a move is taken back."""
        self._proven_at: int | None = None
        """``len(game.actions)`` when the solver answered that no win is left (V)."""
        self._end_known: tuple[int, int | None, str] | None = None  # see end_reason

    @property
    def session(self) -> Session:
        """The caller playing on this screen, for whatever reads keys, plays, keeps or asks
        the solver.  A screen drawn for watchers has none: asking is a mistake."""
        session = self._session
        if session is None:
            raise TypeError(f"{type(self).__name__} only draws here: nobody plays on a "
                            f"{type(self.view).__name__}")
        return session

    # -- to implement ---------------------------------------------------------------------
    @abstractmethod
    def draw_board(self) -> None:
        """Draw the game into rows 1 … rows−4 of ``self.view.screen``: the parts whose
        state changed (``self.parts``), or all of them on a cleared screen."""

    @abstractmethod
    async def on_key(self, key: Key) -> bool:
        """Act on a key; return False if the key means nothing here (the caller hears a bell)."""

    # -- creating a game (override for a setup screen before the deal) ---------------------
    @classmethod
    def game_options(cls, session: Session) -> dict[str, Any]:
        """Options from sysop.ini for a new game of this title."""
        return {}

    @classmethod
    async def choose_game(cls, session: Session) -> Game | None:
        """Ask for a game number (Enter: a random deal -- one the solver proved winnable
        when "Winnable deals only" is on, W switching it).  None if the caller backs out."""
        screen = session.screen
        options = cls.game_options(session)
        error = ""
        while True:
            on = cls.solvable and winnable_only(session, cls.name)
            screen.clear()
            header(session, cls.title)
            lines = [
                f"Game numbers run from {cls.numbers.start} to {cls.numbers.stop - 1}.",
                "The same number is the same deal, for everybody, forever:",
                "share a number and compare your scores.",
                "",
                "Type a number, or press Enter for a random deal.  Esc goes back.",
            ]
            if cls.solvable:
                lines += ["", winnable_only_label(on)
                          + ("  (Enter: a deal that can be won)" if on else "")]
            if cls.still_winnable:
                lines.append(auto_label(auto_on(session, cls.name)))
            box_text(session, lines, title=f"New {cls.title} game")
            status_line(session, "Enter: random deal · W winnable only"
                        + (" · A ask after moves" if cls.still_winnable else "")
                        + " · ? keys · Esc: back" if cls.solvable
                        else "Enter: random deal · ? keys · Esc: back")
            message(session, error, theme.WARNING if error else theme.MESSAGE)
            row, col = screen.rows // 2 + 5, 22
            end = screen.put(row, col, NUMBER_PROMPT, theme.BRIGHT)
            screen.put(row, end, " " * NUMBER_WIDTH, theme.SELECTED)
            screen.cursor = (row, end)
            await session.show()
            key = await session.key()
            char = key.char if key.is_char else ""
            error = ""
            if key.name == "esc":
                return None
            if key.name == "resize":
                continue
            if key.name == "f1" or char == HELP_ACTION.key:
                await show_menu_keys(session, f"New {cls.title} game", cls.deal_keys())
                continue
            if cls.solvable and char.lower() == "w":
                toggle_winnable_only(session, cls.name)
                continue
            if cls.still_winnable and char.lower() == "a":
                toggle_auto(session, cls.name)
                continue
            if key.name == "enter":
                text = ""
            elif is_digit(char):
                typed = await read_digits(session, row, col, NUMBER_PROMPT, NUMBER_WIDTH,
                                          text=char)
                if typed is None:
                    return None
                text = typed
            else:
                session.bell()
                error = DIGITS_ONLY + (" (W: winnable deals only.)" if cls.solvable else "")
                continue
            if text:
                number = parse_number(text)
            elif on:
                message(session, "Looking for a deal the solver proved winnable...")
                await session.show()
                number = await pick_winnable(session, cls.name, options, cls.numbers)
                if number is None:
                    error = "No winnable deal found just now: try again, or press W."
                    continue
            else:
                number = random_number(cls.numbers)
            if number is None or number not in cls.numbers:
                session.bell()
                error = f"Pick a number from {cls.numbers.start} to {cls.numbers.stop - 1}."
                continue
            return cls.info.engine_class().new(number, **options)

    @classmethod
    def deal_keys(cls) -> list[tuple[str, str]]:
        """The keys of the screen that asks for a game number, as ``?`` shows them."""
        keys = [("0-9", "type the deal's number, then Enter"), ("Enter", "a random deal")]
        if cls.solvable:
            keys.append(("W", "winnable deals only (on, off)"))
        if cls.still_winnable:
            keys.append(("A", "\"still winnable?\" after each move"))
        return [*keys, ("Esc", "back")]

    # -- helpers for subclasses -----------------------------------------------------------
    def play(self, move: str) -> bool:
        """Play a move; a refusal rings the bell and says why.  True if it was played."""
        try:
            self.game.play(move)
        except IllegalMove as exc:
            self.refuse(str(exc))
            return False
        self.note = ""
        return True

    def refuse(self, reason: str) -> None:
        self.session.bell()
        self.note, self.note_attr = reason, theme.WARNING

    def say(self, text: str) -> None:
        self.note, self.note_attr = text, theme.MESSAGE

    @property
    def is_over(self) -> bool:
        """Won, resigned or ended by the game's rules, or ended by the caller at the end
        offer: the round goes on to the end box."""
        return bool(self.ended_here) or self.game.finished

    def end_notes(self) -> list[str]:
        """Lines the end box shows under the final score (e.g. "the lowest score wins")."""
        return []

    def verdict(self) -> str:
        """The end box's first line: won, resigned, or why the game ended."""
        status = self.game.status
        if status is Status.WON:
            return "You won!"
        if status is Status.RESIGNED:
            return "You resigned."
        return self.ended_here or "Game over."

    # -- the end offer: no move left, or no win possible --------------------------------------
    def no_moves_words(self) -> str:
        """The end offer's verdict when nothing can be played (each game says it its way)."""
        return "No move is left."

    def cannot_win_words(self) -> str:
        """The end offer's verdict when the engine proves no win is left."""
        return "No win is possible from here any more."

    def end_reason(self) -> str:
        """Why the game may end here though it is not finished: no move left, no win
        possible (the engine's proof, or the solver's); "" while it simply goes on.
        Worked out again only after an action or a new answer from the solver."""
        game = self.game
        known = (len(game.actions), self._proven_at, self.ended_here)
        if self._end_known is not None and self._end_known[:2] == known[:2]:
            return self._end_known[2]
        reason = ""
        if not game.finished:
            if game.no_moves_left:
                reason = self.no_moves_words()
            elif game.cannot_win:
                reason = self.cannot_win_words()
            elif self._proven_at is not None:
                reason = SOLVER_PROVED
        self._end_known = (known[0], known[1], reason)
        return reason

    def _solver_answer(self) -> None:
        """Peek at a "still winnable?" answer before it is shown: "cannot be won" about the
        position on the board makes the end offer (a later undo forgets it)."""
        still = self.still
        task = still.task if still is not None else None
        if task is None or not task.done() or task.cancelled():
            return
        verdict = task.result()
        if (verdict is not None and verdict.verdict == NOT_WINNABLE
                and still is not None and still.asked_at == still.position_mark()):
            self._proven_at = len(self.game.actions)

    def _forget_stale_proof(self) -> None:
        """An undo since the solver's "cannot be won" may have made a win possible again."""
        at = self._proven_at
        if at is not None and UNDO in self.game.actions[at:]:
            self._proven_at = None

    def end_offer_due(self) -> str:
        """The reason to make the end offer now, or "" (none, or turned down already)."""
        self._forget_stale_proof()
        reason = self.end_reason()
        if not reason or self.watching:
            return ""
        declined = self._offer_declined
        if declined is not None and declined[0] == reason and \
                UNDO not in self.game.actions[declined[1]:]:
            return ""
        return reason

    def score_words(self) -> str:
        """The end offer's line on the score as it stands."""
        return f"Score so far: {self.game.score}"

    def take_back_words(self) -> str:
        """The end offer's line for U (what taking back costs, in games where it costs)."""
        return "take the last move back"

    async def offer_take_back(self) -> None:
        """U at the end offer: the screen's own undo (its words, its questions)."""
        try:
            self.game.undo()
        except IllegalMove as exc:
            self.refuse(f"No undo: {exc}.")
            return
        self.say("Undone.")

    def end_here(self, reason: str) -> None:
        """The caller ends the game at the end offer (a game with an end move of its own
        plays it)."""
        self.ended_here = reason

    async def offer_end(self, reason: str) -> None:
        """Say why the game may end here, and let the caller choose: end it (the end box
        follows), take the last move back, or look at the board first.  With no move left
        and none to take back there is nothing to choose: the game ends."""
        game, session = self.game, self.session
        undo, play_on = game.can_undo, not game.no_moves_left
        if not undo and not play_on:
            self.end_here(reason)
            return
        while True:
            self.draw_end_offer(reason)
            await session.show()
            key = await session.key()
            char = key.char.lower() if key.is_char else ""
            if key.name == "resize":
                continue
            action = self.keys.action(key)
            name = action.name if action is not None else ""
            if key.name in ("enter", "f10") or char == "e" or name == "resign":
                self.end_here(reason)
            elif name == "undo" and undo:
                await self.offer_take_back()
            elif name == "quit":
                self._offer_declined = (reason, len(game.actions))
                took = f"{UNDO_ACTION.label} takes back, " if undo else ""
                self.say(f"{reason} {took}{RESIGN_ACTION.label} ends the game.")
                if key.name != "esc":
                    await self.common_key(key)   # leave, asked as on the board
            else:
                session.bell()
                continue
            return                       # the next frame is drawn whole: the box drew over it

    def draw_end_offer(self, reason: str) -> None:
        """The end offer's box over the board (see :meth:`offer_end`)."""
        game = self.game
        lines = [reason, "", self.score_words(), "",
                 "[E] or Enter  end the game here: final score, hall of fame"]
        if game.can_undo:
            lines.append(f"[{UNDO_ACTION.label}]  {self.take_back_words()}")
        lines.append("[Esc]  " + ("look at the board first" if game.no_moves_left
                                  else "play on"))
        self.draw()
        box_text(self.view, lines, title=f"{self.title} {short_deal_label(game)}")

    def resign_question(self) -> str:
        """X: what resigning throws away, asked with No as the answer to Enter."""
        return (f"Resign? The game ends now with a score of {self.game.score}, out of the "
                "hall of fame.")

    async def resign(self) -> None:
        """X: where the game may end anyway (no move left...), the end offer again; else
        resign after a question (default No)."""
        reason = self.end_reason()
        if reason:
            await self.offer_end(reason)
            return
        self.draw()
        if not await confirm(self.session, self.resign_question(), default=False):
            self.say("Play on.")
            return
        if self.play(RESIGN):
            self.say("You resigned.")

    async def check_end(self) -> None:
        """After each key (and as play starts): make the end offer when it is due."""
        if self.still is not None:
            self._solver_answer()
        reason = self.end_offer_due()
        if reason:
            await self.offer_end(reason)

    _titled: tuple[Game, str] | None = None  # the game the title was made for, and it

    def header_title(self) -> str:
        """The header's text (asked every key: made once per game)."""
        game = self.game
        if self._titled is None or self._titled[0] is not game:
            self._titled = (game, f"{self.title} {short_deal_label(game)}")
        return self._titled[1]

    def draw(self) -> None:
        """Draw the screen: all of it when it must be (a first frame, or something else drew
        over it), else only the parts whose state changed (door/ui/shared/redraw.py)."""
        screen, parts = self.view.screen, self.parts
        if parts.begin(screen):
            screen.clear()
        screen.cursor = None
        title = self.header_title()
        if parts.changed("header", title):
            header(self.view, title)
        self.draw_board()
        self.draw_footer()
        parts.end(screen)
        self.view.frame_of(self)  # a click on the board, F9: this game (door/ui/shared/access.py)

    _message_rows = 1  # the rows the message last drawn took (two cover the key line)
    _footer: tuple[Hashable, ...] | None = None  # what the bottom rows showed then

    def draw_footer(self) -> None:
        """The bottom three rows, each redrawn only when what it shows changed: a hint or a
        refusal changes the message row alone, a move the message and the score.  One
        comparison when nothing changed (most keys).  A message of two rows covers the
        key line: the key line comes back (first) when such a message goes, and a message
        over it is drawn again when the key line is."""
        session = self.view
        state = (self.key_line_state(), self.key_marks_state(), self.note, self.note_attr,
                 self.status_text(), session.time_left // 60, session.caller.alias)
        last = None if self.parts.full else self._footer
        if state == last:
            return
        self._footer = state
        covered = self._message_rows > 1
        note = last is None or state[2:4] != last[2:4]
        if last is None or state[0] != last[0] or (note and covered):
            self.draw_key_line()
            self.draw_key_marks()
            note = note or covered
        elif state[1] != last[1] and not covered:  # under two rows of message they wait
            self.draw_key_marks()
        if note:
            self._message_rows = message(session, self.note, self.note_attr)
        if last is None or state[4:] != last[4:]:
            status_line(session, self.status_text())

    def status_text(self) -> str:
        # The score three digits wide: one growing from 99 to 100 does not push the rest of
        # the line over (some 40 bytes to send again).
        # Asked every key: made again only when what it shows changed.
        inputs = (None if self.score_on_board else self.game.score,
                  self.watched.watching if self.watched is not None else 0,
                  self.still is not None and not self.watching)
        if inputs != self._status_inputs:
            self._status_inputs = inputs
            points, count, asks = inputs
            score = "" if points is None else f"Score {points:<3} · "
            watch = f"{count} watching · " if count else ""   # while others watch this game
            keys = self.keys if asks else self.keys_without_still
            self._status_text = keys.status_keys(f"{score}{watch}")
        return self._status_text

    _status_inputs: tuple[int | None, int, bool] | None = None  # status_text's, and …
    _status_text = ""  # … what it made of them

    @property
    def keys_without_still(self) -> GameKeys:
        """The map as the status line shows it while "still winnable?" cannot be asked (a
        replay, a watched game): without its ``V``."""
        lacks = {**self.keys.lacks, "still": "not here"}
        return GameKeys(self.keys.title, self.keys.moves, lacks, self.keys.words)

    @property
    def key_line(self) -> str:
        """The short list of keys on the key line, from the key map (door/ui/shared/keymap.py):
        the game's own moves, then hint, undo, redo and resign as in every game."""
        return self.keys.key_line()

    def key_line_state(self) -> Hashable:
        """What the key line shows (subclasses that grey or light up a key add to it)."""
        return self.key_line

    def key_marks_state(self) -> Hashable:
        """What :meth:`draw_key_marks` shows over the key line (a key greyed while not
        allowed): a part of its own, so that a move which greys a key redraws that key's
        cells, not the row."""
        return None

    def draw_key_line(self) -> None:
        """Row rows−3 (a long message may cover it for one frame, so draw it first)."""
        screen = self.view.screen
        screen.put(screen.rows - 3, 0, " " * screen.cols)
        screen.put(screen.rows - 3, 1, fit_keys(self.key_line, screen.cols - 2), theme.DIM)

    def draw_key_marks(self) -> None:
        """The key line's marks (see :meth:`key_marks_state`), over the key line's cells:
        none on most screens."""
        return

    def key_map_sections(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The key map as ``?`` shows it here: the game's own keys, then the shared ones."""
        own = [(move.keys, move.about) for move in self.keys.moves]
        return [(f"{self.title}: its own keys", own),
                ("The same in every game", self.keys.map_entries())]

    async def show_help(self) -> None:
        """``?``: the key map over the board (door/ui/shared/key_overlay.py); from it, ``?`` again
        shows the rules in short and ``I`` how to play."""
        self.draw()
        await show_key_map(self.session, f"{self.title}: keys", self.key_map_sections(), {
            "?": ("rules", self.show_rules), "i": ("how to play", self.show_instructions)})

    async def show_rules(self) -> None:
        """The rules in short, on one screen (``?`` twice); any key goes back.  A resize
        draws the board at the new size and the rules over it again."""
        while True:
            box_text(self.view, [*self.help_lines, "", "Press any key to go back."],
                     title=f"{self.title}: the rules in short")
            await self.session.show()
            if (await self.session.key()).name != "resize":
                return
            self.draw()

    async def show_instructions(self) -> None:
        await show_instructions(self.session, self.name)

    async def common_key(self, key: Key) -> bool:
        """Keys every game screen understands: the shared actions of the key map (help,
        hint, undo, redo, still winnable?, resign, quit), instructions, redraw."""
        action = self.keys.action(key)
        if action is not None and action is not DESCRIBE:
            await self.shared_key(action, key)
        elif key_of(key) in self.keys.moved:
            self.refuse(self.keys.moved[key_of(key)])
        elif key.is_char and key.char in "iI" and self.instructions_key:
            await self.show_instructions()
        elif key.name == "resize":
            pass
        else:
            return False
        return True

    async def shared_key(self, action: Action, key: Key) -> None:
        """A shared action: the same key in every game.  One this game has not is refused
        with why (and where the key the caller may have meant went)."""
        if not self.keys.has(action.name):
            why = self.keys.lacks[action.name]
            moved = self.keys.moved.get(key_of(key), "")
            self.refuse(f"{why[:1].upper()}{why[1:]}." + (f" {moved}" if moved else ""))
            return
        if action.name == "help":
            await self.show_help()
        elif action.name == "quit":
            if await confirm(self.session, "Leave this game? It is saved for your next visit."):
                raise LeaveGame
        elif action.name == "resign":
            await self.resign()
        elif action.name == "still":
            if self.still is not None:
                self.still.ask()
        elif action.name == "hint":
            await self.hint_key()
        elif action.name == "undo":
            await self.offer_take_back()
        elif action.name == "redo":
            await self.redo_key()

    async def hint_key(self) -> None:
        """The hint key (``P`` in every game): the solver's next move."""
        self.ask_hint()

    async def redo_key(self) -> None:
        """The redo key, in games that have one (their screens say it their way)."""
        try:
            self.game.redo()
        except IllegalMove as exc:
            self.refuse(f"No redo: {exc}.")
            return
        self.say("Redone.")

    score_on_board: ClassVar[bool] = False
    """The board shows the score beside the figures that change with it (a side
    panel): the status line does not repeat it, which would cost every scoring key a
    second trip to the bottom row."""

    instructions_key: ClassVar[bool] = True
    """Subclasses that use ``i`` for a move set this False and offer instructions in help."""

    async def run(self) -> None:
        """Play until the game is over (returns) or the caller leaves (raises LeaveGame)."""
        self.start_keeping()
        self.session.autosave = self.autosave
        if self.deal_task is None:
            self.deal_task = start_deal_verdict(self)
        if self.still is not None:
            self.still.after_key()                 # automatic mode: ask about the start too
        waiter = KeyWaiter(self.session)
        try:
            await self.check_end()                 # a resumed game may have ended already
            while not self.is_over:
                if self.still is not None:
                    self._solver_answer()          # "cannot be won": the end offer follows
                    self.still.collect()           # an answer that came: on the message line
                if not self.session.in_burst:  # a pasted burst: only its last keys draw
                    self.draw()
                await self.session.show()
                key = await self.next_key(waiter)
                if key is None:                    # background work: a solver's answer
                    if self.still is not None:
                        self._solver_answer()
                        self.still.collect()       # said under the end offer it may bring
                    await self.check_end()
                    continue
                if not await self.on_key(key) and not await self.common_key(key):
                    self.refuse("That key does nothing here: press ? for the keys.")
                if not self.session.in_burst:  # the last key of a burst decides
                    await self.check_end()
                self.note_moves()
                if self.still is not None:
                    self.still.after_key()
        finally:
            self.session.autosave = None
            if self.still is not None:
                self.still.stop()              # the game is over, or left: no more answers
            await waiter.close()

    async def next_key(self, waiter: KeyWaiter) -> Key | None:
        """The caller's next key, or None when background work (a solver's answer) asks for
        a redraw first.  A key typed meanwhile stays in ``waiter`` for the next call."""
        if self.wakeup.is_set():
            self.wakeup.clear()
            return None
        if self.session.typed_ahead and not waiter.waiting:
            return await self.session.key()   # keys already here: no tasks (a burst is cheap)
        if self.session.terminal.wakeable and not waiter.waiting:  # no task either
            key = await self.session.key_unless(self.wakeup.is_set)
            if key is None:
                self.wakeup.clear()
            return key
        woken = asyncio.ensure_future(self.wakeup.wait())
        key_task = asyncio.ensure_future(waiter.get())
        try:
            await asyncio.wait({key_task, woken}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            woken.cancel()
            if not key_task.done():
                key_task.cancel()       # the read itself goes on inside the waiter
        if key_task.done() and not key_task.cancelled():
            try:
                return key_task.result()
            finally:  # a hang-up's error holds this frame, which must not hold its task:
                del key_task  # a reference cycle, left for the full collection (issue #36)
        self.wakeup.clear()
        return None

    def stop_solving(self) -> None:
        """Forget the solver work this screen asked for (the caller moved on)."""
        if self.deal_task is not None and not self.deal_task.done():
            self.deal_task.cancel()
        if self.still is not None:
            self.still.stop()

    def deal_verdict(self) -> Verdict | None:
        task = self.deal_task
        if task is None or not task.done() or task.cancelled():
            return None
        return task.result()

    # -- the game in progress, kept as it is played -------------------------------------------
    def start_keeping(self) -> None:
        """Claim the caller's resume slot for this game (new, resumed or loaded): from now
        on its moves are written as they are played, and no other visit's save of this
        game can overwrite them.  The claim goes on in the background: the board is drawn
        without waiting for the database."""
        keeper, player = self.session.keeper, self.session.player
        if keeper is None or player is None or self.kept is not None or self.is_over:
            return
        self.kept = keeper.start(KeptGame(player.id, self.name, self.kept_state,
                                          trouble=self.session.alert,
                                          call=self.session.caller.token))
        self._kept_actions = len(self.game.actions)

    def note_moves(self) -> None:
        """After each key: a move (or undo) since the last look is handed to the keeper,
        which writes it within a couple of seconds, and shown to any watchers."""
        if self.watched is not None:
            self.watched.look(self.note)
        if self.kept is not None and len(self.game.actions) != self._kept_actions:
            self._kept_actions = len(self.game.actions)
            if self.session.keeper is not None:
                self.session.keeper.changed(self.kept)

    @property
    def still_asks(self) -> int:
        return self.still.asks if self.still is not None else 0

    def kept_state(self) -> dict[str, Any]:
        """The resume slot's state: the game's, with the "still winnable?" count."""
        state = self.game.to_json()
        if self.still_asks:
            state[STILL_ASKS] = self.still_asks
        if self.daily_day is not None:
            state[DAILY_DAY] = self.daily_day.isoformat()
        return state

    def restore_asks(self, asks: int) -> None:
        """A resumed game's count of the solver's help (``still_asks``), given back."""
        if self.still is not None:
            self.still.asks = asks

    def help_note(self) -> str:
        """The end box's line on the solver's help asked during the game ("" for none)."""
        if not self.still_asks:
            return ""
        return (f"The solver helped {plural(self.still_asks, 'time')} (hints, \"still "
                "winnable?\"): the hall marks it.")

    # -- hints from the solvers (door/ui/game/solver_hint.py) --------------------------------------
    def ask_hint(self) -> None:
        """The hint key: the solver's next move, at once when a line is known, else when
        its answer comes (``tell_hint``)."""
        if self.still is None:
            return
        advice = self.still.hint.ask()
        if advice is not None:
            self.tell_hint(advice)

    def tell_hint(self, advice: Advice) -> None:
        """Show a hint: the screen lights its move (:meth:`show_hint`) and the message line
        says it; each move shown counts as the solver's help."""
        budget = self.view.settings.solver.hint_budget
        if advice.move is None:
            self.refuse(hint_words(advice, "", budget))
            return
        self.say(hint_words(advice, self.show_hint(advice.move), budget))
        if self.still is not None:
            self.still.asks += 1
            self.still_asked()

    def show_hint(self, move: str) -> str:
        """Light a hint's move on the board; return how the message line says it (the
        move's notation, unless the screen says it better)."""
        return move

    def still_asked(self) -> None:
        """A "still winnable?" question went out: the count is saved with the game."""
        if self.kept is not None and self.session.keeper is not None:
            self.session.keeper.changed(self.kept)

    async def autosave(self) -> None:
        """Write the unfinished game to the caller's resume slot now (every exit path)."""
        self.note_moves()
        kept = self.kept
        self.let_go_of_keeper()  # no move follows this save
        if kept is not None and self.session.keeper is not None and not self.is_over:
            await self.session.keeper.flush(kept)

    def let_go_of_keeper(self) -> None:
        """The game is over, or left and saved: the screen lets go of the keeper's entry for
        it, which reads this screen (``kept_state``) for as long as the keeper needs it.
        Held both ways, the two were a reference cycle, which kept every ended game, its
        session and its call for the server's full collection (door/serve/collector.py)."""
        self.kept = None


@dataclass(frozen=True)
class Opening:
    """The game a round opens with -- an unfinished one taken back, or a day's challenge --
    with what goes with it: the "still winnable?" count, the challenge's day."""

    game: Game
    still_asks: int = 0
    daily_day: date | None = None

    @classmethod
    def from_state(cls, game: Game, state: dict[str, Any]) -> Opening:
        asks = state.get(STILL_ASKS, 0)
        day, kept = None, state.get(DAILY_DAY)
        if isinstance(kept, str):  # absent (not a challenge) or an ISO date
            with contextlib.suppress(ValueError):
                day = date.fromisoformat(kept)
        return cls(game, asks if isinstance(asks, int) and asks > 0 else 0, day)


def apply_resumed(screen: GameScreen, resumed: Opening | None) -> None:
    """Give a screen what the resumed game's slot kept (nothing for a new deal)."""
    if resumed is None or resumed.game is not screen.game:
        return
    screen.restore_asks(resumed.still_asks)
    screen.daily_day = resumed.daily_day


async def unfinished(session: Session, screen_cls: type[GameScreen]
                     ) -> tuple[Game, dict[str, Any]] | None:
    """The caller's unfinished game of this title and its slot's state, if any (None also
    when the store cannot say, or the state does not load: logged)."""
    store, player = session.store, session.player
    if store is None or player is None:
        return None
    keeper = session.keeper
    state = keeper.unwritten(player.id, screen_cls.name) if keeper is not None else None
    try:
        if state is None:
            state = await store.saves.load_resume(player.id, screen_cls.name)
    except StoreError as exc:  # the store says why; play goes on without it
        log.warning("resume unavailable: %s", exc)
        return None
    if not state:
        return None
    try:
        game = screen_cls.info.engine_class().from_json(state)
    except (ValueError, KeyError, TypeError):
        log.warning("node %s: unreadable %s resume slot left alone", session.caller.node,
                    screen_cls.name)
        return None
    if game.finished:  # won or resigned: stored already (or by the keeper soon), not resumed
        log.info("node %s: finished %s game in the resume slot not offered",
                 session.caller.node, screen_cls.name)
        return None
    return game, state


async def _offer_resume(session: Session, screen_cls: type[GameScreen]) -> Opening | None:
    """The unfinished game of this title (with its "still winnable?" count and challenge
    day), if the caller wants it back.  The slot is left as it is either way: a resumed
    game claims it as play starts, a new deal replaces it."""
    found = await unfinished(session, screen_cls)
    if found is None:
        return None
    game, state = found
    label = f"{screen_cls.title} {deal_label(game)}"
    dead = ["No move is left in it: take a move back, or end it."] if game.no_moves_left \
        else []
    while True:  # drawn again whole after a resize
        session.screen.clear()
        header(session, screen_cls.title)
        box_text(session, [f"You have an unfinished {label}.", *dead, "",
                           "N keeps it for later; a new deal you start replaces it."],
                 title="Welcome back")
        message(session, f"Resume your {label}? (Y/n)", theme.WARNING)
        await session.show()
        key = await session.key()
        if key.name != "resize":
            break
    char = key.char.lower() if key.is_char else ""
    if key.name != "enter" and char not in ("y", "o"):
        return None
    return Opening.from_state(game, state)


async def _record_result(screen: GameScreen) -> tuple[int | None, str]:
    """Store the finished game (its resume slot emptied with it); return (hall-of-fame rank
    or None, a note for the caller).  A database that cannot take it now gets it later:
    the keeper holds it and tries again."""
    session, game = screen.session, screen.game
    store, player, keeper = session.store, session.player, session.keeper
    if store is None or player is None or keeper is None:
        return None, ""
    owner = None
    if screen.kept is not None:
        owner = await keeper.claim_of(screen.kept)  # made as play began: in long since
        keeper.forget(screen.kept)
        screen.let_go_of_keeper()
    args = (player.id, game.record(), game.score, str(game.outcome),
            game.cheater, screen.started, datetime.now(UTC))
    label = f"{session.caller.alias}'s {screen.title} {deal_label(game)}"
    asks, day = screen.still_asks, screen.daily_day
    try:
        rank = await keeper.finish(label, lambda: store.scores.finish_game(
            *args, resume_owner=owner, still_asks=asks, daily_day=day))
    except StoreUnavailable as exc:
        log.warning("node %s: score not stored yet: %s", session.caller.node, exc)
        why = SHORT_REASONS.get(exc.reason, SHORT_REASONS["other"])
        return None, f"Not stored yet ({why}): your score is kept and stored later."
    except StoreError as exc:
        log.warning("node %s: score refused: %s", session.caller.node, exc)
        return None, "Your game could not be recorded."
    return rank, ""


@contextlib.contextmanager
def offered_to_watchers(screen: GameScreen) -> Iterator[None]:
    """While the game is played, other callers of this process may watch it (Watch a Game
    in the menu: switching that entry off offers no game).  A player who refuses to be
    watched is listed, so that a would-be watcher is told why they cannot."""
    session = screen.session
    if not watching_on(session.settings):
        yield
        return
    player, hub = session.player, session.services.watch
    screen.watched = hub.offer(session.caller.alias, screen.title, short_deal_label(screen.game),
                               screen.game, player.watchable if player else True)
    try:
        yield
    finally:
        hub.withdraw(screen.watched)


def deal_label(game: Game) -> str:
    """How a deal is named to the caller: ``game #1234``, or ``random game`` when its number
    is not one to share (a game's unnumbered random deals)."""
    return "random game" if game.options.get("random") else f"game #{game.number}"


def short_deal_label(game: Game) -> str:
    """The header's form: ``#1234`` or ``random game``."""
    return "random game" if game.options.get("random") else f"#{game.number}"


def screen_class(game: str) -> type[GameScreen]:
    """The game screen that draws ``game``, named by its record (imported on first use)."""
    cls: type[GameScreen] = registry.game(game).screen_class()
    return cls


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


async def end_of_game(screen: GameScreen) -> str:
    """The final score, the place in the hall of fame, whether the deal could be won (W
    watches a winning line), and what next."""
    rank, note = await _record_result(screen)
    session = screen.session
    screen.say("")   # what the message line said in play is over with the game

    news = await messages_news(session)
    waiter = KeyWaiter(session)
    try:
        return await _end_box(screen, rank, note, news, waiter)
    finally:
        await waiter.close()


def draw_end_box(screen: GameScreen, rank: int | None, note: str, news: str) -> bool:
    """Draw the end box over the finished game: the verdict, the final score and how it is
    made, the place in the hall of fame, what next.  True when W (a winning line) is on."""
    game, session = screen.game, screen.session
    screen.draw()
    verdict = screen.deal_verdict()
    won = game.status is Status.WON
    lines = [screen.verdict(), "", f"Final score: {game.score}", *screen.end_notes()]
    if screen.daily_day is not None:
        lines.append(attempt_note(screen.daily_day, screen.daily_before, finished=True))
    if screen.help_note():
        lines.append(screen.help_note())
    if screen.deal_task is not None:
        lines.append(deal_verdict_line(screen.name, game.number, verdict, won,
                                       session.settings.solver.budget))
    if rank:
        lines.append(f"Your game takes {ordinal(rank)} place in the {screen.title} "
                     "hall of fame!")
    elif note:
        lines.append(note)
    if news:
        lines += ["", news]
    again = "the same random game" if game.options.get("random") else deal_label(game)
    watch = bool(not won and verdict is not None and verdict.verdict == WINNABLE
                 and verdict.line)
    lines += ["", f"[A] again with {again}", "[N] a new deal", f"[M] {screen.back_label}"]
    if watch:
        lines.append("[W] watch a winning line")
    box_text(session, lines, title=f"{screen.title} {short_deal_label(game)}")
    return watch


async def _end_box(screen: GameScreen, rank: int | None, note: str, news: str,
                   waiter: KeyWaiter) -> str:
    """Show the end box until the caller chooses; redrawn when the deal's verdict comes."""
    session = screen.session
    while True:
        watch = draw_end_box(screen, rank, note, news)
        await session.show()
        key = await screen.next_key(waiter)
        if key is None:
            continue                          # the verdict arrived: show it
        choice = key.char.lower() if key.is_char else key.name
        if choice == "w" and watch:
            verdict = screen.deal_verdict()
            assert verdict is not None
            await Replay.winning_line(session, verdict).run()
            continue
        if choice in ("a", "n", "m", "esc", "enter"):
            return {"a": AGAIN, "n": NEW_DEAL}.get(choice, MENU)
        session.bell()


async def play_game(session: Session, screen_cls: type[GameScreen],
                    opening: Opening | None = None, back_to: str = "main menu") -> None:
    """A round of one title from the main menu: resume or deal, play, record, again?
    ``opening``: play that game first (the daily board's challenge) instead; ``back_to``:
    where M goes at the end of a game (and the caller's activity then)."""

    store, player = session.store, session.player
    node_doing(store, session.caller, player, f"Playing {screen_cls.title}")
    await _play_rounds(session, screen_cls, opening, back_to)
    node_doing(store, session.caller, player, back_to)


async def play_in_own_task(screen: GameScreen) -> None:
    """``screen.run()`` as a task of its own, awaited: each key then wakes the game's loop
    and its read only, not the seven coroutines of the visit above it (the connection's
    shell, the visit, the menu, the round) that a key's every wait and wake-up passed
    through.  A cancel of the visit cancels the task too (the visit's task waits on it);
    what the game raises is raised here."""
    await asyncio.ensure_future(screen.run())


async def _play_rounds(session: Session, screen_cls: type[GameScreen],
                       opening: Opening | None = None, back_to: str = "main menu") -> None:
    resumed = opening or await _offer_resume(session, screen_cls)
    game = resumed.game if resumed is not None else None
    while True:
        if game is None:
            game = await screen_cls.choose_game(session)
            if game is None:
                return
        screen = screen_cls(session, game)
        screen.back_label = back_to
        apply_resumed(screen, resumed)
        if screen.daily_day is not None:
            screen.daily_before = await daily_attempt(session, screen.name, screen.daily_day)
            screen.say(attempt_note(screen.daily_day, screen.daily_before))
        try:
            with offered_to_watchers(screen):
                await play_in_own_task(screen)
            choice = await end_of_game(screen)
        except LeaveGame:
            await screen.autosave()  # the keeper retries what the database cannot take now
            return
        finally:
            screen.stop_solving()
        if choice == MENU:
            return
        game = (screen_cls.info.engine_class().new(game.number, **game.options) if choice == AGAIN
                else None)
