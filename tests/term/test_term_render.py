"""The renderer, checked through pyte: what the caller's terminal shows is the frame."""

from __future__ import annotations

import re

import pyte
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from term_oracle import attrs, frames, mismatches, pyte_for, scribbles

from door.term.charset import Charset
from door.term.render import Renderer, _blank_tail, centred_origin, cursor_move, sgr_change
from door.term.screen import BLACK, BLUE, RED, WHITE, YELLOW, Attr, Cell, Screen

MODES = [("cp437", False), ("cp437", True), ("utf8", False), ("ascii", False)]
PROPERTY = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow
@pytest.mark.parametrize(("name", "glyphs"), MODES)
@PROPERTY
@given(data=st.data())
def test_blank_to_a_to_b_shows_exactly_b(name: str, glyphs: bool, data) -> None:
    rows = data.draw(st.sampled_from((24, 25, 30)))  # 30: a taller window (NAWS)
    a, b = data.draw(frames(rows=rows)), data.draw(frames(rows=rows))
    charset = Charset(name, glyphs)
    renderer = Renderer(charset)
    term = pyte_for(charset, rows=rows)
    first = renderer.frame(a)
    term.feed(first)
    assert mismatches(term, a, charset) == []
    second = renderer.frame(b)
    term.feed(second)
    assert mismatches(term, b, charset) == []
    if b.cursor is not None:
        assert (term.screen.cursor.y, term.screen.cursor.x) == b.cursor
    if name == "ascii":
        assert max(first + second, default=0) < 128


@pytest.mark.slow
@settings(PROPERTY, max_examples=40)
@given(a=frames(), b=frames(), c=frames())
def test_monochrome_shows_reverse_for_colour(a: Screen, b: Screen, c: Screen) -> None:
    charset = Charset("cp437")
    renderer = Renderer(charset, color=False)
    term = pyte_for(charset)
    for frame in (a, b, c):
        data = renderer.frame(frame)
        for params in re.findall(rb"\x1b\[([0-9;]*)m", data):
            assert not {p for p in params.split(b";") if len(p) == 2}, params  # no colours
        term.feed(data)
        assert mismatches(term, frame, charset, color=False) == []


@pytest.mark.slow
@settings(PROPERTY, max_examples=30)
@given(frames=st.lists(frames(), min_size=2, max_size=5))
def test_a_chain_of_frames_never_drifts(frames: list[Screen]) -> None:
    charset = Charset("utf8")
    renderer = Renderer(charset)
    term = pyte_for(charset)
    for frame in frames:
        term.feed(renderer.frame(frame))
        assert mismatches(term, frame, charset) == []


@pytest.mark.slow
@settings(PROPERTY, max_examples=60)
@given(chain=st.lists(frames(), min_size=2, max_size=5), data=st.data(),
       name=st.sampled_from(("utf8", "cp437")))
def test_a_frame_placed_in_a_larger_window_shows_there_and_nowhere_else(
        chain: list[Screen], data, name: str) -> None:
    """A window larger than the frame: each frame of a chain shows at its origin, with the
    cursor where the frame puts it, and the rest of the window blank, while the origin
    moves between frames (a resize: the renderer repaints) or stays."""
    charset = Charset(name)
    cols, rows = data.draw(st.integers(80, 140)), data.draw(st.integers(24, 40))
    renderer = Renderer(charset)
    term = pyte_for(charset, cols, rows)
    for frame in chain:
        origin = data.draw(st.sampled_from([centred_origin((cols, rows), (80, 24)),
                                            (data.draw(st.integers(0, rows - 24)),
                                             data.draw(st.integers(0, cols - 80)))]))
        renderer.place(*origin)
        term.feed(renderer.frame(frame))
        assert mismatches(term, frame, charset, origin=origin) == []
        if frame.cursor is not None:
            at = (term.screen.cursor.y, term.screen.cursor.x)
            assert at == (frame.cursor[0] + origin[0], frame.cursor[1] + origin[1])


def test_a_centred_origin_is_the_middle_and_never_negative() -> None:
    assert centred_origin((80, 24), (80, 24)) == (0, 0)
    assert centred_origin((132, 50), (80, 24)) == (13, 26)
    assert centred_origin((101, 25), (80, 24)) == (0, 10)
    assert centred_origin((40, 15), (80, 24)) == (0, 0)


