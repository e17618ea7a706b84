"""What the door knows about one game, in one record (PySolFC's ``GameInfo`` is the model).

Every list of games the door shows or checks, and everything the door does with a game
outside its engine and its screen, is derived from these records (see :mod:`door.catalog.registry`,
the one registry, which holds the built-in games): the main menu's default entries,
sysop.ini's sections and their validation, the hall of fame (its order, its score column and
how a score reads), the instructions menu, the title screen, the game screens, replays and
watching, the solver and its hints, "still winnable?", the winnable lists, the daily
challenge, the web page's key bar, ``reussite solve``.  docs/adding-a-game.md walks through
adding one.

The record sits beside :mod:`door.config`, above every layer that reads it: ``door.games``
stays pure (it is not told about screens or settings, nor about the registry: its solvers,
hints and daily rule are handed the record's pieces they need), while config, store, ui,
web and the commands all import the record.  The engine and the screen are named by
``module:Class`` paths and imported on first use, so reading sysop.ini does not load the
game screens, nor the engines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..games.base import Game
from ..games.daily import DailyDeal, DailyRule, daily_deal
from ..games.solvers import Solver, Verdict, hint_game, solve_game
from ..games.winnable import pick_listed, winnable_numbers
from ..ini.values import Parser

if TYPE_CHECKING:  # annotations only: start-up reads the records without datetime
    from datetime import date


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

    lowest_wins: bool = False  # fewest points first (penalty points)
    won_only: bool = False  # only won games enter
    name: str = ""  # the list's own name ("Pebble Parade"); "": "<title>: Hall of Fame"
    score_column: str = "Score"  # the heading of its score column (terminal and web)

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


WinnableList = Callable[[Mapping[str, Any]], str]
"""A game's options → the stem of its shipped winnable list (door/games/winnable/)."""


