"""The BBS's hang-up signals (SIGHUP, SIGTERM, SIGINT) for a door process, from before the
visit starts until the process exits.

ENiGMA½ sends SIGHUP as soon as the door closes its socket, and any BBS may send one while the
door says goodbye.  Python's default for SIGHUP kills the process, so a signal that came after
the visit used to cut the door's own bookkeeping short (its Who's Online row stayed behind).
Here the handler is installed with :func:`signal.signal` and never passes through the default
again: asyncio's ``add_signal_handler`` restores the default when its loop closes, which would
open that window once more.  A signal that comes before the event loop runs is kept and
handed over when it does (a BBS may hang up while the door is still starting).  After the
loop, :func:`ignore_hangups` leaves the last steps of the process (terminal modes,
interpreter exit) deaf to them.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from typing import Any

WATCHED = (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)


class HangupSignals:
    """Calls ``on_signal(name)`` in the loop for every watched signal, once attached."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._on_signal: Callable[[str], None] | None = None
        self._pending: list[str] = []
        self._previous: dict[signal.Signals, Any] = {}

    def install(self) -> None:
        for sig in WATCHED:
            self._previous[sig] = signal.getsignal(sig)
            signal.signal(sig, self._handler)

    def attach(self, loop: asyncio.AbstractEventLoop, on_signal: Callable[[str], None]) -> None:
        """From now on signals go to ``on_signal`` in ``loop``; any that came before, too."""
        self._on_signal = on_signal
        self._loop = loop
        while self._pending:
            loop.call_soon(on_signal, self._pending.pop(0))

    def restore(self) -> None:
        """Put back the handlers found at :meth:`install` (for a visit run in-process)."""
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _handler(self, signum: int, frame: object) -> None:
        # Runs in the main thread between two bytecodes: only hand over to the loop.
        name = signal.Signals(signum).name
        if self._loop is None or self._on_signal is None:
            self._pending.append(name)
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed: nothing left to do
            self._loop.call_soon_threadsafe(self._on_signal, name)


def ignore_hangups() -> None:
    """For the process's last steps, after the loop: one call per signal swaps our handler for
    SIG_IGN, never passing through the default."""
    for sig in WATCHED:
        signal.signal(sig, signal.SIG_IGN)
