"""How tests wait for what will happen: poll until it holds, fail only past a deadline.

A deadline is never a measure of speed: it only ends a test that would otherwise hang, so it
can be long at no cost to a passing run.  :data:`WAIT` grows with the machine's load when the
run starts (five engineers' suites on two cores: a load of 10), up to three times its base,
and ``$REUSSITE_TEST_WAIT_SCALE`` multiplies it further for a slower machine still.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from collections.abc import Awaitable, Callable


def _load_scale() -> float:
    try:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this system
        load = 1.0
    return min(3.0, max(1.0, load)) * float(os.environ.get("REUSSITE_TEST_WAIT_SCALE", "1"))


SCALE = _load_scale()
WAIT = 30.0 * SCALE
"""Seconds a test waits for one thing before it fails."""
POLL_S = 0.02


async def until(check: Callable[[], bool | Awaitable[bool]], what: str,
                timeout: float = WAIT) -> None:
    """Return once ``check()`` (a function or a coroutine function) is true; fail saying
    ``what`` never happened once ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        done = check()
        if inspect.isawaitable(done):
            done = await done
        if done:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"never {what} (waited {timeout:.0f} s)")
        await asyncio.sleep(POLL_S)
