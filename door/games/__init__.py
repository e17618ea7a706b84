"""The game engines.  Pure Python: nothing here imports from outside ``door.games``.

An engine lives in ``door/games/<name>.py`` as the :class:`Game` subclass whose ``name`` is
``<name>``; :func:`engine` finds it there, for code of this layer that meets a game by name
(the solvers).  The door's list of games, with titles, screens and settings, is
:mod:`door.gamelist`, one record per game.
"""

from __future__ import annotations

import re
from importlib import import_module

from .base import Game, GameRecord, IllegalMove, Status


def engine(name: str) -> type[Game]:
    """Return the engine class for a registry name (imported on first use)."""
    module = None
    if re.fullmatch(r"[a-z][a-z0-9_]*", name):
        try:
            module = import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    for value in vars(module).values() if module else ():
        if isinstance(value, type) and issubclass(value, Game) and getattr(
                value, "name", None) == name:
            return value
    raise ValueError(f"unknown game {name!r}")


__all__ = ["Game", "GameRecord", "IllegalMove", "Status", "engine"]