@pytest.mark.parametrize("left", [0, 1, 3, 26, 60])
def test_cursor_moves_in_a_frame_placed_anywhere_land_where_they_say(left: int) -> None:
    """Every move between two cells of a frame placed at (2, ``left``), from a known
    cell or the window's home, lands on the target: CR and CUP count the margin."""
    term = pyte_for(Charset("utf8"), 80 + left + 5, 30)
    cells = [(r, c) for r in (0, 1, 3, 20) for c in (0, 1, 2, 7, 40, 79)]
    for start in [(-2, -left), *cells]:
        for target in cells:
            term.feed(absolute_at(start[0] + 2, start[1] + left))
            term.feed(cursor_move(*target, *start, 2, left))
            assert (term.screen.cursor.y, term.screen.cursor.x) == (target[0] + 2,
                                                                    target[1] + left)


def test_a_repaint_in_a_narrow_margin_writes_nothing_into_it() -> None:
    """After the clear the cursor is in the margin, a few cells left of the frame's first:
    the way there is a move, never cells of the frame written out of place."""
    charset = Charset("utf8")
    screen = Screen(80, 24)
    screen.put(0, 0, "x")
    screen.put(0, 76, "abc")
    term = pyte_for(charset, 86, 24)
    renderer = Renderer(charset)
    renderer.place(0, 3)
    term.feed(renderer.frame(screen))
    assert mismatches(term, screen, charset, origin=(0, 3)) == []


def absolute_at(row: int, col: int) -> bytes:
    return f"\x1b[{row + 1};{col + 1}H".encode()


@settings(PROPERTY, max_examples=60)
@given(chain=st.lists(frames(alphabet="ab 中文😀é─"), min_size=2, max_size=5),
       name=st.sampled_from(("utf8", "cp437")))
def test_wide_characters_stay_whole_through_a_chain_of_frames(chain: list[Screen],
                                                             name: str) -> None:
    """Text full of wide characters drawn over other text, frame after frame: the terminal
    (pyte, which gives a wide character two cells as terminals do) shows each frame."""
    charset = Charset(name)
    renderer = Renderer(charset)
    term = pyte_for(charset)
    for frame in chain:
        term.feed(renderer.frame(frame))
        assert mismatches(term, frame, charset) == []


def test_a_wide_character_is_never_sent_into_the_bottom_right_cell() -> None:
    screen = Screen(80, 24)
    screen.put(23, 77, "x中")
    data = Renderer(Charset("utf8")).frame(screen)
    assert "中".encode() not in data and data.endswith(b"x ")


@pytest.mark.slow
@pytest.mark.parametrize("color", [True, False])
@settings(PROPERTY, max_examples=40)
@given(data=st.data())
def test_one_screen_drawn_again_and_again_shows_each_frame(color: bool, data) -> None:
    """The renderer looks only at rows the screen stamped since the last frame: a screen
    drawn over, recoloured and cleared between frames still shows exactly each frame, and
    a second renderer following the same screen does too."""
    charset = Charset("cp437")
    screen = Screen()
    first, second = Renderer(charset, color=color), Renderer(charset, color=color)
    term, other = pyte_for(charset), pyte_for(charset)
    for i in range(data.draw(st.integers(2, 6))):
        data.draw(scribbles(screen, paint=True))
        term.feed(first.frame(screen))
        assert mismatches(term, screen, charset, color=color) == []
        if i % 2:  # the second one looks every other frame only
            other.feed(second.frame(screen))
            assert mismatches(other, screen, charset, color=color) == []


def test_rows_not_stamped_are_not_looked_at() -> None:
    screen = Screen()
    renderer = Renderer()
    renderer.frame(screen)
    row = list(screen.cells[3])
    row[5] = row[5]._replace(ch="x")
    screen.cells[3] = row  # behind the screen's back …
    assert renderer.frame(screen) == b""
    screen.touch(3)  # … until it is told
    assert renderer.frame(screen) == b"\x1b[4;6Hx"


def test_only_the_columns_drawn_on_since_the_last_frame_are_looked_at() -> None:
    """A row's changes since the last frame lie in the span its puts covered: a cell
    changed behind the screen's back outside it is not looked at (a cursor key compares
    its few cells, not the whole row).  The renderer then keeps the row as what is shown,
    z and all: a cell written behind the screen's back is lost, which is why code writing
    cells directly goes through ``writable_row``."""
    screen = Screen()
    renderer = Renderer()
    renderer.frame(screen)
    row = list(screen.cells[3])
    row[60] = row[60]._replace(ch="z")
    screen.cells[3] = row  # behind the screen's back
    screen.put(3, 5, "x")
    screen.put(3, 8, "y")  # the span widens over both puts
    assert renderer.frame(screen) == b"\x1b[4;6Hx  y"  # not the z


