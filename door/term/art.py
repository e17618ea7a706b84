"""ANSI art: .ans files (CP437 with an optional SAUCE record) drawn into a :class:`Screen`.

The art is run through a small ANSI interpreter (CUP/HVP, CUU/CUD/CUF/CUB, CHA, ED, EL, SGR
with bright, blink and reverse, save/restore cursor both as ``CSI s/u`` and ``ESC 7/8``,
wrap at the art's width) so that art and live text compose and diff like anything else.
SAUCE (research/dropfiles.md §9) is cut off with its comment block and the EOF byte; its
width is honoured (art narrower than 80 wraps at its own width, wider art is cropped) and
so is its iCE-colour flag (the blink bit means a bright background: we do not blink it).

Any bytes are accepted: what is not understood is skipped, never raised.  Art taller than
the screen scrolls, as it would on a terminal, except that a trailing line feed does not
scroll away the top line.
"""

from __future__ import annotations

from dataclasses import dataclass

from .charset import CP437_C0
from .screen import BLACK, DEFAULT, WHITE, Attr, Cell, Screen

SAUCE_SIZE = 128


@dataclass
class Sauce:
    """The fields of a SAUCE record we honour."""

    title: str = ""
    author: str = ""
    group: str = ""
    width: int = 80
    lines: int = 0
    ice_colors: bool = False


def strip_sauce(data: bytes) -> tuple[bytes, Sauce | None]:
    """Split art bytes from their SAUCE record, comment block and EOF (0x1A) marker."""
    sauce = None
    if len(data) >= SAUCE_SIZE and data[-SAUCE_SIZE:].startswith(b"SAUCE"):
        record = data[-SAUCE_SIZE:]
        data = data[:-SAUCE_SIZE]
        comments = record[104]
        block = 5 + 64 * comments
        if comments and len(data) >= block and data[-block:].startswith(b"COMNT"):
            data = data[:-block]
        elif comments:  # a wrong count: look for the block anyway
            found = data.rfind(b"COMNT", max(0, len(data) - 5 - 64 * 255))
            if found >= 0 and (len(data) - found - 5) % 64 == 0:
                data = data[:found]
        datatype, filetype = record[94], record[95]
        character = datatype == 1 and filetype in (0, 1, 2, 8)  # ASCII, ANSI, ANSiMation
        width = int.from_bytes(record[96:98], "little") if character else 0
        lines = int.from_bytes(record[98:100], "little") if character else 0
        sauce = Sauce(title=_field(record[7:42]), author=_field(record[42:62]),
                      group=_field(record[62:82]), width=width if 0 < width <= 1000 else 80,
                      lines=lines, ice_colors=bool(record[105] & 1) and datatype in (1, 5))
    eof = data.find(b"\x1a")
    if eof >= 0:
        data = data[:eof]
    return data, sauce


def _field(raw: bytes) -> str:
    return raw.decode("cp437").rstrip(" \0").replace("\0", " ")


def decode_cp437_art(data: bytes) -> str:
    """CP437 bytes to text, with the 0x01–0x1F glyphs kept as glyphs (except real controls)."""
    keep = {0x00, 0x08, 0x09, 0x0A, 0x0D, 0x1B}
    return "".join(ch if ord(ch) >= 32 or ord(ch) in keep else CP437_C0[ord(ch)]
                   for ch in data.decode("cp437"))


