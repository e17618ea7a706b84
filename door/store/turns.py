"""Whose turn it is to write: SQLite takes one writer at a time, and in this process they
wait here rather than in SQLite's busy loop.

A write someone is waiting for on a screen (a sign-up, a log-in, a finished game) goes
before the writes made in the background (games in progress, who's online, the watch
link): under a flood of other callers the background queue grew to seconds, and a caller
signing up waited behind all of it.  So that the background is never starved -- the game
keeper's writes are what a crash may lose -- it gets every :data:`BACKGROUND_EVERY`-th turn
while it waits.  Within each kind, first come, first served.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator

BACKGROUND_EVERY = 4
"""While background writes wait, at most this many screen writes go before one of them."""


class WriterTurns:
    """An asyncio lock with two queues: screens' writes first, background writes after."""

    def __init__(self) -> None:
        self._busy = False
        self._waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(), deque())
        """Waiters for the screens' turns, then for the background's."""
        self._screens_in_a_row = 0

    @contextlib.asynccontextmanager
    async def turn(self, background: bool = False) -> AsyncIterator[None]:
        """Hold the one writer's turn for the block."""
        if self._busy:
            waiter = asyncio.get_running_loop().create_future()
            queue = self._waiting[background]
            queue.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter in queue:
                    queue.remove(waiter)       # never given the turn
                elif not waiter.cancelled():
                    self._hand_on()            # given it, but gone before using it
                raise
        else:
            self._busy = True
        try:
            yield
        finally:
            self._hand_on()

    @property
    def waiting(self) -> tuple[int, int]:
        """How many wait: (screens' writes, background writes)."""
        return len(self._waiting[0]), len(self._waiting[1])

    def _hand_on(self) -> None:
        screens, background = self._waiting
        while screens or background:
            if background and (not screens or self._screens_in_a_row >= BACKGROUND_EVERY):
                waiter, self._screens_in_a_row = background.popleft(), 0
            else:
                waiter = screens.popleft()
                self._screens_in_a_row += 1 if background else 0
            if not waiter.done():
                waiter.set_result(None)        # the turn passes on, still busy
                return
        self._busy = False
        self._screens_in_a_row = 0
