"""Anciento's count-down timer, and waiting for a key while the clock runs.

The caller may set a time limit before the game; when it runs out the game ends "whether you
like it or not".  ``Session.key()`` waits without a time-out, so :class:`KeyWaiter` keeps one
pending ``session.key()`` task across several short waits: the screen wakes up every second
to redraw the clock (or to play the demo's next move) without cancelling the read, so no key
typed in between is ever lost.  Only when the screen is done is the pending read cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..session import Session
from ..term import Key


@dataclass
class Timer:
    """Minutes to play; W pauses it, T removes it (and T again puts it back, full)."""

    minutes: int
    clock: Callable[[], float]
    used: float = 0.0               # seconds used before the running stretch began
    since: float | None = None      # when the running stretch began; None: not running
    paused: bool = False
    removed: bool = False

    def start(self) -> None:
        if self.since is None and not self.paused and not self.removed:
            self.since = self.clock()

    @property
    def running(self) -> bool:
        return self.since is not None

    def left(self) -> float:
        """Seconds left (never below zero)."""
        used = self.used + (self.clock() - self.since if self.since is not None else 0.0)
        return max(0.0, self.minutes * 60 - used)

    @property
    def expired(self) -> bool:
        return not self.removed and self.left() <= 0

    def toggle_pause(self) -> bool:
        """Pause or go on; True when it is paused now."""
        if self.since is not None:
            self.used += self.clock() - self.since
            self.since, self.paused = None, True
        else:
            self.paused = False
            self.start()
        return self.paused

    def toggle_removed(self) -> bool:
        """Remove the limit, or put it back with no time used; True when removed now."""
        if self.removed:
            self.removed, self.paused, self.used, self.since = False, False, 0.0, None
            self.start()
        else:
            self.removed, self.since = True, None
        return self.removed

    def text(self) -> str:
        """``12:34``, ``12:34 paused`` or ``removed``: what the panel shows."""
        if self.removed:
            return "removed (T)"
        seconds = math.ceil(self.left())
        shown = f"{seconds // 60}:{seconds % 60:02d}"
        return f"{shown} paused" if self.paused else shown

    def next_change(self) -> float:
        """Seconds until the shown text changes (at most one)."""
        left = self.left()
        return max(0.01, min(1.0, left - math.floor(left - 1e-9) if left > 0 else 0.01))


class KeyWaiter:
    """Wait for the caller's next key, giving up after a time-out without losing the key."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._task: asyncio.Task[Key] | None = None

    async def get(self, timeout: float | None = None,
                  unless: asyncio.Future[Any] | None = None) -> Key | None:
        """The next key, or None when ``timeout`` seconds pass first, or ``unless`` is done
        first (the read goes on)."""
        if self._task is None and timeout is None and unless is None:
            return await self.session.key()  # nothing to give up on: no task, no wait
        if self._task is None:
            self._task = asyncio.ensure_future(self.session.key())
        waits: set[asyncio.Future[Any]] = {self._task}
        if unless is not None:
            waits.add(unless)
        if timeout is None:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        elif timeout > 0:
            await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if not self._task.done():
            return None
        task, self._task = self._task, None
        return task.result()

    async def get_unless(self, other: asyncio.Future[Any]) -> Key | None:
        """The next key, or None when ``other`` is done first (the read goes on)."""
        return await self.get(unless=other)

    @property
    def waiting(self) -> bool:
        return self._task is not None

    async def close(self) -> None:
        """Stop the pending read before anybody else reads keys."""
        task, self._task = self._task, None
        if task is None:
            return
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