class _Interpreter:
    """The state of one art drawing: cursor, colours, saved cursor."""

    def __init__(self, screen: Screen, top: int, width: int, ice_colors: bool) -> None:
        self.screen, self.top, self.ice = screen, top, ice_colors
        self.width = max(1, width)  # wrap column; cells past the screen's edge are cropped
        self.row, self.col = top, 0
        self.attr = DEFAULT
        self.reverse = False
        self.saved = (top, 0)
        self.last_row = top - 1

    def draw(self, ch: str) -> None:
        if self.col >= self.width:
            self.row, self.col = self.row + 1, 0
        if self.row >= self.screen.rows:
            self.scroll(self.row - self.screen.rows + 1)
        fg, bg = (self.attr.bg, self.attr.fg) if self.reverse else (self.attr.fg, self.attr.bg)
        attr = Attr(fg, bg, self.attr.bright, self.attr.blink and not self.ice)
        if self.col < self.screen.cols:
            self.screen.cells[self.row][self.col] = Cell(ch, attr)
        self.last_row = max(self.last_row, self.row)
        self.col += 1

    def scroll(self, n: int) -> None:
        """The region from ``top`` down moves up ``n`` rows, as a terminal scrolls."""
        cells, top = self.screen.cells, self.top
        height = self.screen.rows - top
        n = min(n, height)
        cells[top:] = cells[top + n:] + [[Cell()] * self.screen.cols for _ in range(n)]
        self.row -= n
        self.saved = (max(top, self.saved[0] - n), self.saved[1])
        self.last_row = max(top - 1, self.last_row - n)

    def csi(self, params: str, final: str) -> None:
        if params[:1] in "?=<>" and params:
            return  # private modes (SyncTERM fonts, wrap, cursor): nothing to draw
        nums = [int(p[:5]) if p.isdigit() else 0 for p in params.split(";")] if params else []
        first = nums[0] if nums and nums[0] else 1
        rows = self.screen.rows
        if final in "Hf":
            r = nums[0] if nums and nums[0] else 1
            c = nums[1] if len(nums) > 1 and nums[1] else 1
            self.row = min(rows - 1, self.top + r - 1)
            self.col = min(self.width - 1, c - 1)
        elif final == "A":
            self.row = max(self.top, min(self.row, rows - 1) - first)
        elif final == "B":
            self.row = min(rows - 1, self.row + first)
        elif final == "C":
            self.col = min(self.width - 1, self.col + first)
        elif final == "D":
            self.col = max(0, min(self.col, self.width - 1) - first)
        elif final == "G":
            self.col = min(self.width - 1, first - 1)
        elif final == "J":
            self.erase_display(nums[0] if nums else 0)
        elif final == "K":
            self.erase_line(nums[0] if nums else 0)
        elif final == "s":
            self.saved = (self.row, self.col)
        elif final == "u":
            self.row, self.col = self.saved
        elif final == "m":
            self.sgr(nums or [0])

    def erase_display(self, mode: int) -> None:
        screen, blank = self.screen, Cell(" ", Attr(WHITE, self.attr.bg))
        row = min(self.row, screen.rows - 1)
        if mode == 2:
            for r in range(self.top, screen.rows):
                screen.cells[r] = [blank] * screen.cols
            self.row, self.col = self.top, 0  # ANSI.SYS homes the cursor on ED 2
        elif mode == 0:
            self.erase_line(0)
            for r in range(row + 1, screen.rows):
                screen.cells[r] = [blank] * screen.cols
        elif mode == 1:
            self.erase_line(1)
            for r in range(self.top, row):
                screen.cells[r] = [blank] * screen.cols

    def erase_line(self, mode: int) -> None:
        if self.row >= self.screen.rows:
            return
        line, blank = self.screen.cells[self.row], Cell(" ", Attr(WHITE, self.attr.bg))
        start, stop = {0: (self.col, self.width), 1: (0, self.col + 1)}.get(mode, (0, self.width))
        for c in range(max(0, start), min(stop, len(line))):
            line[c] = blank

    def sgr(self, nums: list[int]) -> None:
        fg, bg, bright, blink = self.attr
        for p in nums:
            if p == 0:
                fg, bg, bright, blink = WHITE, BLACK, False, False
                self.reverse = False
            elif p == 1:
                bright = True
            elif p == 5 or p == 6:
                blink = True
            elif p == 7:
                self.reverse = True
            elif p == 22:
                bright = False
            elif p == 25:
                blink = False
            elif p == 27:
                self.reverse = False
            elif 30 <= p <= 37:
                fg = p - 30
            elif 40 <= p <= 47:
                bg = p - 40
            elif 90 <= p <= 97:
                fg, bright = p - 90, True
            elif 100 <= p <= 107:
                bg, blink = p - 100, True  # bright background: the blink bit, as iCE has it
            elif p == 39:
                fg = WHITE
            elif p == 49:
                bg = BLACK
        self.attr = Attr(fg, bg, bright, blink)


def draw_ansi(screen: Screen, text: str, top: int = 0, ice_colors: bool = False,
              width: int = 80) -> int:
    """Interpret ANSI text into ``screen`` from row ``top``; return the last row drawn + 1."""
    screen.touch()  # the art writes cells directly: every row the screen's own, and drawn
    art = _Interpreter(screen, top, width, ice_colors)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        if ch == "\x1b":
            if i >= n:
                break
            if text[i] == "[":
                j = i + 1
                while j < n and "\x30" <= text[j] <= "\x3f" and j - i < 64:
                    j += 1
                while j < n and "\x20" <= text[j] <= "\x2f" and j - i < 64:
                    j += 1
                if j >= n:
                    break
                if "\x40" <= text[j] <= "\x7e":
                    art.csi(text[i + 1:j], text[j])
                    i = j + 1
                else:  # a broken sequence: drop what was read, keep the byte after it
                    i = j
            elif text[i] == "7":
                art.saved = (art.row, art.col)
                i += 1
            elif text[i] == "8":
                art.row, art.col = art.saved
                i += 1
            else:
                i += 1  # another two-byte escape: nothing to draw
            continue
        if ch == "\r":
            art.col = 0
        elif ch == "\n":
            art.row, art.col = art.row + 1, 0
        elif ch == "\x08":
            art.col = max(0, min(art.col, art.width) - 1)
        elif ch == "\t":
            art.col = min(art.width - 1, (art.col // 8 + 1) * 8)
        elif ch == "\x00":
            continue
        else:
            art.draw(ch)
    return min(art.last_row + 1, screen.rows) if art.last_row >= top else top


def load_art(screen: Screen, data: bytes, top: int = 0) -> int:
    """Draw .ans bytes (SAUCE stripped) into ``screen``; return the row after the art."""
    body, sauce = strip_sauce(data)
    ice = bool(sauce and sauce.ice_colors)
    width = sauce.width if sauce else 80
    return draw_ansi(screen, decode_cp437_art(body), top, ice_colors=ice, width=width)
