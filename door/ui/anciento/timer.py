"""Anciento's count-down timer.

The caller may set a time limit before the game; when it runs out the game ends "whether you
like it or not".  The screen wakes up every second to redraw the clock (or to play the
demo's next move) without losing a key typed in between: door/ui/shared/key_waiter.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass


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
