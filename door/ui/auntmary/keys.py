"""Aunt Mary's part of the key map (door/ui/shared/keymap.py): its own moves, its seed's aliases,
and what it says of a shared key it has no use for.  Its screen's ``keys``."""

from __future__ import annotations

from ..shared.keymap import GameKeys, Move

KEY_MAP = GameKeys(
    title="Aunt Mary",
    moves=(
        Move("Arrows Tab", "move the cursor; ↑↓ on a column: how many"),
        Move("Enter", "pick up, then drop there", "Enter 1-6 W F: move"),
        Move("1-6", "pick up a column, or drop on it"),
        Move("W  F", "pick up the waste · drop on the foundations"),
        Move("S", "turn a stock card, or redeal", "S stock"),
        Move("H", "send the card under the cursor home", "H home"),
        Move("A", "auto-finish, when every card can go home"),
        Move("Esc", "put back what you picked up"),
        Move("I", "how to play"),
    ),
    moved={"t": "The hint (tip) is P now, in every game."},
)
