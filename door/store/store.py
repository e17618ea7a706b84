"""The store the session and the screens call: players, finished games and their hall of fame,
resume slots and named saves, messages, who is online, and the sysop's chores.

Every public method is one short unit of work on its own connection: nothing is held open
while a caller thinks, so one slow caller never blocks another writer.  Writes are atomic
SQL (``games_played = games_played + 1``, upserts) or lock the row they read first
(``FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already serialises writers), so
the same code is correct on both.  Any database failure comes out as
:class:`StoreUnavailable` with a plain reason, logged once for the sysop; nothing is
half-written because every unit is one transaction.

Two rules keep a busy server from wedging (bench/soak.py, docs/storage.md):

* a unit runs in a task of its own (:func:`unit`): a caller who hangs up mid-query cancels
  only their wait, never the query, so no connection is dropped half-used (a cancelled
  aiosqlite call leaked its connection, its thread and, mid-transaction, the write lock);
* on SQLite this process's writers queue on one lock before ``BEGIN IMMEDIATE``, so at most
  one connection waits on the database's own busy timeout, whatever the number of callers.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import errno
import functools
import logging
import os
import secrets
import socket
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from sqlalchemy import bindparam, case, delete, event, func, or_, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DisconnectionError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..games import GameRecord, IllegalMove, Status
from ..games import engine as game_engine
from ..private import PRIVATE_FILE, make_private_database, make_private_dir
from . import queries
from .engine import BUSY_TIMEOUT_S, READONLY, SAVES_POOL, make_engine, safe_url, sqlite_path
from .errors import (
    MessageRefused,
    RecordRejected,
    SaveRefused,
    StoreError,
    StoreUnavailable,
    UnknownPlayer,
)
from .migrate import current_revision, upgrade_async
from .models import GameRow, MessageRow, NamedSaveRow, NodeRow, PlayerRow, ResumeRow
from .text import clean_line, clean_text

if TYPE_CHECKING:
    from ..config import Settings

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

HALL_SIZE = 10
"""Places in a hall of fame: finish_game reports a rank only inside it."""
LOG_EVERY_S = 60.0
"""The same failure is logged at ERROR at most once in this many seconds."""

# -- what callers get back: plain frozen records, never live ORM objects ---------------------


@dataclass(frozen=True)
class Player:
    id: int
    source: str
    user_id: str
    alias: str
    charset: str | None = None
    color: bool | None = None
    rows: int | None = None
    expert: bool = False
    games_played: int = 0
    created: datetime | None = None
    last_seen: datetime | None = None
    watchable: bool = True
    """Other callers may watch this player's games (a Terminal Settings choice)."""


@dataclass(frozen=True)
class ScoreEntry:
    """One line of a hall of fame: the rank, who, the score, which deal, when."""

    rank: int
    game_id: int
    player_id: int
    alias: str
    score: int
    number: int
    status: str
    ended: datetime
    source: str = ""  # the player's: "direct", "bbs", "board:TAG"


@dataclass(frozen=True)
class SourceActivity:
    """For one ``players.source``: its players, their games since a time, who is on now."""

    players: int = 0
    games: int = 0
    online: int = 0


@dataclass(frozen=True)
class NamedSave:
    name: str
    saved: datetime


@dataclass(frozen=True)
class Message:
    id: int
    sender_id: int | None
    sender: str
    subject: str
    body: str
    sent: datetime
    read_at: datetime | None

    @property
    def unread(self) -> bool:
        return self.read_at is None


def worker_prefix(server: str) -> str:
    """How the who's-online hosts of a server's workers start (``machine:port/``, then the
    worker's number: door/workers.py); 64 characters at most in all."""
    return server[:60] + "/"


@dataclass(frozen=True)
class OnlineNode:
    host: str
    node: int
    player_id: int | None
    alias: str | None
    activity: str
    since: datetime
    heartbeat: datetime
    token: str = ""


@dataclass(frozen=True)
class SlotSave:
    """One owner's newest state of an unfinished game, for :meth:`Store.keep_resumes`."""

    player_id: int
    game: str
    owner: int
    version: int
    state: dict[str, Any]


@dataclass(frozen=True)
class Limits:
    """Caps on what one caller can put in the database."""

    alias: int = 40
    subject: int = 60
    body: int = 2000
    messages_per_hour: int = 10
    named_saves: int = 50
    save_name: int = 30
    inbox: int = 200
    activity: int = 40


PLAYER_SETTINGS = {"charset": (str, type(None)), "color": (bool, type(None)),
                   "rows": (int, type(None)), "expert": (bool,), "watchable": (bool,)}


def utc_now() -> datetime:
    return datetime.now(UTC)


def new_claim() -> int:
    """A fresh owner id for a resume slot or a who's-online row (62 random bits: never 0,
    the value of rows written before owners existed)."""
    return secrets.randbits(62) | 1


def unit(method: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Awaitable[R]]:
    """Run a store call in a task of its own, shielded from the caller's cancellation.

    A caller who hangs up (or a server shutting down) cancels only the wait: the query
    finishes, commits or rolls back, and gives its connection back to the pool.  The store
    keeps the task until then, so :meth:`Store.close` can wait for it."""
    @functools.wraps(method)
    async def shielded(*args: P.args, **kw: P.kwargs) -> R:
        store = args[0]
        task = asyncio.ensure_future(method(*args, **kw))
        store._units.add(task)  # type: ignore[attr-defined]
        task.add_done_callback(store._unit_done)  # type: ignore[attr-defined]
        return await asyncio.shield(task)
    return shielded


