"""Mariant's board under the mouse, as the column keys work: a click on a column's
topmost group selects it from the card clicked (its whole group when the click is above
it, or on the column's key); a click on another column moves the selection there; a
click on the selected cards chooses from which card they go, and on their first card
again drops the selection (or removes a complete suit, as its column key would)."""

from __future__ import annotations

from ...term import Key
from .board import (
    CARDS_TOP,
    COLUMN_WIDTH,
    COLUMNS,
    LABEL_ROW,
    Cell,
    card_rows,
    fitted_column,
    foot_row,
    full_column,
    view_rows,
)
from .screen import SUIT_LENGTH, MariantScreen, complete_suit

ENTER, ESC, UP, DOWN = Key("enter"), Key("esc"), Key("up"), Key("down")


def cell_at(screen: MariantScreen, col: int, row: int) -> Cell | None:
    """The card row of column ``col`` drawn at screen row ``row`` (as draw_board lays
    the column out), or None above or below its cards."""
    game, rows = screen.game, screen.session.screen.rows
    down, up = game.visible()[col]
    if screen.viewing:
        height = view_rows(rows)
        cells = full_column(down, len(up))[screen.scroll:screen.scroll + height]
    else:
        height = card_rows(rows)
        cells = fitted_column(down, len(up), height, game.group_length(col))
    index = row - CARDS_TOP
    return cells[index] if 0 <= index < min(len(cells), height) else None


def board_keys(screen: MariantScreen, key: Key) -> list[Key] | None:
    """The keys a click means on the board; None off the columns (the key line answers)."""
    col = key.x // COLUMN_WIDTH
    if key.name != "click" or not (0 <= col < COLUMNS) or not (
            LABEL_ROW <= key.y <= foot_row(screen.session.screen.rows)):
        return None
    if screen.pending_remove:  # "press its column": the column's key
        return [Key("char", "1234567890"[col])]
    game = screen.game
    up = len(game.visible()[col][1])
    cell = cell_at(screen, col, key.y)
    # How many cards from the one clicked to the column's end (0: not on a face-up card).
    count = up - cell.index if cell is not None and cell.kind == "card" else 0
    group = game.group_length(col)
    if screen.sel == col:
        if 0 < count <= group and count != screen.count:
            return [UP if count > screen.count else DOWN] * abs(count - screen.count)
        if screen.count == SUIT_LENGTH and complete_suit(game, col):
            return [ENTER]  # the selected suit's own column again: off the board
        return [ESC]
    screen.cursor = col
    if screen.sel is None and 0 < count < group:
        return [ENTER] + [DOWN] * (group - count)  # the group, then fewer: from that card
    return [ENTER]
