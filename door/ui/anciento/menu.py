"""Anciento's own menu before a game: Random / Pick / Select a game, timer, easy, load, demo.

It replaces the frame's bare number prompt because the original offers three ways to get
stones: a *random* game nobody can ask for again, a *picked* game whose number is shown so
others can play the same stones, and a *selected* game whose number (1–32000) is typed.
The timer and easy mode chosen here stay for the rest of the visit.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ...catalog.registry import AncientoSettings
from ...games.anciento import SELECT_NUMBERS, Anciento
from ...games.numbers import random_number
from ...session import Session
from ...store import StoreError
from ...term.digits import is_digit, parse_number
from ...term.screen import DOUBLE
from ..shared import theme
from ..shared.canvas import Canvas
from ..shared.instructions import show_instructions
from ..shared.key_overlay import show_menu_keys
from ..shared.keymap import HELP, REDO, UNDO
from ..shared.number_input import DIGITS_ONLY, read_digits
from ..shared.widgets import header, message, new_game_box, read_line, status_line

DemoPlayer = Callable[[Anciento], Awaitable[None]]
"""Plays a demo game on the Anciento screen (the screen gives it: it opens this menu)."""

log = logging.getLogger(__name__)

BOX_WIDTH, BOX_HEIGHT = 64, 15
MAX_MINUTES = 999
SAVES_SHOWN = 9


@dataclass
class Choices:
    """What the caller chose in this visit's Anciento menu."""

    timer_minutes: int = 0
    easy: bool | None = None        # None: the sysop's default
    note: str = ""                  # said on the game screen when the game starts


_choices: weakref.WeakKeyDictionary[Canvas, Choices] = weakref.WeakKeyDictionary()


def screen_choices(session: Canvas) -> Choices:
    """The caller's choices in this visit (a watcher's viewport: the defaults)."""
    choices = _choices.get(session)
    if choices is None:
        choices = _choices[session] = Choices()
    return choices


def _settings(session: Session) -> AncientoSettings:
    """The sysop's [anciento] section."""
    return session.settings.game_settings("anciento", AncientoSettings)


def easy_mode(session: Session) -> bool:
    easy = screen_choices(session).easy
    return _settings(session).easy if easy is None else easy


STATUS_KEYS = f"R, P or S: play · T E L D I · {HELP.label} keys · Esc: back"


def menu_rows(session: Session) -> list[tuple[str, str, str]]:
    """The menu's lines: key, entry, what it does or is set to ("" for a gap)."""
    choices = screen_choices(session)
    board = _settings(session).board.replace("x", " x ")
    timer = f"{choices.timer_minutes} minutes" if choices.timer_minutes else "off"
    return [
        ("R", "Random game", "stones nobody can ask for again"),
        ("P", "Pick a game", "a numbered game, chosen for you"),
        ("S", "Select a game", f"type its number, {SELECT_NUMBERS.start} to "
                              f"{SELECT_NUMBERS.stop - 1}"),
        ("", "", ""),
        ("T", "Timer", timer),
        ("E", "Easy mode", ("on" if easy_mode(session) else "off")
         + " (on: the next 4 stones show)"),
        ("", "", ""),
        ("L", "Load a game", "continue a game you saved"),
        ("D", "Demo", "watch the demo player"),
        ("I", "How to play", f"board {board}"),
    ]


def draw_menu(session: Session) -> tuple[int, int]:
    """Draw the menu box; return (row, column) of its prompt line."""
    screen = session.screen
    top, left = new_game_box(session, "Anciento", BOX_HEIGHT, BOX_WIDTH)
    for i, (key, name, what) in enumerate(menu_rows(session)):
        row = top + 2 + i
        if key:
            screen.put(row, left + 3, key, theme.HOTKEY)
            screen.put(row, left + 6, name, theme.BRIGHT)
            screen.put(row, left + 22, what, theme.LABEL)
    status_line(session, STATUS_KEYS)
    return top + BOX_HEIGHT - 2, left + 3


