"""ANSI art: .ans files (CP437 with an optional SAUCE record) drawn into a :class:`Screen`.

The art is run through a small ANSI interpreter (CUP, CUU/CUD/CUF/CUB, ED, EL, SGR with
bright and blink, save/restore cursor, wrap at the right edge) so that art and live text
compose and diff like anything else.  Any bytes are accepted: what is not understood is
skipped, never raised.
"""

from __future__ import annotations

from dataclasses import dataclass

from .charset import CP437_C0
from .screen import BLACK, WHITE, Attr, Screen

SAUCE_SIZE = 128


@dataclass
class Sauce:
    """The fields of a SAUCE record we honour."""

    title: str = ""
    author: str = ""
    width: int = 80
    ice_colors: bool = False


def strip_sauce(data: bytes) -> tuple[bytes, Sauce | None]:
    """Split art bytes from their SAUCE record, comment block and EOF (0x1A) marker."""
    sauce = None
    if len(data) >= SAUCE_SIZE and data[-SAUCE_SIZE:].startswith(b"SAUCE00"):
        record = data[-SAUCE_SIZE:]
        data = data[:-SAUCE_SIZE]
        comments = record[104]
        block = 5 + 64 * comments
        if comments and len(data) >= block and data[-block:].startswith(b"COMNT"):
            data = data[:-block]
        width = int.from_bytes(record[96:98], "little") if record[94] == 1 else 80
        sauce = Sauce(title=record[7:42].decode("cp437").rstrip(" \0"),
                      author=record[42:62].decode("cp437").rstrip(" \0"),
                      width=width or 80, ice_colors=bool(record[105] & 1))
    eof = data.find(b"\x1a")
    if eof >= 0:
        data = data[:eof]
    return data, sauce


def decode_cp437_art(data: bytes) -> str:
    """CP437 bytes to text, with the 0x01–0x1F glyphs kept as glyphs (except real controls)."""
    keep = {0x08, 0x09, 0x0A, 0x0D, 0x1B}
    return "".join(ch if ord(ch) >= 32 or ord(ch) in keep or ord(ch) == 0 else CP437_C0[ord(ch)]
                   for ch in data.decode("cp437"))


def draw_ansi(screen: Screen, text: str, top: int = 0, ice_colors: bool = False) -> int:
    """Interpret ANSI text into ``screen`` from row ``top``; return the last row drawn + 1."""
    row, col = top, 0
    fg, bg, bright, blink = WHITE, BLACK, False, False
    saved = (row, col)
    last_row = top
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        if ch == "\x1b":
            if i < n and text[i] == "[":
                j = i + 1
                while j < n and "\x20" <= text[j] <= "\x3f":
                    j += 1
                if j >= n:
                    break
                params, final = text[i + 1:j], text[j]
                i = j + 1
                nums = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []
                first = nums[0] if nums and nums[0] else 1
                if final in "Hf":
                    r = nums[0] if len(nums) > 0 and nums[0] else 1
                    c = nums[1] if len(nums) > 1 and nums[1] else 1
                    row, col = top + r - 1, c - 1
                elif final == "A":
                    row = max(top, row - first)
                elif final == "B":
                    row += first
                elif final == "C":
                    col = min(screen.cols - 1, col + first)
                elif final == "D":
                    col = max(0, col - first)
                elif final == "J" and (nums[:1] or [0])[0] == 2:
                    screen.fill(top, 0, screen.rows - top, screen.cols)
                    row, col = top, 0
                elif final == "K":
                    screen.put(row, col, " " * (screen.cols - col), Attr(fg, bg, bright, blink))
                elif final == "s":
                    saved = (row, col)
                elif final == "u":
                    row, col = saved
                elif final == "m":
                    for p in nums or [0]:
                        if p == 0:
                            fg, bg, bright, blink = WHITE, BLACK, False, False
                        elif p == 1:
                            bright = True
                        elif p == 5:
                            blink = True
                        elif p == 22:
                            bright = False
                        elif p == 25:
                            blink = False
                        elif 30 <= p <= 37:
                            fg = p - 30
                        elif 40 <= p <= 47:
                            bg = p - 40
                        elif p == 39:
                            fg = WHITE
                        elif p == 49:
                            bg = BLACK
            continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            row, col = row + 1, 0
        elif ch == "\x08":
            col = max(0, col - 1)
        elif ch == "\t":
            col = min(screen.cols - 1, (col // 8 + 1) * 8)
        elif ch == "\x00":
            continue
        else:
            if col >= screen.cols:
                row, col = row + 1, 0
            attr = Attr(fg, bg, bright, blink and not ice_colors)
            screen.put(row, col, ch, attr)
            last_row = max(last_row, row)
            col += 1
    return last_row + 1


def load_art(screen: Screen, data: bytes, top: int = 0) -> int:
    """Draw .ans bytes (SAUCE stripped) into ``screen``; return the row after the art."""
    body, sauce = strip_sauce(data)
    ice = bool(sauce and sauce.ice_colors)
    return draw_ansi(screen, decode_cp437_art(body), top, ice_colors=ice)
