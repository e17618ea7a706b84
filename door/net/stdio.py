"""A caller on this process's standard input and output: the sysop's console, or a BBS
that hands its caller to the door on stdio (a pty or pipes)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Iterator

from ..term import Charset
from .stream import LineReader, StreamTerminal


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


class StdioTerminal(StreamTerminal):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 charset: Charset | None = None) -> None:
        try:
            cols, rows = os.get_terminal_size(sys.stdout.fileno())
        except OSError:
            cols, rows = 80, 24
        super().__init__(reader, writer, cols, rows, charset or _local_charset(),
                         term_type=os.environ.get("TERM", ""), peer="local")
        self.read_transport: asyncio.ReadTransport | None = None

    def _input_transport(self) -> asyncio.ReadTransport | None:
        return self.read_transport  # stdin is a pipe of its own

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
    reader = LineReader()
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", 0, closefd=False))
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(1, "wb", 0, closefd=False))
    writer = asyncio.StreamWriter(transport, protocol, reader, loop)
    terminal = StdioTerminal(reader, writer)
    terminal.read_transport = read_transport
    return terminal
