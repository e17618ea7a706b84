"""Mariant's setup screen: face-down and face-up cards per column, and the game number.

One screen instead of the frame's bare number prompt, because the setup changes what a
score is worth: every face-down card above 2 takes 20 % off, every face-up card above 1
takes 10 % off, and the caller sees "your score counts 70 %" change as the counts change.
Digits always go to the game number, so a caller who only wants deal #617 types ``617``
and Enter as on every other game.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from ...catalog.registry import MariantSettings
from ...games.mariant import Mariant, check_setup, multiplier_tenths
from ...games.numbers import CARD_GAME_NUMBERS, random_number
from ...session import Session
from ...term.digits import is_digit, parse_number
from ..game.solver_view import (
    pick_winnable,
    toggle_winnable_only,
    winnable_only,
    winnable_only_label,
)
from ..shared import theme
from ..shared.cards import BLACK_CARD, FACE_DOWN, FACE_DOWN_TEXT, RED_CARD
from ..shared.key_overlay import show_menu_keys
from ..shared.keymap import HELP
from ..shared.widgets import message, new_game_box, status_line

SETUP_KEYS = [("↑↓ Tab", "face down or face up"), ("←→ - +", "fewer or more cards"),
              ("0-9", "the game number"), ("Backspace", "take back a digit"),
              ("W", "winnable deals only (on, off)"), ("Enter", "deal (no number: random)"),
              ("Esc", "back")]
"""The setup screen's keys, as ``?`` shows them."""

MIN_DOWN, MIN_UP, MAX_CARDS = 2, 1, 7
COLUMNS, DECK = 10, 104
BOX_WIDTH, BOX_HEIGHT = 66, 16
NUMBER_WIDTH = 10
PROMPT = "Game number: "
SAMPLE_UP = [("K♠", BLACK_CARD), ("Q♥", RED_CARD), ("J♣", BLACK_CARD), ("T♦", RED_CARD),
             ("9♠", BLACK_CARD)]
"""Face-up cards in the column preview (a run, as the caller will build them)."""

_last_setup: weakref.WeakKeyDictionary[Session, tuple[int, int]] = weakref.WeakKeyDictionary()
"""The setup a caller chose last in this visit: offered again for the next new deal."""


@dataclass
class Setup:
    """What the caller is choosing: counts, which count the arrows change, the number typed."""

    down: int
    up: int
    line: int = 0                # 0: face down, 1: face up
    number: str = ""

    @property
    def percent(self) -> int:
        return 10 * multiplier_tenths(self.down, self.up)

    def change(self, step: int) -> str:
        """Change the current line's count by ``step``; return why not ("" when done)."""
        down, up = (self.down + step, self.up) if self.line == 0 else (self.down, self.up + step)
        if down < MIN_DOWN:
            return f"At least {MIN_DOWN} cards face down per column."
        if up < MIN_UP:
            return f"At least {MIN_UP} card face up per column."
        if down + up > MAX_CARDS:
            other = "face-up" if self.line == 0 else "face-down"
            return f"At most {MAX_CARDS} cards per column: take a {other} card off first."
        self.down, self.up = down, up
        return ""


def default_setup(session: Session) -> Setup:
    """This visit's last choice, else the sysop's defaults ([mariant] in sysop.ini)."""
    last = _last_setup.get(session)
    if last:
        return Setup(*last)
    settings = session.settings.game_settings("mariant", MariantSettings)
    try:
        down, up = check_setup(settings.face_down, settings.face_up)
    except ValueError:
        down, up = MIN_DOWN, MIN_UP
    return Setup(down, up)


