"""Test helpers for the terminal layer: random frames, and pyte as the oracle of what shows."""

from __future__ import annotations

from hypothesis import strategies as st
from pyteterm import PyteTerminal

from door.term.charset import Charset
from door.term.render import mono
from door.term.screen import BLACK, COLOR_NAMES, WHITE, WIDE_TAIL, Attr, Screen

# Characters screens really draw: ASCII, CP437 boxes and shades, suits, accents, C0 glyphs.
ALPHABET = ("abcXYZ019 .,:;#@[]|-_~" "─│┌┐└┘═║╔╗╚╝╒╕░▒▓█▄▀■" "♠♥♦♣☺►◄↑↓•" "éÉçü·½…"
            "\u4e00")  # and one wide character: two cells (a "?" and a blank outside UTF-8)

PYTE_COLORS = {name: i for i, name in enumerate(COLOR_NAMES)}
PYTE_COLORS.update({"brown": 3, "default": -1})

attrs = st.builds(Attr, st.integers(0, 7), st.integers(0, 7), st.booleans(), st.booleans())


@st.composite
def frames(draw, cols: int = 80, rows: int = 24, alphabet: str = ALPHABET) -> Screen:
    """A screen drawn by a few random operations (text runs, fills, boxes)."""
    screen = Screen(cols, rows)
    draw(scribbles(screen, alphabet=alphabet))
    return screen


@st.composite
def scribbles(draw, screen: Screen, paint: bool = False, alphabet: str = ALPHABET) -> Screen:
    """A few random drawing operations on ``screen`` (text runs, fills, boxes; recolouring
    and clearing too with ``paint``), through the screen's own calls."""
    cols, rows = screen.cols, screen.rows
    kinds = ("put", "put", "fill", "box") + (("paint", "clear") if paint else ())
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(kinds))
        row, col = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        attr = draw(attrs)
        if kind == "put":
            screen.put(row, col, draw(st.text(alphabet, min_size=1, max_size=90)), attr)
        elif kind == "fill":
            screen.fill(row, col, draw(st.integers(1, rows)), draw(st.integers(1, cols)),
                        draw(st.sampled_from(" ▒x")), attr)
        elif kind == "paint":
            screen.paint(row, col, draw(st.integers(1, cols)), attr)
        elif kind == "clear":
            screen.clear(draw(attrs) if draw(st.booleans()) else Attr())
        else:
            screen.box(row, col, draw(st.integers(2, rows)), draw(st.integers(2, cols)), attr,
                       style=draw(st.sampled_from(("single", "double"))))
    screen.cursor = None
    if draw(st.booleans()):
        screen.cursor = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    return screen


def pyte_for(charset: Charset, cols: int = 80, rows: int = 24) -> PyteTerminal:
    return PyteTerminal(cols, rows, "utf8" if charset.name == "utf8" else "cp437")


def mismatches(term: PyteTerminal, screen: Screen, charset: Charset,
               color: bool = True, origin: tuple[int, int] = (0, 0)) -> list[str]:
    """Cells where the pyte terminal differs (to the eye) from ``screen``; [] when equal.

    The bottom-right cell must never have been written: it must still be blank (so a wide
    character whose right half it is shows as a blank).  ``origin``: the terminal's (row,
    column) of the screen's top-left cell (a centred frame); every cell around it blank."""
    problems = []
    top, left = origin
    for r, line in enumerate(term.lines):
        if r < top or r >= top + screen.rows:
            if line.strip():
                problems.append(f"row {r}, outside the frame, shows {line.strip()!r}")
        elif line[:left].strip() or line[left + screen.cols:].strip():
            problems.append(f"row {r}: the margins show {line!r}")
    last_r, last_c = screen.rows - 1, screen.cols - 1
    for r in range(screen.rows):
        for c in range(screen.cols):
            got = term.screen.buffer[r + top][c + left]
            if (r, c) == (last_r, last_c):
                if got.data != " ":
                    problems.append(f"bottom-right cell written: {got.data!r}")
                continue
            cell = screen.cells[r][c]
            attr = cell.attr if color else mono(cell.attr)
            want = charset.shows(cell.ch)
            if (r, c + 1) == (last_r, last_c) and screen.cells[r][c + 1].ch == WIDE_TAIL:
                want = " "  # a wide character would cover the bottom-right cell: a blank
            fg, bg = PYTE_COLORS.get(got.fg, got.fg), PYTE_COLORS.get(got.bg, got.bg)
            fg = WHITE if fg == -1 else fg
            bg = BLACK if bg == -1 else bg
            if got.reverse:
                fg, bg = bg, fg
            if got.data != want:
                problems.append(f"({r},{c}) char {got.data!r} != {want!r}")
            elif bg != attr.bg:
                problems.append(f"({r},{c}) {want!r} bg {bg} != {attr.bg}")
            elif want != " " and (fg, got.bold, got.blink) != (attr.fg, attr.bright, attr.blink):
                problems.append(f"({r},{c}) {want!r} fg/bold/blink {(fg, got.bold, got.blink)}"
                                f" != {(attr.fg, attr.bright, attr.blink)}")
    return problems
