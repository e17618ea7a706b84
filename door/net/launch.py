"""The caller's terminal on stdio before the event loop runs: ``reussite door`` sends its
caller's first screen through it while asyncio, the session and the screens are still to
load (launch to first byte: bench/bench_launch.py), and the visit's own terminal
(door/net/stdio.py) carries on from what it sent.

Light on purpose: no asyncio here nor in :mod:`door.net.terminal` at import.
"""

from __future__ import annotations

import contextlib
import os
import termios
import tty
from collections.abc import Iterator

from ..term import Charset, Renderer, Screen
from .terminal import Terminal, sane_size, window_size

STDOUT = 1


@contextlib.contextmanager
def raw_mode(fd: int) -> Iterator[None]:
    """Raw keys while inside; the terminal's modes restored on the way out, whatever happens."""
    if not os.isatty(fd):
        yield
        return
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)
    try:
        yield
    finally:
        with contextlib.suppress(termios.error, OSError):  # a hung-up pty cannot be restored
            termios.tcsetattr(fd, termios.TCSAFLUSH, saved)


def fit_to_stdio(terminal: Terminal, screen_rows: int | None) -> bool:
    """Size ``terminal`` for a caller on stdio: the window the kernel reports when stdout
    is a terminal (True: measured, and worth following), else 80 columns by the dropfile's
    ``screen_rows``, which are the BBS's setting and not a window too small (False).  The
    launch terminal and the visit's (door/commands/door_visit.py) both take their size
    here, so the visit carries on from the launch's frame."""
    try:
        cols, rows = os.get_terminal_size(STDOUT)
    except OSError:
        cols = rows = 0
    if rows:
        terminal.cols, terminal.rows = sane_size(cols, rows)
        terminal.window = window_size(cols, rows)
        return True
    terminal.cols, terminal.rows = sane_size(80, screen_rows)
    if terminal.window == window_size(80, screen_rows):
        terminal.window = (terminal.cols, terminal.rows)
    return False


class LaunchTerminal(Terminal):
    """Writes go to stdout at once, blocking as the BBS left the descriptor; nothing is read
    (the caller's keys wait in the pty or pipe for the visit's terminal).  A write that
    would block keeps its bytes (:meth:`take_unsent`) for the visit's terminal to send first;
    one that fails (a pty hung up, a pipe closed) means the line has dropped, which the
    visit's terminal finds for itself."""

    def __init__(self, charset: Charset, color: bool, screen_rows: int | None) -> None:
        super().__init__(charset=charset, peer="local")
        fit_to_stdio(self, screen_rows)
        self.color = color
        self._held = b""

    def write(self, data: bytes) -> None:
        if self.gone:
            return
        if self._held:
            self._held += data
            return
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(STDOUT, view):]
        except BlockingIOError:
            self._held = bytes(view)
        except OSError:
            self.dropped()

    def unsent(self) -> int:
        return len(self._held)

    def take_unsent(self) -> bytes:
        """What the launch could not send yet (the visit's terminal sends it first)."""
        data, self._held = self._held, b""
        return data

    async def read(self) -> bytes:
        raise RuntimeError("the launch terminal only writes: the visit's terminal reads")

    async def drain(self) -> None:
        return None

    async def close(self) -> None:
        return None


class FirstFrame:
    """A frame the launch sent: its terminal, screen and renderer, for the visit's session
    to carry on from (``Session.carry_on``)."""

    def __init__(self, terminal: LaunchTerminal, screen: Screen, renderer: Renderer) -> None:
        self.terminal, self.screen, self.renderer = terminal, screen, renderer
        self.taken = False
        """The visit's terminal has the caller's display from here (carried on from this
        frame, or repainting it whole)."""

    def withdraw(self) -> None:
        """The visit never started (a sysop.ini error, say): leave the caller's terminal
        clean, as a visit's end does, so that the one error line after it reads clearly."""
        if not self.taken:
            self.taken = True
            self.terminal.write(self.renderer.sign_off(clear=True))
