"""The cell buffer: what the caller should see, one character and one attribute per cell.

Screens draw here and never write bytes; the :class:`~door.term.render.Renderer` turns
the difference between two buffers into the bytes a terminal needs.  Every cell holds one
single-width character, so a row is always exactly ``cols`` cells wide; a wide character
(``中``, most emoji: :mod:`door.term.width`) takes two cells, the second a :data:`WIDE_TAIL`.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import NamedTuple

from .width import char_width, text_width

BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE = range(8)
COLOR_NAMES = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
# The PC attribute byte numbers colours differently from ANSI (1 is blue, 4 is red).
PC_TO_ANSI = (BLACK, BLUE, GREEN, CYAN, RED, MAGENTA, YELLOW, WHITE)
ANSI_TO_PC = tuple(PC_TO_ANSI.index(i) for i in range(8))


class Attr(NamedTuple):
    """A cell's colours: ANSI foreground/background 0–7, bright (bold) and blink."""

    fg: int = WHITE
    bg: int = BLACK
    bright: bool = False
    blink: bool = False

    @classmethod
    def from_pc(cls, value: int) -> Attr:
        """From a PC text attribute byte (Wildcat ``@XY@``, PCBoard ``@Xnn``): bg<<4 | fg.

        Bit 3 is bright foreground, bit 7 blink (bright background on iCE terminals)."""
        return cls(PC_TO_ANSI[value & 7], PC_TO_ANSI[(value >> 4) & 7],
                   bool(value & 8), bool(value & 0x80))

    def to_pc(self) -> int:
        """The PC attribute byte for this attribute (the inverse of :meth:`from_pc`)."""
        return (ANSI_TO_PC[self.fg & 7] | (ANSI_TO_PC[self.bg & 7] << 4)
                | (8 if self.bright else 0) | (0x80 if self.blink else 0))


DEFAULT = Attr()


class Cell(NamedTuple):
    ch: str = " "
    attr: Attr = DEFAULT


BLANK = Cell()
WIDE_TAIL = ""
"""The character of the cell right of a wide character: it draws nothing (the wide
character's glyph covers it), and drawing over either half blanks the other."""

# Box-drawing sets: corners tl tr bl br, horizontal, vertical.
SINGLE = "┌┐└┘─│"
DOUBLE = "╔╗╚╝═║"
# Double horizontal with single vertical, and the reverse (CP437 has both).
DOUBLE_H = "╒╕╘╛═│"
DOUBLE_V = "╓╖╙╜─║"
BOX_STYLES = {"single": SINGLE, "double": DOUBLE, "double-h": DOUBLE_H, "double-v": DOUBLE_V}

Span = tuple[str, Attr]


# Cells are immutable values: one shared object per (character, attribute) means drawing a
# frame looks cells up instead of building ~2,000 new tuples (the door's hottest path).
_CELLS: dict[Attr, dict[str, Cell]] = {}
_CELL_CACHE_LIMIT = 50_000


def _cells_of(attr: Attr) -> dict[str, Cell]:
    cells = _CELLS.get(attr)
    if cells is None:
        if len(_CELLS) > 1024:  # art with odd attributes: start afresh rather than grow
            _CELLS.clear()
        cells = _CELLS[attr] = {}
    return cells


def _new_cell(cells: dict[str, Cell], ch: str, attr: Attr) -> Cell:
    cell = Cell(ch if ch >= " " else "?", attr)
    if len(cells) < _CELL_CACHE_LIMIT:
        cells[ch] = cell
    return cell


# Screens draw the same strings in the same colours frame after frame (labels, box edges,
# cards): the cells of each (text, attribute) run are kept too, so drawing one is a single
# lookup and a slice assignment instead of a lookup per character.
_RUNS: dict[Attr, dict[str, tuple[Cell, ...]]] = {}
_RUN_BUDGET = 20_000
"""Runs kept across all attributes (a few MiB at most): past it the cache starts afresh, so
text typed by callers (messages, names) cannot grow it without end."""
_runs_kept = 0


