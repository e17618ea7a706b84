"""The games this door offers: one :class:`~door.gameinfo.GameInfo` record each, in menu
order, and the registry every other list is derived from.

To add a game, write its engine (``door/games/``), its screen (``door/ui/``), its
instructions (``ansi/<name>.ins``) and register its record here: docs/adding-a-game.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .gameinfo import GameInfo, HallRule, OptionError
from .games import Game
from .values import choice, int_between, on_off

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


MARIANT = register(GameInfo(
    name="mariant", title="Mariant", menu_key="M", menu_label="Mariant (Marie Antoinette)",
    engine="door.games.mariant:Mariant", screen="door.ui.mariant_screen:MariantScreen",
    pointer="door.ui.mariant_pointer:board_keys", words="door.ui.mariant_words:board_words",
    settings=MariantSettings, validate=_mariant_fits,
    options={"face_down": int_between(2, 6), "face_up": int_between(1, 5),
             "winnable_only": on_off},
    hall=HallRule(lowest_wins=True, won_only=True, name="Mariant's Hit Parade"),
    solver_budget=10.0))

MONTECARLO = register(GameInfo(
    name="montecarlo", title="Monte Carlo", menu_key="C",
    engine="door.games.montecarlo:MonteCarlo",
    screen="door.ui.montecarlo_screen:MonteCarloScreen",
    pointer="door.ui.montecarlo_pointer:board_keys", words="door.ui.montecarlo_words:board_words",
    settings=MonteCarloSettings,
    options={"consolidation": choice("strict", "relaxed"), "winnable_only": on_off,
             "still_winnable_auto": on_off},
    solver_budget=10.0))

AUNTMARY = register(GameInfo(
    name="auntmary", title="Aunt Mary", menu_key="A",
    engine="door.games.auntmary:AuntMary", screen="door.ui.auntmary_screen:AuntMaryScreen",
    pointer="door.ui.auntmary_pointer:board_keys", words="door.ui.auntmary_words:board_words",
    settings=AuntMarySettings,
    options={"winnable_only": on_off, "still_winnable_auto": on_off},
    retired={"passes": "Aunt Mary always has three passes, as its rules say"},
    solver_budget=30.0))

ANCIENTO = register(GameInfo(
    name="anciento", title="Anciento", menu_key="N",
    engine="door.games.anciento:Anciento", screen="door.ui.anciento_screen:AncientoScreen",
    pointer="door.ui.anciento_pointer:board_keys", words="door.ui.anciento_words:board_words",
    settings=AncientoSettings,
    options={"board": choice("8x12", "8x8"), "easy": on_off}))


def default_options() -> dict[str, Any]:
    """Each game's settings when sysop.ini leaves its section out."""
    return {info.name: info.settings() for info in _GAMES.values()}
