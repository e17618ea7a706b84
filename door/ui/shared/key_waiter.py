"""Waiting for a key with a time-out, without losing the key.

``Session.key()`` waits without a time-out, so :class:`KeyWaiter` keeps one pending
``session.key()`` task across several short waits: a screen wakes up to redraw a clock, to
play a demo's or a replay's next move, or to show a watched game's change, without
cancelling the read, so no key typed in between is ever lost.  Only when the screen is done
is the pending read cancelled.  Every game screen, the replay and the watch viewers share it.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ...session import Session
from ...term import Key


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
