"""Files only the sysop's user may read: the database (password hashes), its WAL and
shared-memory files, logs (callers' addresses) and backups, in a data folder that is 0700.

Modes are given when a file is created, whatever the process's umask.  Plain ``os`` only:
the door's log file is opened before anything heavy is imported.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PRIVATE_FILE, PRIVATE_DIR = 0o600, 0o700


def make_private_database(path: str) -> None:
    """Create the database file (and its folder) readable by this user only, before SQLite
    opens it: SQLite gives its -wal and -shm files the database file's mode, so all three
    stay private whatever the umask.  An existing folder or file is left as it is (the
    sysop command warns when it is readable by others).  Problems are left for the first
    query to report."""
    target = Path(path)
    with contextlib.suppress(OSError):
        make_private_dir(target.parent)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
        os.close(fd)


FRESH = {"README.md", ".gitkeep"}
"""What a data folder holds before its first run (the repository tracks its README)."""


def make_private_dir(folder: Path) -> None:
    """``folder`` and missing parents.  The folder itself is made 0700 when we create it,
    or when it holds nothing of ours yet (a fresh checkout's ``data/``); a folder in use is
    left as the sysop set it (``reussite sysop`` warns when others can read it)."""
    if not folder.is_dir():
        folder.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(PRIVATE_DIR)
    with contextlib.suppress(OSError):
        if {entry.name for entry in folder.iterdir()} <= FRESH:
            os.chmod(folder, PRIVATE_DIR)  # whatever the umask took away or left


def open_private(path: str | os.PathLike[str], flags: int) -> int:
    """An ``opener`` for :func:`open` and logging handlers: new files are 0600."""
    return os.open(path, flags, PRIVATE_FILE)


def is_shared(path: Path) -> bool:
    """True when ``path`` exists and users other than its owner may read it."""
    try:
        return bool(path.stat().st_mode & 0o044)
    except OSError:
        return False
