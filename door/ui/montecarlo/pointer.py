"""Monte Carlo's board under the mouse: a click on a card is the cursor there and Enter,
so a first click picks the card, a click on a touching card of the same rank removes the
pair, and a click on the picked card drops it — as the arrows and Enter do."""

from __future__ import annotations

from ...games.montecarlo import SIZE
from ...term import Key
from .screen import CELL_WIDTH, GRID_LEFT, GRID_TOP, MonteCarloScreen


def position_at(row: int, col: int) -> int | None:
    """The grid position whose card is drawn at (row, col) (its six cells, the cursor's
    brackets with them), or None."""
    r, at = divmod(row - GRID_TOP - 1, 2)
    c, inside = divmod(col - GRID_LEFT - 1, CELL_WIDTH)
    if at or not (0 <= r < SIZE and 0 <= c < SIZE) or inside >= CELL_WIDTH - 1:
        return None
    return r * SIZE + c


def board_keys(screen: MonteCarloScreen, key: Key) -> list[Key] | None:
    """The keys a click means on the board; None off the cards (the key line answers)."""
    p = position_at(key.y, key.x)
    if p is None or key.name != "click":
        return None
    screen.cursor = p
    return [Key("enter")]
