"""The door's log files (``data/reussite.log``, ``data/door.log``): private to the sysop's
user, rotated by size, followed after a move, and never a traceback on the screen.

**One way to rotate.**  Every process that writes a log file — ``serve``, its supervisor
and each worker, every ``door`` a BBS starts — writes through :class:`LogFile`:

* once the file reaches its size (1 MB), the process whose line took it there moves it
  aside (``reussite.log`` → ``.1`` → … ``.5``), under a lock on the file so that two
  processes never rotate it twice;
* before each line, every process checks that the file at the path is still the one it has
  open (one ``stat``), and reopens the path when it has moved or gone: the others follow a
  rotation at their next line.

So no signal, no restart and no ``logrotate`` is needed.  A sysop who runs logrotate anyway
may use its default (move, then create: no ``postrotate`` signal needed, every process
reopens the path at its next line) or ``copytruncate`` (the files are opened for appending,
so lines go on at the new end).

Files are created 0600 (they name callers and their addresses) whatever the umask.  When a
file cannot be written (a full disk, a folder gone), logging's default is to print a
traceback on stderr, which under a BBS is the caller's screen: these handlers hold the
records instead and write them as soon as the file takes lines again (so the line naming
the full disk is in the log once there is room for it).
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import logging
import logging.handlers
import os
from collections import deque
from pathlib import Path

from .policy import FORMAT, apply_log_policy
from .private import open_private

__all__ = ["BACKUPS", "FORMAT", "MAX_BYTES", "LogFile", "open_log", "rotate"]

MAX_BYTES, BACKUPS = 1_000_000, 5
"""Where a log file is rotated, and how many old ones are kept (``.1`` … ``.5``)."""
log = logging.getLogger(__name__)

LOG_FILE = "reussite.log"
"""``reussite serve``'s log, in the data folder (:func:`log_to_file`)."""
HELD = 200
"""Records kept while the file cannot be written, to write once it can (the oldest go first
past this many: they are counted instead)."""


class LogFile(logging.handlers.WatchedFileHandler):
    """A log file several processes may append to: reopened when it has moved, rotated at
    ``max_bytes`` (0: never) keeping ``backups`` old files, created 0600, and quiet when it
    cannot be written (module docstring)."""

    def __init__(self, path: str | os.PathLike[str], max_bytes: int = 0,
                 backups: int = 0) -> None:
        self.max_bytes, self.backups = max_bytes, backups
        self._held: deque[logging.LogRecord] = deque(maxlen=HELD)
        self._failed = 0
        super().__init__(path, encoding="utf-8")

    def _open(self) -> io.TextIOWrapper:
        """The file, created 0600 whatever the umask."""
        stream = open(self.baseFilename, self.mode,  # noqa: SIM115 (the handler keeps it)
                      encoding=self.encoding, errors=self.errors, opener=open_private)
        if not isinstance(stream, io.TextIOWrapper):  # a binary mode: logging writes text
            stream.close()
            raise ValueError(f"a log file opens in a text mode, not {self.mode!r}")
        return stream

    def handleError(self, record: logging.LogRecord) -> None:
        self._failed += 1
        self._held.append(record)
        # The file's buffer still holds the line that could not be written: it would go
        # out with the next one that can, and again when the held records are written.
        # Closed (what its buffer holds dropped with it), the file is opened again for
        # the next record.
        stream = getattr(self, "stream", None)
        if stream is not None:
            self.stream = None
            with contextlib.suppress(Exception):
                stream.close()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.reopenIfNeeded()
            if self.stream is None:  # closed, or its reopening failed before
                self.stream = self._open()
                self._statstream()
        except OSError:
            self.handleError(record)
            return
        if self._held:
            held, lost = self._held, self._failed - len(self._held)
            self._held, self._failed = deque(maxlen=HELD), 0
            if lost > 0:
                logging.StreamHandler.emit(self, logging.LogRecord(
                    __name__, logging.WARNING, __file__, 0, "%d log lines were lost while "
                    "the log file could not be written", (lost,), None))
            for old in held:
                logging.StreamHandler.emit(self, old)
        logging.StreamHandler.emit(self, record)
        self._rotate_if_full()

    def _rotate_if_full(self) -> None:
        if not self.max_bytes or self.stream is None:
            return
        try:
            if os.fstat(self.stream.fileno()).st_size < self.max_bytes:
                return
            if rotate(self.baseFilename, self.max_bytes, self.backups):
                self.reopenIfNeeded()
        except (OSError, ValueError):  # the next line tries again
            pass


def rotate(path: str | os.PathLike[str], max_bytes: int, backups: int) -> bool:
    """Move the file at ``path`` aside (``.1``, the older ones one further, ``backups``
    kept) if it is ``max_bytes`` long; True if this call did.  Whoever holds the lock on the
    file rotates it; a process that finds it held, or the file already replaced, leaves it."""
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        mine, now = os.fstat(fd), os.stat(name)
        if (mine.st_dev, mine.st_ino) != (now.st_dev, now.st_ino) or \
                mine.st_size < max_bytes:
            return False
        for n in range(backups - 1, 0, -1):
            if os.path.exists(f"{name}.{n}"):
                os.replace(f"{name}.{n}", f"{name}.{n + 1}")
        if backups > 0:
            os.replace(name, f"{name}.1")
        else:
            os.remove(name)
        return True
    except OSError:  # locked by another process (it rotates), or the file went meanwhile
        return False
    finally:
        os.close(fd)


def open_log(path: Path, fmt: str = FORMAT, max_bytes: int = MAX_BYTES,
             backups: int = BACKUPS) -> LogFile:
    """A :class:`LogFile` with the door's log policy (door/logs/policy.py); raises OSError
    when the file cannot be opened."""
    handler = LogFile(path, max_bytes, backups)
    apply_log_policy(handler, fmt)
    return handler


def log_to_file(data_dir: Path) -> logging.Handler | None:
    """The log file in ``data_dir`` beside stderr (door/logs/files.py: rotated by whichever
    process fills it, followed by the others)."""
    try:
        handler = open_log(data_dir / LOG_FILE)
    except OSError as exc:
        log.warning("no log file in %s: %s", data_dir, exc)
        return None
    logging.getLogger().addHandler(handler)
    return handler
