"""The game engines.  Pure Python: nothing here imports from outside ``door.games`` but the
guard that picks Mariant's solver compiled by mypyc when the install built it
(``door.compiled``, standard library only).

An engine is a :class:`Game` subclass in ``door/games/<name>.py``.  This layer keeps no list
of games: the door's one registry, with titles, screens, solvers, daily rules and settings,
is :mod:`door.catalog.registry`, one record per game; the engine-level code that serves every game
(the solvers, the hints, the daily challenge) is handed the record's pieces it needs.
"""

from __future__ import annotations

from ..compiled import SOLVER, load_hot_modules

load_hot_modules(SOLVER)  # the compiled solver, unless older than its source: door/compiled.py

from .base import Game, GameRecord, IllegalMove, Status  # noqa: E402  (after the guard)

__all__ = ["Game", "GameRecord", "IllegalMove", "Status"]
