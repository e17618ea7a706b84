"""The renderer: turns successive :class:`Screen` frames into the fewest bytes we can.

Callers still reach boards at modem speeds, so every byte counts.  The renderer remembers
what the caller's terminal shows and sends only the cells that changed.  For each gap
between changed cells it picks the cheapest of an absolute cursor move (CUP), relative moves
(CR, CR LF, BS, CUU/CUD/CUF/CUB) or re-writing the unchanged cells in between; it clears a
blank tail with EL; it changes only the SGR attributes that differ (or resets when that is
cheaper); and it never writes the bottom-right cell (ANSI.SYS-style terminals scroll on it).
When most of the screen changes, a clear-and-redraw is tried and the shorter one is sent.

Only sequences that ANSI.SYS, SyncTERM, VT100 and xterm all understand are emitted: CUP,
CUU/CUD/CUF/CUB, ED 2, EL 0, SGR 0/1/5/7/30–37/40–47, CR, LF, BS.

"Equal" means equal to the eye: a space's foreground, brightness and blink do not show,
so two spaces with the same background are the same cell.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import compress, count, repeat
from operator import is_not

from .charset import Charset
from .screen import BLACK, DEFAULT, WHITE, WIDE_TAIL, Attr, Cell, Screen

CSI = b"\x1b["
ESC = CSI  # the old name, kept for callers
CLEAR = b"\x1b[0m\x1b[2J\x1b[H"
ERASE_LINE = b"\x1b[K"
_UNKNOWN = Attr(-1, -1, False, False)  # forces a full SGR on the first cell written
_REVERSE = Attr(BLACK, WHITE)  # how monochrome shows a coloured background
_MAX_GAP = 12  # never consider re-writing more unchanged cells than this
_BATCH_FROM = 100
"""A frame of at least this many bytes is also tried with its changes grouped by colour
(:meth:`Renderer._batched`), and the shorter sent: a deal of cards rewrites cards of two
colours all over the board, and changing colour between each costs more than moving the
cursor further (issue #20)."""


Rows = list[list[Cell]] | dict[int, list[Cell]]
"""A frame's rows by row number (the screen's own list, or monochrome copies of some)."""


@lru_cache(maxsize=4096)
def sgr_change(old: Attr, new: Attr, color: bool = True) -> bytes:
    """The shortest SGR sequence taking the terminal from ``old`` to ``new``.

    With ``color`` off, a coloured background is shown as reverse video and the foreground
    is not sent (callers pass attributes through :func:`mono`)."""
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
        if (new.fg == WHITE and old.fg != WHITE) or (new.bg == BLACK and old.bg != BLACK):
            # White on black are the terminal's own colours, which only a reset gives back
            # everywhere (ANSI.SYS has no 39/49): 37 or 40 would show on a terminal whose
            # own are black on white (macOS Terminal's) as cells unlike their neighbours.
            return full
        if new.fg != old.fg:
            parts.append(str(30 + new.fg))
        if new.bg != old.bg:
            parts.append(str(40 + new.bg))
    elif (new.bg != BLACK) != (old.bg != BLACK):
        if new.bg == BLACK:
            return full
        parts.append("7")
    if not parts:
        return b""
    delta = CSI + ";".join(parts).encode() + b"m"
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
    return CSI + ";".join(parts).encode() + b"m"


def mono(attr: Attr) -> Attr:
    """What a monochrome caller sees: grey on black, or reverse video; bright and blink kept."""
    if attr.bg != BLACK:
        return Attr(BLACK, WHITE, attr.bright, attr.blink)
    return Attr(WHITE, BLACK, attr.bright, attr.blink)


def _num(n: int) -> bytes:
    return str(n).encode() if n > 1 else b""


def _horizontal(col: int, from_col: int, left: int = 0) -> bytes:
    """Cheapest move along a row (the row is known, the column too); ``left``: the frame's
    first column in the window (CR goes to the window's, column ``-left`` of the frame)."""
    if col == from_col:
        return b""
    if col == -left:
        return b"\r"
    if col > from_col:
        right = CSI + _num(col - from_col) + b"C"
        via_cr = b"\r" + CSI + _num(col + left) + b"C"
        return right if len(right) <= len(via_cr) else via_cr
    back = from_col - col
    leftward = CSI + _num(back) + b"D"
    if back <= len(leftward):
        return b"\x08" * back
    via_cr = b"\r" + CSI + _num(col + left) + b"C"
    return leftward if len(leftward) <= len(via_cr) else via_cr


def absolute_move(row: int, col: int) -> bytes:
    """CUP to (row, col), 0-based, with default parameters left out."""
    if col == 0:
        return CSI + (str(row + 1).encode() if row else b"") + b"H"
    return CSI + f"{row + 1};{col + 1}H".encode()


@lru_cache(maxsize=8192)
def cursor_move(row: int, col: int, from_row: int | None, from_col: int | None,
                top: int = 0, left: int = 0) -> bytes:
    """Cheapest escape sequence from (from_row, from_col) to (row, col); 0-based, in the
    frame's cells, the frame's top-left cell at (``top``, ``left``) of the window (see
    :func:`centred_origin`): relative moves are the same anywhere, CUP and CR are not.

    An unknown starting point (None) always gets an absolute move."""
    absolute = absolute_move(row + top, col + left)
    if from_row is None or from_col is None:
        return absolute
    if (row, col) == (from_row, from_col):
        return b""
    best = absolute
    if row == from_row:
        rel = _horizontal(col, from_col, left)
        return rel if len(rel) < len(best) else best
    if row > from_row:
        down = row - from_row
        candidates = [(CSI + _num(down) + b"B", from_col)]
        if down <= 2:
            candidates.append((b"\r\n" * down, -left))
    else:
        candidates = [(CSI + _num(from_row - row) + b"A", from_col)]
    for vertical, at_col in candidates:
        rel = vertical + _horizontal(col, at_col, left)
        if len(rel) < len(best):
            best = rel
    return best


def centred_origin(window: tuple[int, int], frame: tuple[int, int]) -> tuple[int, int]:
    """Where a ``frame`` (columns, rows) sits centred in a ``window`` (columns, rows): the
    window's (row, column) of the frame's top-left cell; (0, 0) in a window no larger.
    Layouts are made for 80 columns (docs/architecture.md): a wider window shows them in
    its middle, not at its left edge with the rest of the window empty."""
    (cols, rows), (width, height) = window, frame
    return max(0, (rows - height) // 2), max(0, (cols - width) // 2)


_COMMON: dict[int, list[list[Cell]]] = {}
"""Row lists that idle callers' screens share (:meth:`Renderer.share_rows`), by every
fourth of their cells: up to BUCKET rows equal there, told apart by comparing them whole
(cell by cell, by identity first: in C, quick).  By value, not identity: screens draw
equal cells that are not one object (boxes, art)."""
COMMON_ROWS, BUCKET = 2048, 8
"""Rows kept in ``_COMMON`` at most (under 1.5 MiB; past it the table starts afresh), and
rows under one key."""
_common_rows = 0


def forget_common_rows() -> None:
    """Empty the table of shared rows (no caller left: the rows it keeps are nobody's)."""
    global _common_rows
    _COMMON.clear()
    _common_rows = 0


def _keep_common(bucket: list[list[Cell]], row: list[Cell]) -> None:
    global _common_rows
    if len(bucket) >= BUCKET:
        del bucket[0]
    elif _common_rows >= COMMON_ROWS:
        forget_common_rows()
    else:
        _common_rows += 1
    bucket.append(row)


class Renderer:
    """Diffing ANSI renderer for one caller.  Call :meth:`frame` with each new screen.

    Only the rows the screen stamped since the last frame (:attr:`Screen.row_versions`)
    are compared; any other screen, or a new size, is compared whole.  Several renderers
    may follow one screen (each remembers the stamps it saw).

    What the caller shows is kept as the screen's own row lists where they are equal (the
    screen copies a row before its first change after a frame): a renderer never writes
    into a row list, it puts another in its place."""

    def __init__(self, charset: Charset | None = None, color: bool = True) -> None:
        self.charset = charset or Charset()
        self.color = color
        self._shown: list[list[Cell]] | None = None  # what the caller's terminal shows
        self._attr = _UNKNOWN
        self._row: int | None = None
        self._col: int | None = None
        self._screen: Screen | None = None  # the screen of the last frame …
        self._seen = 0  # … and its version then (rows stamped later changed since)
        self.top = 0
        """The window's row of the frame's first row (:meth:`place`)."""
        self.left = 0
        """The window's column of the frame's first column (:meth:`place`)."""

    def place(self, top: int, left: int) -> None:
        """Draw the frame with its top-left cell at (``top``, ``left``) of the caller's
        window (:func:`centred_origin`); moving it repaints the next frame whole (the
        clear blanks the window around it)."""
        if (top, left) != (self.top, self.left):
            self.top, self.left = top, left
            self._shown = None

    def invalidate(self) -> None:
        """Forget what the caller shows: the next frame is a full repaint (Ctrl-R, resize,
        a new charset or colour setting)."""
        self._shown = None

    def sign_off(self, text: str = "", clear: bool = False) -> bytes:
        """The bytes after a visit's last frame: colours reset (the window cleared too, with
        ``clear``), ``text`` on its own line and the cursor on the next one, so that what
        the caller's terminal shows next (the BBS, a shell prompt) starts clean.  What the
        terminal shows is unknown after: a frame drawn later is drawn whole."""
        self.invalidate()
        return (CLEAR if clear else CSI + b"0m") + self.charset.encode(text) + b"\r\n"

    @property
    def invalidated(self) -> bool:
        """Nothing is known of the caller's display: the next frame is a full repaint."""
        return self._shown is None

    def align(self, leader: Renderer) -> bytes:
        """Both renderers having just drawn the same screen: the bytes that take this one's
        terminal to the cursor position and colour ``leader``'s terminal is left in, so that
        ``leader``'s next frames apply to both (watchers sharing one drawing's bytes)."""
        out = b""
        if leader._row is not None and leader._col is not None and (
                (leader._row, leader._col) != (self._row, self._col)):
            out += cursor_move(leader._row, leader._col, self._row, self._col, self.top,
                               self.left)
        if leader._attr != _UNKNOWN and leader._attr != self._attr:
            out += sgr_change(self._attr, leader._attr, self.color)
        return out

    def share_rows(self, screen: Screen) -> int:
        """Hold each row of ``screen`` unchanged since the last frame as one list with every
        other idle caller's equal row (a login screen, a board's frame, the keys' help);
        returns how many rows changed lists.  For a caller who has been idle a while: it
        costs a hash of each row.  Safe because neither the screen nor a renderer writes a
        row list a frame holds: the screen copies it before its first change."""
        shown = self._shown
        cells, versions, framed = screen.cells, screen.row_versions, screen.framed
        shared = 0
        for r in range(screen.rows):
            row = cells[r]
            if versions[r] > framed:  # changed since the frame: the screen's own
                continue
            key = hash(tuple(row[::4]))
            bucket = _COMMON.get(key)
            if bucket is None:
                bucket = _COMMON[key] = []
            for common in bucket:
                if common == row:
                    break
            else:
                _keep_common(bucket, row)
                continue
            if common is not row:
                if shown is not None and shown[r] is row:
                    shown[r] = common
                cells[r] = common
                shared += 1
        return shared

    # -- the frame ------------------------------------------------------------------------
    def frame(self, screen: Screen) -> bytes:
        """Bytes that turn the caller's display into ``screen``."""
        shown = self._shown
        versions = screen.row_versions
        if shown is None or len(shown) != screen.rows or len(shown[0]) != screen.cols:
            out = self._repaint(self._rows(screen, range(screen.rows)), screen)
        else:
            seen: int | None = None
            if screen is self._screen:  # the rows stamped since: later than the last frame
                seen = self._seen
                if seen == screen.framed:  # this renderer's frame was the screen's last
                    dirty = sorted(screen.drawn_rows)
                else:  # another renderer framed it since (a watcher's): every stamp
                    dirty = list(compress(range(screen.rows), map(seen.__lt__, versions)))
            else:
                dirty = list(range(screen.rows))
            rows = self._rows(screen, dirty)
            if len(dirty) * 2 <= screen.rows:  # the rows' changes are found in _diff
                out = self._diff(rows, dirty, screen, shown, seen)
            elif len(changed := [r for r in dirty if rows[r] != shown[r]]) * 2 > screen.rows:
                saved = (self._attr, self._row, self._col)
                diff = self._diff(rows, changed, screen, [list(line) for line in shown])
                diff_state = (self._attr, self._row, self._col, self._shown)
                self._attr, self._row, self._col = saved
                full = self._repaint(self._rows(screen, range(screen.rows)), screen)
                if len(diff) < len(full):
                    out = diff
                    self._attr, self._row, self._col, self._shown = diff_state
                else:
                    out = full
            else:
                out = self._diff(rows, changed, screen, shown)
        self._screen, self._seen = screen, screen.version
        screen.framed = screen.version
        screen.drawn_rows = []
        if screen.cursor is not None:
            row, col = screen.cursor
            out += cursor_move(row, col, self._row, self._col, self.top, self.left)
            self._row, self._col = row, col
        return bytes(out)

    def _rows(self, screen: Screen, which: range | list[int]) -> Rows:
        """The rows ``which`` (at least) as the caller sees them, by row number: in colour,
        the screen's own rows; in monochrome, copies with reverse video for colour."""
        if self.color:
            return screen.cells
        return {r: [Cell(c.ch, mono(c.attr)) for c in screen.cells[r]] for r in which}

    def _repaint(self, rows: Rows, screen: Screen) -> bytearray:
        """Clear the screen, then draw every cell that is not a plain blank."""
        out = bytearray(CLEAR)
        self._attr, self._row, self._col = DEFAULT, -self.top, -self.left  # the window's home
        blank = Cell()
        return out + self._diff(rows, list(range(screen.rows)), screen,
                                [[blank] * screen.cols for _ in range(screen.rows)])

    def _diff(self, rows: Rows, changed: list[int], screen: Screen,
              shown: list[list[Cell]], seen: int | None = None) -> bytearray:
        """Bytes for every visibly changed cell of the ``changed`` rows (``rows`` holds
        them); ``shown`` is updated to the new frame.  ``seen``: the version of
        ``screen`` that ``shown`` is a frame of, when it is one: then only the columns
        of each row's span can differ (``Screen.span_lo`` …; the rest of the row holds
        the very cell objects shown, as the renderer keeps its rows)."""
        out = bytearray()
        cols, last_row = screen.cols, screen.rows - 1
        start = (self._attr, self._row, self._col)
        plans: list[tuple[int, list[Cell], list[int], int | None]] = []
        span_lo, span_hi, span_base = screen.span_lo, screen.span_hi, screen.span_base
        for r in changed:
            line = rows[r]
            old = shown[r]
            limit = cols - 1 if r == last_row else cols
            narrow = r not in screen.wide_rows
            if seen is not None and narrow and span_base[r] <= seen:
                lo, hi = span_lo[r], span_hi[r]
                if hi > limit:
                    hi = limit
            else:
                lo, hi = 0, limit
            # A cell equal to the eye is no change: a space's foreground, brightness and
            # blink do not show (tested inline: a call per changed cell cost a tenth):
            if lo == 0 and hi == limit:
                if line == old:
                    shown[r] = line  # one list for both: the screen copies it to change it
                    continue
                # Cells are shared objects (door/term/screen.py), so a cell that is not
                # the one shown is nearly always another: compare by identity first, in C.
                diffs = [c for c in compress(range(limit), map(is_not, line, old))
                         if (a := line[c]) != (b := old[c]) and not (
                             a.ch == " " == b.ch and a.attr.bg == b.attr.bg)]
            else:  # a few columns: the rest of the row is what was shown
                diffs = [c for c in compress(range(lo, hi),
                                             map(is_not, line[lo:hi], old[lo:hi]))
                         if (a := line[c]) != (b := old[c]) and not (
                             a.ch == " " == b.ch and a.attr.bg == b.attr.bg)]
            if diffs and not narrow:
                line, diffs = _whole_wide(line, diffs, limit)
            if not diffs:
                shown[r] = line
                continue
            erase_from = tail = None
            end = line[diffs[-1]]
            if len(diffs) > 3 and end.ch == " " and end.attr.bg == BLACK:
                tail = _blank_tail(line, limit)
                tail_diffs = [c for c in diffs if c >= tail]
                if len(tail_diffs) > 3:  # EL is cheaper than writing more than a few spaces
                    erase_from = tail_diffs[0]
                    diffs = [c for c in diffs if c < tail]
            plans.append((r, line, diffs, erase_from))
            encode, encoded = self.charset.encode_char, self.charset.encoded
            # The hot loop: _goto and _write inlined for the common case, the cursor and
            # colour in locals (written back around _goto, which reads and moves them),
            # a character's bytes looked up in the charset's table without a call.
            at_row, at_col, attr = self._row, self._col, self._attr
            for c in diffs:
                if at_row != r or at_col != c:
                    self._row, self._col, self._attr = at_row, at_col, attr
                    self._goto(out, r, c, line, narrow)
                    at_row, at_col, attr = self._row, self._col, self._attr
                cell = line[c]
                if cell.attr != attr:
                    out += sgr_change(attr, cell.attr, self.color)
                    attr = cell.attr
                data = encoded.get(cell.ch)
                out += encode(cell.ch) if data is None else data
                if c + 1 >= cols:  # deferred or immediate wrap differs: re-anchor
                    at_row = at_col = None
                else:
                    at_col = c + 1
            self._row, self._col, self._attr = at_row, at_col, attr
            if erase_from is not None:
                if tail is not None and self._row == r and self._col is not None and (
                        tail <= self._col < erase_from):
                    erase_from = self._col  # blank up to there already: erase from here
                self._goto(out, r, erase_from, line, narrow)
                target = line[erase_from].attr
                if self._attr == _UNKNOWN or self._attr.bg != BLACK:
                    out += sgr_change(self._attr, target, self.color)
                    self._attr = target
                out += ERASE_LINE
                line = list(line)
                line[limit:] = [Cell(" ", DEFAULT)] * (cols - limit)
                shown[r] = line
            else:
                shown[r] = line
        self._shown = shown
        if len(out) >= _BATCH_FROM:
            end_state = (self._attr, self._row, self._col)
            self._attr, self._row, self._col = start
            batched = self._batched(plans, cols)
            if len(batched) < len(out):
                return batched
            self._attr, self._row, self._col = end_state
        return out

    def _batched(self, plans: list[tuple[int, list[Cell], list[int], int | None]],
                 cols: int) -> bytearray:
        """The same changes as :meth:`_diff` sent, grouped by colour: each run of changed
        cells (and each erased tail) goes out with the runs that start in its colour, row
        by row, the colour already set first.  Moves the cursor state along."""
        runs: dict[Attr, list[tuple[int, int, list[Cell] | None]]] = {}
        final = None  # the colour of the last run, row by row
        encode = self.charset.encode_char
        for r, line, diffs, erase_from in plans:
            i = 0
            while i < len(diffs):
                j = i
                while j + 1 < len(diffs) and (diffs[j + 1] == diffs[j] + 1 or _cheap_gap(
                        line, diffs[j], diffs[j + 1], encode)):
                    j += 1
                first = diffs[i]
                final = line[first].attr
                runs.setdefault(final, []).append((r, first, line[first:diffs[j] + 1]))
                i = j + 1
            if erase_from is not None:
                final = line[erase_from].attr
                runs.setdefault(final, []).append((r, erase_from, None))
        # The colour already set first, then in the order first seen; the colour of the last
        # run last, so that the cursor ends where a row-by-row frame leaves it (the status
        # line, most often: the next frame starts from there).
        order = sorted(runs, key=lambda attr: (attr != self._attr) + 2 * (attr == final))
        out = bytearray()
        for attr in order:
            for r, c, cells in runs[attr]:
                out += cursor_move(r, c, self._row, self._col, self.top, self.left)
                self._row, self._col = r, c
                if cells is None:  # a blank tail: EL in any colour on black
                    if self._attr == _UNKNOWN or self._attr.bg != BLACK:
                        out += sgr_change(self._attr, attr, self.color)
                        self._attr = attr
                    out += ERASE_LINE
                    continue
                for cell in cells:
                    if cell.attr != self._attr:
                        out += sgr_change(self._attr, cell.attr, self.color)
                        self._attr = cell.attr
                    out += encode(cell.ch)
                    c += 1
                    self._col = c if c < cols else None
                    if c >= cols:
                        self._row = None
        return out

    def _write(self, out: bytearray, cell: Cell, c: int, cols: int) -> None:
        out += sgr_change(self._attr, cell.attr, self.color)
        self._attr = cell.attr
        out += self.charset.encode_char(cell.ch)
        if c + 1 >= cols:  # deferred or immediate wrap differs between terminals: re-anchor
            self._row = self._col = None
        else:
            self._col = c + 1

    def _goto(self, out: bytearray, row: int, col: int, line: list[Cell],
              narrow: bool = False) -> None:
        """Place the cursor at (row, col): move, or re-write the cells in between if cheaper.
        ``narrow``: the row holds no wide character, so each cell costs a byte at least."""
        if self._row == row and self._col == col:
            return
        move = cursor_move(row, col, self._row, self._col, self.top, self.left)
        target = line[col].attr
        if (self._row == row and self._col is not None and self._col >= 0
                and 0 < col - self._col <= _MAX_GAP):  # not from the margin left of the frame
            budget = len(move) + len(sgr_change(self._attr, target, self.color))
            if narrow and col - self._col >= budget:  # the cells cost as much at least
                out += move
                self._col = col
                return
            cost, attr = 0, self._attr
            for cell in line[self._col:col]:
                cost += len(sgr_change(attr, cell.attr, self.color))
                cost += len(self.charset.encode_char(cell.ch))
                attr = cell.attr
                if cost >= budget:
                    break
            else:
                if cost + len(sgr_change(attr, target, self.color)) < budget:
                    for c in range(self._col, col):
                        self._write(out, line[c], c, len(line))
                    return
        out += move
        self._row, self._col = row, col


def _cheap_gap(line: list[Cell], last: int, nxt: int, encode: Callable[[str], bytes]) -> bool:
    """Re-writing the unchanged cells between two changes of a row costs less than moving
    over them, and no colour change (they are in the colour of the change before)."""
    attr, cost, limit = line[last].attr, 0, nxt - last + 1  # CUF is 3 bytes at least
    for cell in line[last + 1:nxt]:
        if cell.attr != attr:
            return False
        cost += len(encode(cell.ch))
        if cost >= limit:
            return False
    return cost < len(CSI + _num(nxt - last - 1) + b"C")


def _whole_wide(line: list[Cell], diffs: list[int], limit: int) -> tuple[list[Cell], list[int]]:
    """Both halves of a wide character are written when either changed (the terminal draws
    them as one); one whose right half lies past ``limit`` (the bottom-right cell) is sent
    as a blank instead, and will be again at each frame (it is only ever a status line's)."""
    want = set(diffs)
    for c in diffs:
        if line[c].ch == WIDE_TAIL:
            want.add(c - 1)
        elif c + 1 < len(line) and line[c + 1].ch == WIDE_TAIL:
            want.add(c + 1)
    if limit < len(line) and line[limit].ch == WIDE_TAIL and limit - 1 in want:
        line = list(line)
        line[limit - 1] = Cell(" ", line[limit - 1].attr)
    return line, sorted(c for c in want if c < limit)


_LONG_RUN = 8


def _blank_tail(line: list[Cell], limit: int) -> int:
    """Index where the row's trailing run of black-background spaces (before ``limit``)
    starts.  A long run is mostly one cell object again and again (``put`` draws a blank
    as one shared cell): such a run is measured in C, by identity, instead of looking at
    each cell in Python (a message row's tail was 60 cells of it); a short tail (a cursor
    key's row) is walked, which costs less than setting the C scan up."""
    c = limit
    while c > 0:
        cell = line[c - 1]
        if cell.ch != " " or cell.attr.bg != BLACK:
            break
        c -= 1
        if c >= _LONG_RUN and line[c - _LONG_RUN] is cell:  # likely a long run of it
            c -= next(compress(count(), map(is_not, line[c - 1::-1], repeat(cell))), c)
    return c
