"""The renderer: turns successive :class:`Screen` frames into the fewest bytes we can.

It remembers the last frame the caller received and sends only the cells that changed,
choosing per run between an absolute cursor move (CUP), a relative move, or re-writing the
cells in between; it changes only the SGR attributes that differ (or resets when that is
cheaper) and never writes the bottom-right cell (some BBS terminals scroll on it).
"""

from __future__ import annotations

from .charset import Charset
from .screen import BLACK, DEFAULT, WHITE, Attr, Cell, Screen

ESC = b"\x1b["
_UNKNOWN = Attr(-1, -1, False, False)  # forces a full SGR on the first cell written


def sgr_change(old: Attr, new: Attr, color: bool = True) -> bytes:
    """The shortest SGR sequence taking the terminal from ``old`` to ``new``."""
    if old == new:
        return b""
    full = _sgr_full(new, color)
    if old == _UNKNOWN or (old.bright and not new.bright) or (old.blink and not new.blink):
        return full
    parts: list[str] = []
    if new.bright and not old.bright:
        parts.append("1")
    if new.blink and not old.blink:
        parts.append("5")
    if color:
        if new.fg != old.fg:
            parts.append(str(30 + new.fg))
        if new.bg != old.bg:
            parts.append(str(40 + new.bg))
    elif (new.bg != BLACK) != (old.bg != BLACK):
        return full
    if not parts:
        return b""
    delta = ESC + ";".join(parts).encode() + b"m"
    return delta if len(delta) < len(full) else full


def _sgr_full(attr: Attr, color: bool) -> bytes:
    parts = ["0"]
    if attr.bright:
        parts.append("1")
    if attr.blink:
        parts.append("5")
    if color:
        if attr.fg != WHITE:
            parts.append(str(30 + attr.fg))
        if attr.bg != BLACK:
            parts.append(str(40 + attr.bg))
    elif attr.bg != BLACK:
        parts.append("7")  # monochrome: a coloured background shows as reverse video
    return ESC + ";".join(parts).encode() + b"m"


def cursor_move(row: int, col: int, from_row: int | None, from_col: int | None) -> bytes:
    """Cheapest escape sequence from (from_row, from_col) to (row, col); 0-based."""
    absolute = b"\x1b[H" if row == col == 0 else ESC + f"{row + 1};{col + 1}H".encode()
    if from_row is None or from_col is None:
        return absolute
    if (row, col) == (from_row, from_col):
        return b""
    rel = b""
    if row != from_row:
        if col == 0 and row == from_row + 1:
            return b"\r\n"
        n = abs(row - from_row)
        rel += ESC + (str(n).encode() if n > 1 else b"") + (b"B" if row > from_row else b"A")
    if col != from_col:
        if col == 0:
            rel = b"\r" + rel
        else:
            n = abs(col - from_col)
            rel += ESC + (str(n).encode() if n > 1 else b"") + (b"C" if col > from_col else b"D")
    return rel if len(rel) < len(absolute) else absolute


class Renderer:
    """Diffing ANSI renderer for one caller.  Call :meth:`frame` with each new screen."""

    def __init__(self, charset: Charset | None = None, color: bool = True) -> None:
        self.charset = charset or Charset()
        self.color = color
        self._last: list[list[Cell]] | None = None
        self._attr = _UNKNOWN
        self._row: int | None = None
        self._col: int | None = None

    def invalidate(self) -> None:
        """Forget what the caller shows: the next frame is a full repaint (Ctrl-R, resize)."""
        self._last = None

    def frame(self, screen: Screen) -> bytes:
        """Bytes that turn the caller's display into ``screen``."""
        out = bytearray()
        last = self._last
        if last is None or len(last) != screen.rows or len(last[0]) != screen.cols:
            out += b"\x1b[0m\x1b[2J\x1b[H"
            self._attr, self._row, self._col = DEFAULT, 0, 0
            blank = Cell()
            last = [[blank] * screen.cols for _ in range(screen.rows)]
        for r, line in enumerate(screen.cells):
            old_line = last[r]
            if line == old_line:
                continue
            limit = screen.cols - 1 if r == screen.rows - 1 else screen.cols
            c = 0
            while c < limit:
                if line[c] == old_line[c]:
                    c += 1
                    continue
                self._move(out, r, c, line, old_line)
                cell = line[c]
                out += sgr_change(self._attr, cell.attr, self.color)
                self._attr = cell.attr
                out += self.charset.encode_char(cell.ch)
                c += 1
                self._col = c
                if c >= screen.cols:  # deferred wrap differs between terminals: re-anchor
                    self._row = self._col = None
        if screen.cursor is not None:
            row, col = screen.cursor
            out += cursor_move(row, col, self._row, self._col)
            self._row, self._col = row, col
        self._last = [list(line) for line in screen.cells]
        return bytes(out)

    def _move(self, out: bytearray, row: int, col: int, line: list[Cell],
              old_line: list[Cell]) -> None:
        """Place the cursor at (row, col), re-writing a short same-attribute gap if cheaper."""
        if self._row == row and self._col is not None and 0 < col - self._col <= 4:
            gap = line[self._col:col]
            if all(cell.attr == self._attr for cell in gap):
                out += b"".join(self.charset.encode_char(cell.ch) for cell in gap)
                self._col = col
                return
        out += cursor_move(row, col, self._row, self._col)
        self._row, self._col = row, col
