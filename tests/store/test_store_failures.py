"""When the database cannot be used, every call says so plainly (StoreUnavailable), the sysop
log says why, nothing is half-written, and the store works again once the cause is fixed."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import event, text
from storehelp import played_game

from door.store import Store, StoreUnavailable, failures
from door.store.engine import make_engine
from door.store.store import PoolTimeout, _reason_key

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@contextlib.contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """Make a file or folder unwritable for this process, root included: permissions for a
    normal user; for root (CI runs as root) the immutable attribute, which binds root too."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, f"chattr +i {path} failed: {done.stderr}"
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


async def migrated(path: Path) -> None:
    store = Store(sqlite_url(path))
    assert await store.start()
    await store.players.player("direct", "ann", "Ann")
    await store.close()


async def test_read_only_file(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "reussite.db"
    await migrated(db)
    store = Store(sqlite_url(db))
    try:
        with unwritable(db):
            with pytest.raises(StoreUnavailable, match="scores are unavailable right now"):
                await store.saves.claim_resume(1, "anciento", {"x": 1})
            assert any(r.levelno == logging.ERROR and "read-only" in r.getMessage()
                       for r in caplog.records)
        await store.saves.claim_resume(1, "anciento", {"x": 1})  # fixed: works again
        assert await store.saves.load_resume(1, "anciento") == {"x": 1}
    finally:
        await store.close()


async def test_read_only_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    store = Store(sqlite_url(data / "reussite.db"))
    try:
        with unwritable(data):
            assert not await store.start()  # the door starts anyway
            with pytest.raises(StoreUnavailable, match="cannot be opened"):
                await store.players.player("direct", "ann", "Ann")
            with pytest.raises(StoreUnavailable):
                await store.scores.top("anciento")
        assert await store.start()
        assert (await store.players.player("direct", "ann", "Ann")).alias == "Ann"
    finally:
        await store.close()


async def test_corrupt_file(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "reussite.db"
    db.write_bytes(b"This is not a database, it is a shopping list. " * 200)
    store = Store(sqlite_url(db))
    try:
        assert not await store.start()
        for call in (store.scores.top("anciento"), store.messages.unread_count(1),
                     store.online.nodes(), store.players.player("direct", "ann", "Ann")):
            with pytest.raises(StoreUnavailable, match="damaged"):
                await call
        errors = [r for r in caplog.records if r.levelno == logging.ERROR
                  and r.name == "door.store.store"]
        assert len(errors) == 1  # five failures, one ERROR line: the log is not flooded
        assert "the database file is damaged" in errors[0].getMessage()
    finally:
        await store.close()
    assert db.read_bytes().startswith(b"This is not a database")  # left for the sysop


async def test_disk_full(tmp_path: Path) -> None:
    db = tmp_path / "reussite.db"
    await migrated(db)
    store = Store(sqlite_url(db))

    @event.listens_for(store.core.engine.sync_engine, "connect")
    def _tiny_disk(dbapi_conn, _record) -> None:  # SQLite's own "disk full" path
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA max_page_count = 40")
        cursor.close()

    try:
        with pytest.raises(StoreUnavailable, match="no space left on device"):
            await store.saves.claim_resume(1, "anciento", {"blob": "x" * 400_000})
        assert await store.saves.load_resume(1, "anciento") is None
        await store.saves.claim_resume(1, "anciento", {"small": 1})  # room for small things still
    finally:
        await store.close()


async def test_locked_too_long_then_free(tmp_path: Path) -> None:
    db = tmp_path / "reussite.db"
    await migrated(db)
    store = Store(sqlite_url(db), busy_timeout=0.3)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process sitting on the write lock
        with pytest.raises(StoreUnavailable, match="busy too long"):
            await store.saves.claim_resume(1, "anciento", {"x": 1})
        assert await store.saves.load_resume(1, "anciento") is None  # readers are not blocked
        holder.execute("ROLLBACK")
        await store.saves.claim_resume(1, "anciento", {"x": 1})
    finally:
        holder.close()
        await store.close()


async def test_every_pooled_connection_in_use_is_busy_not_unreachable(tmp_path: Path) -> None:
    """A pool that ran out (SQLAlchemy's "QueuePool limit ... connection timed out") is a busy
    database: the sysop must not go looking for a server that is down."""
    db = tmp_path / "reussite.db"
    await migrated(db)
    engine = make_engine(sqlite_url(db), pool_size=1, max_overflow=0, pool_timeout=0.1)
    try:
        async with engine.connect():
            with pytest.raises(PoolTimeout) as caught:
                async with engine.connect():
                    pass
        assert _reason_key(caught.value) == "busy"
    finally:
        await engine.dispose()


async def test_postgresql_server_unreachable(caplog: pytest.LogCaptureFixture) -> None:
    # Port 1 on loopback: nothing listens there, the connection is refused at once.
    store = Store("postgresql+asyncpg://door:secret@127.0.0.1:1/reussite")
    try:
        assert not await store.start()
        with pytest.raises(StoreUnavailable, match="cannot be reached"):
            await store.scores.top("anciento")
        assert "secret" not in caplog.text
    finally:
        await store.close()


async def test_nothing_half_written(store: Store) -> None:
    """finish_game bumps the player's counter then inserts the game: when the insert fails,
    the counter must not move (one transaction)."""
    ann = await store.players.player("direct", "ann", "Ann")
    async with store.core.engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            await conn.execute(text("CREATE TRIGGER no_games BEFORE INSERT ON games BEGIN "
                                    "SELECT RAISE(ABORT, 'simulated failure'); END"))
        else:
            await conn.execute(text("CREATE FUNCTION no_games() RETURNS trigger AS $$ BEGIN "
                                    "RAISE EXCEPTION 'simulated failure'; END $$ "
                                    "LANGUAGE plpgsql"))
            await conn.execute(text("CREATE TRIGGER no_games BEFORE INSERT ON games FOR EACH "
                                    "ROW EXECUTE FUNCTION no_games()"))
    game = played_game("montecarlo", 3, 4)
    with pytest.raises(StoreUnavailable):
        await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status), False,
                                       T0, T0)
    assert (await store.players.by_id(ann.id)).games_played == 0
    async with store.core.engine.begin() as conn:
        await conn.execute(text("DROP TRIGGER no_games" if conn.dialect.name == "sqlite"
                                else "DROP TRIGGER no_games ON games"))
    assert await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status),
                                          False, T0, T0) == 1
    assert (await store.players.by_id(ann.id)).games_played == 1


def test_an_io_error_on_a_read_only_file_system_is_read_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Linux remounts a file system read-only after a disk error; SQLite then says "disk I/O
    error" (EROFS), which alone would read as a damaged file.  (A remount under an open
    database is refused while it is open for writing, so the file system is asked here.)"""
    class ReadOnly:
        f_flag, f_bavail, f_frsize = os.ST_RDONLY, 10**6, 4096

    monkeypatch.setattr(failures.os, "statvfs", lambda _path: ReadOnly())
    error = sqlite3.OperationalError("disk I/O error")
    assert _reason_key(error, str(tmp_path / "reussite.db")) == "readonly"
    monkeypatch.setattr(ReadOnly, "f_flag", 0)
    assert _reason_key(error, str(tmp_path / "reussite.db")) == "damaged"
