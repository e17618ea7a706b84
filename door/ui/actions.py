"""Which screen each menu action opens.  Actions not listed here say they are not built yet."""

from __future__ import annotations

from .menu import Action
from .montecarlo_screen import play_montecarlo

ACTIONS: dict[str, Action] = {}
ACTIONS["montecarlo"] = play_montecarlo
