"""Numbers a caller types (game numbers, minutes, list choices): one parser for all of them.

Only the ASCII digits 0-9 make a number.  Python's ``str.isdigit`` also accepts superscripts
(``²``: byte 0xFD in CP437), circled and fullwidth digits, Arabic-Indic digits …, and
``int()`` takes some of those and raises on the others: a caller who typed ``²1`` once
dropped the line with a traceback.  Screens use :func:`is_digit` for single keys and
:func:`parse_number` for typed text, and refuse anything else with :data:`DIGITS_ONLY`.
"""

from __future__ import annotations

from ..session import Session
from .widgets import read_line

DIGITS = "0123456789"
MAX_DIGITS = 100
"""Longer digit strings are no number a screen could want (and ``int()`` of thousands of
digits is slow, then refused): :func:`parse_number` says None."""
DIGITS_ONLY = "Type digits 0 to 9 only."
"""What a caller reads when a key or a text is not a number."""


def is_digit(ch: str) -> bool:
    """True for exactly one ASCII digit 0-9, and nothing else that Unicode calls a digit."""
    return len(ch) == 1 and ch in DIGITS


def parse_number(text: str) -> int | None:
    """The whole number written in ``text`` with ASCII digits (spaces around allowed), or
    None for anything else: empty, signs, other digit forms, more than MAX_DIGITS digits."""
    digits = text.strip(" ")
    if not digits or len(digits) > MAX_DIGITS or not all(is_digit(c) for c in digits):
        return None
    return int(digits)


def choice_number(ch: str, count: int) -> int | None:
    """A key naming an entry of a numbered list 1 … ``count`` (count ≤ 9): its number."""
    number = parse_number(ch) if len(ch) == 1 else None
    return number if number is not None and 1 <= number <= count else None


async def read_digits(session: Session, row: int, col: int, prompt: str, width: int,
                      text: str = "") -> str | None:
    """A one-line field taking ASCII digits only (any other key is refused, and says so);
    Enter gives the digits typed (maybe none), Esc None.  Parse them with
    :func:`parse_number`."""
    return await read_line(session, row, col, prompt, width, allowed=is_digit, text=text,
                           refusal=DIGITS_ONLY)
