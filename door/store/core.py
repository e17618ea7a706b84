"""The store's core, shared by every repository: engines, units of work, failures.

Every public store method is one short unit of work on its own connection: nothing is held
open while a caller thinks, so one slow caller never blocks another writer.  Writes are
atomic SQL (``games_played = games_played + 1``, upserts) or lock the row they read first
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
import functools
import logging
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from datetime import UTC, datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..logs.private import make_private_database
from .engine import BUSY_TIMEOUT_S, READONLY, SAVES_POOL, make_engine, safe_url, sqlite_path
from .errors import StoreError, StoreUnavailable
from .failures import FILE_TROUBLE, REASONS, closed_on_failure, is_database_error, reason_key
from .failures import root_cause as _root
from .migrate import current_revision, upgrade_async
from .records import Limits
from .turns import WriterTurns

log = logging.getLogger("door.store.store")
"""The store's one log (its name from when the store was one module: sysops' logging
settings and tests/store/test_store_failures.py filter on it)."""

P = ParamSpec("P")
R = TypeVar("R")
Repo = TypeVar("Repo", bound="Repository")

LOG_EVERY_S = 60.0
"""The same failure is logged at ERROR at most once in this many seconds."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def unit(method: Callable[Concatenate[Repo, P], Coroutine[Any, Any, R]]
         ) -> Callable[Concatenate[Repo, P], Awaitable[R]]:
    """Run a repository's call in a task of its own, shielded from the caller's cancellation
    (:meth:`Database.shielded`)."""
    @functools.wraps(method)
    async def shielded(repo: Repo, /, *args: P.args, **kw: P.kwargs) -> R:
        return await repo._core.shielded(method(repo, *args, **kw))
    return shielded


class Repository:
    """One concern's calls (players.py, scores.py, …), all on the one :class:`Database` the
    store hands each repository at construction."""

    def __init__(self, core: Database) -> None:
        self._core = core


