"""How wide text is on a terminal, in cells: for text callers type (names, messages).

Most characters take one cell; East Asian wide characters and most emoji take two (``中``,
``😀``); combining marks, variation selectors and joiners take none.  The screen keeps a wide
character as two cells (see :data:`door.term.screen.WIDE_TAIL`), so layouts that hold caller
text measure it here, not with ``len``.  Widths come from ``wcwidth``, the table terminals
and pyte use.

:func:`for_display` prepares caller text for one caller's charset: composed (NFC), with the
zero-width characters a cell grid cannot hold dropped, and — for CP437 and ASCII callers,
whose terminals draw every character in one cell — each wide character shown as ``?``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

ONE_CELL = frozenset(
    bytes(range(0x80, 0x100)).decode("cp437")  # what a CP437 screen shows: art, boxes, suits
    + "☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼⌂"  # … and its glyphs for the control codes
    + "".join(map(chr, range(0xA0, 0x100)))  # Latin-1
    + "".join(map(chr, range(0x2010, 0x2028)))  # dashes, quotes, bullets, the ellipsis
    + "".join(map(chr, range(0x2500, 0x25A0)))  # box drawing and blocks
    + "−×")
"""Characters known to take one cell, without asking ``wcwidth``: importing it costs more
than a tenth of a door's launch (wcwidth 0.9 loads its text-wrapping and random modules),
and a door's own screens draw only these.  A test checks each against ``wcwidth``."""


@lru_cache(maxsize=4096)
def char_width(ch: str) -> int:
    """Cells ``ch`` takes: 0, 1 or 2 (controls count 0: they are never drawn)."""
    if " " <= ch <= "~" or ch in ONE_CELL:
        return 1
    from wcwidth import wcwidth  # local: the first character of another kind: a caller's text

    return max(0, wcwidth(ch))


def text_width(text: str) -> int:
    """Cells ``text`` takes on the screen."""
    if text.isascii():
        return len(text)
    return _wide_width(text)


@lru_cache(maxsize=1024)
def _wide_width(text: str) -> int:
    """:func:`text_width` of text with non-ASCII characters, remembered: the status lines
    (``·`` between their fields) ask it for the same few strings every key."""
    return sum(char_width(ch) for ch in text)


def for_display(text: str, wide: bool = True) -> str:
    """``text`` as the screen should hold it: NFC, no zero-width characters, and with
    ``wide`` False (a CP437 or ASCII caller) every wide character replaced by ``?``."""
    if text.isascii():
        return text
    out = []
    for ch in unicodedata.normalize("NFC", text):
        width = char_width(ch)
        if width == 2 and not wide:
            out.append("?")
        elif width:
            out.append(ch)
    return "".join(out)


def clip(text: str, width: int) -> str:
    """The longest start of ``text`` that fits in ``width`` cells."""
    if text.isascii():
        return text[:max(0, width)]
    return _wide_clip(text, width)


@lru_cache(maxsize=1024)
def _wide_clip(text: str, width: int) -> str:
    """:func:`clip` of text with non-ASCII characters, remembered (as :func:`_wide_width`)."""
    used = 0
    for i, ch in enumerate(text):
        used += char_width(ch)
        if used > width:
            return text[:i]
    return text


def pad(text: str, width: int) -> str:
    """``text`` clipped to ``width`` cells, then padded with spaces to exactly ``width``."""
    text = clip(text, width)
    return text + " " * (width - text_width(text))


def wrap(text: str, width: int) -> list[str]:
    """One paragraph cut into rows of at most ``width`` cells, at spaces where there are any
    (a word longer than a row is cut).  Spaces a row break falls on are dropped; an empty
    paragraph is one empty row."""
    width = max(1, width)
    rows: list[str] = []
    while text_width(text) > width:
        head = clip(text, width) or text[0]
        cut = head.rfind(" ")
        if cut > 0 and head[:cut].strip():
            rows.append(head[:cut].rstrip(" "))
            text = text[cut + 1:]
        else:
            rows.append(head)
            text = text[len(head):]
        text = text.lstrip(" ")
    rows.append(text)
    return rows
