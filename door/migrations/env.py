"""Alembic environment: runs on a connection handed in by :mod:`door.store.migrate`, or opens
its own async engine from ``sqlalchemy.url`` (the ``alembic`` command line, autogenerate)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from door.store.engine import make_engine
from door.store.models import Base

config = context.config
target_metadata = Base.metadata


def do_run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite",
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or "", pooled=False)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(do_run_migrations)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"),
                      target_metadata=target_metadata, literal_binds=True,
                      dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()
elif (given := config.attributes.get("connection")) is not None:
    do_run_migrations(given)
else:
    asyncio.run(run_async_migrations())