def test_the_renderer_keeps_the_screens_rows_and_the_screen_copies_before_a_change() -> None:
    """One grid of cells per caller: what the terminal shows is the screen's own row lists
    (where equal), and the screen writes a copy of a row at its first change after a frame,
    so the renderer's record, and a second renderer's, stay what each terminal shows."""
    screen = Screen()
    first, second = Renderer(), Renderer()
    screen.put(3, 5, "abc")
    first.frame(screen)
    second.frame(screen)
    assert first._shown is not None and second._shown is not None
    assert all(first._shown[r] is screen.cells[r] for r in range(screen.rows))
    held = screen.cells[3]
    screen.put(3, 6, "X")
    assert screen.cells[3] is not held
    assert "".join(cell.ch for cell in held[5:8]) == "abc"  # the renderers' record as it was
    assert first.frame(screen) == b"\x08\x08X"  # back from the c
    assert first._shown[3] is screen.cells[3] and second._shown[3] is held
    screen.put(3, 7, "Y")  # a row changed since the last frame: still copied once per frame
    assert second.frame(screen) == b"\x08\x08XY"
    assert first._shown[3] is not screen.cells[3]
    line = screen.writable_row(3)  # direct writes get a copy too, drawn at the next frame
    line[5] = line[5]._replace(ch="z")
    assert first._shown[3][5].ch == "a"
    assert first.frame(screen) == b"\x08\x08zXY"


def test_a_renderer_that_missed_frames_looks_at_the_whole_row() -> None:
    """A second renderer of the same screen (a watcher's) that did not see the frames the
    spans began after compares whole rows, and misses nothing."""
    screen = Screen()
    often, seldom = Renderer(), Renderer()
    charset = Charset()
    term = pyte_for(charset)  # ``seldom``'s terminal
    often.frame(screen)
    term.feed(seldom.frame(screen))
    screen.put(5, 70, "a")
    often.frame(screen)
    screen.put(5, 10, "b")  # a new span, begun after a frame ``seldom`` did not see
    often.frame(screen)
    assert (screen.span_lo[5], screen.span_hi[5], screen.span_base[5]) == (10, 11, 1)
    term.feed(seldom.frame(screen))
    assert mismatches(term, screen, charset) == []
    assert screen.text()[5][10] == "b" and screen.text()[5][70] == "a"


def test_unchanged_frame_sends_nothing() -> None:
    screen = Screen()
    screen.put(3, 4, "hello", Attr(YELLOW, BLUE, True))
    renderer = Renderer()
    renderer.frame(screen)
    assert renderer.frame(screen) == b""


def test_one_changed_cell_is_a_move_and_a_byte() -> None:
    screen = Screen()
    screen.put(5, 10, "abcdef")
    renderer = Renderer()
    renderer.frame(screen)
    screen.put(12, 40, "Z")
    assert renderer.frame(screen) == b"\x1b[13;41HZ"


def test_short_gap_is_rewritten_rather_than_jumped() -> None:
    screen = Screen()
    screen.put(0, 0, "abcdefgh")
    renderer = Renderer()
    renderer.frame(screen)
    screen.put(0, 2, "X")
    screen.put(0, 4, "Y")
    assert renderer.frame(screen) == b"\x1b[6DXdY"  # back from column 8: cheaper than CUP


def test_invalidate_repaints_everything() -> None:
    screen = Screen()
    screen.put(1, 1, "hi")
    renderer = Renderer()
    renderer.frame(screen)
    renderer.invalidate()
    assert renderer.frame(screen) == b"\x1b[0m\x1b[2J\x1b[H\r\n\x1b[Chi"


def test_bottom_right_cell_is_never_written() -> None:
    screen = Screen(80, 24)
    screen.put(23, 0, "#" * 80, Attr(RED, BLUE))
    data = Renderer().frame(screen)
    assert data.count(b"#") == 79


def slow_blank_tail(line: list[Cell], limit: int) -> int:
    """The trailing run of black-background spaces, found a cell at a time."""
    c = limit
    while c > 0 and line[c - 1].ch == " " and line[c - 1].attr.bg == BLACK:
        c -= 1
    return c


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_blank_tail_found_by_runs_of_one_cell_is_the_one_found_cell_by_cell(data) -> None:
    # Runs of shared cells (a put's), equal cells that are other objects, non-blanks.
    shared = [Cell(" "), Cell(" ", Attr(RED)), Cell(" ", Attr(WHITE, BLUE)), Cell("x")]
    cells = st.one_of(st.sampled_from(shared),
                      st.builds(Cell, st.sampled_from(" x"), attrs))
    runs = data.draw(st.lists(st.tuples(cells, st.integers(1, 30)), max_size=8))
    line = [cell for cell, length in runs for _ in range(length)][:80]
    limit = data.draw(st.integers(0, len(line)))
    assert _blank_tail(line, limit) == slow_blank_tail(line, limit)


