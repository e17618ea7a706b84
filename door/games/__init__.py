"""The four game engines.  Pure Python: nothing here imports from outside ``door.games``.

``GAMES`` maps a game's registry name to its engine class; engines register themselves
by being listed here.
"""

from __future__ import annotations

from importlib import import_module

from .base import Game, GameRecord, IllegalMove, Status

_ENGINES = {
    "mariant": ("door.games.mariant", "Mariant"),
    "montecarlo": ("door.games.montecarlo", "MonteCarlo"),
    "auntmary": ("door.games.auntmary", "AuntMary"),
    "anciento": ("door.games.anciento", "Anciento"),
}

GAME_NAMES = tuple(_ENGINES)


def engine(name: str) -> type[Game]:
    """Return the engine class for a registry name (imported on first use)."""
    try:
        module, cls = _ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(_ENGINES)}") from None
    return getattr(import_module(module), cls)


__all__ = ["GAME_NAMES", "Game", "GameRecord", "IllegalMove", "Status", "engine"]
