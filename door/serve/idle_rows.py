"""Idle callers' screens hold their equal rows once (``Renderer.share_rows``).

A caller's screen is 24 rows of 80 cell references (17 KiB), the largest part of what an
idle caller costs.  Many rows are the same for every caller on the same screen: the whole
login screen but the handle typed, a board's frame, the keys' help, blank rows.  Every
``EVERY_S`` seconds the server looks at its callers, and the screens that did not change
since its last look share their rows with the others'.  Hashing a screen's rows costs
0.1 to 1 ms, so it is done for idle screens only, once per idle spell, a few at a time.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Iterable

from ..session import Session
from ..term.render import forget_common_rows

EVERY_S = 10.0
"""Seconds between two looks; a screen unchanged across one look shares at the next (a
connection sending nothing is hung up after 15 s: most of a silent flood is shared)."""
TRIM_FROM = 256
"""Rows freed in one look (some 180 KiB) past which their memory goes back to the system:
the rows freed are holes among live allocations, which the C library keeps otherwise."""
PER_TURN = 4
"""Screens shared before the event loop serves the other callers again (a screen's rows
take 0.1 to 1 ms to hash)."""


class IdleRows:
    """Shares the rows of screens unchanged since the last look (module docstring)."""

    def __init__(self, sessions: Callable[[], Iterable[Session]],
                 trim: Callable[[], object] | None = None) -> None:
        self.sessions = sessions
        self.trim = trim
        """Hands freed memory back to the system, after a look that freed TRIM_FROM rows."""
        self.shared = 0
        """Rows that took another caller's list, so far."""
        self._seen: weakref.WeakKeyDictionary[Session, int] = weakref.WeakKeyDictionary()
        """Each session's screen version at the last look (negative: shared at it)."""

    async def run(self) -> None:
        while True:
            await asyncio.sleep(EVERY_S)
            await self.look()

    async def look(self) -> None:
        hashed, before = 0, self.shared
        sessions = list(self.sessions())
        if not sessions:
            forget_common_rows()  # rows of callers gone, kept for nobody
        for session in sessions:
            screen = session.screen
            version = screen.version
            last = self._seen.get(session)
            if last == -version:
                continue  # shared already, unchanged since
            if last == version and screen.framed == version:  # idle, and all of it sent
                self.shared += session.renderer.share_rows(screen)
                version = -version
                hashed += 1
                if hashed % PER_TURN == 0:
                    await asyncio.sleep(0)
            self._seen[session] = version
        if self.trim is not None and self.shared - before >= TRIM_FROM:
            self.trim()
