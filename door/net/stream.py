"""What the two BBS-launch transports share: a caller on an asyncio stream pair (the
BBS's stdio, or a socket it hands over), carrier loss remembered, the terminal left clean."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from .terminal import Terminal

CLEAN_EXIT = b"\x1b[0m\x1b7\x1b[r\x1b8\x1b[?25h"
"""Attributes reset, scroll region reset (the cursor kept where it was: DECSTBM homes it),
cursor shown: the BBS gets its terminal back."""


class StreamTerminal(Terminal):
    """Once the carrier is lost, reads say so and writes are dropped."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._reader, self._writer = reader, writer
        self.carrier_lost = False

    async def read(self) -> bytes:
        """The caller's next bytes (``b""`` once gone), without what :meth:`_incoming`
        keeps for the protocol; ``b"\0"`` when that was all of it (a window size: the
        session looks at its keys again)."""
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
            data = await self._reader.read(4096)
        except (ConnectionError, OSError):
            data = b""
        if not data:
            self.carrier_lost = True
        return data

    def _send(self, data: bytes) -> None:
        if not self.carrier_lost and not self._writer.is_closing():
            self._writer.write(data)

    def write(self, data: bytes) -> None:
        self._send(data)

    async def drain(self) -> None:
        try:
            await self._writer.drain()
        except (ConnectionError, OSError):  # reset, EIO or EPIPE: the caller is gone
            self.carrier_lost = True
            raise

    def _input_transport(self) -> asyncio.ReadTransport | None:
        return getattr(self._writer, "transport", None)

    def hang_up(self) -> None:
        """The BBS says the caller is gone (SIGHUP/SIGTERM): reads end, writes are dropped."""
        self.carrier_lost = True
        with contextlib.suppress(AttributeError, RuntimeError):
            transport = self._input_transport()
            if transport is not None:
                transport.pause_reading()  # no data may follow the end of input
        self._reader.feed_eof()

    async def close(self) -> None:
        """Leave the caller's terminal clean (when still there) and everything written on
        its way; never hangs."""
        if not self.carrier_lost:
            self.write(CLEAN_EXIT)
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await asyncio.wait_for(self._writer.drain(), 1.0)
