"""Alembic, driven from the package: the migrations ship inside ``door/migrations`` and no
``alembic.ini`` is needed.  ``upgrade`` is for code outside an event loop (the sysop
command); ``upgrade_async`` runs on an engine from inside one (``serve``, ``door``)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import URL, Connection
from sqlalchemy.ext.asyncio import AsyncEngine

SCRIPT_LOCATION = "door:migrations"
PG_LOCK_ID = 0x52_45_55_53  # "REUS": one migrating process at a time on a shared server


def alembic_config(url: str | URL) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", SCRIPT_LOCATION)
    url_text = url.render_as_string(hide_password=False) if isinstance(url, URL) else url
    cfg.set_main_option("sqlalchemy.url", url_text.replace("%", "%%"))
    return cfg


def head() -> str | None:
    """The newest revision shipped with this version of the door."""
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def upgrade_connection(sync_conn: Connection, rev: str = "head") -> None:
    """Upgrade through an open connection (inside its transaction)."""
    if sync_conn.dialect.name == "postgresql":
        sync_conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_LOCK_ID})")
    cfg = alembic_config(sync_conn.engine.url)
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, rev)


def current_revision(sync_conn: Connection) -> str | None:
    return MigrationContext.configure(sync_conn).get_current_revision()


async def upgrade_async(engine: AsyncEngine, rev: str = "head") -> None:
    async with engine.begin() as conn:
        await conn.run_sync(upgrade_connection, rev)
