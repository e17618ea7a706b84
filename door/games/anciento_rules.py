"""Anciento's numbers that the engine (:mod:`door.games.anciento`) and its computer players
(:mod:`door.games.anciento_demo`, :mod:`door.games.anciento_player`) both use.

Here, below all three, so that the players need not import the engine: the engine's Hint
asks the search player, and the players read only these numbers and the game they are given.
"""

from __future__ import annotations

KINDS = 36
"""Kinds of stone (6 shapes × 6 patterns); there are two of each."""
END = "end"
"""The action that ends a game."""
BASE_POINTS = (0, 1, 2, 4, 8)
"""Points of an interior placement by neighbour count, before BONUS (R-ANC-3)."""
