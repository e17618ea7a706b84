"""Which screen each menu action opens.  Actions not listed here say they are not built yet."""

from __future__ import annotations

from .menu import Action

ACTIONS: dict[str, Action] = {}
