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
        termios.tcsetattr(fd, termios.TCSAFLUSH, saved)


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

    async def read(self) -> bytes:
        try:
            return await self._reader.read(4096)
        except (ConnectionError, OSError):
            return b""

    def write(self, data: bytes) -> None:
        if not self._writer.is_closing():
            self._writer.write(data)

    async def drain(self) -> None:
        await self._writer.drain()

    async def close(self) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            await self._writer.drain()

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
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                 os.fdopen(0, "rb", 0, closefd=False))
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(1, "wb", 0, closefd=False))
    writer = asyncio.StreamWriter(transport, protocol, reader, loop)
    return StdioTerminal(reader, writer)
