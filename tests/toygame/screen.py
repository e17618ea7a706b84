"""Toy Patience's screen: the stock, the waste's top card and the home pile, and its keys."""

from __future__ import annotations

from typing import ClassVar

from door.term import Key
from door.ui.game_screen import GameScreen

from .engine import DRAW, HOME, REDEAL, Toy
from .record import TOY

ROW = 5
KEYS = {"d": DRAW, "f": HOME, "r": REDEAL}


class ToyScreen(GameScreen):
    info = TOY
    game: Toy
    key_line: ClassVar[str] = "D draw · F home · R redeal · U undo · H hint · X resign"
    help_lines: ClassVar[list[str]] = [
        "Put the cards 1 to 8 home in order.",
        "D turns a card from the stock, F puts the waste's top card home,",
        "R turns the waste back into the stock (twice a game), U undoes.",
    ]

    def draw_board(self) -> None:
        game, screen = self.game, self.session.screen
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
        if char == "u":
            if self.game.can_undo:
                self.game.undo()
                self.say("Undone.")
            else:
                self.refuse("Nothing to undo.")
            return True
        if char == "h":
            self.ask_hint()
            return True
        return False
