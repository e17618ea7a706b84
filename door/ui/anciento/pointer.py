"""Anciento's board under the mouse: a click on a square is the cursor there and Enter
(the stone goes there, or the message line says why not); the right button takes the
last stone back, as the DOS original's did (the seed: "right mouse button")."""

from __future__ import annotations

from ...games.anciento import Anciento
from ...term import Key
from ..shared.keymap import UNDO
from .screen import GRID_LEFT, GRID_TOP, SQUARE, AncientoScreen

TAKE_BACK = Key("char", UNDO.key)


def square_at(game: Anciento, row: int, col: int) -> int | None:
    """The square drawn at (row, col) (its three cells), or None."""
    r, at = divmod(row - GRID_TOP - 1, 2)
    c, inside = divmod(col - GRID_LEFT - 1, SQUARE)
    geo = game.geo
    if at or not (0 <= r < geo.rows and 0 <= c < geo.cols) or inside >= SQUARE - 1:
        return None
    return r * geo.cols + c


def board_keys(screen: AncientoScreen, key: Key) -> list[Key] | None:
    """The keys a click means on the board; None off it (the key line answers).  The
    demo plays by itself: a click on its board does nothing."""
    square = square_at(screen.game, key.y, key.x)
    if square is None:
        return None
    if screen.demo:
        return []
    if key.name == "right-click":
        return [TAKE_BACK]
    screen.cursor = square
    return [Key("enter")]
