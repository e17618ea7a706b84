"""Character sets: how a Unicode cell character becomes bytes for a caller's terminal.

Screens draw in Unicode.  ``cp437`` sends IBM PC bytes (box drawing, shades, and — only for
terminals that show them, such as SyncTERM — the glyphs at 0x01–0x1F like ♥ ♦ ♣ ♠);
``utf8`` sends UTF-8; ``ascii`` sends 7-bit bytes only (boxes as ``+-|``, suits as
letters, shades as ``#``).  Anything a set cannot show degrades to a readable ASCII
stand-in, never to an error or a stray byte.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from .screen import WIDE_TAIL
from .width import char_width

CHARSETS = ("cp437", "utf8", "ascii")

# CP437's glyphs for the control range 0x00–0x1F (0x00 shown as a space).
CP437_C0 = " ☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼"
_C0_GLYPH_BYTES = {ch: bytes([i]) for i, ch in enumerate(CP437_C0) if i}
# Bytes a terminal treats as controls even with glyphs on: never send these as glyphs.
_UNSAFE_C0 = {0x07, 0x08, 0x09, 0x0A, 0x0D, 0x1A, 0x1B}
for _i in _UNSAFE_C0:
    _C0_GLYPH_BYTES.pop(CP437_C0[_i], None)

ASCII_FALLBACK = {
    "─": "-", "━": "-", "═": "=", "│": "|", "┃": "|", "║": "|",
    "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
    "╔": "+", "╗": "+", "╚": "+", "╝": "+", "╠": "+", "╣": "+", "╦": "+", "╩": "+", "╬": "+",
    "╒": "+", "╓": "+", "╕": "+", "╖": "+", "╘": "+", "╙": "+", "╛": "+", "╜": "+",
    "╞": "+", "╟": "+", "╡": "+", "╢": "+", "╤": "+", "╥": "+", "╧": "+", "╨": "+",
    "╪": "+", "╫": "+",
    "░": "#", "▒": "#", "▓": "#", "█": "#", "▀": "#", "▄": "#", "▌": "#", "▐": "#", "■": "#",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "☺": "o", "☻": "o", "•": "*", "◘": "o", "○": "o", "◙": "o", "♂": "m", "♀": "f",
    "♪": "d", "♫": "d", "☼": "*", "►": ">", "◄": "<", "↕": "|", "‼": "!", "¶": "P",
    "§": "S", "▬": "-", "↨": "|", "↑": "^", "↓": "v", "→": ">", "←": "<", "∟": "L",
    "↔": "-", "▲": "^", "▼": "v", "·": ".", "∙": ".", "√": "v",
    "«": "<", "»": ">", "é": "e", "è": "e", "ê": "e", "à": "a", "ç": "c", "ü": "u",
    "É": "E", "½": "%", "—": "-", "–": "-", "’": "'", "‘": "'", "“": '"', "”": '"',
    "…": ".", "×": "x",
}


_ENCODED: dict[tuple[str, bool], dict[str, bytes]] = {}
"""Each character's bytes per (charset, glyphs), shared by every caller using that charset."""
_ENCODED_LIMIT = 4096  # characters typed into messages could otherwise grow it without end


@dataclass
class Charset:
    """One caller's character set.  ``c0_glyphs``: the terminal shows CP437 0x01–0x1F."""

    name: str = "cp437"
    c0_glyphs: bool = False
    _cache: dict[str, bytes] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.name not in CHARSETS:
            raise ValueError(f"charset must be one of {', '.join(CHARSETS)}, got {self.name!r}")
        self._cache = _ENCODED.setdefault((self.name, self.c0_glyphs), {})

    @property
    def encoded(self) -> dict[str, bytes]:
        """The characters encoded so far and their bytes (read only), for the renderer's
        hot loop to look up without a call per cell (:meth:`encode_char` for the rest)."""
        return self._cache

    def encode_char(self, ch: str) -> bytes:
        """Bytes for one cell character (cached: this is on the hot path of every frame)."""
        cached = self._cache.get(ch)
        if cached is None:
            cached = self._encode_char(ch)
            if len(self._cache) < _ENCODED_LIMIT:
                self._cache[ch] = cached
        return cached

    def encode(self, text: str) -> bytes:
        """Bytes for a run of cell characters, one cell each."""
        return b"".join(self.encode_char(ch) for ch in text)

    def _encode_char(self, ch: str) -> bytes:
        if ch == WIDE_TAIL:  # covered by the wide character on its left, in UTF-8
            return b"" if self.name == "utf8" else b" "
        code = ord(ch)
        if 32 <= code < 127:
            return ch.encode("ascii")
        if code < 32 or code == 127:
            return b"?"  # a control character in a cell is drawn, never executed
        if self.name == "utf8":
            if _single_width(ch) or char_width(ch) == 2:  # the screen gave it two cells
                return ch.encode("utf-8")
            return b"?"
        if self.name == "cp437":
            if ch in _C0_GLYPH_BYTES:
                if self.c0_glyphs:
                    return _C0_GLYPH_BYTES[ch]
            else:
                try:
                    return ch.encode("cp437")
                except UnicodeEncodeError:
                    pass
        fallback = ASCII_FALLBACK.get(ch)
        if fallback is None:
            fallback = _strip_accent(ch)
        return fallback.encode("ascii", "replace")

    def shows(self, ch: str) -> str:
        """The character the caller's terminal shows for ``ch`` (for tests and previews)."""
        data = self.encode_char(ch)
        if self.name == "utf8":
            return data.decode("utf-8")
        if len(data) == 1 and data[0] < 32:
            return CP437_C0[data[0]]
        return data.decode("cp437")


def _single_width(ch: str) -> bool:
    """True when a terminal draws ``ch`` in exactly one cell (not wide, not combining)."""
    return (unicodedata.east_asian_width(ch) not in ("W", "F") and not unicodedata.combining(ch)
            and unicodedata.category(ch) not in ("Mn", "Me", "Cf", "Cc", "Cs", "Co", "Cn",
                                                 "Zl", "Zp"))


def _strip_accent(ch: str) -> str:
    base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
    return base[:1] or "?"
