"""The games this door offers: one :class:`~door.catalog.record.GameInfo` record each, in menu
order -- the one registry: every list of games, and everything the door does with a game
by its name, is derived from it.  Outside a game's own modules, this is the only place in
door/ that names a game.

To add a game, write its engine (``door/games/``), its screen (``door/ui/``), its
instructions (``ansi/<name>.ins``) and register its record here: docs/adding-a-game.md.
A game kept elsewhere (the test suite's toy game) registers its record with
:func:`register` from its own module; ``REUSSITE_GAME_MODULES`` (modules, comma-separated)
has this registry import such modules first thing, so that the processes the door starts
(the solver workers) know the game too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..games.base import Game
from ..games.daily import DailyDeal, DailyRule, same_options
from ..games.solvers import Solver, Verdict
from ..ini.values import choice, int_between, on_off
from .record import GameInfo, HallRule, OptionError

if TYPE_CHECKING:  # annotations only: start-up reads the records without datetime
    from datetime import date

PLUGINS = "REUSSITE_GAME_MODULES"
"""The environment variable naming modules that register games of their own (tests)."""

_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> GameInfo:
    """Add a game (after those already there: the menu shows them in this order)."""
    if info.name in _GAMES:
        raise ValueError(f"game {info.name!r} is registered already")
    _GAMES[info.name] = info
    return info


@contextmanager
def registered(info: GameInfo) -> Iterator[GameInfo]:
    """A game registered for the ``with`` block only (tests)."""
    register(info)
    try:
        yield info
    finally:
        del _GAMES[info.name]


def games() -> tuple[GameInfo, ...]:
    return tuple(_GAMES.values())


def names() -> tuple[str, ...]:
    return tuple(_GAMES)


def game(name: str) -> GameInfo:
    """The record of a registry name; ValueError naming the known ones."""
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(_GAMES)}") from None


def engine(name: str) -> type[Game]:
    """The engine class of a registry name (imported on first use)."""
    return game(name).engine_class()


def title(name: str) -> str:
    """A game's title, or the name itself for a game no longer offered (an old record)."""
    info = _GAMES.get(name)
    return info.title if info else name


# -- by name: what the solvers and the daily challenge answer --------------------------------

def solvable() -> tuple[str, ...]:
    """The games with a solver."""
    return tuple(info.name for info in _GAMES.values() if info.solver is not None)


def solve(name: str, number: int, options: Mapping[str, Any] | None = None, *,
          position: dict[str, Any] | None = None, seconds: float | None = None,
          node_limit: int | None = None) -> Verdict:
    """:meth:`GameInfo.solve` of the game ``name`` (ValueError: unknown, or no solver)."""
    return game(name).solve(number, options, position=position, seconds=seconds,
                            node_limit=node_limit)


def hint(name: str, number: int, options: Mapping[str, Any] | None = None, *,
         position: dict[str, Any] | None = None, seconds: float = 5.0) -> Verdict:
    """:meth:`GameInfo.hint` of the game ``name``."""
    return game(name).hint(number, options, position=position, seconds=seconds)


def daily_games() -> tuple[str, ...]:
    """The games with a daily challenge, in menu order."""
    return tuple(info.name for info in _GAMES.values() if info.daily is not None)


def daily_deal(day: date, name: str) -> DailyDeal:
    """The challenge of ``name`` on ``day`` (ValueError: not a game with a challenge)."""
    info = _GAMES.get(name)
    if info is None:
        raise ValueError(f"no daily challenge for {name!r}: no such game")
    return info.daily_deal(day)


def daily_deals(day: date) -> list[DailyDeal]:
    """Every game's challenge on ``day``, in menu order."""
    return [daily_deal(day, name) for name in daily_games()]


def is_daily(name: str, number: int, options: Mapping[str, Any], day: date) -> bool:
    """Is this deal (with these options) the challenge of ``name`` on ``day``?"""
    info = _GAMES.get(name)
    if info is None or info.daily is None:
        return False
    deal = info.daily_deal(day)
    return number == deal.number and same_options(options, deal.options)


# -- the built-in games ----------------------------------------------------------------------

@dataclass(frozen=True)
class MariantSettings:
    face_down: int = 2
    face_up: int = 1
    winnable_only: bool = False  # new deals default to ones the solver proved winnable


def _mariant_fits(settings: MariantSettings) -> None:
    if settings.face_down + settings.face_up > 7:
        raise OptionError("face_up", "expected face_down + face_up ≤ 7")


@dataclass(frozen=True)
class MonteCarloSettings:
    consolidation: str = "strict"
    winnable_only: bool = False
    still_winnable_auto: bool = False  # ask "still winnable?" after every move


@dataclass(frozen=True)
class AuntMarySettings:
    winnable_only: bool = False
    still_winnable_auto: bool = False


