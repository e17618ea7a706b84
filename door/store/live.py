"""Games in progress as every server sharing the database sees them (``live_games``).

The process playing a game lists it here (:meth:`LiveGames.offer`), refreshes its listing
every few seconds (:meth:`LiveGames.keep_alive`: one write for all its games) and writes the
game's state only while callers of other processes watch it (:meth:`LiveGames.publish`).  A
watching process counts its watchers into the row (:meth:`LiveGames.count_watchers`) and
reads the state when its version moves (:meth:`LiveGames.news`).  The glue that calls these
is ``door/watching/link.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .core import Repository, unit
from .models import LiveGameRow
from .online import worker_prefix

ALIVE_WINDOW_S = 20.0
"""A row whose process has not refreshed it for this long is a crashed process's: not listed."""

_WITHDRAWN = and_(LiveGameRow.id.in_(bindparam("ids", expanding=True)),
                  LiveGameRow.host == bindparam("host"))
LOCK_WITHDRAWN = (select(LiveGameRow.id).where(_WITHDRAWN).order_by(LiveGameRow.id)
                  .with_for_update())
WITHDRAW = delete(LiveGameRow).where(_WITHDRAWN)
"""A game's listing withdrawn (``ids`` of this ``host``): its rows locked as ``_lock_live``
locks them, then deleted.  Made once: made at every game's end, they left their parameters
in reference cycles for the server's full collection (door/serve/collector.py)."""


@dataclass(frozen=True)
class LiveListing:
    """One game in progress on another process, as the Watch list shows it."""

    id: int
    host: str
    alias: str
    title: str
    deal: str
    watchable: bool
    moves: int
    idle: float
    """Seconds since the player's last move (to within a few: door/watching/link.py)."""
    watching: int
    over: bool


@dataclass(frozen=True)
class LiveState:
    """A game's news for its watchers elsewhere, as written and as read: the game's JSON
    form (None: not written yet), the player's message line, how many watch in all."""

    id: int
    version: int
    state: dict[str, Any] | None
    note: str
    watching: int
    over: bool


