"""A log that anyone on the network cannot flood: repeating warnings are held back.

A hostile caller can make a warning happen as often as they like (a malformed telnet option,
a refused connection): 562 of them in one fuzz run filled the log with one line of news.
:class:`RepeatLimit` lets through the first few warnings of each kind in a window and then
counts the rest, saying how many it held back on the next one of that kind it lets through.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

BURST = 5  # warnings of one kind let through per window ...
WINDOW_S = 60.0  # ... of this many seconds
MAX_KINDS = 1000  # kinds remembered at once (a kind is a logger, a level and a message form)


class RepeatLimit(logging.Filter):
    """Let through at most ``burst`` records of one kind (logger, level, message template:
    the same warning about different callers is one kind) per ``window_s`` seconds, from
    ``level`` up; below it everything passes.

    Put one instance on several handlers: it decides once per record."""

    def __init__(self, burst: int = BURST, window_s: float = WINDOW_S,
                 level: int = logging.WARNING,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst, self.window_s, self.level, self._clock = burst, window_s, level, clock
        self._kinds: dict[tuple[str, int, str], list[float | int]] = {}  # start, passed, held
        self._last: tuple[logging.LogRecord | None, bool] = (None, True)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < self.level:
            return True
        if record is self._last[0]:  # the same record at the next handler
            return self._last[1]
        verdict = self._decide(record)
        self._last = (record, verdict)
        return verdict

    def _decide(self, record: logging.LogRecord) -> bool:
        now = self._clock()
        key = (record.name, record.levelno, str(record.msg))
        kind = self._kinds.get(key)
        if kind is None:
            if len(self._kinds) >= MAX_KINDS:
                self._kinds.clear()
            kind = self._kinds[key] = [now, 0, 0]
        if now - kind[0] >= self.window_s:
            kind[0], kind[1] = now, 0
        if kind[1] >= self.burst:
            kind[2] += 1
            return False
        kind[1] += 1
        held = int(kind[2])
        if held:
            record.msg = (f"{record.getMessage()} (and {held} more like this in the last "
                          f"{self.window_s:g} s, not logged)")
            record.args = None
            kind[2] = 0
        return True


def limit_repeats(handlers: list[logging.Handler]) -> Callable[[], None]:
    """Put one :class:`RepeatLimit` on ``handlers``; returns what takes it off again."""
    limit = RepeatLimit()
    for handler in handlers:
        handler.addFilter(limit)

    def remove() -> None:
        for handler in handlers:
            handler.removeFilter(limit)
    return remove
