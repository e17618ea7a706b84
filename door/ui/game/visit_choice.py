"""A caller's on/off choice per game for the rest of the visit, defaulting to a sysop.ini
key of the game's section ("Winnable deals only", "still winnable?" after each move)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...session import Session


class VisitChoice:
    def __init__(self, key: str) -> None:
        self.key = key
        """The sysop.ini key, in the game's section, that gives the default."""
        self._chosen: weakref.WeakKeyDictionary[Session, dict[str, bool]] = (
            weakref.WeakKeyDictionary())
        self.toggles = 0
        """Goes up with every caller's toggle: a choice asked every key is remembered
        until it does (see ``StillWinnable.auto``)."""

    def on(self, session: Session, game_name: str) -> bool:
        chosen = self._chosen.get(session, {})
        if game_name in chosen:
            return chosen[game_name]
        options = session.settings.games.get(game_name)
        return bool(getattr(options, self.key, False))  # not every game has the option

    def toggle(self, session: Session, game_name: str) -> bool:
        """Switch the choice; return it."""
        on = not self.on(session, game_name)
        self._chosen.setdefault(session, {})[game_name] = on
        self.toggles += 1
        return on
