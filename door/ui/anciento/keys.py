"""Anciento's part of the key map (door/ui/shared/keymap.py): its own moves, its seed's aliases,
and what it says of a shared key it has no use for.  Its screen's ``keys``."""

from __future__ import annotations

from ..shared.keymap import GameKeys, Move

KEY_MAP = GameKeys(
    title="Anciento",
    moves=(
        Move("Arrows", "move the cursor (Home End PgUp PgDn * too)"),
        Move("Enter", "place the stone (Space, Ins)", "Arrows+Enter or e4 place"),
        Move("e4", "a column letter and a row: place there"),
        Move("N", "next square that fits (F6)", "N check"),
        Move("O", "skip occupied squares (F2)"),
        Move("W  T", "pause the timer (F3) · remove it (F5)"),
        Move("S", "save under a name (F4)", "S save"),
        Move("M", "the demo player (a fresh game)"),
    ),
    lacks={"still": "no \"still winnable?\" in Anciento"},
    words={"resign": "end"},
    about={"resign": "end the game, bonuses added: asks first",
           "undo": "take back a stone, free", "redo": "put it back, free",
           "hint": "hint: the search player's square"},
    aliases={"-": "undo", "+": "redo", "=": "redo", "f10": "resign", "f7": "hint"},
    moved={"v": "The demo is M now."},
)
