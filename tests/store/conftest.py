"""Store fixtures: every store test runs on a SQLite file in tmp_path and on a real PostgreSQL
(tests/pghelp.py), each test on a database of its own, dropped afterwards."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pghelp import BACKENDS, drop_database, new_database_url

from door.store import Store


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    url, pg_name = new_database_url(request.param, tmp_path)
    yield url
    drop_database(pg_name)


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
    from door.serve.server import NodeTable, session_runner
    from door.store.visit import open_store

    settings = load_settings(door_home)
    store = await open_store(settings)
    server = await start_telnet("127.0.0.1", 0, session_runner(
        settings, NodeTable(settings.server.max_nodes), store))
    yield store, server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    await store.close()