def draw_setup(session: Session, setup: Setup) -> tuple[int, int]:
    """Draw the setup box; return where the game number is typed (row, column)."""
    screen = session.screen
    top, left = new_game_box(session, "Mariant", BOX_HEIGHT, BOX_WIDTH)
    x = left + 3
    screen.put(top + 2, x, "Cards dealt to each of the ten columns:", theme.LABEL)
    rows = (("Face down", setup.down, "2 to 6", "-20 % each above 2"),
            ("Face up", setup.up, "1 to 5", "-10 % each above 1"))
    for i, (name, count, span, bonus) in enumerate(rows):
        row = top + 4 + i
        current = setup.line == i
        screen.put(row, x, "►" if current else " ", theme.HOTKEY)
        screen.put(row, x + 2, f"{name:<10}", theme.BRIGHT if current else theme.LABEL)
        screen.put(row, x + 13, f"◄ {count} ►", theme.SELECTED if current else theme.LABEL)
        screen.put(row, x + 21, f"({span})  {bonus}", theme.LABEL)
    dealt = COLUMNS * (setup.down + setup.up)
    col = screen.put(top + 7, x + 2, "A column: ", theme.LABEL)
    for _ in range(setup.down):
        col = screen.put(top + 7, col, FACE_DOWN_TEXT, FACE_DOWN) + 1
    for label, attr in SAMPLE_UP[: setup.up]:
        col = screen.put(top + 7, col, label, attr) + 1
    screen.put(top + 7, col + 1, f"({dealt} cards dealt, {DECK - dealt} to deal)",
               theme.LABEL)
    screen.put(top + 9, x, f"Your score counts {setup.percent} %", theme.TITLE)
    screen.put(top + 10, x, "Each move costs points and the LOWEST score wins. A harder",
               theme.LABEL)
    screen.put(top + 11, x, "start (more cards per column) makes your points count less.",
               theme.LABEL)
    number_row = top + 13
    end = screen.put(number_row, x, PROMPT, theme.BRIGHT)
    screen.put(number_row, end, setup.number.ljust(NUMBER_WIDTH), theme.SELECTED)
    screen.put(number_row, end + NUMBER_WIDTH + 2, "Enter: deal (empty: random)", theme.LABEL)
    on = winnable_only(session, "mariant")
    screen.put(number_row + 1, x, winnable_only_label(on)
               + ("  (Enter: a deal that can be won)" if on else ""), theme.LABEL)
    screen.cursor = (number_row, end + len(setup.number))
    status_line(session, f"↑↓ ←→ setup · digits: number · W winnable · Enter · {HELP.label} keys"
                         " · Esc back")
    return number_row, end


async def _winnable(session: Session, setup: Setup, numbers: range) -> int | None:
    """A deal the solver proved winnable at this setup (listed, or solved now: say so)."""
    message(session, "Looking for a deal the solver proved winnable at this setup...")
    await session.show()
    return await pick_winnable(session, "mariant", {"fd": setup.down, "fu": setup.up}, numbers)


async def choose_mariant(session: Session, numbers: range = CARD_GAME_NUMBERS) -> Mariant | None:
    """Run the setup screen; the new game, or None if the caller backs out (Esc)."""
    setup = default_setup(session)
    error = ""
    while True:
        draw_setup(session, setup)
        message(session, error, theme.WARNING if error else theme.MESSAGE)
        await session.show()
        key = await session.key()
        error = ""
        char = key.char if key.is_char else ""
        if key.name == "esc":
            return None
        if key.name in ("up", "down", "tab", "shift-tab"):
            setup.line = 1 - setup.line
        elif key.name in ("left", "right") or (char and char in "-+"):
            error = setup.change(1 if key.name == "right" or char == "+" else -1)
        elif is_digit(char):
            if len(setup.number) < NUMBER_WIDTH:
                setup.number += char
            else:
                error = f"Game numbers have at most {NUMBER_WIDTH} digits."
        elif key.name == "backspace":
            setup.number = setup.number[:-1]
        elif char.lower() == "w":
            toggle_winnable_only(session, "mariant")
        elif key.name == "enter":
            if setup.number:
                number = parse_number(setup.number)
            elif winnable_only(session, "mariant"):
                number = await _winnable(session, setup, numbers)
                if number is None:
                    error = "No winnable deal found just now: try again, or press W."
                    session.bell()
                    continue
            else:
                number = random_number(numbers)
            if number is not None and number in numbers:
                _last_setup[session] = (setup.down, setup.up)
                return Mariant.new(number, fd=setup.down, fu=setup.up)
            error = f"Pick a game number from {numbers.start} to {numbers.stop - 1}."
        elif key.name == "resize":
            continue
        elif key.name == "f1" or char == HELP.key:
            await show_menu_keys(session, "New Mariant game", SETUP_KEYS)
            continue
        else:
            error = "Arrows change the setup, digits the game number; Enter deals, Esc backs out."
        if error:
            session.bell()
