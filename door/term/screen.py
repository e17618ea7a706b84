"""The cell buffer: what the caller should see, one character and one attribute per cell."""

from __future__ import annotations

from typing import NamedTuple

BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE = range(8)


class Attr(NamedTuple):
    """A cell's colours: ANSI foreground/background 0–7, bright (bold) and blink."""

    fg: int = WHITE
    bg: int = BLACK
    bright: bool = False
    blink: bool = False

    @classmethod
    def from_pc(cls, value: int) -> Attr:
        """From a PC text attribute byte (Wildcat ``@XY@``, PCBoard ``@Xnn``): bg<<4 | fg."""
        pc_to_ansi = (BLACK, BLUE, GREEN, CYAN, RED, MAGENTA, YELLOW, WHITE)
        return cls(pc_to_ansi[value & 7], pc_to_ansi[(value >> 4) & 7],
                   bool(value & 8), bool(value & 0x80))


DEFAULT = Attr()


class Cell(NamedTuple):
    ch: str = " "
    attr: Attr = DEFAULT


BLANK = Cell()

# Box-drawing sets: corners tl tr bl br, horizontal, vertical.
SINGLE = "┌┐└┘─│"
DOUBLE = "╔╗╚╝═║"


class Screen:
    """An 80 × rows grid of :class:`Cell`.  Drawing clips silently at the edges."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.cols = cols
        self.rows = rows
        self.cells: list[list[Cell]] = [[BLANK] * cols for _ in range(rows)]
        self.cursor: tuple[int, int] | None = None  # (row, col) to leave the cursor at

    def clear(self, attr: Attr = DEFAULT) -> None:
        blank = Cell(" ", attr)
        self.cells = [[blank] * self.cols for _ in range(self.rows)]

    def resize(self, cols: int, rows: int) -> None:
        """Change size, keeping what fits (the caller redraws anyway)."""
        old = self.cells
        self.cols, self.rows = cols, rows
        self.cells = [[BLANK] * cols for _ in range(rows)]
        for r in range(min(rows, len(old))):
            for c in range(min(cols, len(old[r]))):
                self.cells[r][c] = old[r][c]

    def put(self, row: int, col: int, text: str, attr: Attr = DEFAULT) -> int:
        """Write ``text`` at (row, col) in one attribute; return the column after it."""
        if 0 <= row < self.rows:
            line = self.cells[row]
            for ch in text:
                if 0 <= col < self.cols:
                    line[col] = Cell(ch, attr)
                col += 1
        else:
            col += len(text)
        return col

    def center(self, row: int, text: str, attr: Attr = DEFAULT) -> None:
        self.put(row, max(0, (self.cols - len(text)) // 2), text, attr)

    def fill(self, row: int, col: int, height: int, width: int, ch: str = " ",
             attr: Attr = DEFAULT) -> None:
        for r in range(row, row + height):
            self.put(r, col, ch * width, attr)

    def box(self, row: int, col: int, height: int, width: int, attr: Attr = DEFAULT,
            style: str = SINGLE) -> None:
        """Draw a box outline (single or double line) with its corners at the given extent."""
        tl, tr, bl, br, h, v = style
        self.put(row, col, tl + h * (width - 2) + tr, attr)
        for r in range(row + 1, row + height - 1):
            self.put(r, col, v, attr)
            self.put(r, col + width - 1, v, attr)
        self.put(row + height - 1, col, bl + h * (width - 2) + br, attr)

    def text(self) -> list[str]:
        """The characters only, one string per row (for tests and logs)."""
        return ["".join(cell.ch for cell in line) for line in self.cells]
