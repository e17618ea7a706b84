"""The engine factory: SQLite (WAL, busy timeout, BEGIN IMMEDIATE) or PostgreSQL by URL.

Why these SQLite settings (measured, research/stack.md §4): with pysqlite's default
transactions concurrent read-modify-writes lost updates, and with a deferred ``BEGIN`` the
upgrade to a write lock failed at once with "database is locked" whatever the busy timeout.
``BEGIN IMMEDIATE`` takes the write lock up front, so writers queue on the busy timeout
instead.  Read-only units (``readonly=True`` connections) keep a plain deferred ``BEGIN``:
in WAL mode they never wait for a writer.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

BUSY_TIMEOUT_S = 15.0
SQLITE_POOL = {"pool_size": 8, "max_overflow": 0, "pool_timeout": 30}
"""At most eight SQLite connections (each is a thread in aiosqlite): reads in WAL never wait,
and writes queue on the store's lock, so more would only cost threads and file handles.
All eight are kept once opened, none opened and closed per use ("overflow"): opening one
starts its thread, and ``Thread.start`` holds the event loop until the new thread runs, which
on a busy machine is tens of milliseconds (bench/soak.py: 25 such stalls in 2 minutes)."""

SERVER_POOL = {"pool_size": 10, "max_overflow": 20, "pool_timeout": 30}
"""Connections to a database server (PostgreSQL) per process: on a busy event loop each
round trip of a transaction waits for the loop, so connections are held longer than the
queries take; thirty keep 300 callers' saves and logins flowing (SQLAlchemy's default of
fifteen ran out in bench/soak.py), and three servers sharing a PostgreSQL still stay under
its default max_connections of 100."""

SAVES_POOL = {"pool_size": 2, "max_overflow": 2, "pool_timeout": 30}
"""The game keeper's own connections to a database server (its batch and the exit-path
flushes), apart from :data:`SERVER_POOL`."""

READONLY = "reussite_readonly"
"""Execution option marking a connection whose transactions only read."""


def make_engine(url: str | URL, *, busy_timeout: float = BUSY_TIMEOUT_S,
                pooled: bool = True, **kw: Any) -> AsyncEngine:
    """An async engine for ``url``.  ``pooled=False`` (NullPool) suits short-lived door
    processes launched per caller by a BBS, which must not hold server connections."""
    url = make_url(url)
    if not pooled:
        kw.setdefault("poolclass", NullPool)
    if url.get_backend_name() == "sqlite":
        kw.setdefault("connect_args", {"timeout": busy_timeout})
        if pooled and sqlite_path(url):
            for key, value in SQLITE_POOL.items():
                kw.setdefault(key, value)
    else:
        kw.setdefault("pool_pre_ping", True)
        if pooled:
            for key, value in SERVER_POOL.items():
                kw.setdefault(key, value)
    engine = create_async_engine(url, **kw)
    if engine.dialect.name == "sqlite":
        _sqlite_hooks(engine)
    return engine


def _sqlite_hooks(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # no implicit BEGIN from pysqlite: we send our own
        cursor = dbapi_conn.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")  # persistent; readers beside one writer
            cursor.execute("PRAGMA synchronous=NORMAL")  # safe with WAL
            cursor.execute("PRAGMA foreign_keys=ON")  # per connection
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        readonly = conn.get_execution_options().get(READONLY, False)
        conn.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")


def sqlite_path(url: str | URL) -> str | None:
    """The database file of a SQLite URL (None for PostgreSQL or an in-memory database)."""
    url = make_url(url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return url.database


def safe_url(url: str | URL) -> str:
    """The URL with any password hidden, for logs and messages."""
    return make_url(url).render_as_string(hide_password=True)
