"""Numbers a caller types or a client sends (game numbers, minutes, a terminal speed): one
parser for all of them, ASCII digits 0-9 only.

Python's ``str.isdigit`` also accepts superscripts (``²``: byte 0xFD in CP437), circled and
fullwidth digits, Arabic-Indic digits …, and ``int()`` takes some of those and raises on the
others: a caller who typed ``²1`` at a game number once dropped the line with a traceback.
Screens use :func:`is_digit` for single keys and :func:`parse_number` for typed text
(door/ui/shared/number_input.py has the input field and the words for a refusal).
"""

from __future__ import annotations

DIGITS = "0123456789"
MAX_DIGITS = 100
"""Longer digit strings are no number anyone could want (and ``int()`` of thousands of
digits is slow, then refused): :func:`parse_number` says None."""


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