@dataclass(frozen=True)
class GameInfo:
    """One game: everything outside its engine and its screen that the door needs."""

    name: str  # registry name: [section] of sysop.ini, [menu] action, stored game column
    title: str  # what callers read: "Pebbles"
    engine: str  # its ``door.games`` engine class, "module:Class" (imported on first use)
    screen: str  # its ``door.ui`` GameScreen subclass, "module:Class"
    menu_key: str  # the main menu's default hot key (sysop.ini [menu] may change it)
    menu_label: str = ""  # the main menu's default label; "": the title
    settings: type[Any] = NoOptions  # frozen dataclass of its sysop.ini section's keys
    options: Mapping[str, Parser] = field(default_factory=dict)  # key -> parser (door.ini.values)
    validate: Callable[[Any], None] | None = None  # the section as a whole; raises OptionError
    hall: HallRule = HallRule()
    instructions: str = ""  # file in the ansi folder; "": "<name>.ins"
    solver: Solver | None = None
    """Its solver (door/games/solvers.py): the deal's verdict in the end box, "Winnable
    deals only", the hints of a game without a ``player``, ``reussite solve``; None: none."""
    still_winnable: bool = False
    """The screen's V asks the solver "still winnable?" from the position (and A asks it
    after every move): wants a ``solver``."""
    player: str = ""
    """A search player's move for a position, "module:function" taking the engine's game
    and giving a move (the Demo and the hint of a game played against no deal, asked in
    the solver pool); "": none."""
    winnable: WinnableList | None = None
    """The stem of its shipped list of deals proven winnable for some options; None (or a
    stem with no file): "Winnable deals only" solves random deals on demand instead."""
    daily: DailyRule | None = None
    """How it deals the daily challenge (door/games/daily.py); None: it has no challenge."""
    retired: Mapping[str, str] = field(default_factory=dict)
    """Keys its section no longer has, with why: a sysop.ini that still sets one loads,
    and the log says the key is ignored."""
    pointer: str = ""
    """Its board's clicks, "module:function" (imported on first use): a click or tap on
    the board, and the screen, into the keys that act there (door/ui/shared/access.py); "": the
    board's clicks do nothing (the key line and the menus still answer them)."""
    words: str = ""
    """Its board in sentences, "module:function": what the describe key shows and the web
    page's live region says; "": the screen's text, row by row."""

    def __post_init__(self) -> None:
        """A record that contradicts itself fails when it is written, not when played."""
        if self.still_winnable and self.solver is None:
            raise ValueError(f"{self.name}: still_winnable wants a solver")
        if not is_dataclass(self.settings):
            raise TypeError(f"{self.name}: settings must be a frozen dataclass")
        keys = {f.name for f in fields(self.settings)}
        if set(self.options) != keys:
            raise ValueError(f"{self.name}: options {sorted(self.options)} are not the "
                             f"settings' fields {sorted(keys)}")

    @property
    def label(self) -> str:
        return self.menu_label or self.title

    @property
    def instructions_file(self) -> str:
        return self.instructions or f"{self.name}.ins"

    @property
    def hall_name(self) -> str:
        return self.hall.name or f"{self.title}: Hall of Fame"

    @property
    def solver_budget(self) -> float | None:
        """``reussite solve``'s default seconds; None: no solver."""
        return self.solver.budget if self.solver is not None else None

    # -- the engine -------------------------------------------------------------------------
    def engine_class(self) -> type[Game]:
        cls = _load(self.engine)
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise TypeError(f"{self.name}: {self.engine} is no door.games.Game")
        return cls

    def start(self, number: int, options: Mapping[str, Any] | None = None,
              position: dict[str, Any] | None = None) -> Game:
        """Deal ``number`` with ``options``, or rebuild ``position`` (its JSON state);
        ValueError for a bad number, option or position."""
        cls = self.engine_class()
        return cls.from_json(position) if position is not None else cls.new(
            number, **dict(options or {}))

    # -- the solver ---------------------------------------------------------------------------
    def _solver(self) -> Solver:
        if self.solver is None:
            raise ValueError(f"no solver for {self.name!r}")
        return self.solver

    def solve(self, number: int, options: Mapping[str, Any] | None = None, *,
              position: dict[str, Any] | None = None, seconds: float | None = None,
              node_limit: int | None = None) -> Verdict:
        """Solve deal ``number`` with ``options`` -- or, with ``position``, that position --
        within ``seconds`` of CPU time and/or ``node_limit`` (in this process: the door
        asks its solver pool, door/solvers/pool.py).  ValueError for a game with no solver, or
        bad options."""
        return solve_game(self._solver(), self.start(number, options, position), seconds,
                          node_limit)

    def hint(self, number: int, options: Mapping[str, Any] | None = None, *,
             position: dict[str, Any] | None = None, seconds: float = 5.0) -> Verdict:
        """What a hint shows for the position (the deal without it):
        :func:`door.games.solvers.hint_game`."""
        return hint_game(self._solver(), self.start(number, options, position), seconds)

    def player_move(self, position: dict[str, Any]) -> str:
        """The search player's move for a position (its JSON state)."""
        if not self.player:
            raise ValueError(f"no search player for {self.name!r}")
        move = _load(self.player)(self.engine_class().from_json(position))
        return str(move)

    # -- winnable deals and the daily challenge ---------------------------------------------
    def winnable_list(self, options: Mapping[str, Any]) -> str:
        """The stem of the shipped winnable list for ``options``; "": none."""
        return self.winnable(options) if self.winnable is not None else ""

    def winnable_numbers(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        """The shipped winnable deal numbers for ``options`` (empty: no list)."""
        return winnable_numbers(self.winnable_list(options))

    def pick_listed(self, options: Mapping[str, Any]) -> int | None:
        """A random deal from the shipped winnable list for ``options``; None: no list."""
        return pick_listed(self.winnable_list(options))

    def daily_deal(self, day: date) -> DailyDeal:
        """Its challenge on ``day``; ValueError when it has none."""
        if self.daily is None:
            raise ValueError(f"no daily challenge for {self.name!r}")
        return daily_deal(day, self.name, self.daily)

    # -- the ui's pieces (typed loosely: this module is below ``door.ui``) -----------------
    def pointer_function(self) -> Any:
        """The board's clicks (``pointer``), None without one."""
        return _load(self.pointer) if self.pointer else None

    def words_function(self) -> Any:
        """The board in sentences (``words``), None without one."""
        return _load(self.words) if self.words else None

    def screen_class(self) -> type[Any]:
        """The GameScreen subclass (typed loosely: this module is below ``door.ui``)."""
        cls: type[Any] = _load(self.screen)
        return cls
