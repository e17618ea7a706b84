"""Mariant's part of the key map (door/ui/shared/keymap.py): its own moves, its seed's aliases,
and what it says of a shared key it has no use for.  Its screen's ``keys``."""

from __future__ import annotations

from ..shared.keymap import GameKeys, Move

KEY_MAP = GameKeys(
    title="Mariant",
    moves=(
        Move("1-0", "pick a column's group, or put it there", "1-0 pick/put"),
        Move("↑↓", "one card more / fewer", "↑↓ size"),
        Move("←→ Enter", "the same with a cursor"),
        Move("Esc", "drop the selection"),
        Move("E + 1-0", "remove a complete suit (free)"),
        Move("D", "deal a card on each column", "D deal"),
        Move("A", "Auto Ending, when it is offered"),
        Move("L", "view every row of long columns", "L view"),
        Move("I", "info: points, stock, hall; I again: rules", "I info"),
    ),
    lacks={"redo": "no redo in Mariant (an undo costs 2 points)"},
    about={"undo": "undo, 2 points: asks before a cheater's undo"},
    aliases={"h": "hint"},          # the original's HELP button
    moved={"r": "E removes a complete suit."},
)
