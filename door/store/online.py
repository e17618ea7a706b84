"""Who is online: one row per node of every door server sharing the database, its caller,
what they are doing, and the orders that make one player's older call hang up."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import case, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .core import Database, Repository, unit
from .errors import logged_in_task
from .models import GameRow, NodeRow, PlayerRow
from .records import OnlineNode, SourceActivity, online_of
from .text import clean_line

log = logging.getLogger(__name__)

ALIVE_WINDOW_S = 15.0
"""A call whose process has not said "alive" for this long is taken for gone (three of
:data:`door.serve.takeover.WATCH_S`: a crashed server's calls are not offered for takeover)."""


def worker_prefix(server: str) -> str:
    """How the who's-online hosts of a server's workers start (``machine:port/``, then the
    worker's number: door/serve/workers.py); 64 characters at most in all."""
    return server[:60] + "/"


TOUCH_EVERY_S = 30.0
"""Keys refresh who's online this often at most (the Idle column is right to within it)."""


class Online(Repository):
    """The ``nodes`` table, and this process's writes of it that nobody waits for: the
    callers' screens (:meth:`activity`) and keys (:meth:`touch`)."""

    def __init__(self, core: Database, *, window_s: int = 600,
                 touch_every_s: float = TOUCH_EVERY_S) -> None:
        super().__init__(core)
        self._window = timedelta(seconds=window_s)
        """Who's online lists the nodes with a heartbeat this recent."""
        self._touch_every = touch_every_s
        self._touched: set[int] = set()
        """Nodes whose caller pressed a key since the last heartbeat write."""
        self._toucher: asyncio.Task[None] | None = None
        self._activities: dict[int, tuple[int | None, str, str]] = {}
        """Nodes' newest (player, activity, token) not written yet."""
        self._activity_writer: asyncio.Task[None] | None = None
        self._activity_batch: tuple[dict[int, Any], asyncio.Future[Any]] | None = None
        """The activities being written now, and their write."""
        self._upserts: dict[str, Any] = {}
        """The log-in's upsert of its node's row, per dialect (:meth:`_node_upsert`)."""

    @unit
    async def heartbeat(self, node: int, player_id: int | None, activity: str,
                        token: str = "") -> None:
        """This node is busy with ``player_id`` doing ``activity`` (at log-in: the next
        log-in of the same player sees this call); ``token`` names the call (a new token
        takes the row over, with no hang-up order).  Screens use :meth:`activity`."""
        async with self._core.write() as conn:
            await self._upsert_node(conn, node, player_id, activity, token, self._core.now())

    async def _upsert_node(self, conn: AsyncConnection, node: int, player_id: int | None,
                           activity: str, token: str, now: datetime) -> None:
        await conn.execute(self._node_upsert(conn), {
            "host": self._core.host, "node": node, "player_id": player_id,
            "activity": clean_line(activity, self._core.limits.activity), "since": now,
            "heartbeat": now, "token": token[:32], "hangup": False, "alive": now})

    def _node_upsert(self, conn: AsyncConnection) -> Any:
        """The log-in's write of its node's row (values given as it runs): a new call's row,
        or the node's row taken over, its hang-up order kept for the same call only and its
        ``since`` for the same player only.  Made once per dialect: made per call, its
        ``excluded`` row (some 70 objects in reference cycles) was left with every ended
        call for the server's full collection (door/serve/collector.py)."""
        found = self._upserts.get(conn.dialect.name)
        if found is None:
            ins = self._core.insert(conn, NodeRow)
            new = ins.excluded
            found = self._upserts[conn.dialect.name] = ins.on_conflict_do_update(
                index_elements=["host", "node"],
                set_={"player_id": new.player_id, "activity": new.activity,
                      "heartbeat": new.heartbeat, "token": new.token, "alive": new.alive,
                      "hangup": case((NodeRow.token == new.token, NodeRow.hangup),
                                     else_=False),
                      "since": case((NodeRow.player_id == new.player_id, NodeRow.since),
                                    else_=new.since)})
        return found

    def activity(self, node: int, player_id: int | None, activity: str,
                 token: str = "") -> None:
        """What the caller on ``node`` does now (each screen), written in the background.

        A caller changing screens never waits for the database: under a flood of other
        callers' writes this heartbeat took seconds, and who's online is best effort.  The
        newest activity per node is written, those of many nodes in one transaction, and a
        :meth:`leave` of the call comes after it.  It updates the call's own row (the
        log-in's :meth:`heartbeat` made it) and never makes one."""
        if self._core.closed:
            return
        self._activities[node] = (player_id, activity, token)
        if self._activity_writer is None or self._activity_writer.done():
            self._activity_writer = self._core.background(self._write_activities())

    async def _write_activities(self) -> None:
        while self._activities:
            batch, self._activities = self._activities, {}
            write = asyncio.ensure_future(self._store_activities(batch))
            self._activity_batch = (batch, write)
            try:
                with logged_in_task(log, f"activities of {len(batch)} nodes not stored"):
                    await write
            finally:
                self._activity_batch = None

    @unit
    async def _store_activities(self, batch: dict[int, tuple[int | None, str, str]]) -> None:
        now = self._core.now()
        async with self._core.write(background=True) as conn:
            for node, (player_id, activity, token) in sorted(batch.items()):
                # Only the call's own row, as its log-in wrote it: never brought back once a
                # takeover removed it (a claim's fence, saves.py), nor taken from the next
                # call a BBS gave the node to.
                await conn.execute(update(NodeRow).where(
                    NodeRow.host == self._core.host, NodeRow.node == node,
                    NodeRow.token == token[:32]).values(
                    player_id=player_id, activity=clean_line(activity, self._core.limits.activity),
                    heartbeat=now, alive=now,
                    since=case((NodeRow.player_id == player_id, NodeRow.since), else_=now)))

    def touch(self, node: int) -> None:
        """The caller on this node pressed a key: their idle time starts again.

        Noted at once, written within ``touch_every_s`` seconds in one UPDATE for every
        node touched meanwhile: a thousand callers typing cost one write, not thousands."""
        if self._core.closed:
            return
        self._touched.add(node)
        if self._toucher is None or self._toucher.done():
            self._toucher = self._core.background(self._write_touches())

    async def _write_touches(self) -> None:
        await asyncio.sleep(self._touch_every)
        nodes, self._touched = self._touched, set()
        # Who's online is best effort: the visit never hears of a failure.
        with logged_in_task(log, f"heartbeats of {len(nodes)} nodes not stored"):
            async with self._core.write(background=True) as conn:
                await conn.execute(update(NodeRow).where(NodeRow.host == self._core.host,
                                                         NodeRow.node.in_(sorted(nodes)))
                                   .values(heartbeat=self._core.now()))

    @unit
    async def leave(self, node: int, token: str | None = None,
                    host: str | None = None) -> None:
        """Remove the node's row (only while ``token``'s call owns it, when given: a BBS may
        have given the node to someone else since), after any activity of it not written yet."""
        if host is None or host == self._core.host:
            pending = self._activities.get(node)
            if pending is not None and (token is None or pending[2][:32] == token[:32]):
                del self._activities[node]
            writing = self._activity_batch
            if writing is not None and node in writing[0]:
                await asyncio.wait([writing[1]])
        async with self._core.write() as conn:
            query = delete(NodeRow).where(NodeRow.host == (host or self._core.host),
                                          NodeRow.node == node)
            if token is not None:
                query = query.where(NodeRow.token == token[:32])
            await conn.execute(query)

    @unit
    async def forget_host(self) -> int:
        """Remove every row of this server (call at start: whatever it served before was
        ended by a crash); returns how many there were."""
        async with self._core.write() as conn:
            return (await conn.execute(delete(NodeRow).where(NodeRow.host == self._core.host))
                    ).rowcount

    @unit
    async def forget_server(self, server: str) -> int:
        """Remove every row of the server named ``server`` (machine:port) and of its workers
        (``machine:port/N``: door/serve/workers.py); returns how many there were."""
        async with self._core.write() as conn:
            return (await conn.execute(delete(NodeRow).where(or_(
                NodeRow.host == server[:64],
                NodeRow.host.startswith(worker_prefix(server), autoescape=True))))).rowcount

    @unit
    async def other_calls(self, player_id: int, token: str) -> list[OnlineNode]:
        """The player's other live calls (their process said so in the last
        :data:`ALIVE_WINDOW_S` seconds), on any door server sharing this database."""
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(NodeRow, PlayerRow.alias)
                .outerjoin(PlayerRow, PlayerRow.id == NodeRow.player_id)
                .where(NodeRow.player_id == player_id, NodeRow.token != token[:32],
                       NodeRow.alive >= self._core.now() - timedelta(seconds=ALIVE_WINDOW_S))
                .order_by(NodeRow.host, NodeRow.node))).all()
        return [online_of(r) for r in rows]

    @unit
    async def ask_to_hang_up(self, host: str, node: int, token: str) -> bool:
        """Tell the call ``token`` on ``host``/``node`` to save its game and hang up (it
        looks every :data:`door.serve.takeover.WATCH_S` seconds).  False when that call is gone."""
        async with self._core.write() as conn:
            done = await conn.execute(update(NodeRow).where(
                NodeRow.host == host, NodeRow.node == node, NodeRow.token == token[:32])
                .values(hangup=True))
        return done.rowcount > 0

    @unit
    async def hang_up_orders(self, calls: dict[int, str]) -> list[int]:
        """Of this server's live calls (node → token): say they are alive, and return the
        nodes to hang up: asked to by a later call of the same player, or whose row now
        belongs to another call (a BBS gave the node to a new caller while this process
        was left running).  One short write for all the calls."""
        if not calls:
            return []
        async with self._core.write(background=True) as conn:
            rows = (await conn.execute(
                select(NodeRow.node, NodeRow.token, NodeRow.hangup)
                .where(NodeRow.host == self._core.host, NodeRow.node.in_(sorted(calls))))).all()
            mine = [r.node for r in rows if r.token == calls[r.node][:32]]
            if mine:
                await conn.execute(update(NodeRow).where(NodeRow.host == self._core.host,
                                                         NodeRow.node.in_(mine))
                                   .values(alive=self._core.now()))
        return sorted(r.node for r in rows
                      if r.hangup or (r.token and r.token != calls[r.node][:32]))

    @unit
    async def nodes(self) -> list[OnlineNode]:
        """Nodes with a heartbeat in the last ``window_s`` seconds (a crashed server's nodes
        fade out by themselves), on every door server sharing this database."""
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(NodeRow, PlayerRow.alias)
                .outerjoin(PlayerRow, PlayerRow.id == NodeRow.player_id)
                .where(NodeRow.heartbeat >= self._core.now() - self._window)
                .order_by(NodeRow.host, NodeRow.node))).all()
        return [online_of(r) for r in rows]

    async def activity_by_source(self, since: datetime) -> dict[str, SourceActivity]:
        """Per ``players.source``: players, games ended since ``since``, callers online now
        (on every door server sharing the database), for ``reussite sysop boards``."""
        counts: dict[str, dict[str, int]] = {}
        async with self._core.read() as conn:
            for key, query in (
                ("players", select(PlayerRow.source, func.count())
                 .group_by(PlayerRow.source)),
                ("games", select(PlayerRow.source, func.count())
                 .join(GameRow, GameRow.player_id == PlayerRow.id)
                 .where(GameRow.ended >= since).group_by(PlayerRow.source)),
                ("online", select(PlayerRow.source, func.count())
                 .join(NodeRow, NodeRow.player_id == PlayerRow.id)
                 .where(NodeRow.heartbeat >= self._core.now() - self._window)
                 .group_by(PlayerRow.source)),
            ):
                for source, count in (await conn.execute(query)).all():
                    counts.setdefault(source, {})[key] = count
        return {source: SourceActivity(**values) for source, values in counts.items()}