def verify_record(record: GameRecord, score: int, status: str) -> bool:
    """Replay ``record`` and check the claimed score and win; return the replay's cheater
    flag.  Raises :class:`RecordRejected` naming what disagrees."""
    where = f"{record.game} #{record.number}"
    try:
        replayed = game_engine(record.game).replay(record)
    except (IllegalMove, ValueError, TypeError, KeyError, IndexError) as exc:
        raise RecordRejected(f"the record of {where} does not replay: {exc}") from None
    if replayed.score != score:
        raise RecordRejected(f"the record of {where} replays to a score of {replayed.score}, "
                             f"not {score}")
    won = replayed.status == Status.WON
    if won != (status == Status.WON):
        raise RecordRejected(f"the record of {where} replays to a game "
                             f"{'won' if won else 'not won'}, but it was reported {status}")
    return bool(getattr(replayed, "cheater", False))


ALIVE_WINDOW_S = 15.0
"""A call whose process has not said "alive" for this long is taken for gone (three of
:data:`door.takeover.WATCH_S`: a crashed server's calls are not offered for takeover)."""
TOUCH_EVERY_S = 30.0
"""Keys refresh who's online this often at most (the Idle column is right to within it)."""


class Store:
    """The door's database.  Build with :meth:`from_settings`, call :meth:`start` once (it
    applies the migrations), :meth:`close` at the end."""

    def __init__(self, url: str, *, host: str | None = None, limits: Limits | None = None,
                 online_window_s: int = 600, busy_timeout: float = BUSY_TIMEOUT_S,
                 pooled: bool = True, clock: Callable[[], datetime] = utc_now,
                 touch_every_s: float = TOUCH_EVERY_S) -> None:
        self.url = url
        path = sqlite_path(url)
        if path:
            make_private_database(path)
        self.engine = make_engine(url, busy_timeout=busy_timeout, pooled=pooled)
        self._saves_engine = (make_engine(url, pooled=True, **SAVES_POOL)
                              if pooled and self.engine.dialect.name != "sqlite" else self.engine)
        """The game keeper's own connections on a database server: saves of games in
        progress never queue behind a crowd of logins (SQLite's writers queue on one lock
        anyway)."""
        self.host = (host or socket.gethostname())[:64]
        self.limits = limits or Limits()
        self.online_window = timedelta(seconds=online_window_s)
        self._clock = clock
        self._last_report: tuple[str, float] = ("", 0.0)
        self._touch_every = touch_every_s
        self._touched: set[int] = set()
        self._toucher: asyncio.Task | None = None
        self._closed = False
        self._units: set[asyncio.Future] = set()
        self._writers = asyncio.Lock() if self.dialect == "sqlite" else None
        self._epoch = 0
        """Bumped when the database file may have changed under us (read-only, replaced,
        damaged): pooled connections of an older epoch are closed at their next checkout."""
        _recycle_on_epoch(self)

    @classmethod
    def from_settings(cls, settings: Settings, **kw: Any) -> Store:
        kw.setdefault("online_window_s", settings.limits.idle_timeout + 120)
        kw.setdefault("limits", Limits(body=settings.limits.message_length,
                                       messages_per_hour=settings.limits.messages_per_hour))
        return cls(settings.database_url, **kw)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def describe(self) -> str:
        return safe_url(self.url)

    async def migrate(self) -> None:
        """Bring the schema to this version's head (a no-op when it is there)."""
        async with self._guard():
            await upgrade_async(self.engine)

    @unit
    async def revision(self) -> str | None:
        """The schema revision the database is at (None when empty)."""
        async with self._read() as conn:
            return await conn.run_sync(current_revision)

    async def start(self) -> bool:
        """Migrate at start-up.  On failure log it and carry on: the door still plays, and
        every store call says "scores are unavailable right now" until it is fixed."""
        try:
            await self.migrate()
        except StoreUnavailable:
            return False
        return True

    async def close(self, timeout: float = 5.0) -> None:
        """Finish the units under way (at most ``timeout`` seconds), then close every
        connection."""
        self._closed = True
        if self._toucher is not None:
            self._toucher.cancel()
        if self._units:
            await asyncio.wait(list(self._units), timeout=timeout)
        await self.engine.dispose()
        if self._saves_engine is not self.engine:
            await self._saves_engine.dispose()

    def _unit_done(self, task: asyncio.Future) -> None:
        self._units.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: its caller may have stopped waiting

    # -- units of work and failures ----------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _guard(self) -> AsyncIterator[None]:
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            if not _is_database_error(exc):
                raise
            unavailable = self._unavailable(exc)
            if unavailable.reason in FILE_TROUBLE:
                # Connections opened read-only, or on a file since replaced, would keep
                # failing after the sysop fixes things: each is closed at its next checkout.
                self._epoch += 1
            raise unavailable from None

    @contextlib.asynccontextmanager
    async def _write(self, engine: AsyncEngine | None = None) -> AsyncIterator[AsyncConnection]:
        """One short write transaction (BEGIN IMMEDIATE on SQLite), after this process's
        other writers."""
        turn = self._writers if self._writers is not None else contextlib.nullcontext()
        async with (turn, self._guard(), (engine or self.engine).connect() as conn,
                    _closed_on_failure(conn), conn.begin()):
            yield conn

    @contextlib.asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        """One short read-only transaction (a deferred BEGIN: never waits for a writer).  On
        a database server the reads run in autocommit: READ COMMITTED gives each statement
        its own snapshot either way, and BEGIN and COMMIT would be two more round trips,
        each waiting for a busy event loop while the connection is held."""
        async with self._guard(), self.engine.connect() as conn:
            options: dict[str, Any] = {READONLY: True}
            if self.dialect != "sqlite":
                options["isolation_level"] = "AUTOCOMMIT"
            await conn.execution_options(**options)
            async with _closed_on_failure(conn), conn.begin():
                yield conn

    def _unavailable(self, exc: BaseException) -> StoreUnavailable:
        """Log the cause for the sysop (once a minute per reason: a broken database must not
        flood the log with one line per caller action) and make the caller's error."""
        key = _reason_key(exc, sqlite_path(self.url))
        reason = REASONS[key]
        now = time.monotonic()
        repeat = self._last_report[0] == reason and now - self._last_report[1] < LOG_EVERY_S
        if not repeat:
            self._last_report = (reason, now)
        log.log(logging.DEBUG if repeat else logging.ERROR, "database %s: %s (%s: %s)",
                self.describe(), reason, type(_root(exc)).__name__, _root(exc))
        return StoreUnavailable(f"scores are unavailable right now: {reason}", reason=key)

    def _insert(self, conn: AsyncConnection, table: Any) -> Any:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        return dialect.insert(table)

    def _now(self) -> datetime:
        return self._clock()

    # -- players ------------------------------------------------------------------------------
    @unit
    async def player(self, source: str, user_id: str, alias: str) -> Player:
        """The player known to ``source`` (a BBS's name, or ``"direct"``) as ``user_id``,
        created on first call; the alias is refreshed from what the BBS says today."""
        source = clean_line(source, 40) or "direct"
        user_id = clean_line(str(user_id), 64)
        alias = clean_line(alias, self.limits.alias)
        if not user_id or not alias:
            raise UnknownPlayer("a player needs a user id and an alias")
        now = self._now()
        async with self._write() as conn:
            ins = self._insert(conn, PlayerRow).values(
                source=source, user_id=user_id, alias=alias, alias_key=alias.lower(),
                created=now, last_seen=now)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=["source", "user_id"],
                set_={"alias": alias, "alias_key": alias.lower(), "last_seen": now}))
            row = (await conn.execute(select(PlayerRow).where(
                PlayerRow.source == source, PlayerRow.user_id == user_id))).one()
        return _player(row)

    @unit
    async def player_by_id(self, player_id: int) -> Player | None:
        async with self._read() as conn:
            row = (await conn.execute(select(PlayerRow).where(PlayerRow.id == player_id))).first()
        return _player(row) if row else None

    @unit
    async def update_player_settings(self, player_id: int, **changes: Any) -> None:
        """Per-player settings: ``charset``, ``color``, ``rows``, ``expert``, ``watchable``."""
        for key, value in changes.items():
            if key not in PLAYER_SETTINGS or not isinstance(value, PLAYER_SETTINGS[key]):
                raise ValueError(f"not a player setting: {key}={value!r}")
        if not changes:
            return
        async with self._write() as conn:
            await conn.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                               .values(**changes))

    @unit
    async def find_players(self, name: str) -> list[Player]:
        """Players whose alias is ``name`` whatever the case (several BBSes may share one)."""
        key = clean_line(name, self.limits.alias).lower()
        async with self._read() as conn:
            rows = (await conn.execute(select(PlayerRow).where(PlayerRow.alias_key == key)
                                       .order_by(PlayerRow.id))).all()
        return [_player(r) for r in rows]

    @unit
    async def players(self) -> list[Player]:
        async with self._read() as conn:
            rows = (await conn.execute(select(PlayerRow)
                                       .order_by(PlayerRow.alias_key, PlayerRow.id))).all()
        return [_player(r) for r in rows]

    @unit
    async def delete_player(self, player_id: int) -> bool:
        """Remove a player with their games, saves, resume slots and received messages;
        messages they sent keep their signature."""
        async with self._write() as conn:
            # Explicit deletes: correct even where the foreign keys' ON DELETE is not enforced.
            for table in (GameRow, ResumeRow, NamedSaveRow, NodeRow):
                await conn.execute(delete(table).where(table.player_id == player_id))
            await conn.execute(delete(MessageRow).where(MessageRow.recipient_id == player_id))
            await conn.execute(update(MessageRow).where(MessageRow.sender_id == player_id)
                               .values(sender_id=None))
            result = await conn.execute(delete(PlayerRow).where(PlayerRow.id == player_id))
        return result.rowcount > 0

    # -- finished games and the hall of fame -------------------------------------------------
    @unit
    async def finish_game(self, player_id: int, record: GameRecord, score: int, status: str,
                          cheater: bool, started: datetime, ended: datetime,
                          resume_owner: int | None = None) -> int | None:
        """Store a finished game, after replaying its record to check the score.  Returns the
        rank it earned in its game's hall of fame (1–10), or None if it did not place.
        ``resume_owner``: the game's resume slot is emptied in the same transaction, if
        that owner still holds it."""
        status = str(status)
        replay_cheater = await asyncio.to_thread(verify_record, record, score, status)
        cheater = bool(cheater) or replay_cheater
        hof = queries.counts_for_hall(record.game, status, cheater)
        key = queries.rank_key(record.game, score)
        async with self._write() as conn:
            bumped = await conn.execute(
                update(PlayerRow).where(PlayerRow.id == player_id)
                .values(games_played=PlayerRow.games_played + 1, last_seen=self._now()))
            if bumped.rowcount != 1:
                raise UnknownPlayer(f"no player #{player_id}")
            game_id = (await conn.execute(
                self._insert(conn, GameRow).values(
                    player_id=player_id, game=record.game, number=record.number,
                    options=dict(record.options), moves=list(record.actions), score=score,
                    status=status[:16], cheater=cheater, hof=hof, rank_key=key,
                    started=started, ended=ended,
                    duration_s=max(0, int((ended - started).total_seconds())))
                .returning(GameRow.id))).scalar_one()
            if resume_owner is not None:
                await self._clear_slot(conn, player_id, record.game, resume_owner)
            if not hof:
                return None
            ahead = (await conn.execute(queries.count_above(
                queries.hall_filter(record.game), key, ended, game_id,
                cap=HALL_SIZE))).scalar_one()
        return ahead + 1 if ahead < HALL_SIZE else None

    async def top(self, game: str, limit: int = 10, source: str | None = None
                  ) -> list[ScoreEntry]:
        """The hall of fame of ``game``: best first, ties to the earlier game; only the
        players of ``source`` (a member board's, say) when given, ranked among themselves."""
        if source is None:
            return await self._board(queries.hall_filter(game), limit)
        return await self._board(queries.hall_filter(game, PlayerRow.source == source), limit)

    async def number_board(self, game: str, number: int, limit: int = 10) -> list[ScoreEntry]:
        """The best games on one deal ("best on Anciento #505")."""
        return await self._board(queries.hall_filter(game, GameRow.number == number), limit)

    @unit
    async def player_best(self, game: str, player_id: int) -> ScoreEntry | None:
        """The player's best game of ``game`` and its rank in the whole hall of fame."""
        async with self._read() as conn:
            best = (await conn.execute(queries.board(
                queries.hall_filter(game, GameRow.player_id == player_id), 1))).first()
            if best is None:
                return None
            ahead = (await conn.execute(queries.count_above(
                queries.hall_filter(game), best.rank_key, best.ended, best.id))).scalar_one()
        return _entry(ahead + 1, best)

    @unit
    async def _board(self, where: Any, limit: int) -> list[ScoreEntry]:
        async with self._read() as conn:
            rows = (await conn.execute(queries.board(where, max(0, limit)))).all()
        return [_entry(rank, row) for rank, row in enumerate(rows, 1)]

    @unit
    async def game_record(self, game_id: int) -> GameRecord | None:
        async with self._read() as conn:
            row = (await conn.execute(select(GameRow).where(GameRow.id == game_id))).first()
        if row is None:
            return None
        return GameRecord(row.game, row.number, dict(row.options), list(row.moves))

    @unit
    async def reset_scores(self, game: str) -> int:
        """Forget every finished game of ``game`` (the sysop's fresh start)."""
        async with self._write() as conn:
            result = await conn.execute(delete(GameRow).where(GameRow.game == game))
        return result.rowcount

    async def game_rows(self, batch: int = 5000) -> AsyncIterator[dict[str, Any]]:
        """Every stored game with its player's alias, oldest first, read in short batches."""
        last = 0
        while True:
            async with self._read() as conn:
                rows = (await conn.execute(
                    select(GameRow, PlayerRow.alias, PlayerRow.source)
                    .join(PlayerRow, PlayerRow.id == GameRow.player_id)
                    .where(GameRow.id > last).order_by(GameRow.id).limit(batch))).all()
            for row in rows:
                yield dict(row._mapping)
            if len(rows) < batch:
                return
            last = rows[-1].id

    # -- resume slots ------------------------------------------------------------------------
    # One slot per player and game holds the unfinished game.  A visit that starts or
    # resumes a game *claims* the slot with a new owner id; its saves are written only
    # while the slot is still its own and only when newer than the slot's version, so a
    # forgotten process (a hang-up the BBS never noticed) cannot overwrite a newer game.

    @unit
    async def claim_resume(self, player_id: int, game: str, state: dict[str, Any],
                           version: int = 0) -> int:
        """Make ``state`` the slot's game, owned from now on by the returned owner id."""
        owner, now = new_claim(), self._now()
        async with self._write() as conn:
            ins = self._insert(conn, ResumeRow).values(
                player_id=player_id, game=game, state=state, saved=now, owner=owner,
                version=version)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=["player_id", "game"],
                set_={"state": state, "saved": now, "owner": owner, "version": version}))
        return owner

    @unit
    async def keep_resumes(self, saves: list[SlotSave]) -> list[SlotSave]:
        """Write many owners' newest states in one transaction; return the saves refused
        because their slot has another owner now (or is gone: the game finished).

        Two statements whatever the batch's size (one executemany, one read-back): on a busy
        server each round trip waits for the event loop, and the connection is held until
        the last one."""
        if not saves:
            return []
        now = self._now()
        slots = ResumeRow.__table__
        write = (update(slots)
                 .where(slots.c.player_id == bindparam("b_player"),
                        slots.c.game == bindparam("b_game"),
                        slots.c.owner == bindparam("b_owner"),
                        slots.c.version < bindparam("b_version"))
                 .values(state=bindparam("b_state"), saved=now, version=bindparam("b_version")))
        async with self._write(self._saves_engine) as conn:
            await conn.execute(write, [
                {"b_player": s.player_id, "b_game": s.game, "b_owner": s.owner,
                 "b_version": s.version, "b_state": s.state} for s in saves])
            owners = {(row.player_id, row.game): row.owner for row in await conn.execute(
                select(slots.c.player_id, slots.c.game, slots.c.owner).where(
                    tuple_(slots.c.player_id, slots.c.game).in_(
                        sorted({(s.player_id, s.game) for s in saves}))))}
        # A slot still this save's owner's holds it (or a newer state of it): kept.
        return [s for s in saves if owners.get((s.player_id, s.game)) != s.owner]

    @unit
    async def load_resume(self, player_id: int, game: str) -> dict[str, Any] | None:
        async with self._read() as conn:
            return (await conn.execute(select(ResumeRow.state).where(
                ResumeRow.player_id == player_id, ResumeRow.game == game))).scalar()

    @unit
    async def clear_resume(self, player_id: int, game: str, owner: int | None = None) -> bool:
        """Empty the slot (only if ``owner`` still holds it, when given)."""
        async with self._write() as conn:
            return await self._clear_slot(conn, player_id, game, owner)

    async def _clear_slot(self, conn: AsyncConnection, player_id: int, game: str,
                          owner: int | None) -> bool:
        query = delete(ResumeRow).where(ResumeRow.player_id == player_id, ResumeRow.game == game)
        if owner is not None:
            query = query.where(ResumeRow.owner == owner)
        return (await conn.execute(query)).rowcount > 0

    @unit
    async def resumable(self, player_id: int) -> list[str]:
        """Games with a resume slot, most recently saved first."""
        async with self._read() as conn:
            return list((await conn.execute(
                select(ResumeRow.game).where(ResumeRow.player_id == player_id)
                .order_by(ResumeRow.saved.desc(), ResumeRow.game))).scalars())

    # -- named saves -------------------------------------------------------------------------
    @unit
    async def save_named(self, player_id: int, game: str, name: str,
                         state: dict[str, Any]) -> str:
        """Save under ``name`` (replacing a save of the same name, whatever its case); return
        the name as stored.  SaveRefused for an empty name or one save too many."""
        name = clean_line(name, self.limits.save_name)
        if not name:
            raise SaveRefused("a save needs a name")
        now = self._now()
        async with self._write() as conn:
            # Lock the player row: two concurrent saves cannot both squeeze under the cap.
            # FOR NO KEY UPDATE, not FOR UPDATE: it does not block the KEY SHARE lock that
            # another transaction's foreign-key check takes (which would risk deadlocks).
            await conn.execute(select(PlayerRow.id).where(PlayerRow.id == player_id)
                               .with_for_update(key_share=True))
            others = (await conn.execute(select(func.count()).where(
                NamedSaveRow.player_id == player_id, NamedSaveRow.game == game,
                NamedSaveRow.name_key != name.lower()))).scalar_one()
            if others >= self.limits.named_saves:
                raise SaveRefused(f"you have {others} saved games already: delete one first")
            ins = self._insert(conn, NamedSaveRow).values(
                player_id=player_id, game=game, name=name, name_key=name.lower(),
                state=state, saved=now)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=["player_id", "game", "name_key"],
                set_={"name": name, "state": state, "saved": now}))
        return name

    @unit
    async def list_named(self, player_id: int, game: str) -> list[NamedSave]:
        async with self._read() as conn:
            rows = (await conn.execute(
                select(NamedSaveRow.name, NamedSaveRow.saved)
                .where(NamedSaveRow.player_id == player_id, NamedSaveRow.game == game)
                .order_by(NamedSaveRow.saved.desc(), NamedSaveRow.name_key))).all()
        return [NamedSave(r.name, r.saved) for r in rows]

    @unit
    async def load_named(self, player_id: int, game: str, name: str) -> dict[str, Any] | None:
        async with self._read() as conn:
            return (await conn.execute(select(NamedSaveRow.state).where(
                *self._save_key(player_id, game, name)))).scalar()

    @unit
    async def delete_named(self, player_id: int, game: str, name: str) -> bool:
        async with self._write() as conn:
            result = await conn.execute(delete(NamedSaveRow).where(
                *self._save_key(player_id, game, name)))
        return result.rowcount > 0

    def _save_key(self, player_id: int, game: str, name: str) -> tuple[Any, ...]:
        key = clean_line(name, self.limits.save_name).lower()
        return (NamedSaveRow.player_id == player_id, NamedSaveRow.game == game,
                NamedSaveRow.name_key == key)

    # -- messages -----------------------------------------------------------------------------
    @unit
    async def send_message(self, from_id: int, to_name: str, subject: str, body: str) -> int:
        """Send a message to the player called ``to_name`` (any case; ``alias@source`` picks
        one of several players of that name).  Control and escape sequences are stripped
        first.  Raises UnknownPlayer (with near names) or MessageRefused (a limit, or a
        message to oneself)."""
        subject = clean_line(subject, 10 * self.limits.subject) or "(no subject)"
        body = clean_text(body, 10 * self.limits.body)
        if not body.strip():
            raise MessageRefused("the message is empty")
        if len(subject) > self.limits.subject:
            raise MessageRefused(f"the subject is {len(subject)} characters long; "
                                 f"the most is {self.limits.subject}")
        if len(body) > self.limits.body:
            raise MessageRefused(f"the message is {len(body)} characters long; "
                                 f"the most is {self.limits.body}")
        now = self._now()
        async with self._write() as conn:
            # Lock the sender (NO KEY: see save_named) so the hourly count is exact.
            sender = (await conn.execute(select(PlayerRow.alias).where(PlayerRow.id == from_id)
                                         .with_for_update(key_share=True))).scalar()
            if sender is None:
                raise UnknownPlayer(f"no player #{from_id}")
            recipient = await self._recipient(conn, to_name)
            if recipient == from_id:
                raise MessageRefused("a message to yourself stays unsent: write to another "
                                     "player")
            recent = (await conn.execute(select(func.count()).where(
                MessageRow.sender_id == from_id,
                MessageRow.sent > now - timedelta(hours=1)))).scalar_one()
            if recent >= self.limits.messages_per_hour:
                raise MessageRefused(f"you have sent {recent} messages in the last hour, the "
                                     "most allowed: please try again later")
            return (await conn.execute(
                self._insert(conn, MessageRow).values(
                    sender_id=from_id, sender_name=sender, recipient_id=recipient,
                    subject=subject, body=body, sent=now, read_at=None)
                .returning(MessageRow.id))).scalar_one()

    @unit
    async def recipient(self, to_name: str) -> int:
        """The id of the one player a message to ``to_name`` would reach; UnknownPlayer
        (with near names) otherwise.  Lets the UI check the name before the text is typed."""
        async with self._read() as conn:
            return await self._recipient(conn, to_name)

    async def _recipient(self, conn: AsyncConnection, to_name: str) -> int:
        name = clean_line(to_name, 2 * self.limits.alias + 1)
        if not name:
            raise UnknownPlayer("whom to? type a player's name")
        rows = (await conn.execute(select(PlayerRow.id, PlayerRow.alias, PlayerRow.source)
                                   .where(PlayerRow.alias_key == name.lower()))).all()
        if not rows and "@" in name:
            alias, source = name.rsplit("@", 1)
            rows = (await conn.execute(select(PlayerRow.id, PlayerRow.alias, PlayerRow.source)
                                       .where(PlayerRow.alias_key == alias.strip().lower(),
                                              func.lower(PlayerRow.source)
                                              == source.strip().lower()))).all()
        if len(rows) == 1:
            return rows[0].id
        if rows:
            names = [f"{r.alias}@{r.source}" for r in rows]
            raise UnknownPlayer(f"several players are called {name}: write to one of "
                                f"{', '.join(names)}", names)
        near = await self._near_names(conn, name)
        hint = f"; did you mean {' or '.join(near)}?" if near else ""
        raise UnknownPlayer(f"no player called {name}{hint}", near)

    async def _near_names(self, conn: AsyncConnection, name: str) -> list[str]:
        aliases = (await conn.execute(select(PlayerRow.alias)
                                      .order_by(PlayerRow.last_seen.desc())
                                      .limit(5000))).scalars().all()
        by_key = {a.lower(): a for a in reversed(aliases)}
        key = name.lower()
        close = difflib.get_close_matches(key, by_key, n=3, cutoff=0.6)
        starts = [k for k in by_key if k.startswith(key) and k not in close][:3 - len(close)]
        return [by_key[k] for k in (*close, *starts)]

    @unit
    async def inbox(self, player_id: int, unread_only: bool = False) -> list[Message]:
        """The player's messages, newest first."""
        query = select(MessageRow).where(MessageRow.recipient_id == player_id)
        if unread_only:
            query = query.where(MessageRow.read_at.is_(None))
        async with self._read() as conn:
            rows = (await conn.execute(query.order_by(MessageRow.sent.desc(),
                                                      MessageRow.id.desc())
                                       .limit(self.limits.inbox))).all()
        return [Message(r.id, r.sender_id, r.sender_name, r.subject, r.body, r.sent, r.read_at)
                for r in rows]

    @unit
    async def mark_read(self, player_id: int, message_id: int) -> bool:
        async with self._write() as conn:
            result = await conn.execute(
                update(MessageRow).where(MessageRow.id == message_id,
                                         MessageRow.recipient_id == player_id,
                                         MessageRow.read_at.is_(None))
                .values(read_at=self._now()))
        return result.rowcount > 0

    @unit
    async def delete_message(self, player_id: int, message_id: int) -> bool:
        """Delete one of the player's own received messages."""
        async with self._write() as conn:
            result = await conn.execute(delete(MessageRow).where(
                MessageRow.id == message_id, MessageRow.recipient_id == player_id))
        return result.rowcount > 0

    @unit
    async def unread_count(self, player_id: int) -> int:
        async with self._read() as conn:
            return (await conn.execute(select(func.count()).where(
                MessageRow.recipient_id == player_id,
                MessageRow.read_at.is_(None)))).scalar_one()

    @unit
    async def purge_messages(self, older_than: timedelta) -> int:
        async with self._write() as conn:
            result = await conn.execute(delete(MessageRow).where(
                MessageRow.sent < self._now() - older_than))
        return result.rowcount

    # -- who is online ------------------------------------------------------------------------
    @unit
    async def node_heartbeat(self, node: int, player_id: int | None, activity: str,
                             token: str = "") -> None:
        """This node is busy with ``player_id`` doing ``activity`` (call on each screen);
        ``token`` names the call (a new token takes the row over, with no hang-up order)."""
        activity = clean_line(activity, self.limits.activity)
        token = token[:32]
        now = self._now()
        async with self._write() as conn:
            ins = self._insert(conn, NodeRow).values(host=self.host, node=node,
                                                     player_id=player_id, activity=activity,
                                                     since=now, heartbeat=now, token=token,
                                                     hangup=False, alive=now)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=["host", "node"],
                set_={"player_id": player_id, "activity": activity, "heartbeat": now,
                      "token": token, "alive": now,
                      "hangup": case((NodeRow.token == ins.excluded.token, NodeRow.hangup),
                                     else_=False),
                      "since": case((NodeRow.player_id == ins.excluded.player_id,
                                     NodeRow.since), else_=now)}))

    def node_touch(self, node: int) -> None:
        """The caller on this node pressed a key: their idle time starts again.

        Noted at once, written within ``touch_every_s`` seconds in one UPDATE for every
        node touched meanwhile: a thousand callers typing cost one write, not thousands."""
        if self._closed:
            return
        self._touched.add(node)
        if self._toucher is None or self._toucher.done():
            self._toucher = asyncio.get_running_loop().create_task(self._write_touches())

    async def _write_touches(self) -> None:
        await asyncio.sleep(self._touch_every)
        nodes, self._touched = self._touched, set()
        try:
            async with self._write() as conn:
                await conn.execute(update(NodeRow).where(NodeRow.host == self.host,
                                                         NodeRow.node.in_(sorted(nodes)))
                                   .values(heartbeat=self._now()))
        except StoreError as exc:  # who's online is best effort: the visit never hears of it
            log.debug("heartbeats of %d nodes not stored: %s", len(nodes), exc)
        except Exception:  # a task of its own: nobody else would see this
            log.warning("heartbeats of %d nodes not stored", len(nodes), exc_info=True)

    @unit
    async def node_leave(self, node: int, token: str | None = None,
                         host: str | None = None) -> None:
        """Remove the node's row (only while ``token``'s call owns it, when given: a BBS may
        have given the node to someone else since)."""
        async with self._write() as conn:
            query = delete(NodeRow).where(NodeRow.host == (host or self.host),
                                          NodeRow.node == node)
            if token is not None:
                query = query.where(NodeRow.token == token[:32])
            await conn.execute(query)

    @unit
    async def forget_host(self) -> int:
        """Remove every row of this server (call at start: whatever it served before was
        ended by a crash); returns how many there were."""
        async with self._write() as conn:
            return (await conn.execute(delete(NodeRow).where(NodeRow.host == self.host))
                    ).rowcount

    @unit
    async def forget_server(self, server: str) -> int:
        """Remove every row of the server named ``server`` (machine:port) and of its workers
        (``machine:port/N``: door/workers.py); returns how many there were."""
        async with self._write() as conn:
            return (await conn.execute(delete(NodeRow).where(or_(
                NodeRow.host == server[:64],
                NodeRow.host.startswith(worker_prefix(server), autoescape=True))))).rowcount

    @unit
    async def other_calls(self, player_id: int, token: str) -> list[OnlineNode]:
        """The player's other live calls (their process said so in the last
        :data:`ALIVE_WINDOW_S` seconds), on any door server sharing this database."""
        async with self._read() as conn:
            rows = (await conn.execute(
                select(NodeRow, PlayerRow.alias)
                .outerjoin(PlayerRow, PlayerRow.id == NodeRow.player_id)
                .where(NodeRow.player_id == player_id, NodeRow.token != token[:32],
                       NodeRow.alive >= self._now() - timedelta(seconds=ALIVE_WINDOW_S))
                .order_by(NodeRow.host, NodeRow.node))).all()
        return [_online(r) for r in rows]

    @unit
    async def ask_to_hang_up(self, host: str, node: int, token: str) -> bool:
        """Tell the call ``token`` on ``host``/``node`` to save its game and hang up (it
        looks every :data:`door.takeover.WATCH_S` seconds).  False when that call is gone."""
        async with self._write() as conn:
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
        async with self._write() as conn:
            rows = (await conn.execute(
                select(NodeRow.node, NodeRow.token, NodeRow.hangup)
                .where(NodeRow.host == self.host, NodeRow.node.in_(sorted(calls))))).all()
            mine = [r.node for r in rows if r.token == calls[r.node][:32]]
            if mine:
                await conn.execute(update(NodeRow).where(NodeRow.host == self.host,
                                                         NodeRow.node.in_(mine))
                                   .values(alive=self._now()))
        return sorted(r.node for r in rows
                      if r.hangup or (r.token and r.token != calls[r.node][:32]))

    @unit
    async def online(self) -> list[OnlineNode]:
        """Nodes with a heartbeat in the last ``online_window`` (a crashed server's nodes
        fade out by themselves), on every door server sharing this database."""
        async with self._read() as conn:
            rows = (await conn.execute(
                select(NodeRow, PlayerRow.alias)
                .outerjoin(PlayerRow, PlayerRow.id == NodeRow.player_id)
                .where(NodeRow.heartbeat >= self._now() - self.online_window)
                .order_by(NodeRow.host, NodeRow.node))).all()
        return [_online(r) for r in rows]

    async def activity_by_source(self, since: datetime) -> dict[str, SourceActivity]:
        """Per ``players.source``: players, games ended since ``since``, callers online now
        (on every door server sharing the database), for ``reussite sysop boards``."""
        counts: dict[str, dict[str, int]] = {}
        async with self._read() as conn:
            for key, query in (
                ("players", select(PlayerRow.source, func.count())
                 .group_by(PlayerRow.source)),
                ("games", select(PlayerRow.source, func.count())
                 .join(GameRow, GameRow.player_id == PlayerRow.id)
                 .where(GameRow.ended >= since).group_by(PlayerRow.source)),
                ("online", select(PlayerRow.source, func.count())
                 .join(NodeRow, NodeRow.player_id == PlayerRow.id)
                 .where(NodeRow.heartbeat >= self._now() - self.online_window)
                 .group_by(PlayerRow.source)),
            ):
                for source, count in (await conn.execute(query)).all():
                    counts.setdefault(source, {})[key] = count
        return {source: SourceActivity(**values) for source, values in counts.items()}

    # -- backups ------------------------------------------------------------------------------
    @unit
    async def backup(self, folder: Path) -> Path:
        """A consistent copy of the database in ``folder``: ``VACUUM INTO`` for SQLite (safe
        while callers play), ``pg_dump`` for PostgreSQL.  StoreUnavailable if it fails."""
        make_private_dir(folder)
        stamp = self._now().strftime("%Y%m%d-%H%M%S-%f")
        path = sqlite_path(self.url)
        if path is not None:
            target = folder / f"reussite-{stamp}.db"
            make_private_database(str(target))  # VACUUM INTO fills an empty file
            try:
                await asyncio.to_thread(_sqlite_backup, path, target)
            except sqlite3.Error as exc:
                raise self._unavailable(exc) from None
            return target
        if self.dialect != "postgresql":
            raise StoreUnavailable(f"no backup method for {self.dialect}")
        target = folder / f"reussite-{stamp}.sql"
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
        await _pg_dump(self.engine.url, target)
        return target


