"""Numbers a caller types at a prompt or as a key: the input field and the choice of a
numbered list, on the one parser of door/term/digits.py (ASCII digits 0-9 only), with one
line of words for anything else."""

from __future__ import annotations

from ...session import Session
from ...term.digits import is_digit, parse_number
from .widgets import read_line

DIGITS_ONLY = "Type digits 0 to 9 only."
"""What a caller reads when a key or a text is not a number."""


def choice_number(ch: str, count: int) -> int | None:
    """A key naming an entry of a numbered list 1 … ``count`` (count ≤ 9): its number."""
    number = parse_number(ch) if len(ch) == 1 else None
    return number if number is not None and 1 <= number <= count else None


async def read_digits(session: Session, row: int, col: int, prompt: str, width: int,
                      text: str = "") -> str | None:
    """A one-line field taking ASCII digits only (any other key is refused, and says so);
    Enter gives the digits typed (maybe none), Esc None.  Parse them with
    :func:`~door.term.digits.parse_number`."""
    return await read_line(session, row, col, prompt, width, allowed=is_digit, text=text,
                           refusal=DIGITS_ONLY)
