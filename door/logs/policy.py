"""The door's one log policy, on every handler of every process (``serve``, its supervisor
and workers, ``door``, ``local``, stderr and the log files alike: :func:`apply_log_policy`):

* **Repeats are held back and counted.**  A stranger can make a warning happen as often as
  they like (a malformed telnet option, a refused connection): 562 of them in one fuzz run
  filled the log with one line of news.  :class:`RepeatLimit` lets through the first
  :data:`BURST` warnings or errors of each kind in a :data:`WINDOW_S` window, counts the
  rest, and writes one summary line once the window is over ("… 250 more like this in the
  last 60 s, not logged: <the last of them>"), at the next line the process logs, or when
  it stops.
* **What a stranger sent is escaped.**  Handles, dropfile names, terminal types, HTTP paths
  and headers may hold escape sequences or newlines: :class:`SafeFormatter` writes every
  character a terminal would act on as its Python escape (door/logs/printable.py), so the log
  can be read with ``cat`` or ``tail -f`` and no line can be forged.

The log files themselves (rotation, reopening after a move) are door/logs/files.py.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TypeAlias

from .printable import printable

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
BURST = 5  # warnings of one kind let through per window ...
WINDOW_S = 60.0  # ... of this many seconds
MAX_KINDS = 1000  # kinds remembered at once (a kind is a logger, a level and a message form)

_Kind: TypeAlias = tuple[str, int, str]
_ExcInfo: TypeAlias = tuple[type[BaseException], BaseException, TracebackType | None]
_VERDICT = "repeat_limit_verdict"  # the attribute a record carries its verdict in
_SUMMARY = "repeat_limit_summary"  # set on the summary lines: they always pass


class _Count:
    """One kind of record in its window: when it began, how many passed, how many were held
    and the last of those (its text goes into the summary)."""

    __slots__ = ("held", "last", "passed", "start")

    def __init__(self, start: float) -> None:
        self.start, self.passed, self.held = start, 0, 0
        self.last: logging.LogRecord | None = None


class RepeatLimit(logging.Filter):
    """Let through at most ``burst`` records of one kind (logger, level, message template:
    the same warning about different callers is one kind) per ``window_s`` seconds, from
    ``level`` up; below it everything passes.  Each kind held back gets one summary line
    when its window is over.

    Put one instance on several handlers: it decides once per record."""

    def __init__(self, burst: int = BURST, window_s: float = WINDOW_S,
                 level: int = logging.WARNING,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst, self.window_s, self.level, self._clock = burst, window_s, level, clock
        self._kinds: dict[_Kind, _Count] = {}
        self._lock = threading.Lock()
        self._next_due = float("inf")  # when the first window holding records ends

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, _SUMMARY, False):
            return True
        verdict = getattr(record, _VERDICT, None)
        if verdict is not None:  # the same record at the next handler
            return bool(verdict)
        now = self._clock()
        if now >= self._next_due:
            self.flush(now)
        verdict = record.levelno < self.level or self._decide(record, now)
        setattr(record, _VERDICT, verdict)
        return verdict

    def _decide(self, record: logging.LogRecord, now: float) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        with self._lock:
            count = self._kinds.get(key)
            if count is None:
                if len(self._kinds) >= MAX_KINDS:
                    self._forget_quiet()
                count = self._kinds[key] = _Count(now)
            if now - count.start >= self.window_s:
                count.start, count.passed = now, 0
            if count.passed < self.burst:
                count.passed += 1
                return True
            count.held += 1
            count.last = record
            self._next_due = min(self._next_due, count.start + self.window_s)
            return False

    def _forget_quiet(self) -> None:
        """Room for new kinds: forget those holding nothing back (all, if every one does)."""
        quiet = [key for key, count in self._kinds.items() if not count.held]
        for key in quiet or list(self._kinds):
            del self._kinds[key]

    def forget(self) -> None:
        """Start afresh (a server stops: the next one in this process counts from zero)."""
        with self._lock:
            self._kinds.clear()
            self._next_due = float("inf")

    def flush(self, now: float | None = None) -> None:
        """Write the summary line of every kind whose window is over (``now=None``: of every
        kind holding records back, over or not, as the process stops)."""
        due: list[tuple[logging.LogRecord, int, float]] = []
        with self._lock:
            next_due = float("inf")
            for count in self._kinds.values():
                if not count.held or count.last is None:
                    continue
                ends = count.start + self.window_s
                if now is None or now >= ends:
                    seconds = (now if now is not None else self._clock()) - count.start
                    due.append((count.last, count.held, min(seconds, self.window_s)))
                    count.held, count.last = 0, None
                else:
                    next_due = min(next_due, ends)
            self._next_due = next_due
        for last, held, seconds in due:
            try:
                text = last.getMessage()
            except Exception:  # its arguments do not fit its message: logging says so
                text = str(last.msg)
            summary = logging.LogRecord(
                last.name, last.levelno, last.pathname, last.lineno,
                "… %d more like this in the last %.0f s, not logged: %s",
                (held, max(1.0, seconds), text), None)
            setattr(summary, _SUMMARY, True)
            logging.getLogger(last.name).handle(summary)


class SafeFormatter(logging.Formatter):
    """A formatter that escapes what a stranger may have put into a record: the message
    (one line, always), and any traceback or stack (their newlines kept)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        message = record.message
        record.message = printable(message)
        try:
            return super().formatMessage(record)
        finally:
            record.message = message

    def formatException(self, ei: _ExcInfo | tuple[None, None, None]) -> str:
        return printable(super().formatException(ei), keep="\n")

    def formatStack(self, stack_info: str) -> str:
        return printable(super().formatStack(stack_info), keep="\n")


_SHARED = RepeatLimit()
"""The process's one limit: every handler shares it, so a record gets one verdict."""
atexit.register(_SHARED.flush)  # before logging's own exit closes the handlers


def apply_log_policy(handler: logging.Handler, fmt: str = FORMAT) -> logging.Handler:
    """Give ``handler`` the door's policy: escaped lines in ``fmt``, repeats held back."""
    handler.setFormatter(SafeFormatter(fmt))
    handler.addFilter(_SHARED)
    return handler


def limit_repeats(handlers: list[logging.Handler]) -> Callable[[], None]:
    """Put the process's :class:`RepeatLimit` on ``handlers`` too (those the door did not
    make: a test's); returns what writes the summaries still due, starts the count afresh
    and takes the limit off the handlers it was not on before."""
    added = [handler for handler in handlers if _SHARED not in handler.filters]
    for handler in added:
        handler.addFilter(_SHARED)

    def remove() -> None:
        _SHARED.flush()
        _SHARED.forget()
        for handler in added:
            handler.removeFilter(_SHARED)
    return remove
