"""The compressed column's layout (door/ui/mariant/board.py), over every length and screen."""

from __future__ import annotations

import pytest

from door.ui.mariant.board import MIN_TAIL, SHOWN_TAIL, fitted_column, full_column


@pytest.mark.slow
def test_a_compressed_column_fills_its_rows_and_keeps_its_top_group() -> None:
    for height in range(17, 27):                       # 24 rows (the least) to 33
        for down in (0, 3):
            for up in range(1, 60):
                for keep in range(1, min(up, MIN_TAIL) + 1):
                    cells = fitted_column(down, up, height, keep)
                    if len(full_column(down, up)) <= height:
                        assert cells == full_column(down, up)
                        continue
                    assert len(cells) == height, (height, down, up, keep)
                    faces = [c for c in cells if c.kind == "card"]
                    more = [c for c in cells if c.kind == "more"]
                    assert len(more) == 1 and more[0].count + len(faces) == up
                    shown = [c.index for c in faces]
                    assert shown == sorted(shown) and shown[0] == 0     # the first card
                    at = cells.index(more[0])
                    tail = [c.index for c in cells[at + 1:]]
                    assert tail == list(range(up - len(tail), up))      # the last cards
                    assert len(tail) >= min(keep, up - 1)               # the top group whole
                    if keep <= SHOWN_TAIL:
                        assert len(tail) == SHOWN_TAIL                  # "+k" sits low


def test_a_card_more_moves_only_the_cards_under_the_hidden_ones() -> None:
    """Dealing one card onto a compressed column changes the rows under ``+k`` only."""
    before, after = fitted_column(2, 30, 17, 3), fitted_column(2, 31, 17, 3)
    at = next(i for i, c in enumerate(before) if c.kind == "more")
    assert before[:at] == after[:at]
    assert sum(a != b for a, b in zip(before, after, strict=True)) == 1 + SHOWN_TAIL
