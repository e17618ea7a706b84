"""Store fixtures: every store test runs on a SQLite file in tmp_path and on a real PostgreSQL.

PostgreSQL comes from ``$REUSSITE_TEST_PG_URL`` (``.ci/run`` starts a throwaway server and
sets it); each test gets a database of its own, dropped afterwards.  Without the variable
the PostgreSQL variants fail under CI (``$CI`` set) and are skipped, with the reason, on a
developer's machine.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from door.store import Store

PG_ENV = "REUSSITE_TEST_PG_URL"
BACKENDS = ("sqlite", "postgresql")


def pg_base_url() -> str:
    url = os.environ.get(PG_ENV)
    if url:
        return url
    if os.environ.get("CI"):
        pytest.fail(f"${PG_ENV} is not set: under CI the store tests must run against "
                    "PostgreSQL too (.ci/run starts a server and sets it)")
    pytest.skip(f"${PG_ENV} is not set: PostgreSQL variant skipped on this development "
                "machine (.ci/run starts a server; see docs/storage.md)")


def _asyncpg_dsn(url: Any) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def _pg_admin(sql: str) -> None:
    import asyncpg

    base = make_url(pg_base_url())
    conn = await asyncpg.connect(_asyncpg_dsn(base.set(database="postgres")))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def new_database_url(backend: str, tmp_path: Path) -> tuple[str, str | None]:
    """A fresh, empty database: (URL, PostgreSQL database name to drop afterwards)."""
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'reussite.db'}", None
    base = make_url(pg_base_url())
    name = f"reussite_t_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
    return base.set(database=name).render_as_string(hide_password=False), name


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    url, pg_name = new_database_url(request.param, tmp_path)
    yield url
    if pg_name:
        asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{pg_name}" WITH (FORCE)'))


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    store = Store(db_url, host="test-host")
    assert await store.start(), "migrations must apply on a fresh database"
    yield store
    await store.close()


@pytest.fixture
async def door(door_home: Path) -> AsyncIterator[tuple[Store, int]]:
    """A telnet door on 127.0.0.1 whose visits (all "Guest": no logins) use a store on
    data/reussite.db; yields (the store, the port)."""
    from door.config import load_settings
    from door.net.telnet import start_telnet
    from door.server import NodeTable, session_runner
    from door.store.visit import open_store

    settings = load_settings(door_home)
    store = await open_store(settings)
    server = await start_telnet("127.0.0.1", 0, session_runner(
        settings, NodeTable(settings.server.max_nodes), store))
    yield store, server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    await store.close()