# -- helpers -------------------------------------------------------------------------------------

def _player(row: Any) -> Player:
    return Player(row.id, row.source, row.user_id, row.alias, row.charset, row.color, row.rows,
                  bool(row.expert), row.games_played, row.created, row.last_seen,
                  bool(row.watchable))


def _online(row: Any) -> OnlineNode:
    return OnlineNode(row.host, row.node, row.player_id, row.alias, row.activity, row.since,
                      row.heartbeat, row.token)


def _entry(rank: int, row: Any) -> ScoreEntry:
    return ScoreEntry(rank, row.id, row.player_id, row.alias, row.score, row.number, row.status,
                      row.ended, row.source)


def _sqlite_backup(source: str, target: Path) -> None:
    conn = sqlite3.connect(source, timeout=BUSY_TIMEOUT_S)
    try:
        conn.execute("VACUUM INTO ?", (str(target),))
    finally:
        conn.close()


async def _pg_dump(url: Any, target: Path) -> None:
    import shutil

    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise StoreUnavailable("pg_dump is not installed: install the PostgreSQL client "
                               "(apt-get install postgresql-client) to back up")
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = url.password
    args = [pg_dump, "--no-owner", "--file", str(target), "--dbname", url.database or ""]
    host = url.host or url.query.get("host")
    if host:
        args += ["--host", str(host)]
    port = url.port or url.query.get("port")  # asyncpg takes ?host=/socket/dir&port=N
    if port:
        args += ["--port", str(port)]
    if url.username:
        args += ["--username", url.username]
    proc = await asyncio.create_subprocess_exec(*args, env=env,
                                                stderr=asyncio.subprocess.PIPE)
    _, err = await proc.communicate()
    if proc.returncode != 0:
        raise StoreUnavailable(f"pg_dump failed: {err.decode(errors='replace').strip()}")


