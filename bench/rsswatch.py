"""The RSS of a ``reussite serve`` under attack, worker by worker: before, at the peak and
after (issue #36: once the load stops, a worker comes back within 20 % of its plateau
before the load).

``bench/hostile.py`` uses it like this::

    watch = RssWatch(server.pid)
    await warm_up(...)                   # a few calls, so that "before" is a plateau
    await watch.before()                 # after the door's quiet look (door/serve/collector.py)
    sampler = asyncio.create_task(watch.sample_until(until))
    ... the attack ...
    await watch.after()                  # once the attackers have hung up and it is quiet
    for line in watch.lines(): print(line)

"Before" is taken after a warm-up visit, not at start-up: the first call loads the screens,
the games and the store's queries (about 10 MiB), which stay loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from load import children, is_solver

from door.serve.collector import QUIET_S

SETTLE_S = 3 * QUIET_S
"""Seconds of quiet before a figure is read: the door collects what ended calls left after
one to two of its QUIET_S looks."""


def rss_kib(pid: int) -> int | None:
    """A process's resident set in KiB (None once it has gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def workers(pid: int) -> list[int]:
    """The processes that answer callers: the workers of ``serve --workers N`` (the
    supervisor answers none), or the server itself when it has no worker."""
    return [child for child in children(pid) if not is_solver(child)] or [pid]


class RssWatch:
    """RSS per worker at three moments (KiB, by pid); a worker started again (a crash)
    shows as a new pid."""

    def __init__(self, server_pid: int, settle_s: float = SETTLE_S) -> None:
        self.server_pid, self.settle_s = server_pid, settle_s
        self.at_before: dict[int, int] = {}
        self.at_peak: dict[int, int] = {}
        self.at_after: dict[int, int] = {}

    def _now(self) -> dict[int, int]:
        return {pid: rss for pid in workers(self.server_pid)
                if (rss := rss_kib(pid)) is not None}

    async def before(self) -> None:
        await asyncio.sleep(self.settle_s)
        self.at_before = self._now()

    async def sample_until(self, until: float, every: float = 0.5) -> None:
        """The highest RSS of each worker until ``until`` (time.monotonic())."""
        while time.monotonic() < until:
            for pid, rss in self._now().items():
                self.at_peak[pid] = max(rss, self.at_peak.get(pid, 0))
            await asyncio.sleep(every)

    async def after(self) -> None:
        await asyncio.sleep(self.settle_s)
        self.at_after = self._now()

    def figures(self) -> dict[str, dict[int, int]]:
        return {"before": self.at_before, "peak": self.at_peak, "after": self.at_after}

    def lines(self) -> list[str]:
        """One line per worker: MiB before, at the peak, after, and after against before."""
        out = []
        for n, pid in enumerate(sorted(set(self.at_before) | set(self.at_after)), 1):
            before, after = self.at_before.get(pid), self.at_after.get(pid)
            peak = self.at_peak.get(pid)
            growth = (f"{100 * (after - before) / before:+.0f} %" if before and after
                      else "n/a")
            out.append(f"RSS worker {n} (pid {pid}): before {_mib(before)}, peak "
                       f"{_mib(peak)}, after {_mib(after)} MiB ({growth}; {self.settle_s:.0f} s"
                       f" of quiet before each figure)")
        return out


def _mib(kib: int | None) -> str:
    return "gone" if kib is None else f"{kib / 1024:.1f}"
