"""Watching across processes: this process's games listed in the store for the others, and
the others' games followed from the store for this process's watchers.

One :class:`WatchLink` per process (``reussite serve`` starts one in each worker) does both
jobs with three tasks:

* **publishing** (:meth:`WatchLink._publish_loop`): a game offered in :data:`door.watching.hub.HUB`
  gets a ``live_games`` row (one write when it starts, one when it ends).  Only a game
  watched from elsewhere has its state written, at once after each change (a move, a new
  message): nobody watching costs no write per move, and the player's key never waits.
* **the rows** (:meth:`WatchLink._rows_loop`): every :data:`COUNT_EVERY_S` one read of how
  many callers of other processes watch each game; every :data:`ALIVE_EVERY_S` one write
  refreshes all the rows of this process (alive, moves so far) instead.
* **following** (:meth:`WatchLink._follow_loop`, only while someone here watches a game of
  another process): every :data:`FOLLOW_S` one short read of the versions of the games
  followed and the states that moved.  Each followed game is one :class:`WatchedGame`
  in this process, rebuilt from the state, shared by all its watchers here: the drawing
  code (``door/ui/menus/watch.py``) is the same as for a local game.

Polling works on SQLite and PostgreSQL alike; a watcher's frame follows the player's move
by the write plus at most :data:`FOLLOW_S` (bench/watch.py measures it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ..catalog import registry as gamelist
from ..store.errors import StoreError, logged_in_task
from ..store.live import LiveListing, LiveState
from .hub import HUB, WatchedGame, WatchHub

if TYPE_CHECKING:
    from ..store import Store

log = logging.getLogger(__name__)

ALIVE_EVERY_S = 5.0
"""This process's rows say "still played" (and their moves so far) this often."""
COUNT_EVERY_S = 1.0
"""How often the publisher reads how many watch its games from elsewhere: a new watcher's
first frame waits at most about this long."""
FOLLOW_S = 0.05
"""How often a watching process reads the versions of the games it follows."""
OVER_KEEP_S = 15.0
"""A watched game that ended stays listed (over) this long, so its watchers see the end."""
JOIN_WAIT_S = 15.0
"""How long a watcher waits for the first state of a game on another process."""
LIST_EVERY_S = 2.0
"""The games of the other processes are read this often at most, for all the callers of
this process looking at the Watch list."""


class Followed:
    """A game of another process watched here: its listing, the state last read (a
    :class:`WatchedGame` once the first state came), and how many watch it here."""

    def __init__(self, listing: LiveListing) -> None:
        self.listing = listing
        self.watched: WatchedGame | None = None
        self.version = -1
        self.followers = 0
        self.ready = asyncio.Event()

    def apply(self, live: LiveState) -> None:
        """A new state from the store: watchers here redraw from it."""
        self.version = live.version
        if live.state is not None:
            game = gamelist.engine(live.state["game"]).from_json(live.state["state"])
            if self.watched is None:
                listing = self.listing
                self.watched = WatchedGame(listing.id, listing.alias, listing.title,
                                           listing.deal, game, listing.watchable)
            self.watched.game = game
        watched = self.watched
        if watched is None:
            return
        watched.note = live.note
        watched.counted = live.watching
        if live.over:
            watched.over = True
        watched._changed()
        self.ready.set()

    def gone(self) -> None:
        """The game's row went (its player left, or its process stopped)."""
        if self.watched is not None and not self.watched.over:
            self.watched.end()
        self.ready.set()


