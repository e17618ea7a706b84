"""What the two BBS-launch transports and RLogin share: a caller on an asyncio stream pair
(the BBS's stdio, a socket it hands over, an RLogin connection), the hang-up seen the moment
it comes, the terminal left clean."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, SupportsIndex

from .buffers import INPUT_HELD, READ_SIZE
from .terminal import Terminal

CLEAN_EXIT = b"\x1b[0m\x1b7\x1b[r\x1b8\x1b[?25h"
"""Attributes reset, scroll region reset (the cursor kept where it was: DECSTBM homes it),
cursor shown: the BBS gets its terminal back."""


class LineReader(asyncio.StreamReader):
    """A stream reader that says when the end of the stream arrives (EOF, a reset, EIO
    from a hung-up pty), not only once the bytes in front of it have been read: a caller
    who pastes and hangs up is gone now, not after the paste."""

    def __init__(self) -> None:
        super().__init__(limit=INPUT_HELD)  # asyncio would pause reading past twice this
        self.on_end: Callable[[], None] | None = None
        self.ended = False

    def feed_data(self, data: Iterable[SupportsIndex]) -> None:
        """The caller's bytes, kept up to INPUT_HELD waiting; past that they are dropped,
        and the stream is read all the same (as telnet's, door/net/telnet.py): its end,
        behind a paste, is seen when it comes."""
        data = bytes(data)
        # asyncio's own buffer: typeshed leaves it out, and asking for its length is all
        # this does (a count of our own would need every read overridden as well).
        room = INPUT_HELD - len(self._buffer)  # type: ignore[attr-defined]
        if len(data) > room:
            if room <= 0:
                return
            data = data[:room]
        super().feed_data(data)

    def feed_eof(self) -> None:
        super().feed_eof()
        self._ended()

    def set_exception(self, exc: Exception) -> None:
        super().set_exception(exc)
        self._ended()

    def _ended(self) -> None:
        if not self.ended:
            self.ended = True
            if self.on_end is not None:
                self.on_end()


async def open_stream(sock: socket.socket) -> tuple[LineReader, asyncio.StreamWriter]:
    """``asyncio.open_connection(sock=…)`` with a :class:`LineReader`."""
    loop = asyncio.get_running_loop()
    reader = LineReader()
    protocol = asyncio.StreamReaderProtocol(reader)
    transport, _ = await loop.create_connection(lambda: protocol, sock=sock)
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


async def serve_streams(connected: Callable[[asyncio.StreamReader, asyncio.StreamWriter],
                                           Awaitable[None]],
                        host: str, port: int) -> asyncio.Server:
    """``asyncio.start_server`` with a :class:`LineReader` for each connection."""
    loop = asyncio.get_running_loop()

    def protocol() -> asyncio.StreamReaderProtocol:
        return asyncio.StreamReaderProtocol(LineReader(), connected)

    return await loop.create_server(protocol, host, port)


class StreamTerminal(Terminal):
    """Once the line has dropped, reads say so (what was typed before is dropped) and writes
    go nowhere."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._reader, self._writer = reader, writer
        if isinstance(reader, LineReader):
            reader.on_end = self.dropped

    @property
    def carrier_lost(self) -> bool:
        """The caller is gone (the name BBS people know it by)."""
        return self.gone

    async def read(self) -> bytes:
        """The caller's next bytes (``b""`` once gone), without what :meth:`_incoming`
        keeps for the protocol; ``b"\0"`` when that was all of it (a window size: the
        session looks at its keys again)."""
        if self.gone:
            return b""
        early = self.take_pushback()
        if early:
            return early
        while True:
            data = await self._read_stream()
            if not data:
                return data
            clean = self._incoming(data)
            if clean:
                return clean

    def _incoming(self, data: bytes) -> bytes:
        """The caller's bytes in ``data``: transports that speak a protocol take theirs."""
        return data

    async def _read_stream(self) -> bytes:
        """The next bytes, or ``b""`` when the caller has gone (EOF, a reset socket, EIO
        from a hung-up pty)."""
        try:
            data = await self._reader.read(READ_SIZE)
        except (ConnectionError, OSError):
            data = b""
        if not data or self.gone:
            self.dropped()
            return b""
        return data

    def wake(self) -> None:
        """A NUL into the stream (no key decodes from it): a pending read returns, so that
        the session looks at its keys (a resize) and its notices at once."""
        reader = self._reader
        if not self.gone and isinstance(reader, LineReader) and not reader.ended:
            reader.feed_data(b"\0")

    def _send(self, data: bytes) -> None:
        if not self.gone and not self._writer.is_closing():
            self._writer.write(data)

    def write(self, data: bytes) -> None:
        self._send(data)

    async def drain(self) -> None:
        try:
            await self._writer.drain()
        except (ConnectionError, OSError):  # reset, EIO or EPIPE: the caller is gone
            self.dropped()
            raise

    def _input_transport(self) -> asyncio.ReadTransport | None:
        return getattr(self._writer, "transport", None)

    def hang_up(self) -> None:
        """The BBS says the caller is gone (SIGHUP/SIGTERM): reads end, writes are dropped."""
        self.dropped()
        with contextlib.suppress(AttributeError, RuntimeError):
            transport = self._input_transport()
            if transport is not None:
                transport.pause_reading()  # no data may follow the end of input
        self._reader.feed_eof()  # a read under way returns

    async def close(self) -> None:
        """Leave the caller's terminal clean (when still there) and everything written on
        its way; never hangs."""
        if not self.gone:
            self.write(CLEAN_EXIT)
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await asyncio.wait_for(self._writer.drain(), 1.0)
