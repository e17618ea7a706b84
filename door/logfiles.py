"""The door's log files: private to the sysop's user, and never a traceback on the screen.

Log files are created 0600 (they name callers and their addresses) whatever the umask.
When a log file cannot be written (a full disk), logging's default is to print a traceback
on stderr, which under a BBS is the caller's screen: these handlers drop the record instead,
and count what they dropped; the first drop after a good write is noted in the log once
writing works again.
"""

from __future__ import annotations

import logging
import logging.handlers
from typing import IO, Any

from .private import open_private

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _Quiet(logging.Handler):
    """handleError without a traceback: the record is dropped and counted, and the count is
    written once the file takes lines again."""

    dropped = 0

    def handleError(self, record: logging.LogRecord) -> None:
        self.dropped += 1

    def emit(self, record: logging.LogRecord) -> None:
        before = self.dropped
        super().emit(record)  # type: ignore[safe-super]
        if before and self.dropped == before:
            self.dropped = 0
            note = logging.LogRecord(__name__, logging.WARNING, __file__, 0,
                                     "%d log lines were lost while the log file could not be "
                                     "written", (before,), None)
            super().emit(note)  # type: ignore[safe-super]


class PrivateFileHandler(_Quiet, logging.FileHandler):
    def _open(self) -> IO[Any]:
        return open(self.baseFilename, self.mode, encoding=self.encoding,
                    errors=self.errors, opener=open_private)


class PrivateRotatingFileHandler(_Quiet, logging.handlers.RotatingFileHandler):
    def _open(self) -> IO[Any]:
        return open(self.baseFilename, self.mode, encoding=self.encoding,
                    errors=self.errors, opener=open_private)
