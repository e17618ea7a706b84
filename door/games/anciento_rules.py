"""Anciento's numbers, its board geometry and the view of a game that the engine
(:mod:`door.games.anciento`) and its computer players (:mod:`door.games.anciento_demo`,
:mod:`door.games.anciento_player`) share.

Here, below all three, so that the players need not import the engine: the engine's Hint
asks the search player, and the players read only these and a :class:`PlayerView` of the
game they are given (which the engine is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

KINDS = 36
"""Kinds of stone (6 shapes × 6 patterns); there are two of each."""
END = "end"
"""The action that ends a game."""
BASE_POINTS = (0, 1, 2, 4, 8)
"""Points of an interior placement by neighbour count, before BONUS (R-ANC-3)."""


class Geometry(NamedTuple):
    """Precomputed facts about one board size; squares are ``row * cols + col``."""

    rows: int
    cols: int
    neighbours: tuple[tuple[int, ...], ...]
    edge: tuple[bool, ...]
    names: tuple[str, ...]
    start: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.rows * self.cols


class HasKind(Protocol):
    """A stone as the players see it: its kind, 0..35 (the engine's ``Stone``)."""

    @property
    def kind(self) -> int: ...


class PlayerView(Protocol):
    """What a computer player reads of a game and does with it: the engine's ``Anciento``."""

    @property
    def geo(self) -> Geometry: ...
    @property
    def board(self) -> Sequence[HasKind | None]: ...
    @property
    def current(self) -> HasKind | None: ...
    @property
    def easy(self) -> bool: ...
    @property
    def ended(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...

    def next_stones(self) -> Sequence[HasKind]: ...

    def legal_squares(self) -> list[int]: ...

    def square_name(self, square: int) -> str: ...

    def check(self) -> list[tuple[str, int]]: ...

    def play(self, move: str) -> None: ...
