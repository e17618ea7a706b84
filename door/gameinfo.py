"""What the door knows about one game, in one record (PySolFC's ``GameInfo`` is the model).

Every list of games the door shows or checks is derived from these records (see
:mod:`door.gamelist`, which holds the registry and the built-in games): the main menu's
default entries, sysop.ini's sections and their validation, the hall of fame (its order and
how a score reads), the instructions menu, the title screen, the game screens and replays,
``reussite solve``.  docs/adding-a-game.md walks through adding one.

The record sits beside :mod:`door.config`, above every layer that reads it: ``door.games``
stays pure (it is not told about screens or settings), while config, store, ui, web and the
commands all import the record.  The engine and the screen are named by ``module:Class``
paths and imported on first use, so reading sysop.ini does not load the game screens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .values import Parser

if TYPE_CHECKING:
    from .games import Game


class OptionError(ValueError):
    """A game's sysop.ini section is wrong as a whole (``validate``): names the key to blame."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class NoOptions:
    """The settings of a game without a sysop.ini section of its own."""


@dataclass(frozen=True)
class HallRule:
    """How a game's hall of fame ranks and reads.  Ties always go to the earlier game, and a
    game flagged as cheated never enters."""

    lowest_wins: bool = False  # fewest points first (Mariant's penalty points)
    won_only: bool = False  # only won games enter
    name: str = ""  # the list's own name ("Mariant's Hit Parade"); "": "<title>: Hall of Fame"

    @property
    def order(self) -> str:
        return "fewest points first" if self.lowest_wins else "highest score first"

    def counts(self, status: str, cheater: bool) -> bool:
        """Whether a finished game enters the hall: never a cheated or a resigned one (the
        hall ranks games played to their end)."""
        if cheater or status == "resigned":
            return False
        return status == "won" if self.won_only else True

    def rank_key(self, score: int) -> int:
        """The stored sort key: lower ranks higher."""
        return score if self.lowest_wins else -score


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


@dataclass(frozen=True)
class GameInfo:
    """One game: everything outside its engine and its screen that the door needs."""

    name: str  # registry name: [section] of sysop.ini, [menu] action, stored game column
    title: str  # what callers read: "Monte Carlo"
    engine: str  # its ``door.games`` engine class, "module:Class" (imported on first use)
    screen: str  # its ``door.ui`` GameScreen subclass, "module:Class"
    menu_key: str  # the main menu's default hot key (sysop.ini [menu] may change it)
    menu_label: str = ""  # the main menu's default label; "": the title
    settings: type = NoOptions  # frozen dataclass of its sysop.ini section's keys
    options: Mapping[str, Parser] = field(default_factory=dict)  # key -> parser (door.values)
    validate: Callable[[Any], None] | None = None  # the section as a whole; raises OptionError
    hall: HallRule = HallRule()
    instructions: str = ""  # file in the ansi folder; "": "<name>.ins"
    solver_budget: float | None = None  # `reussite solve`'s default seconds; None: no solver
    retired: Mapping[str, str] = field(default_factory=dict)
    """Keys its section no longer has, with why: a sysop.ini that still sets one loads,
    and the log says the key is ignored."""
    pointer: str = ""
    """Its board's clicks, "module:function" (imported on first use): a click or tap on
    the board, and the screen, into the keys that act there (door/ui/access.py); "": the
    board's clicks do nothing (the key line and the menus still answer them)."""
    words: str = ""
    """Its board in sentences, "module:function": what the describe key shows and the web
    page's live region says; "": the screen's text, row by row."""

    @property
    def label(self) -> str:
        return self.menu_label or self.title

    @property
    def instructions_file(self) -> str:
        return self.instructions or f"{self.name}.ins"

    @property
    def hall_name(self) -> str:
        return self.hall.name or f"{self.title}: Hall of Fame"

    def engine_class(self) -> type[Game]:
        cls: type[Game] = _load(self.engine)
        return cls

    def pointer_function(self) -> Any:
        """The board's clicks (``pointer``), None without one (typed loosely: below ui)."""
        return _load(self.pointer) if self.pointer else None

    def words_function(self) -> Any:
        """The board in sentences (``words``), None without one."""
        return _load(self.words) if self.words else None

    def screen_class(self) -> type:
        """The GameScreen subclass (typed loosely: this module is below ``door.ui``)."""
        cls: type = _load(self.screen)
        return cls
