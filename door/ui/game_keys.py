"""Each game's part of the key map (door/ui/keymap.py): its own moves, its seed's aliases,
and what it says of a shared key it has no use for.

Keyed by the game's registry name.  The record in door/gamelist.py could hold this as a
``keys`` field one day; it lives here, beside the screens, while the screens are the only
readers that know what the keys do (the web page's key bar reads it too).
"""

from __future__ import annotations

from .keymap import GameKeys, Move

MARIANT = GameKeys(
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

MONTECARLO = GameKeys(
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

AUNTMARY = GameKeys(
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

ANCIENTO = GameKeys(
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

BY_GAME: dict[str, GameKeys] = {
    "mariant": MARIANT, "montecarlo": MONTECARLO, "auntmary": AUNTMARY, "anciento": ANCIENTO}
