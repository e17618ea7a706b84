"""Screen.put: clipping at every edge, the column after the text, shared cell objects."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.term.screen import BLANK, RED, WIDE_TAIL, Attr, Cell, Screen


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(row=st.integers(-3, 26), col=st.integers(-90, 90),
       text=st.text(alphabet="ab\x01♥ ", max_size=100))
def test_put_clips_and_returns_the_column_after(row: int, col: int, text: str) -> None:
    screen = Screen(80, 24)
    attr = Attr(RED)
    assert screen.put(row, col, text, attr) == col + len(text)
    for r in range(24):
        for c in range(80):
            expected = BLANK
            if r == row and col <= c < col + len(text):
                ch = text[c - col]
                expected = Cell(ch if ch >= " " else "?", attr)
            assert screen.cells[r][c] == expected


def test_equal_cells_are_shared() -> None:
    screen = Screen(80, 24)
    screen.put(0, 0, "aa", Attr(RED))
    screen.put(5, 7, "a", Attr(RED))
    assert screen.cells[0][0] is screen.cells[0][1] is screen.cells[5][7]


def test_runs_are_kept_within_their_budget(monkeypatch) -> None:
    """Drawn runs are cached per (text, attribute); past the budget the cache starts
    afresh, and what is drawn stays right either way."""
    from door.term import screen as screen_module

    monkeypatch.setattr(screen_module, "_RUN_BUDGET", 10)
    monkeypatch.setattr(screen_module, "_RUNS", {})
    monkeypatch.setattr(screen_module, "_runs_kept", 0)
    screen = Screen(80, 24)
    for i in range(25):
        screen.put(i % 24, 0, f"line {i:02d}", Attr(RED))
        screen.put(i % 24, 40, "same", Attr(RED))
        kept = sum(len(runs) for runs in screen_module._RUNS.values())
        assert kept <= 10
    assert screen.text()[0].startswith("line 24") and screen.text()[0][40:44] == "same"
    assert screen.text()[23].startswith("line 23")
    screen.put(1, 0, "", Attr(RED))  # an empty run changes nothing and keeps nothing new
    assert screen.text()[1].startswith("line 01")


WIDE = "中😀"


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(ops=st.lists(st.tuples(st.integers(0, 2), st.integers(-5, 84),
                              st.text(alphabet="ab中😀 é", max_size=12)), max_size=12))
def test_a_wide_character_is_two_cells_never_half_of_one(ops) -> None:
    """Whatever is drawn over what, every wide character keeps its right half beside it
    and no right half is left without its wide character (the renderer relies on it)."""
    screen = Screen(10, 3)
    for row, col, text in ops:
        end = screen.put(row, col, text)
        assert end == col + sum(2 if ch in WIDE else 1 for ch in text)
    for line in screen.cells:
        for c, cell in enumerate(line):
            if cell.ch and cell.ch in WIDE:
                assert c + 1 < len(line) and line[c + 1].ch == WIDE_TAIL
            if cell.ch == WIDE_TAIL:
                assert c > 0 and line[c - 1].ch in WIDE
    screen.resize(7, 3)  # cutting a wide character in two keeps neither half
    assert all(line[-1].ch not in WIDE or not line[-1].ch for line in screen.cells)


def test_wide_text_reads_as_pyte_shows_it() -> None:
    screen = Screen(10, 2)
    screen.put(0, 0, "a中b")
    assert screen.text()[0] == "a中b      " and screen.put(1, 0, "中文") == 4


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_the_rows_drawn_since_the_last_frame_are_the_rows_stamped_since(data) -> None:
    # The renderer that made a screen's last frame reads ``drawn_rows`` instead of every
    # row's stamp: they must name the same rows, frame after frame, whatever drew.
    from term_oracle import scribbles

    from door.term.render import Renderer

    screen = Screen(80, 24)
    renderer = Renderer()
    for _ in range(data.draw(st.integers(1, 4))):
        data.draw(scribbles(screen, paint=True))
        if data.draw(st.booleans()):
            screen.touch(data.draw(st.integers(0, 23)))
        if data.draw(st.booleans()):
            screen.restore(screen.snapshot(), range(data.draw(st.integers(0, 23)), 24))
        stamped = [r for r in range(24) if screen.row_versions[r] > screen.framed]
        assert sorted(screen.drawn_rows) == stamped
        assert len(set(screen.drawn_rows)) == len(screen.drawn_rows)
        renderer.frame(screen)
        assert screen.drawn_rows == []
