"""Games in progress that other callers may watch: one registry per process.

A player's game screen offers its game here while it is played (:meth:`WatchHub.offer`)
and withdraws it when the game ends or the player leaves it.  What is shared is the game
itself (the engine object the player plays on), never the player's bytes: each watcher's
screen is drawn from it for the watcher's own window, charset and colour.  Watchers with
the same window size and colour share one drawing (:attr:`WatchedGame.views`, filled by
``door/ui/watch.py``), so a hundred watchers of one game cost one drawing per move plus
each watcher's own renderer diff.

Nothing here waits on a watcher: a move sets each watcher's event and returns.  A watcher
who never reads stalls only its own task (its frame's drain), and the session drops it
after ``DRAIN_TIMEOUT`` like any caller who reads nothing.

Local only: a game is seen by callers of the same process.  With ``[server] workers``
above 1 (the default is one per core), several servers sharing a PostgreSQL database, or
BBS door processes, a game played in another process is not listed (docs/watch-replay.md).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import Settings


def watching_on(settings: Settings) -> bool:
    """The sysop's switch: the main menu's ``watch`` entry is on.  Off, no game is offered
    and Terminal Settings does not ask whether the caller may be watched."""
    return any(entry.action == "watch" for entry in settings.enabled_menu)


@dataclass(eq=False)
class Watcher:
    """One caller watching: their alias, the drawing they share, and their wake-up."""

    alias: str
    view_key: Hashable
    woken: asyncio.Event = field(default_factory=asyncio.Event)


class WatchedGame:
    """A game in progress as watchers see it: who plays it, the shared engine object, the
    player's message line, and a version that grows with every change a watcher sees."""

    def __init__(self, ident: int, alias: str, title: str, deal: str, game: Any,
                 watchable: bool, clock=time.monotonic) -> None:
        self.id = ident
        self.alias = alias
        self.title = title
        self.deal = deal
        self.game = game
        self.watchable = watchable
        """False: the player refuses to be watched; the list says so, and so does joining."""
        self.note = ""
        """The player's message line (why a move was refused, what happened)."""
        self.over = False
        self.version = 0
        self.watchers: list[Watcher] = []
        self.views: dict[Hashable, Any] = {}
        """Drawings shared by the watchers of one view key (window size, colour)."""
        self._clock = clock
        self.last_change = clock()
        self._seen_moves = len(game.actions)

    @property
    def moves(self) -> int:
        return len(self.game.actions)

    @property
    def idle(self) -> float:
        """Seconds since the player last changed the game."""
        return max(0.0, self._clock() - self.last_change)

    def look(self, note: str) -> None:
        """After each of the player's keys: a move, an undo or a new message is news to
        the watchers; anything else (a cursor move) is not."""
        moves = len(self.game.actions)
        if moves == self._seen_moves and note == self.note:
            return
        if moves != self._seen_moves:
            self.last_change = self._clock()
        self._seen_moves, self.note = moves, note
        self._changed()

    def join(self, alias: str, view_key: Hashable) -> Watcher:
        watcher = Watcher(alias, view_key)
        self.watchers.append(watcher)
        self._changed()  # every status line counts the watchers
        return watcher

    def leave(self, watcher: Watcher) -> None:
        if watcher in self.watchers:
            self.watchers.remove(watcher)
        if not any(w.view_key == watcher.view_key for w in self.watchers):
            self.views.pop(watcher.view_key, None)
        self._changed()

    def move_view(self, watcher: Watcher, view_key: Hashable) -> None:
        """The watcher's window changed: they share another drawing from now on."""
        old, watcher.view_key = watcher.view_key, view_key
        if not any(w.view_key == old for w in self.watchers):
            self.views.pop(old, None)

    def end(self) -> None:
        self.over = True
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        for watcher in self.watchers:
            watcher.woken.set()


class WatchHub:
    """The games in progress of this process, in the order they started."""

    def __init__(self) -> None:
        self._games: dict[int, WatchedGame] = {}
        self._ids = itertools.count(1)

    def offer(self, alias: str, title: str, deal: str, game: Any,
              watchable: bool) -> WatchedGame:
        watched = WatchedGame(next(self._ids), alias, title, deal, game, watchable)
        self._games[watched.id] = watched
        return watched

    def withdraw(self, watched: WatchedGame) -> None:
        """The game ended or its player left it: watchers are told, the list forgets it."""
        self._games.pop(watched.id, None)
        watched.end()

    def games(self) -> list[WatchedGame]:
        return list(self._games.values())

    def get(self, ident: int) -> WatchedGame | None:
        return self._games.get(ident)


HUB = WatchHub()
"""This process's games in progress (``reussite serve`` holds all its callers in one)."""