@dataclass(frozen=True)
class AncientoSettings:
    board: str = "8x12"
    easy: bool = False


def _mariant_list(options: Mapping[str, Any]) -> str:
    return f"mariant-{options.get('fd', 2)}+{options.get('fu', 1)}"


def _montecarlo_list(options: Mapping[str, Any]) -> str:
    return f"montecarlo-{options.get('mode', 'strict')}"


def _auntmary_list(options: Mapping[str, Any]) -> str:
    return "auntmary"


MARIANT = register(GameInfo(
    name="mariant", title="Mariant", menu_key="M", menu_label="Mariant (Marie Antoinette)",
    engine="door.games.mariant:Mariant", screen="door.ui.mariant.screen:MariantScreen",
    pointer="door.ui.mariant.pointer:board_keys", words="door.ui.mariant.words:board_words",
    settings=MariantSettings, validate=_mariant_fits,
    options={"face_down": int_between(2, 6), "face_up": int_between(1, 5),
             "winnable_only": on_off},
    hall=HallRule(lowest_wins=True, won_only=True, name="Mariant's Hit Parade"),
    solver=Solver("door.games.mariant_solver", budget=10.0, best_first=True),
    still_winnable=True, winnable=_mariant_list,
    # the undecided deals: left "unknown" by the solver (10 CPU s) when the rule was fixed
    # (the lists of 2026-12-01), frozen forever like the range (docs/daily.md)
    daily=DailyRule({"fd": 2, "fu": 1}, draw=300, winnable="mariant-2+1", undecided=frozenset({
        49, 90, 99, 102, 110, 127, 130, 158, 179, 194, 210, 220, 222, 253, 269, 274, 286,
        288}))))

MONTECARLO = register(GameInfo(
    name="montecarlo", title="Monte Carlo", menu_key="C",
    engine="door.games.montecarlo:MonteCarlo",
    screen="door.ui.montecarlo.screen:MonteCarloScreen",
    pointer="door.ui.montecarlo.pointer:board_keys", words="door.ui.montecarlo.words:board_words",
    settings=MonteCarloSettings,
    options={"consolidation": choice("strict", "relaxed"), "winnable_only": on_off,
             "still_winnable_auto": on_off},
    solver=Solver("door.games.montecarlo_solver", budget=10.0),
    still_winnable=True, winnable=_montecarlo_list,
    daily=DailyRule({"mode": "strict"}, draw=10_000, winnable="montecarlo-strict")))

AUNTMARY = register(GameInfo(
    name="auntmary", title="Aunt Mary", menu_key="A",
    engine="door.games.auntmary:AuntMary", screen="door.ui.auntmary.screen:AuntMaryScreen",
    pointer="door.ui.auntmary.pointer:board_keys", words="door.ui.auntmary.words:board_words",
    settings=AuntMarySettings,
    options={"winnable_only": on_off, "still_winnable_auto": on_off},
    retired={"passes": "Aunt Mary always has three passes, as its rules say"},
    solver=Solver("door.games.auntmary_solver", budget=30.0),
    still_winnable=True, winnable=_auntmary_list,
    daily=DailyRule({}, draw=600, winnable="auntmary", undecided=frozenset({
        33, 55, 67, 99, 100, 142, 143, 146, 158, 165, 202, 223, 238, 242, 247, 261, 270, 271,
        354, 360, 400, 437, 440, 501, 523}))))

ANCIENTO = register(GameInfo(
    name="anciento", title="Anciento", menu_key="N",
    engine="door.games.anciento:Anciento", screen="door.ui.anciento.screen:AncientoScreen",
    pointer="door.ui.anciento.pointer:board_keys", words="door.ui.anciento.words:board_words",
    settings=AncientoSettings,
    options={"board": choice("8x12", "8x8"), "easy": on_off},
    player="door.games.anciento_player:search_move",
    # numbers: its numbered games (door.games.anciento.SELECT_NUMBERS, not imported here:
    # reading the records loads no engine; tests/test_gamelist.py checks they agree)
    daily=DailyRule({"board": "8x12", "easy": False}, numbers=range(1, 32001))))


def default_options() -> dict[str, Any]:
    """Each game's settings when sysop.ini leaves its section out."""
    return {info.name: info.settings() for info in _GAMES.values()}


def _register_plugins() -> None:
    """Import the modules ``REUSSITE_GAME_MODULES`` names: each registers its game.  One
    that cannot be imported is named in one line on stderr (no traceback: the door starts
    without its games)."""
    for module in filter(None, (m.strip() for m in os.environ.get(PLUGINS, "").split(","))):
        try:
            import_module(module)
        except ImportError as exc:
            sys.stderr.write(f"{PLUGINS}: cannot import {module!r} ({exc}): its games are "
                             "not offered\n")


_register_plugins()
