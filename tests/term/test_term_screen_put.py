"""Screen.put: clipping at every edge, the column after the text, shared cell objects."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from door.term.screen import BLANK, RED, Attr, Cell, Screen


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
