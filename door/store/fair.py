"""Password hashes taken in turn by address: a flood of log-ins from one address cannot
make a caller from another wait behind all of it.

scrypt runs on two threads of its own (door/store/accounts.py).  While both are busy,
waiting hashes queue per address, and as a thread frees the next address in rotation goes:
a lone caller waits for at most one hash of each flooding address, not their whole queue
(under bench/hostile.py's 30 fuzzers from one address, a sign-up's hash waited 0.3-0.7 s
behind theirs).  Within one address, first come, first served.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

T = TypeVar("T")


class Abandoned(Exception):
    """A job's turn came, and nobody wanted it any more (its caller hung up while it
    waited): it was not run."""


class FairTurns:
    """``slots`` jobs at once on ``executor``; waiting ones served one address at a time.
    Use one per event loop (its futures belong to that loop)."""

    def __init__(self, executor: Executor, slots: int) -> None:
        self._executor = executor
        self._free = slots
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        """Addresses with jobs waiting, the next to be served first."""

    async def run(self, who: str, func: Callable[..., T], *args: Any,
                  wanted: Callable[[], bool] | None = None) -> T:
        """``func(*args)`` on the executor, in ``who``'s turn; :class:`Abandoned` instead
        when ``wanted()`` says no as the turn comes.  (A login storm on a loaded machine
        queued hashes for seconds; its callers' clients gave up and called again, and
        every hash of a line already dropped still ran, before the live ones.)"""
        loop = asyncio.get_running_loop()
        if self._free > 0 and not self._waiting:
            self._free -= 1
        else:
            waiter = loop.create_future()
            self._waiting.setdefault(who, deque()).append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if not waiter.done() or waiter.cancelled():
                    self._forget(who, waiter)   # never given a slot
                else:
                    self._hand_on()            # given one, but gone before using it
                raise
            if wanted is not None and not wanted():
                self._hand_on()
                raise Abandoned(who)
        try:
            return await loop.run_in_executor(self._executor, func, *args)
        finally:
            self._hand_on()

    @property
    def waiting(self) -> dict[str, int]:
        """Jobs waiting, by address."""
        return {who: len(queue) for who, queue in self._waiting.items()}

    def _forget(self, who: str, waiter: asyncio.Future[None]) -> None:
        queue = self._waiting.get(who)
        if queue is not None and waiter in queue:
            queue.remove(waiter)
            if not queue:
                del self._waiting[who]

    def _hand_on(self) -> None:
        """A slot is free: to the next address in rotation, else back to the pool."""
        while self._waiting:
            who, queue = next(iter(self._waiting.items()))
            waiter = queue.popleft()
            if queue:
                self._waiting.move_to_end(who)  # the other addresses go first next time
            else:
                del self._waiting[who]
            if not waiter.done():
                waiter.set_result(None)
                return
        self._free += 1