def forget_runs() -> None:
    """Empty the runs kept (door/term/caches.py: after a burst of callers)."""
    global _runs_kept
    _RUNS.clear()
    _runs_kept = 0


def _runs_of(attr: Attr) -> dict[str, tuple[Cell, ...]]:
    runs = _RUNS.get(attr)
    if runs is None:
        runs = _RUNS[attr] = {}
    return runs


def _new_run(runs: dict[str, tuple[Cell, ...]], text: str, attr: Attr) -> tuple[Cell, ...]:
    global _runs_kept
    cells = _CELLS.get(attr) or _cells_of(attr)
    run = tuple([cells.get(ch) or _new_cell(cells, ch, attr) for ch in text])
    if not text.isascii() and any(char_width(ch) == 2 for ch in text):
        tail = Cell(WIDE_TAIL, attr)
        run = tuple(part for cell in run
                    for part in ((cell, tail) if char_width(cell.ch) == 2 else (cell,)))
    if _runs_kept >= _RUN_BUDGET:
        _RUNS.clear()
        _runs_kept = 0
        runs = _runs_of(attr)
    runs[text] = run
    _runs_kept += 1
    return run


class Screen:
    """A cols × rows grid of :class:`Cell`.  Drawing clips silently at the edges.

    The screen keeps track of what changed: every drawing call stamps the rows it touched
    with a new :attr:`version`, so a renderer looks only at rows stamped since its last
    frame, and a screen that draws only what changed can tell whether something else drew
    over it meanwhile.

    A renderer keeps the row lists of its last frame as its record of what the caller
    shows (one grid of cells per caller, not two): a row's first change after a frame
    writes a copy of the row (copy on write).  So code that writes ``cells`` directly
    writes only into :meth:`writable_row`'s list (or a list of its own it puts in
    ``cells``, then calls :meth:`touch`)."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.cols = cols
        self.rows = rows
        self.cells: list[list[Cell]] = [[BLANK] * cols for _ in range(rows)]
        self.cursor: tuple[int, int] | None = None  # (row, col) to leave the cursor at
        self.wide_rows: set[int] = set()
        """Rows that may hold a wide character since the last clear (the renderer keeps
        both halves of one together there)."""
        self.version = 0
        """Goes up with every change; :attr:`row_versions` holds each row's last one."""
        self.row_versions = array("q", [0]) * rows
        """Machine integers in one block, not a list of int objects: the renderer reads
        them all every frame, and a server of many callers finds them out of the cache
        (24 scattered objects cost more to reach than the comparisons)."""
        self.framed = 0
        """The version of the last frame a renderer made of this screen (see the spans)."""
        self.drawn_rows: list[int] = []
        """The rows drawn on since the last frame (:attr:`framed`), each once, in the order
        of their first change: the renderer that made that frame reads them here instead
        of comparing every row's stamp (24 numbers made objects, every frame)."""
        self._whole_spans()

    def _whole_spans(self) -> None:
        # Each row's span: the columns drawn on since the row's first change after the last
        # frame (``span_lo`` to ``span_hi``), and the row's stamp before that first change
        # (``span_base``).  A renderer whose last frame is no older than ``span_base``
        # compares only the span: a cursor key's few cells, not two rows of 80 cells out
        # of the cache.  A whole row's span (base 0) serves every renderer.
        # Lists, not arrays: ``put`` reads and writes them, and Python's list indexing is
        # the faster (small ints are shared objects; the bases are the rows' stamps).
        self.span_lo = [0] * self.rows
        self.span_hi = [self.cols] * self.rows
        self.span_base = [0] * self.rows

    def touch(self, row: int | None = None) -> None:
        """Note a change of ``row`` (None: of every row) to be drawn at the next frame.

        The row becomes the screen's own list first (a copy, if a renderer may hold it):
        rows stamped since the last frame are always the screen's own, which lets
        :meth:`put` write into them in place."""
        if row is None:
            framed, versions, cells = self.framed, self.row_versions, self.cells
            for r in range(self.rows):
                if versions[r] <= framed:
                    cells[r] = cells[r].copy()
            self._stamp_all()
        elif 0 <= row < self.rows:
            self.writable_row(row)

    def writable_row(self, row: int) -> list[Cell]:
        """Row ``row``'s cells, for code that writes them directly (art, a colour span):
        the screen's own list (copied if a renderer may hold it as its last frame), the
        whole row noted as changed."""
        stamp = self.row_versions[row]
        if stamp <= self.framed:  # unchanged since the last frame: a renderer may hold it
            line = self.cells[row] = self.cells[row].copy()
            self.drawn_rows.append(row)
        else:
            line = self.cells[row]
        self.version += 1
        self.row_versions[row] = self.version
        self.span_lo[row], self.span_hi[row], self.span_base[row] = 0, self.cols, 0
        return line

    def _stamp_all(self) -> None:
        """Every row changed, each already the screen's own list (new ones)."""
        self.version += 1
        self.row_versions = array("q", [self.version]) * self.rows
        self.drawn_rows = list(range(self.rows))
        self._whole_spans()

    def clear(self, attr: Attr = DEFAULT) -> None:
        blank = Cell(" ", attr)
        self.cells = [[blank] * self.cols for _ in range(self.rows)]
        self.wide_rows = set()
        self._stamp_all()

    def resize(self, cols: int, rows: int) -> None:
        """Change size, keeping what fits (the caller redraws anyway)."""
        old = self.cells
        self.cols, self.rows = cols, rows
        self.cells = [[BLANK] * cols for _ in range(rows)]
        for r in range(min(rows, len(old))):
            width = min(cols, len(old[r]))
            self.cells[r][:width] = old[r][:width]
            if 0 < width < len(old[r]) and old[r][width].ch == WIDE_TAIL:
                self.cells[r][width - 1] = BLANK  # a wide character cut in half
        self.wide_rows = {r for r in self.wide_rows if r < rows}
        if self.cursor is not None:
            self.cursor = (min(self.cursor[0], rows - 1), min(self.cursor[1], cols - 1))
        self._stamp_all()

    def snapshot(self) -> list[list[Cell]]:
        """A copy of every row, for :meth:`restore` (a question over a screen, then back)."""
        return [list(line) for line in self.cells]

    def restore(self, saved: list[list[Cell]], rows: range | None = None) -> None:
        """Put back ``rows`` (default all) of a :meth:`snapshot` of this size; a snapshot
        of another size (the window changed meanwhile) is ignored."""
        if len(saved) != self.rows or (saved and len(saved[0]) != self.cols):
            return
        for r in rows if rows is not None else range(self.rows):
            self.writable_row(r)[:] = saved[r]

    def put(self, row: int, col: int, text: str, attr: Attr = DEFAULT) -> int:
        """Write ``text`` at (row, col) in one attribute; return the column after it
        (``len(text)`` cells on, more when it holds wide characters)."""
        runs = _RUNS.get(attr) or _runs_of(attr)
        run = runs.get(text)
        if run is None:
            run = _new_run(runs, text, attr)
        cells = len(run)
        end = col + cells
        if 0 <= row < self.rows and end > 0 and col < self.cols and cells:
            versions = self.row_versions
            stamp = versions[row]
            fresh = stamp <= self.framed  # the row's first change since the last frame
            if fresh:  # a renderer may hold this very list as what it shows: write a copy
                line = self.cells[row] = self.cells[row].copy()
            else:
                line = self.cells[row]
            if col < 0 or end > self.cols or cells != len(text) or row in self.wide_rows:
                self._put_edges(row, col, end, run)  # rare: the fast path below is the rule
                first, last = 0, self.cols  # it may change cells beside it: the whole row
            else:
                line[col:end] = run
                first, last = col, end
            if not fresh:  # drawn on since the last frame: widen
                lo, hi = self.span_lo, self.span_hi
                if first < lo[row]:
                    lo[row] = first
                if last > hi[row]:
                    hi[row] = last
            else:  # the row's first change since the last frame: a span of its own
                self.span_lo[row] = first
                self.span_hi[row] = last
                self.span_base[row] = stamp
                self.drawn_rows.append(row)
            self.version = version = self.version + 1
            versions[row] = version
        return end

    def _put_edges(self, row: int, col: int, end: int, run: tuple[Cell, ...]) -> None:
        """``put`` clipped at the screen's edges, keeping wide characters whole: one cut in
        half (by the edge, or by the text drawn over it) leaves a blank."""
        line = self.cells[row]
        start, stop = max(col, 0), min(end, self.cols)
        part = list(run[start - col:stop - col])
        if WIDE_TAIL in (cell.ch for cell in run):
            self.wide_rows.add(row)
            if part[0].ch == WIDE_TAIL:
                part[0] = Cell(" ", part[0].attr)
            if stop < end and run[stop - col].ch == WIDE_TAIL:
                part[-1] = Cell(" ", part[-1].attr)
        if start and line[start].ch == WIDE_TAIL:
            line[start - 1] = Cell(" ", line[start - 1].attr)
        if stop < self.cols and line[stop].ch == WIDE_TAIL:
            line[stop] = Cell(" ", line[stop].attr)
        line[start:stop] = part

    def put_spans(self, row: int, col: int, spans: Iterable[Span]) -> int:
        """Write coloured runs of text one after another; return the column after them."""
        for text, attr in spans:
            col = self.put(row, col, text, attr)
        return col

    def paint(self, row: int, col: int, width: int, attr: Attr) -> None:
        """Recolour ``width`` cells, keeping their characters (a colour span)."""
        if 0 <= row < self.rows:
            line = self.writable_row(row)
            for c in range(max(col, 0), min(col + width, self.cols)):
                line[c] = Cell(line[c].ch, attr)

    def center(self, row: int, text: str, attr: Attr = DEFAULT) -> None:
        self.put(row, max(0, (self.cols - text_width(text)) // 2), text, attr)

    def fill(self, row: int, col: int, height: int, width: int, ch: str = " ",
             attr: Attr = DEFAULT) -> None:
        for r in range(row, row + height):
            self.put(r, col, ch * width, attr)

    def box(self, row: int, col: int, height: int, width: int, attr: Attr = DEFAULT,
            style: str = SINGLE) -> None:
        """Draw a box outline with its corners at the given extent.

        ``style`` is six characters (corners tl tr bl br, horizontal, vertical) or a name
        from :data:`BOX_STYLES` (``single``, ``double``, ``double-h``, ``double-v``)."""
        tl, tr, bl, br, h, v = tuple(BOX_STYLES.get(style, style))
        if width < 2 or height < 2:
            return
        self.put(row, col, tl + h * (width - 2) + tr, attr)
        for r in range(row + 1, row + height - 1):
            self.put(r, col, v, attr)
            self.put(r, col + width - 1, v, attr)
        self.put(row + height - 1, col, bl + h * (width - 2) + br, attr)

    def copy(self) -> Screen:
        """An independent copy (rows are copied; cells are immutable)."""
        other = Screen(self.cols, self.rows)
        other.cells = [list(line) for line in self.cells]
        other.cursor = self.cursor
        other.wide_rows = set(self.wide_rows)
        other._stamp_all()
        return other

    def text(self) -> list[str]:
        """The characters only, one string per row (for tests and logs); a wide character
        is one character of the string, as in pyte's ``display``."""
        return ["".join(cell.ch for cell in line) for line in self.cells]
