"""Toy Patience's screen: the stock, the waste's top card and the home pile, and its keys."""

from __future__ import annotations

from typing import ClassVar

from door.term import Key
from door.ui.game.screen import GameScreen
from door.ui.shared.keymap import GameKeys, Move

from .engine import DRAW, HOME, REDEAL, Toy
from .record import TOY

ROW = 5
KEYS = {"d": DRAW, "f": HOME, "w": REDEAL}
KEY_MAP = GameKeys(
    title="Toy Patience",
    moves=(Move("D", "turn a card from the stock", "D draw"),
           Move("F", "put the waste's top card home", "F home"),
           Move("W", "turn the waste back into the stock (twice a game)", "W redeal")),
    lacks={"redo": "no redo in Toy Patience"})
"""Its part of the key map: its own moves; hint, undo, resign and the rest are shared."""


class ToyScreen(GameScreen):
    info = TOY
    game: Toy
    keys = KEY_MAP
    help_lines: ClassVar[list[str]] = [
        "Put the cards 1 to 8 home in order.",
        "D turns a card from the stock, F puts the waste's top card home,",
        "W turns the waste back into the stock (twice a game), U undoes.",
    ]

    def draw_board(self) -> None:
        game, screen = self.game, self.view.screen
        top = str(game.waste[-1]) if game.waste else "-"
        screen.put(ROW, 10, f"Stock: {len(game.stock)} cards   Waste: {top}   "
                            f"Home: {game.home}   Redeals: {game.redeals}/2     ")

    async def on_key(self, key: Key) -> bool:
        if not key.is_char:
            return False
        char = key.char.lower()
        if char in KEYS:
            self.play(KEYS[char])
            return True
        return False
