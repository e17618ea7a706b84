"""A caller on this process's standard input and output: the sysop's console, or a BBS
that hands its caller to the door on stdio (a pty or pipes)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import termios
import tty
from collections.abc import Iterator

from ..term import Charset
from .terminal import Terminal

CLEAN_EXIT = b"\x1b[0m\x1b7\x1b[r\x1b8\x1b[?25h"
"""Attributes reset, scroll region reset (the cursor kept where it was: DECSTBM homes it),
cursor shown: the BBS gets its terminal back."""


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


@contextlib.contextmanager
def blocking_restored(*fds: int) -> Iterator[None]:
    """asyncio makes stdin/stdout non-blocking, and that flag is shared with the BBS (or the
    shell) that started us: put it back as it was on the way out."""
    saved = {}
    for fd in fds:
        with contextlib.suppress(OSError):
            saved[fd] = os.get_blocking(fd)
    try:
        yield
    finally:
        for fd, blocking in saved.items():
            with contextlib.suppress(OSError):
                os.set_blocking(fd, blocking)


def _local_charset() -> Charset:
    lang = " ".join(os.environ.get(k, "") for k in ("LC_ALL", "LC_CTYPE", "LANG")).lower()
    return Charset("utf8" if "utf-8" in lang or "utf8" in lang else "cp437")


class StdioTerminal(Terminal):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 charset: Charset | None = None) -> None:
        try:
            cols, rows = os.get_terminal_size(sys.stdout.fileno())
        except OSError:
            cols, rows = 80, 24
        super().__init__(cols, rows, charset or _local_charset(),
                         term_type=os.environ.get("TERM", ""), peer="local")
        self._reader, self._writer = reader, writer
        self.carrier_lost = False
        self.read_transport: asyncio.ReadTransport | None = None

    async def read(self) -> bytes:
        early = self.take_pushback()
        if early:
            return early
        try:
            data = await self._reader.read(4096)
        except (ConnectionError, OSError):  # EIO: the pty was hung up
            data = b""
        if not data:
            self.carrier_lost = True
        return data

    def write(self, data: bytes) -> None:
        if not self.carrier_lost and not self._writer.is_closing():
            self._writer.write(data)

    async def drain(self) -> None:
        try:
            await self._writer.drain()
        except (ConnectionError, OSError):  # EIO/EPIPE: the caller is gone
            self.carrier_lost = True
            raise

    def hang_up(self) -> None:
        """The caller is gone (SIGHUP/SIGTERM from the BBS): reads end, writes are dropped."""
        self.carrier_lost = True
        if self.read_transport is not None:
            self.read_transport.pause_reading()  # no data may follow the end of input
        self._reader.feed_eof()

    async def close(self) -> None:
        """Leave the terminal clean and everything written on its way (never hangs)."""
        if not self.carrier_lost:
            self.write(CLEAN_EXIT)
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await asyncio.wait_for(self._writer.drain(), 1.0)

    def watch_window(self) -> None:
        """Follow window-size changes of the controlling terminal (SIGWINCH)."""
        def changed() -> None:
            with contextlib.suppress(OSError):
                cols, rows = os.get_terminal_size(sys.stdout.fileno())
                self.resized(cols, rows)
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGWINCH, changed)


async def open_stdio() -> StdioTerminal:
    """Wrap fds 0 and 1 as an asyncio terminal (works for ttys, pipes and sockets)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", 0, closefd=False))
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(1, "wb", 0, closefd=False))
    writer = asyncio.StreamWriter(transport, protocol, reader, loop)
    terminal = StdioTerminal(reader, writer)
    terminal.read_transport = read_transport
    return terminal
