"""A fresh database per test on SQLite (a file in tmp_path) or on a real PostgreSQL.

PostgreSQL comes from ``$REUSSITE_TEST_PG_URL`` (``.ci/run`` starts a throwaway server and
sets it); without it the PostgreSQL variants fail under CI (``$CI`` set) and are skipped,
with the reason, on a developer's machine.  Used by the store fixtures (tests/store) and by
the server tests that need two processes on one database.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

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


def drop_database(name: str | None) -> None:
    """Drop a PostgreSQL database made by :func:`new_database_url` (None: nothing to do)."""
    if name:
        asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
