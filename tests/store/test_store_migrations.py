"""The schema comes from the migrations shipped in the package, and matches the models."""

from __future__ import annotations

import configparser
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from door.store import Store
from door.store.migrate import head
from door.store.models import Base

REPO = Path(__file__).resolve().parents[2]
TABLES = {"players", "games", "resume_slots", "named_saves", "messages", "nodes",
          "accounts", "daily_entries", "live_games", "league_boards", "league_results",
          "alembic_version"}


async def test_upgrade_creates_the_schema_once(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert await store.core.revision() is None
        await store.core.migrate()
        assert await store.core.revision() == head() == "0008"
        await store.core.migrate()  # already there: nothing to do
        async with store.core.engine.connect() as conn:
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            diff = await conn.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata))
        assert tables == TABLES
        assert diff == [], f"models and migrations differ: {diff}"
    finally:
        await store.close()


def test_every_migration_ships_in_the_wheel() -> None:
    """setup.cfg's package_data globs must cover the migration files (a plain ``pip install``
    ships only what they match; checked by hand with ``pip wheel`` too, see docs)."""
    cfg = configparser.ConfigParser()
    cfg.read(REPO / "setup.cfg")
    globs = cfg["options.package_data"]["door"].split()
    door = REPO / "door"
    shipped = {p for g in globs for p in door.glob(g)}
    needed = {door / "migrations" / "script.py.mako", *door.glob("migrations/versions/*.py")}
    assert needed <= shipped
    assert (door / "migrations" / "__init__.py").is_file()  # env.py ships as a module