class Database:
    """Engines, units of work and failure reports: the core every repository (players.py,
    scores.py, saves.py, messages.py, online.py, …) runs its calls on.  The door holds them
    together as :class:`door.store.Store`."""

    def __init__(self, url: str, *, host: str | None = None, limits: Limits | None = None,
                 busy_timeout: float = BUSY_TIMEOUT_S, pooled: bool = True,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.url = url
        path = sqlite_path(url)
        if path:
            make_private_database(path)
        self.engine = make_engine(url, busy_timeout=busy_timeout, pooled=pooled)
        self.saves_engine = (make_engine(url, pooled=True, **SAVES_POOL)
                             if pooled and self.engine.dialect.name != "sqlite" else self.engine)
        """The game keeper's own connections on a database server: saves of games in
        progress never queue behind a crowd of logins (SQLite's writers queue on one lock
        anyway)."""
        self.host = (host or socket.gethostname())[:64]
        self.limits = limits or Limits()
        self._clock = clock
        self._last_report: tuple[str, float] = ("", 0.0)
        self.closed = False
        self._units: set[asyncio.Future[Any]] = set()
        self._background: set[asyncio.Task[None]] = set()
        """Writers a repository keeps running in the background (online.py's): cancelled
        at :meth:`close`."""
        self._writers = WriterTurns() if self.dialect == "sqlite" else None
        self._epoch = 0
        """Bumped when the database file may have changed under us (read-only, replaced,
        damaged): pooled connections of an older epoch are closed at their next checkout."""
        _recycle_on_epoch(self)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def describe(self) -> str:
        return safe_url(self.url)

    async def migrate(self) -> None:
        """Bring the schema to this version's head (a no-op when it is there)."""
        async with self._guard():
            await upgrade_async(self.engine)

    async def revision(self) -> str | None:
        """The schema revision the database is at (None when empty)."""
        return await self.shielded(self._revision())

    async def _revision(self) -> str | None:
        async with self.read() as conn:
            return await conn.run_sync(current_revision)

    async def close(self, timeout: float = 5.0) -> None:
        """Finish the units under way (at most ``timeout`` seconds), then close every
        connection."""
        self.closed = True
        for task in list(self._background):
            task.cancel()
        if self._units:
            await asyncio.wait(list(self._units), timeout=timeout)
        await self.engine.dispose()
        if self.saves_engine is not self.engine:
            await self.saves_engine.dispose()

    async def shielded(self, call: Coroutine[Any, Any, R]) -> R:
        """Run a store call in a task of its own, shielded from the caller's cancellation.

        A caller who hangs up (or a server shutting down) cancels only the wait: the query
        finishes, commits or rolls back, and gives its connection back to the pool.  The store
        keeps the task until then, so :meth:`close` can wait for it."""
        task = asyncio.ensure_future(call)
        self._units.add(task)
        task.add_done_callback(self._unit_done)
        return await asyncio.shield(task)

    def _unit_done(self, task: asyncio.Future[Any]) -> None:
        self._units.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: its caller may have stopped waiting

    def background(self, writer: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Start a repository's background writer, cancelled when the store closes."""
        task = asyncio.get_running_loop().create_task(writer)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # -- units of work and failures ----------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _guard(self) -> AsyncIterator[None]:
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            if not is_database_error(exc):
                raise
            unavailable = self.unavailable(exc)
            if unavailable.reason in FILE_TROUBLE:
                # Connections opened read-only, or on a file since replaced, would keep
                # failing after the sysop fixes things: each is closed at its next checkout.
                self._epoch += 1
            raise unavailable from None

    @contextlib.asynccontextmanager
    async def write(self, engine: AsyncEngine | None = None, *, background: bool = False
                    ) -> AsyncIterator[AsyncConnection]:
        """One short write transaction (BEGIN IMMEDIATE on SQLite), after this process's
        other writers: ``background`` ones (nobody waits for them on a screen) after the
        others (door/store/turns.py)."""
        turn = (self._writers.turn(background) if self._writers is not None
                else contextlib.nullcontext())
        async with (turn, self._guard(), (engine or self.engine).connect() as conn,
                    closed_on_failure(conn), conn.begin()):
            yield conn

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """One short read-only transaction (a deferred BEGIN: never waits for a writer).  On
        a database server the reads run in autocommit: READ COMMITTED gives each statement
        its own snapshot either way, and BEGIN and COMMIT would be two more round trips,
        each waiting for a busy event loop while the connection is held."""
        async with self._guard(), self.engine.connect() as conn:
            options: dict[str, Any] = {READONLY: True}
            if self.dialect != "sqlite":
                options["isolation_level"] = "AUTOCOMMIT"
            await conn.execution_options(**options)
            async with closed_on_failure(conn), conn.begin():
                yield conn

    def unavailable(self, exc: BaseException) -> StoreUnavailable:
        """Log the cause for the sysop (once a minute per reason: a broken database must not
        flood the log with one line per caller action) and make the caller's error."""
        key = reason_key(exc, sqlite_path(self.url))
        reason = REASONS[key]
        now = time.monotonic()
        repeat = self._last_report[0] == reason and now - self._last_report[1] < LOG_EVERY_S
        if not repeat:
            self._last_report = (reason, now)
        log.log(logging.DEBUG if repeat else logging.ERROR, "database %s: %s (%s: %s)",
                self.describe(), reason, type(_root(exc)).__name__, _root(exc))
        return StoreUnavailable(f"scores are unavailable right now: {reason}", reason=key)

    def insert(self, conn: AsyncConnection, table: Any) -> Any:
        """The dialect's INSERT (both have ``on_conflict_do_update``/``…_do_nothing``)."""
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        return dialect.insert(table)

    def now(self) -> datetime:
        """The store's clock (a test's, or UTC now)."""
        return self._clock()


def _recycle_on_epoch(store: Database) -> None:
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
