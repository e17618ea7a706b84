"""A game screen as its helpers see it: the solver's hint, the deal's verdict, "still
winnable?" and the replay viewer.

The game screen (door/ui/game/screen.py) uses all four, so they cannot import it: they are
given a screen that has what these Protocols name, and ``GameScreen`` has it (mypy checks
each place one is passed).
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from typing import Protocol

from ...catalog.record import GameInfo
from ...games import Game
from ...games.solvers import Verdict
from ...session import Session
from ...term.screen import Attr


@dataclass(frozen=True)
class Advice:
    """What the hint says: ``move`` (None for TAKE_BACK and NONE) and what kind of line it
    comes from (WIN, BEST: no win is left, TRY: no win found within the budget)."""

    kind: str
    move: str | None = None


class PlayedScreen(Protocol):
    """A game screen in play, as the solver's helpers read it and tell it things."""

    note_attr: Attr
    """The message line's colours."""

    @property
    def session(self) -> Session: ...
    @property
    def game(self) -> Game: ...
    @property
    def name(self) -> str: ...
    @property
    def info(self) -> GameInfo: ...
    @property
    def solvable(self) -> bool: ...
    @property
    def wakeup(self) -> asyncio.Event: ...
    @property
    def is_over(self) -> bool: ...

    def say(self, text: str) -> None: ...

    def deal_verdict(self) -> Verdict | None: ...

    def tell_hint(self, advice: Advice) -> None: ...

    def still_asked(self) -> None: ...


def alive(screen: weakref.ref[PlayedScreen]) -> PlayedScreen:
    """The screen a helper serves, which the helper holds weakly: the screen holds the
    helper, and a strong reference back would make the two a reference cycle, left for the
    server's full collection with the whole ended call (door/serve/collector.py).  A helper
    is used by its screen only, so the screen is there; ReferenceError says otherwise."""
    found = screen()
    if found is None:
        raise ReferenceError("the game screen has gone")
    return found


class ShownScreen(Protocol):
    """A game screen drawing one position for the replay viewer."""

    watching: bool

    def draw(self) -> None: ...


class ScreenClass(Protocol):
    """A game's screen class (its record's ``screen``), as the replay viewer uses it."""

    @property
    def title(self) -> str: ...
    @property
    def solvable(self) -> bool: ...

    def __call__(self, session: Session, game: Game) -> ShownScreen: ...