async def anciento_menu(session: Session, play_demo: DemoPlayer) -> Anciento | None:
    """The menu loop: the new game, or None when the caller goes back (Esc); D plays a
    demo game with ``play_demo``."""
    choices = screen_choices(session)
    board = _settings(session).board
    error = ""
    while True:
        prompt_row, prompt_col = draw_menu(session)
        message(session, error, theme.WARNING if error else theme.MESSAGE)
        await session.show()
        key = await session.key()
        error = ""
        char = key.char.lower() if key.is_char else ""
        if key.name == "esc" or char == "q":
            return None
        if char == "r":
            choices.note = "A random game: nobody can ask for these stones again."
            return Anciento.random_game(board=board, easy=easy_mode(session))
        if char == "p" or key.name == "enter":
            number = random_number(SELECT_NUMBERS)
            choices.note = f"Game #{number}: give the number to a friend to play these stones."
            return Anciento.new(number, board=board, easy=easy_mode(session))
        if char == "s" or is_digit(char):
            game = await _select(session, prompt_row, prompt_col, char if is_digit(char) else "")
            if isinstance(game, Anciento):
                return game
            error = game
        elif char == "t":
            error = await _set_timer(session, prompt_row, prompt_col)
        elif char == "e":
            choices.easy = not easy_mode(session)
        elif char == "l":
            game = await _load(session)
            if isinstance(game, Anciento):
                choices.note = (f"Your saved game: take back ({UNDO.label}) and put back "
                                f"({REDO.label}) to replay it.")
                return game
            error = game
        elif char == "d":
            number = random_number(SELECT_NUMBERS)
            demo = Anciento.new(number, board=board, easy=easy_mode(session))
            await play_demo(demo)
        elif char == "i":
            await show_instructions(session, "anciento")
        elif key.name == "f1" or char == HELP.key:
            own = [(k, f"{name}: {what}") for k, name, what in menu_rows(session) if k]
            own += [("Enter", "pick a game"), ("Esc Q", "back")]
            await show_menu_keys(session, "The Anciento menu", own, {
                "i": ("how to play", lambda: show_instructions(session, "anciento"))})
        elif key.name != "resize":
            error = "Choose R, P or S to play; T, E, L, D, I; Esc goes back."
        if error:
            session.bell()


async def _select(session: Session, row: int, col: int, first: str) -> Anciento | str:
    """Select a game: its number typed; the game, or why not ("" when the caller backs out)."""
    text = await read_digits(session, row, col, "Game number (Esc: back): ", 6, first)
    session.screen.cursor = None
    if text is None:
        return ""
    if not text:
        return "Type a game number, or press P to have one picked for you."
    number = parse_number(text)
    if number is None or number not in SELECT_NUMBERS:
        return f"Game numbers run from {SELECT_NUMBERS.start} to {SELECT_NUMBERS.stop - 1}."
    return Anciento.new(number, board=_settings(session).board,
                        easy=easy_mode(session))


async def _set_timer(session: Session, row: int, col: int) -> str:
    text = await read_digits(session, row, col, "Minutes to play (0: no timer): ", 3)
    session.screen.cursor = None
    if text is None or text == "":
        return ""
    minutes = parse_number(text)
    if minutes is None:
        return DIGITS_ONLY
    if minutes > MAX_MINUTES:
        return f"At most {MAX_MINUTES} minutes."
    screen_choices(session).timer_minutes = minutes
    return ""


async def _load(session: Session) -> Anciento | str:
    """Load a saved game by name (or by its place in the list); the game, or why not."""
    store, player = session.store, session.player
    if store is None or player is None:
        return "Saved games are unavailable: this door has no saved-games database."
    try:
        saves = await store.saves.list_named(player.id, "anciento")
    except StoreError as exc:
        log.warning("node %s: saved games not listed: %s", session.caller.node, exc)
        return "Saved games are unavailable right now."
    if not saves:
        return "You have no saved Anciento game: press S during a game to save one."
    screen = session.screen
    screen.clear()
    header(session, "Anciento: saved games")
    top, left = 2, 8
    screen.box(top, left, min(len(saves), SAVES_SHOWN) + 4, BOX_WIDTH, theme.FRAME_BRIGHT,
               style=DOUBLE)
    screen.put(top, left + 2, " Your saved games ", theme.TITLE)
    for i, save in enumerate(saves[:SAVES_SHOWN], 1):
        screen.put(top + 1 + i, left + 3, str(i), theme.HOTKEY)
        screen.put(top + 1 + i, left + 6, save.name, theme.BRIGHT)
        screen.put(top + 1 + i, left + 38, f"{save.saved:%Y-%m-%d %H:%M} UTC", theme.LABEL)
    status_line(session, "Type a name or its number · Enter load · Esc back")
    row = top + min(len(saves), SAVES_SHOWN) + 5
    name = await read_line(session, row, left, "Load which game? ", 24)
    screen.cursor = None
    if not name or not name.strip():
        return ""
    name = name.strip()
    place = parse_number(name)
    if place is not None and 1 <= place <= min(len(saves), SAVES_SHOWN):
        name = saves[place - 1].name
    try:
        state = await store.saves.load_named(player.id, "anciento", name)
    except StoreError as exc:
        log.warning("node %s: saved game %r not loaded: %s", session.caller.node, name, exc)
        return "Saved games are unavailable right now."
    if state is None:
        return f"No saved game called \"{name}\"."
    try:
        game = Anciento.from_json(state)
    except ValueError:
        return f"\"{name}\" cannot be read any more."
    if game.ended:
        return f"\"{name}\" is a finished game (final score {game.score}): nothing left to play."
    return game