class LiveGames(Repository):
    """The ``live_games`` table: games of this host (``self._core.host``) and of the others.

    Several processes write the same rows at once (the player's process publishes and
    refreshes them, watching processes count their watchers in), each write touching
    several rows: every write first locks its rows in ascending id order
    (:meth:`_lock_live`), so that two of them never wait for each other (PostgreSQL
    found such deadlocks between a withdrawal and a publication, and aborted one)."""

    @staticmethod
    async def _lock_live(conn: AsyncConnection, where: ColumnElement[bool]) -> None:
        """Lock the rows ``where`` selects, in id order (a no-op on SQLite, whose one
        writer at a time needs none)."""
        await conn.execute(select(LiveGameRow.id).where(where).order_by(LiveGameRow.id)
                           .with_for_update())

    @unit
    async def offer(self, alias: str, title: str, deal: str, watchable: bool,
                    moves: int) -> int:
        """List a game of this host; returns its row id."""
        now = self._core.now()
        async with self._core.write(background=True) as conn:
            result = await conn.execute(
                self._core.insert(conn, LiveGameRow).values(
                    host=self._core.host, alias=alias[:40], title=title[:40], deal=deal[:40],
                    watchable=watchable, moves=moves, last_move=now, alive=now)
                .returning(LiveGameRow.id))
            return int(result.scalar_one())

    @unit
    async def withdraw(self, ids: list[int]) -> None:
        if not ids:
            return
        chosen = {"ids": ids, "host": self._core.host}
        async with self._core.write(background=True) as conn:
            await conn.execute(LOCK_WITHDRAWN, chosen)
            await conn.execute(WITHDRAW, chosen)

    @unit
    async def keep_alive(self, moved: dict[int, tuple[int, datetime]]) -> dict[int, int]:
        """Say this host's games are still played (and how many moves those in ``moved``
        have, since when); return each game's count of watchers elsewhere.  One write."""
        async with self._core.write(background=True) as conn:
            await self._lock_live(conn, LiveGameRow.host == self._core.host)
            await conn.execute(update(LiveGameRow).where(LiveGameRow.host == self._core.host)
                               .values(alive=self._core.now()))
            for ident, (moves, last_move) in sorted(moved.items()):
                await conn.execute(update(LiveGameRow).where(LiveGameRow.id == ident)
                                   .values(moves=moves, last_move=last_move))
            rows = (await conn.execute(select(LiveGameRow.id, LiveGameRow.watchers)
                                       .where(LiveGameRow.host == self._core.host))).all()
        return {row.id: row.watchers for row in rows}

    @unit
    async def watchers(self) -> dict[int, int]:
        """Each of this host's games: how many callers of other processes watch it."""
        async with self._core.read() as conn:
            rows = (await conn.execute(select(LiveGameRow.id, LiveGameRow.watchers)
                                       .where(LiveGameRow.host == self._core.host))).all()
        return {row.id: row.watchers for row in rows}

    @unit
    async def publish(self, news: list[LiveState]) -> None:
        """Write the state of watched games (one transaction for all of them)."""
        if not news:
            return
        async with self._core.write(background=True) as conn:
            await self._lock_live(conn, LiveGameRow.id.in_([item.id for item in news]))
            for item in sorted(news, key=lambda item: item.id):
                values: dict[str, Any] = {"version": item.version, "note": item.note[:200],
                                          "shown": item.watching, "over": item.over}
                if item.state is not None:
                    values["state"] = item.state
                    values["moves"] = len(item.state.get("actions") or [])
                await conn.execute(update(LiveGameRow).where(LiveGameRow.id == item.id)
                                   .values(**values))

    @unit
    async def listing(self) -> list[LiveListing]:
        """The games of every other host whose process is alive, oldest first."""
        since = self._core.now() - timedelta(seconds=ALIVE_WINDOW_S)
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(LiveGameRow.id, LiveGameRow.host, LiveGameRow.alias, LiveGameRow.title,
                       LiveGameRow.deal, LiveGameRow.watchable, LiveGameRow.moves,
                       LiveGameRow.last_move, LiveGameRow.shown, LiveGameRow.watchers,
                       LiveGameRow.over)
                .where(LiveGameRow.host != self._core.host, LiveGameRow.alive >= since,
                       LiveGameRow.over.is_(False))
                .order_by(LiveGameRow.id))).all()
        now = self._core.now()
        return [LiveListing(r.id, r.host, r.alias, r.title, r.deal, r.watchable, r.moves,
                            max(0.0, (now - r.last_move).total_seconds()),
                            max(r.shown, r.watchers), r.over) for r in rows]

    @unit
    async def count_watchers(self, changes: dict[int, int]) -> None:
        """Callers of this process start (+n) or stop (−n) watching games (id → n)."""
        if not changes:
            return
        async with self._core.write(background=True) as conn:
            await self._lock_live(conn, LiveGameRow.id.in_(list(changes)))
            for ident, change in sorted(changes.items()):
                await conn.execute(update(LiveGameRow).where(LiveGameRow.id == ident)
                                   .values(watchers=LiveGameRow.watchers + change))

    @unit
    async def news(self, known: dict[int, int]) -> tuple[list[LiveState], set[int]]:
        """For the games followed (id → the version last read): the state of those whose
        version moved, and the ids still listed and alive (a game missing has ended, or its
        process has gone).  One short read."""
        since = self._core.now() - timedelta(seconds=ALIVE_WINDOW_S)
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(LiveGameRow.id, LiveGameRow.version)
                .where(LiveGameRow.id.in_(list(known)), LiveGameRow.alive >= since))).all()
            moved = [row.id for row in rows if row.version != known[row.id]]
            states = (await conn.execute(
                select(LiveGameRow.id, LiveGameRow.version, LiveGameRow.state,
                       LiveGameRow.note, LiveGameRow.shown, LiveGameRow.over)
                .where(LiveGameRow.id.in_(moved)))).all() if moved else []
        return ([LiveState(r.id, r.version, r.state, r.note, r.shown, r.over) for r in states],
                {row.id for row in rows})

    @unit
    async def forget_host(self, server: str | None = None) -> int:
        """Remove this host's rows (left by a crash), and with ``server`` every row of that
        server's workers too (as :meth:`door.store.online.Online.forget_server`)."""
        where = LiveGameRow.host == self._core.host
        if server is not None:
            where = or_(where, LiveGameRow.host == server[:64],
                        LiveGameRow.host.startswith(worker_prefix(server), autoescape=True))
        async with self._core.write() as conn:
            await self._lock_live(conn, where)
            return (await conn.execute(delete(LiveGameRow).where(where))).rowcount
