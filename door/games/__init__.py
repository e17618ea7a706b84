"""The game engines.  Pure Python: nothing here imports from outside ``door.games``.

An engine is a :class:`Game` subclass in ``door/games/<name>.py``.  This layer keeps no list
of games: the door's one registry, with titles, screens, solvers, daily rules and settings,
is :mod:`door.catalog.registry`, one record per game; the engine-level code that serves every game
(the solvers, the hints, the daily challenge) is handed the record's pieces it needs.
"""

from __future__ import annotations

from .base import Game, GameRecord, IllegalMove, Status

__all__ = ["Game", "GameRecord", "IllegalMove", "Status"]
