"""Monte Carlo's part of the key map (door/ui/shared/keymap.py): its own moves, its seed's aliases,
and what it says of a shared key it has no use for.  Its screen's ``keys``."""

from __future__ import annotations

from ..shared.keymap import GameKeys, Move

KEY_MAP = GameKeys(
    title="Monte Carlo",
    moves=(
        Move("Arrows", "move the [ ] cursor"),
        Move("Enter", "pick the card under it (again: drop it)"),
        Move("b2c3", "a card by column a-e and row 1-5"),
        Move("Bksp Esc", "take back a letter, drop a pick"),
        Move("F", "consolidate now (relaxed rule only)"),
        Move("I", "how to play"),
    ),
    lacks={"redo": "no redo in Monte Carlo"},
    about={"undo": "undo pairs back to the last deal"},
    moved={"h": "The hint is P now, in every game."},
    variants=(("Arrows+Enter or b2c3: pick a pair",),          # strict: the door consolidates
              ("Arrows+Enter or b2c3", "F consolidate")),       # relaxed: F too
)