def test_blank_tail_is_erased_with_el() -> None:
    screen = Screen()
    screen.put(4, 0, "x" * 70)
    renderer = Renderer()
    renderer.frame(screen)
    screen.put(4, 10, " " * 60)
    assert renderer.frame(screen) == b"\x1b[60D\x1b[K"


def test_sgr_delta_and_reset() -> None:
    plain, red = Attr(), Attr(RED)
    assert sgr_change(plain, red) == b"\x1b[31m"
    assert sgr_change(Attr(RED, bright=True), Attr(RED)) == b"\x1b[0;31m"  # bold off: reset
    assert sgr_change(Attr(RED, BLUE), plain) == b"\x1b[0m"  # reset beats 37;40
    assert sgr_change(plain, plain) == b""
    assert sgr_change(plain, Attr(WHITE, BLUE), color=False) == b"\x1b[7m"
    assert sgr_change(Attr(WHITE, BLUE), Attr(WHITE, BLACK), color=False) == b"\x1b[0m"


def test_cursor_moves_pick_the_cheapest() -> None:
    assert cursor_move(0, 0, None, None) == b"\x1b[H"
    assert cursor_move(4, 0, None, None) == b"\x1b[5H"
    assert cursor_move(5, 0, 4, 30) == b"\r\n"
    assert cursor_move(4, 28, 4, 30) == b"\x08\x08"
    assert cursor_move(4, 40, 4, 30) == b"\x1b[10C"
    assert cursor_move(2, 30, 4, 30) == b"\x1b[2A"
    assert cursor_move(4, 1, 4, 30) == b"\r\x1b[C"
    assert cursor_move(20, 60, 1, 2) == b"\x1b[21;61H"


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(old=attrs, new=attrs)
def test_a_colour_change_leaves_the_terminal_as_a_reset_would(old: Attr, new: Attr) -> None:
    """White on black are the terminal's own colours (a reset's): a change to them resets
    rather than naming white or black (37, 40), or a terminal whose own colours are black on
    white (macOS Terminal's default) shows a message's cells on two backgrounds."""
    def shown(data: bytes) -> tuple[str, str, bool, bool]:
        screen = pyte.Screen(4, 1)
        pyte.ByteStream(screen).feed(data + b"x")
        cell = screen.buffer[0][0]
        return cell.fg, cell.bg, cell.bold, cell.blink

    reset = b"\x1b[0m"
    assert shown(reset + sgr_change(Attr(-1, -1), old) + sgr_change(old, new)) == shown(
        reset + sgr_change(Attr(-1, -1), new))


@pytest.mark.slow
@PROPERTY
@given(data=st.data())
def test_screens_sharing_rows_still_show_each_its_own(data) -> None:
    """Idle screens hold their equal rows as one list (Renderer.share_rows,
    door/serve/idle_rows.py); drawing on one afterwards changes neither the other screen nor
    what its renderer remembers: each next frame takes its own terminal to its own screen."""
    charset = Charset("utf8")
    screens = [data.draw(frames()), data.draw(frames())]
    for screen in screens[1:]:  # rows in common: the second starts as a copy of the first
        for r in data.draw(st.sets(st.integers(0, 23))):
            screen.writable_row(r)[:] = screens[0].cells[r]
    renderers = [Renderer(charset), Renderer(charset)]
    terms = [pyte_for(charset), pyte_for(charset)]
    for screen, renderer, term in zip(screens, renderers, terms, strict=True):
        term.feed(renderer.frame(screen))
    shared = sum(renderer.share_rows(screen)
                 for screen, renderer in zip(screens, renderers, strict=True))
    common = sum(a == b for a, b in zip(screens[0].cells, screens[1].cells, strict=True))
    assert shared >= common - 1  # all but one of the equal rows took another's list
    before = [[list(row) for row in screen.cells] for screen in screens]
    data.draw(scribbles(screens[0], paint=True))
    assert [list(row) for row in screens[1].cells] == before[1]
    for screen, renderer, term in zip(screens, renderers, terms, strict=True):
        term.feed(renderer.frame(screen))
        assert mismatches(term, screen, charset) == []


def test_only_rows_unchanged_since_the_frame_are_shared() -> None:
    a, b = Screen(), Screen()
    for screen in (a, b):
        screen.put(3, 5, "same")
        Renderer().frame(screen)
    renderer = Renderer()
    renderer.frame(a)
    a.put(4, 0, "drawn since the frame")
    Renderer().share_rows(b)
    renderer.share_rows(a)
    assert a.cells[3] is b.cells[3]
    assert a.cells[4] is not b.cells[4]
    a.put(3, 5, "SAME")
    assert "".join(c.ch for c in b.cells[3][5:9]) == "same"