def _root(exc: BaseException) -> BaseException:
    return getattr(exc, "orig", None) or exc


def _is_database_error(exc: BaseException) -> bool:
    if isinstance(exc, SQLAlchemyError | OSError | TimeoutError | sqlite3.Error):
        return True
    return type(exc).__module__.split(".")[0] in ("asyncpg", "aiosqlite", "psycopg")


REASONS = {
    "readonly": "the database is read-only",
    "cannot_open": "the database file cannot be opened (check the data folder exists and is "
                   "writable)",
    "full": "no space left on device",
    "damaged": "the database file is damaged",
    "busy": "the database stayed busy too long",
    "unreachable": "the database server cannot be reached",
    "denied": "the database refuses access",
    "other": "the database reported an error",
}
FILE_TROUBLE = frozenset({"readonly", "cannot_open", "damaged"})
"""Reasons after which pooled connections are not trusted any more."""

_SQLITE_CODES = {8: "readonly", 14: "cannot_open", 13: "full", 11: "damaged", 26: "damaged",
                 5: "busy", 6: "busy", 23: "denied"}
_NEEDLES = (
    (("readonly", "read-only", "read only"), "readonly"),
    (("unable to open database file",), "cannot_open"),
    (("disk is full", "no space left", "disk full", "diskfull"), "full"),
    (("not a database", "malformed", "corrupt", "disk i/o error"), "damaged"),
    (("locked", "busy"), "busy"),
    (("connect", "connection", "refused", "name or service"), "unreachable"),
    (("permission denied",), "denied"),
)
LOW_SPACE = 1024 * 1024
"""Free bytes under which an I/O error on the database's disk is taken for a full disk."""


