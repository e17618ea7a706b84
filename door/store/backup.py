"""The sysop's backups: a consistent copy of the database while callers play."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from ..logs.private import PRIVATE_FILE, make_private_database, make_private_dir
from .core import Repository, unit
from .engine import BUSY_TIMEOUT_S, sqlite_path
from .errors import StoreUnavailable


class Backups(Repository):
    @unit
    async def make(self, folder: Path) -> Path:
        """A consistent copy of the database in ``folder``: ``VACUUM INTO`` for SQLite (safe
        while callers play), ``pg_dump`` for PostgreSQL.  StoreUnavailable if it fails."""
        make_private_dir(folder)
        stamp = self._core.now().strftime("%Y%m%d-%H%M%S-%f")
        path = sqlite_path(self._core.url)
        if path is not None:
            target = folder / f"reussite-{stamp}.db"
            make_private_database(str(target))  # VACUUM INTO fills an empty file
            try:
                await asyncio.to_thread(_sqlite_backup, path, target)
            except sqlite3.Error as exc:
                raise self._core.unavailable(exc) from None
            return target
        if self._core.dialect != "postgresql":
            raise StoreUnavailable(f"no backup method for {self._core.dialect}")
        target = folder / f"reussite-{stamp}.sql"
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
        await _pg_dump(self._core.engine.url, target)
        return target


def _sqlite_backup(source: str, target: Path) -> None:
    conn = sqlite3.connect(source, timeout=BUSY_TIMEOUT_S)
    try:
        conn.execute("VACUUM INTO ?", (str(target),))
    finally:
        conn.close()


async def _pg_dump(url: Any, target: Path) -> None:
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
