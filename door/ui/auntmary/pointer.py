"""Aunt Mary's board under the mouse: a click is the cursor there and Enter, so a first
click picks up the card clicked with the cards on it (or turns a stock card), and a click
on another place puts them down there — on the place they came from, a single card goes
home, as a double click did.  The right button sends the clicked column's or the waste's
top card home (H)."""

from __future__ import annotations

from ...term import Key
from .screen import (
    FOUNDATION_ROW,
    NUMBER_ROW,
    PILE_STEP,
    PILES,
    SLOT_COL,
    STOCK_ROW,
    UP_TOP,
    AuntMaryScreen,
    pile_left,
)

SLOT_WIDTH = 6  # a place's four cells and the cursor's brackets either side
HOME = Key("char", "h")


def pile_at(col: int) -> int | None:
    """The column (0-based) drawn at screen column ``col``, or None."""
    k, inside = divmod(col - pile_left(0), PILE_STEP)
    return k if 0 <= k < len(PILES) and inside < SLOT_WIDTH else None


def slot_at(row: int, col: int) -> str | None:
    """The panel's place (``s``, ``w``, ``fS`` …) drawn at (row, col), its label above it
    too, or None."""
    rows = {STOCK_ROW: ("s", "w"), STOCK_ROW - 1: ("s", "w"),
            FOUNDATION_ROW: ("fS", "fH", "fD", "fC")}
    for spot in rows.get(row, ()):
        if SLOT_COL[spot] <= col < SLOT_COL[spot] + SLOT_WIDTH:
            return spot
    return None


def depth_at(screen: AuntMaryScreen, k: int, row: int) -> int:
    """How many cards from the one drawn at ``row`` of column ``k`` to its top (1 off its
    face-up cards), as the screen draws the column."""
    game = screen.game
    up = len(game.columns[k]) - game.face_down[k]
    room = screen.session.screen.rows - 4 - UP_TOP + 1
    hidden = up - room + 1 if up > room else 0
    first = UP_TOP + (1 if hidden else 0)
    index = row - first + hidden
    return up - index if hidden <= index < up and row >= first else 1


def board_keys(screen: AuntMaryScreen, key: Key) -> list[Key] | None:
    """The keys a click means on the board; None off its places (the key line answers)."""
    bottom = screen.session.screen.rows - 4
    k = pile_at(key.x)
    if k is not None and NUMBER_ROW <= key.y <= bottom:
        spot = PILES[k]
        depth = 1
        if screen.picked is None and key.y >= UP_TOP:
            depth = min(depth_at(screen, k, key.y), max(1, screen.game.top_run_length(k + 1)))
    else:
        found = slot_at(key.y, key.x)
        if found is None:
            return None
        spot, depth = found, 1
    if key.name == "right-click":
        if spot not in PILES and spot != "w":
            return []
        screen.spot, screen.depth = spot, 1
        return ([Key("esc")] if screen.picked is not None else []) + [HOME]  # put back first
    screen.spot, screen.depth = spot, depth
    return [Key("enter")]