def _reason_key(exc: BaseException, path: str | None = None) -> str:
    """Which of :data:`REASONS` explains ``exc``.  An I/O error on a disk with (almost) no
    space left is a full disk, not a damaged file: SQLite reports ENOSPC on its WAL or
    shared-memory file as a plain "disk I/O error"."""
    root = _root(exc)
    if isinstance(exc, PoolTimeout) or isinstance(root, PoolTimeout):
        return "busy"  # every pooled connection in use: the server is reachable, just busy
    if isinstance(root, ConnectionError):
        return "unreachable"
    if isinstance(root, OSError) and root.errno in (errno.ENOSPC, errno.EDQUOT):
        return "full"
    code = getattr(root, "sqlite_errorcode", None)
    key = _SQLITE_CODES.get(code & 0xFF) if isinstance(code, int) else None
    if key is None:
        text = f"{exc} {root} {type(root).__name__}".lower()
        key = next((k for needles, k in _NEEDLES if any(n in text for n in needles)), "other")
    if key in ("damaged", "other", "cannot_open") and path and _disk_is_full(path):
        return "full"
    return key


def _disk_is_full(path: str) -> bool:
    try:
        found = os.statvfs(Path(path).parent)
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < LOW_SPACE


@contextlib.asynccontextmanager
async def _closed_on_failure(conn: AsyncConnection) -> AsyncIterator[None]:
    """A connection that failed for another reason than a busy database is closed, not put
    back in the pool: its state (a half-done transaction, a file handle to a full or
    replaced file) is not worth trusting."""
    try:
        yield
    except Exception as exc:
        if _is_database_error(exc) and _reason_key(exc) != "busy" and not conn.invalidated:
            with contextlib.suppress(Exception):
                await conn.invalidate()
        raise


def _recycle_on_epoch(store: Store) -> None:
    """Pooled connections opened before the store's last file trouble are closed at their
    next checkout and replaced (SQLAlchemy's documented "pessimistic" recycling)."""
    pool_events = store.engine.sync_engine

    @event.listens_for(pool_events, "connect")
    def _stamp(_dbapi_conn: Any, record: Any) -> None:
        record.info["epoch"] = store._epoch

    @event.listens_for(pool_events, "checkout")
    def _check(_dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        if record.info.get("epoch", store._epoch) != store._epoch:
            raise DisconnectionError("opened before the database file was fixed")


__all__ = ["HALL_SIZE", "Limits", "Message", "NamedSave", "OnlineNode", "Player", "ScoreEntry",
           "SourceActivity", "Store", "verify_record"]
