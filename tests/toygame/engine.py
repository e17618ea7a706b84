"""Toy Patience's engine: eight cards, a stock, a waste pile and one home pile.

Deal ``number`` shuffles the cards 1…8 with the door's documented generator
(door/games/numbers.py).  Moves (notation): ``d`` turns the stock's top card onto the waste;
``h`` puts the waste's top card home, when it is one more than the home pile's top (home
starts empty: the 1 goes first); ``r`` turns the waste back into the stock once the stock
is empty (two redeals a game); ``resign`` gives the game up.  Every action can be undone.
The score is ten points a card home, less one a redeal: the game is won with all eight home.
"""

from __future__ import annotations

from typing import Any, Self

from door.games.base import RESIGN, Game, IllegalMove, Status
from door.games.numbers import CARD_GAME_NUMBERS, check_number, shuffled

CARDS = 8
REDEALS = 2
DRAW, HOME, REDEAL = "d", "h", "r"


class Toy(Game):
    name = "toy"

    def __init__(self, number: int, stock: list[int], waste: list[int] | None = None,
                 home: int = 0, redeals: int = 0, resigned: bool = False) -> None:
        super().__init__()
        self.number, self.options = number, {}
        self.stock, self.waste = list(stock), list(waste or [])
        self.home, self.redeals, self.resigned = home, redeals, resigned
        self._history: list[tuple[list[int], list[int], int, int]] = []

    @classmethod
    def new(cls, number: int, **options: Any) -> Self:
        if options:
            raise ValueError(f"Toy Patience has no options, got {sorted(options)}")
        check_number(number, CARD_GAME_NUMBERS)
        return cls(number, shuffled(list(range(1, CARDS + 1)), number))

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        if self.resigned or self.home == CARDS:
            return []
        moves = []
        if self.waste and self.waste[-1] == self.home + 1:
            moves.append(HOME)
        if self.stock:
            moves.append(DRAW)
        elif self.waste and self.redeals < REDEALS:
            moves.append(REDEAL)
        return moves

    def _apply(self, move: str) -> None:
        move = move.strip().lower()
        if self.resigned or self.home == CARDS:
            raise IllegalMove("the game is over")
        if move == RESIGN:
            self._history.append(self._state())
            self.resigned = True
            return
        if move not in self.legal_moves():
            raise IllegalMove(f"{move!r} cannot be played now")
        self._history.append(self._state())
        if move == DRAW:
            self.waste.append(self.stock.pop())
        elif move == HOME:
            self.home = self.waste.pop()
        else:
            self.stock, self.waste = self.waste[::-1], []
            self.redeals += 1

    def canonical(self, move: str) -> str:
        return move.strip().lower()

    def _undo(self) -> None:
        if not self._history or self.finished:
            raise IllegalMove("nothing to take back")
        self.stock, self.waste, self.home, self.redeals = self._history.pop()

    @property
    def can_undo(self) -> bool:
        return bool(self._history) and not self.finished

    def _state(self) -> tuple[list[int], list[int], int, int]:
        return list(self.stock), list(self.waste), self.home, self.redeals

    # -- state ------------------------------------------------------------------------------
    @property
    def score(self) -> int:
        return 10 * self.home - self.redeals

    @property
    def status(self) -> Status:
        if self.resigned:
            return Status.RESIGNED
        if self.home == CARDS:
            return Status.WON
        return Status.PLAYING if self.legal_moves() else Status.STUCK

    def hints(self) -> list[str]:
        return self.legal_moves()[:1]

    def position_key(self) -> str:
        return (f"{''.join(map(str, self.stock))}/{''.join(map(str, self.waste))}"
                f"/{self.home}/{self.redeals}")

    # -- JSON -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"game": self.name, "number": self.number, "options": {},
                "stock": list(self.stock), "waste": list(self.waste), "home": self.home,
                "redeals": self.redeals, "resigned": self.resigned,
                "history": [[list(s), list(w), h, r] for s, w, h, r in self._history],
                "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        try:
            game = cls(check_number(int(data["number"])), [int(c) for c in data["stock"]],
                       [int(c) for c in data["waste"]], int(data["home"]),
                       int(data["redeals"]), bool(data.get("resigned")))
            game._history = [([int(c) for c in s], [int(c) for c in w], int(h), int(r))
                             for s, w, h, r in data.get("history") or []]
            game.actions = [str(a) for a in data.get("actions") or []]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a Toy Patience position: {exc}") from None
        cards = sorted([*game.stock, *game.waste, *range(1, game.home + 1)])
        if cards != list(range(1, CARDS + 1)) or not 0 <= game.redeals <= REDEALS:
            raise ValueError("not a Toy Patience position: the cards do not add up")
        return game
