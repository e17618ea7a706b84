"""Parsers of sysop.ini values, shared by :mod:`door.config` and the game records
(:mod:`door.catalog.registry`), which name the parsers of their own sections.

Each parser takes the text after ``key =`` and returns the value, or raises
``ValueError("expected …")``: the config reader adds file, line, section and key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Parser = Callable[[str], Any]


def text(value: str) -> str:
    if not value.strip():
        raise ValueError("expected some text")
    if any(ord(c) < 32 for c in value):
        raise ValueError("expected text without control characters")
    return value.strip()


def text_up_to(limit: int) -> Parser:
    """Text of at most ``limit`` characters (a name shown on an 80-column screen)."""
    def parse(value: str) -> str:
        value = text(value)
        if len(value) > limit:
            raise ValueError(f"expected text of at most {limit} characters")
        return value
    return parse


def between(low: float, high: float, convert: Callable[[str], Any], what: str) -> Parser:
    expected = f"expected {what} {low:g}–{high:g}"

    def parse(value: str) -> Any:
        try:
            number = convert(value)
        except ValueError:
            raise ValueError(expected) from None
        if not low <= number <= high:
            raise ValueError(expected)
        return number
    return parse


def int_between(low: int, high: int) -> Callable[[str], int]:
    return between(low, high, int, "a whole number")


def seconds_between(low: float, high: float) -> Callable[[str], float]:
    return between(low, high, float, "seconds")


def choice(*choices: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value.lower() not in choices:
            raise ValueError(f"expected one of: {', '.join(choices)}")
        return value.lower()
    return parse


def on_off(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("on", "yes", "true", "1"):
        return True
    if lowered in ("off", "no", "false", "0"):
        return False
    raise ValueError("expected on or off")
