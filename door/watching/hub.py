"""Games in progress that other callers may watch: one registry per process.

A player's game screen offers its game here while it is played (:meth:`WatchHub.offer`)
and withdraws it when the game ends or the player leaves it.  What is shared is the game
itself (the engine object the player plays on), never the player's bytes: each watcher's
screen is drawn from it for the watcher's own window, charset and colour.  Watchers with
the same window size and colour share one drawing (:attr:`WatchedGame.views`, filled by
``door/ui/menus/watch.py``), so a hundred watchers of one game cost one drawing per move plus
each watcher's own renderer diff.

Nothing here waits on a watcher: a move sets each watcher's event and returns.  A watcher
who never reads stalls only its own task (its frame's drain), and the session drops it
after ``DRAIN_TIMEOUT`` like any caller who reads nothing.

Other processes (the workers of ``reussite serve``, other servers sharing the database)
see these games through the store: ``door/watching/link.py`` lists them there and, while
someone elsewhere watches one, writes its state at each change (:attr:`WatchHub.listener`
hears every change); a game watched from elsewhere is a :class:`WatchedGame` rebuilt from
that state in the watcher's process, drawn by the same code as a local one.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..config import Settings


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
                 watchable: bool, clock: Callable[[], float] = time.monotonic) -> None:
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
        self.remote = 0
        """Callers of other processes watching (counted through the store)."""
        self.counted: int | None = None
        """A game of another process: how many watch it in all, as its player's process
        last said (door/watching/link.py)."""
        self.listener: Callable[[WatchedGame], None] | None = None
        """Told of every change (the hub's: door/watching/link.py publishes watched games)."""
        self._clock = clock
        self.last_change = clock()
        self._seen_moves = len(game.actions)

    @property
    def moves(self) -> int:
        return len(self.game.actions)

    @property
    def watching(self) -> int:
        """How many watch, here and in other processes (the status lines say it)."""
        if self.counted is not None:
            return max(self.counted, len(self.watchers))
        return len(self.watchers) + self.remote

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
        if self.listener is not None:
            self.listener(self)


class WatchHub:
    """The games in progress of this process, in the order they started."""

    def __init__(self) -> None:
        self._games: dict[int, WatchedGame] = {}
        self._ids = itertools.count(1)
        self.listener: Callable[[WatchedGame], None] | None = None
        """Told when a game is offered, changes or is withdrawn (door/watching/link.py)."""

    def offer(self, alias: str, title: str, deal: str, game: Any,
              watchable: bool) -> WatchedGame:
        watched = WatchedGame(next(self._ids), alias, title, deal, game, watchable)
        watched.listener = self._tell
        self._games[watched.id] = watched
        self._tell(watched)
        return watched

    def _tell(self, watched: WatchedGame) -> None:
        if self.listener is not None:
            self.listener(watched)

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
