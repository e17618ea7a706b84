"""The door's log files: private to the sysop's user, and never a traceback on the screen.

Log files are created 0600 (they name callers and their addresses) whatever the umask.
When a log file cannot be written (a full disk), logging's default is to print a traceback
on stderr, which under a BBS is the caller's screen: these handlers hold the records instead
and write them as soon as the file takes lines again (so the line naming the full disk is
in the log once there is room for it).
"""

from __future__ import annotations

import contextlib
import io
import logging
import logging.handlers
from collections import deque
from typing import Any

from .private import open_private

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


HELD = 200
"""Records kept while the file cannot be written, to write once it can (the oldest go first
past this many: they are counted instead)."""


class _Quiet(logging.Handler):
    """handleError without a traceback: the record is held (the last :data:`HELD` of them)
    and written, with a count of any it could not hold, once the file takes lines again."""

    stream: Any  # the file handler's, which this class is mixed into

    def __init__(self, *args: Any, **kw: Any) -> None:
        self._held: deque[logging.LogRecord] = deque(maxlen=HELD)
        self._failed = 0
        super().__init__(*args, **kw)

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
        if self._held:
            held, lost = self._held, self._failed - len(self._held)
            self._held, self._failed = deque(maxlen=HELD), 0
            if lost > 0:
                super().emit(logging.LogRecord(
                    __name__, logging.WARNING, __file__, 0, "%d log lines were lost while "
                    "the log file could not be written", (lost,), None))
            for old in held:
                super().emit(old)
        super().emit(record)


def _open_private(handler: logging.FileHandler) -> io.TextIOWrapper:
    """The handler's file, created 0600 whatever the umask."""
    stream = open(handler.baseFilename, handler.mode,  # noqa: SIM115 (the handler keeps it)
                  encoding=handler.encoding, errors=handler.errors, opener=open_private)
    if not isinstance(stream, io.TextIOWrapper):  # a binary mode: logging writes text
        stream.close()
        raise ValueError(f"a log file opens in a text mode, not {handler.mode!r}")
    return stream


class PrivateFileHandler(_Quiet, logging.FileHandler):
    def _open(self) -> io.TextIOWrapper:
        return _open_private(self)


class PrivateRotatingFileHandler(_Quiet, logging.handlers.RotatingFileHandler):
    def _open(self) -> io.TextIOWrapper:
        return _open_private(self)


class PrivateWatchedFileHandler(_Quiet, logging.handlers.WatchedFileHandler):
    """For a log file several processes append to (``serve --workers``): reopened when it
    has been moved, since rotating is left to one process (door/workers.py)."""

    def _open(self) -> io.TextIOWrapper:
        return _open_private(self)