class WatchLink:
    """This process's half of watching across processes (see the module's docstring)."""

    def __init__(self, store: Store, hub: WatchHub = HUB) -> None:
        self.store = store
        self.hub = hub
        self._wake = asyncio.Event()
        """Set by every change of an offered game: the publisher looks at once."""
        self._rows: dict[WatchedGame, int] = {}
        """Offered games of this process → their row."""
        self._pending: set[WatchedGame] = set()
        """Games offered, changed or withdrawn since the publisher last looked."""
        self._published: dict[WatchedGame, int] = {}
        self._listed_moves: dict[WatchedGame, int] = {}
        self._ending: dict[int, float] = {}
        """Rows of ended games kept for their watchers: row → when to remove it."""
        self._followed: dict[int, Followed] = {}
        self._counts: dict[int, int] = {}
        """Watchers here counted in or out of a game since the last write (id → change)."""
        self._follower: asyncio.Task[None] | None = None
        self._listing: asyncio.Future[list[LiveListing]] | None = None
        self._listed_at = 0.0
        self._publisher: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self.running = False
        """Between :meth:`start` and :meth:`stop`: the other processes' games are listed
        and followed (door/ui/menus/watch.py), this one's published."""

    # -- life ------------------------------------------------------------------------------
    def start(self) -> None:
        self.running = True
        self.hub.listener = self._heard
        for watched in self.hub.games():
            self._pending.add(watched)
        loop = asyncio.get_running_loop()
        self._publisher = loop.create_task(self._publish_loop())
        self._keeper = loop.create_task(self._rows_loop())

    async def stop(self) -> None:
        """Stop both tasks and remove this process's rows (its games are no longer played
        here: the server stops)."""
        self.running = False
        if self._publisher is None:  # never started
            return
        if self.hub.listener == self._heard:
            self.hub.listener = None
        for task in (self._publisher, self._keeper, self._follower):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(StoreError):
            await self.store.live.withdraw(list(self._rows.values()) + list(self._ending))
            await self._write_counts()

    def _heard(self, watched: WatchedGame) -> None:
        self._pending.add(watched)
        self._wake.set()

    # -- publishing ------------------------------------------------------------------------
    async def _publish_loop(self) -> None:
        """Publish what changed, at once: the rows' refresh runs beside it
        (:meth:`_rows_loop`), so a slow refresh never holds a watched game's move back."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._publish()
            except StoreError as exc:
                log.debug("watching across processes: %s", exc)
                await asyncio.sleep(COUNT_EVERY_S)
                self._wake.set()  # what could not be written is tried again
            except Exception:  # a task of its own: nobody else would see this
                log.warning("watching across processes", exc_info=True)
                await asyncio.sleep(COUNT_EVERY_S)

    async def _rows_loop(self) -> None:
        """Every :data:`COUNT_EVERY_S`: how many watch each game from elsewhere; every
        :data:`ALIVE_EVERY_S`: the rows are alive (moves so far), and the rows of ended
        games kept for their watchers go."""
        next_alive = 0.0
        while True:
            with logged_in_task(log, "watching across processes"):
                now = time.monotonic()
                if now >= next_alive:
                    next_alive = now + ALIVE_EVERY_S
                    self._counted(await self.store.live.keep_alive(self._moved()))
                    await self._remove_ended(now)
                elif self._rows:
                    self._counted(await self.store.live.watchers())
            await asyncio.sleep(COUNT_EVERY_S)

    async def _publish(self) -> None:
        """Publish the watched games that changed (one write for all), then list the games
        offered since and remove (or keep marked over, for their watchers) the ones
        withdrawn.  What fails is kept for the next try."""
        todo = list(self._pending)
        self._pending.clear()
        news: list[LiveState] = []
        sent: list[WatchedGame] = []
        for watched in todo:
            row = self._rows.get(watched)
            if row is not None and watched.remote and (
                    self._published.get(watched) != watched.version):
                self._published[watched] = watched.version
                sent.append(watched)
                news.append(LiveState(row, watched.version, {
                    "game": watched.game.name, "state": watched.game.to_json()},
                    watched.note, watched.watching, watched.over))
        if news:
            try:
                await self.store.live.publish(news)
            except StoreError:
                for watched in sent:
                    self._published.pop(watched, None)
                self._pending.update(todo)
                raise
        for i, watched in enumerate(todo):
            try:
                await self._list_or_end(watched)
            except StoreError:
                self._pending.update(todo[i:])
                raise

    async def _list_or_end(self, watched: WatchedGame) -> None:
        """A game offered gets its row; a game withdrawn loses it (kept a while, marked
        over, when others watch it: they see the end)."""
        row = self._rows.get(watched)
        if row is None and not watched.over:
            row = await self.store.live.offer(watched.alias, watched.title, watched.deal,
                                              watched.watchable, watched.moves)
            self._rows[watched] = row
            self._listed_moves[watched] = watched.moves
            if watched.over:  # withdrawn while its row was written
                await self._list_or_end(watched)
        elif row is not None and watched.over:
            self._forget(watched)
            if watched.remote:
                self._ending[row] = time.monotonic() + OVER_KEEP_S
            else:
                await self.store.live.withdraw([row])

    def _forget(self, watched: WatchedGame) -> None:
        self._rows.pop(watched, None)
        self._published.pop(watched, None)
        self._listed_moves.pop(watched, None)

    def _moved(self) -> dict[int, tuple[int, Any]]:
        """The rows whose moves so far changed since last written, with the last move's
        time."""
        now = self.store.core.now()
        moved = {}
        for watched, row in self._rows.items():
            if self._listed_moves.get(watched) != watched.moves:
                self._listed_moves[watched] = watched.moves
                moved[row] = (watched.moves, now - timedelta(seconds=watched.idle))
        return moved

    def _counted(self, counts: dict[int, int]) -> None:
        """How many watch each game from elsewhere: a change is news for every status line
        (and starts or stops the publishing of that game)."""
        for watched, row in list(self._rows.items()):
            remote = counts.get(row, 0)
            if remote != watched.remote:
                watched.remote = remote
                watched._changed()

    async def _remove_ended(self, now: float) -> None:
        done = [row for row, when in self._ending.items() if when <= now]
        if done:
            await self.store.live.withdraw(done)
            for row in done:
                del self._ending[row]

    # -- following -------------------------------------------------------------------------
    async def listing(self, max_age: float = LIST_EVERY_S) -> list[LiveListing]:
        """Games of the other processes sharing the database, read at most ``max_age``
        seconds ago: every caller of this process on the Watch list shares one read ([]
        when the database cannot tell)."""
        loop = asyncio.get_running_loop()
        if self._listing is None or (self._listing.done()
                                     and loop.time() - self._listed_at > max_age):
            self._listed_at = loop.time()
            self._listing = asyncio.ensure_future(self.store.live.listing())
        try:
            return list(await asyncio.shield(self._listing))
        except StoreError as exc:
            log.debug("games elsewhere not listed: %s", exc)
            return []

    async def follow(self, listing: LiveListing) -> WatchedGame | None:
        """Start following ``listing`` for one watcher here; the game once its first state
        came, None when it did not in :data:`JOIN_WAIT_S` (then :meth:`unfollow` is done)."""
        followed = self._followed.get(listing.id)
        if followed is None:
            followed = self._followed[listing.id] = Followed(listing)
        followed.followers += 1
        self._count(listing.id, 1)
        try:
            await asyncio.wait_for(followed.ready.wait(), JOIN_WAIT_S)
        except TimeoutError:
            pass
        except BaseException:  # the watcher hung up meanwhile
            self.unfollow(listing.id)
            raise
        if followed.watched is None:
            self.unfollow(listing.id)
            return None
        return followed.watched

    def unfollow(self, ident: int) -> None:
        """One watcher here stops following game ``ident`` (never waits: a watcher who hung
        up is counted out in the background)."""
        followed = self._followed.get(ident)
        if followed is None:
            return
        followed.followers -= 1
        if followed.followers <= 0:
            del self._followed[ident]
        self._count(ident, -1)

    def _count(self, ident: int, change: int) -> None:
        """Count a watcher here in (+1) or out (−1) of game ``ident``: written by the
        follower at its next round, with every other change meanwhile (a crowd arriving
        costs one write, not one each)."""
        self._counts[ident] = self._counts.get(ident, 0) + change
        if self._follower is None or self._follower.done():
            self._follower = asyncio.get_running_loop().create_task(self._follow_loop())

    async def _write_counts(self) -> None:
        counts, self._counts = {i: n for i, n in self._counts.items() if n}, {}
        if not counts:
            return
        try:
            await self.store.live.count_watchers(counts)
        except StoreError:
            for ident, change in counts.items():  # tried again at the next round
                self._counts[ident] = self._counts.get(ident, 0) + change
            raise

    async def _follow_loop(self) -> None:
        while self._followed or self._counts:
            with logged_in_task(log, "games elsewhere not followed"):
                await self._write_counts()
                if self._followed:
                    await self._follow()
            await asyncio.sleep(FOLLOW_S)

    async def _follow(self) -> None:
        """One read of the games followed when it starts: a game first followed while the
        read is under way was not asked about, so it is not taken for gone (its watchers
        were told "could not be reached" at once); the next round reads it."""
        asked = dict(self._followed)
        news, listed = await self.store.live.news(
            {ident: followed.version for ident, followed in asked.items()})
        for live in news:
            followed = self._followed.get(live.id)
            if followed is not None and (live.state is not None or followed.watched):
                followed.apply(live)
        for ident, followed in asked.items():
            if ident not in listed and self._followed.get(ident) is followed:
                followed.gone()
