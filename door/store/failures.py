"""Which of a few plain reasons explains a database failure, and what to do with a connection
that failed: the store turns every failure into :class:`StoreUnavailable` with one of
:data:`REASONS`, so callers and the sysop read a sentence, never a driver's exception."""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncConnection


def root_cause(exc: BaseException) -> BaseException:
    return getattr(exc, "orig", None) or exc


def is_database_error(exc: BaseException) -> bool:
    if isinstance(exc, SQLAlchemyError | OSError | TimeoutError | sqlite3.Error):
        return True
    return type(exc).__module__.split(".")[0] in ("asyncpg", "aiosqlite", "psycopg")


REASONS = {
    "readonly": "the database is read-only",
    "cannot_open": "the database file cannot be opened (check the data folder exists and is "
                   "writable)",
    "full": "no space left on device",
    "too_big": "the door's file size limit is reached (ulimit -f)",
    "damaged": "the database file is damaged",
    "busy": "the database stayed busy too long",
    "unreachable": "the database server cannot be reached",
    "denied": "the database refuses access",
    "other": "the database reported an error",
}
SHORT_REASONS = {
    "readonly": "database read-only", "cannot_open": "database not found", "full": "disk full",
    "too_big": "file size limit", "damaged": "database damaged", "busy": "database busy",
    "unreachable": "database away", "denied": "database refuses", "other": "database error",
}
"""The same in a few words, for a caller's status line."""
FILE_TROUBLE = frozenset({"readonly", "cannot_open", "damaged"})
"""Reasons after which pooled connections are not trusted any more."""
RETRY_SOON = frozenset({"full", "too_big", "readonly", "cannot_open", "damaged"})
"""Reasons a sysop puts right on the spot (space freed, a mode changed) and a failed try
costs no more than a failed write of a local file: tried again at the usual pace, not after
a growing pause (that is for a database server that is away)."""

_SQLITE_CODES = {8: "readonly", 14: "cannot_open", 13: "full", 11: "damaged", 26: "damaged",
                 5: "busy", 6: "busy", 23: "denied"}
_NEEDLES = (
    (("readonly", "read-only", "read only"), "readonly"),
    (("unable to open database file",), "cannot_open"),
    (("disk is full", "no space left", "disk full", "diskfull"), "full"),
    (("not a database", "malformed", "corrupt", "disk i/o error"), "damaged"),
    (("locked", "busy"), "busy"),
    (("connect", "connection", "refused", "name or service"), "unreachable"),
    (("permission denied",), "denied"),
)
LOW_SPACE = 1024 * 1024
"""Free bytes under which an I/O error on the database's disk is taken for a full disk."""


def reason_key(exc: BaseException, path: str | None = None) -> str:
    """Which of :data:`REASONS` explains ``exc``.  An I/O error on a disk with (almost) no
    space left is a full disk, not a damaged file: SQLite reports ENOSPC on its WAL or
    shared-memory file as a plain "disk I/O error"."""
    root = root_cause(exc)
    if isinstance(exc, PoolTimeout) or isinstance(root, PoolTimeout):
        return "busy"  # every pooled connection in use: the server is reachable, just busy
    if isinstance(root, ConnectionError):
        return "unreachable"
    if isinstance(root, OSError) and root.errno in (errno.ENOSPC, errno.EDQUOT):
        return "full"
    code = getattr(root, "sqlite_errorcode", None)
    key = _SQLITE_CODES.get(code & 0xFF) if isinstance(code, int) else None
    if key is None:
        text = f"{exc} {root} {type(root).__name__}".lower()
        key = next((k for needles, k in _NEEDLES if any(n in text for n in needles)), "other")
    if key in ("damaged", "other", "cannot_open") and path:
        if _read_only_disk(path):  # EROFS: SQLite says "disk I/O error" here too
            return "readonly"
        if _disk_is_full(path):
            return "full"
        if _size_limit_reached(path):
            return "too_big"
    return key


def _read_only_disk(path: str) -> bool:
    try:
        found = os.statvfs(Path(path).parent)
    except OSError:
        return False
    return bool(found.f_flag & os.ST_RDONLY)


def _disk_is_full(path: str) -> bool:
    try:
        found = os.statvfs(Path(path).parent)
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < LOW_SPACE


def _size_limit_reached(path: str) -> bool:
    """The process may not grow a file past a size (``ulimit -f``, RLIMIT_FSIZE: a BBS
    may start its doors so) and the database or its journal is that big or nearly: a write
    past the limit fails with EFBIG, which SQLite reports as a plain "disk I/O error"."""
    try:
        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    except (OSError, ValueError):
        return False
    if limit == resource.RLIM_INFINITY:
        return False
    sizes = []
    for suffix in ("", "-wal", "-journal", "-shm"):
        with contextlib.suppress(OSError):
            sizes.append(os.stat(path + suffix).st_size)
    return max(sizes, default=0) + LOW_SPACE >= limit


@contextlib.asynccontextmanager
async def closed_on_failure(conn: AsyncConnection) -> AsyncIterator[None]:
    """A connection that failed for another reason than a busy database is closed, not put
    back in the pool: its state (a half-done transaction, a file handle to a full or
    replaced file) is not worth trusting."""
    try:
        yield
    except Exception as exc:
        if is_database_error(exc) and reason_key(exc) != "busy" and not conn.invalidated:
            with contextlib.suppress(Exception):
                await conn.invalidate()
        raise


__all__ = ["FILE_TROUBLE", "REASONS", "RETRY_SOON", "SHORT_REASONS", "PoolTimeout",
           "closed_on_failure", "is_database_error", "reason_key", "root_cause"]
