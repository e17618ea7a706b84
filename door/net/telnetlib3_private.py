"""telnetlib3, as the door uses it: the one module that imports it, and the only place that
touches what telnetlib3 does not promise (its private state).

The telnet fast paths (door/net/telnet.py) hand a packet with no IAC straight to the
reader, write frames straight to the transport, and keep a flood's connections small; that
needs telnetlib3's reader buffer and waiter, its protocol's negotiation state and byte
counts, and its server's lists.  Those names are listed in :data:`PRIVATE` (and the public
but undocumented hooks the door overrides or reads in :data:`HOOKS`), reached only through
:class:`DoorTelnetReader`, :class:`ServerState` and :func:`keep_no_clients` here, and checked on a
real connection by tests/test_telnetlib3_private.py, which names the one an upgrade took
away.  setup.cfg pins telnetlib3 to the versions that test passed on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import telnetlib3
from telnetlib3 import Server, TelnetReader, TelnetServer, TelnetWriter, create_server

from .buffers import INPUT_HELD, READ_SIZE

__all__ = ["HOOKS", "PRIVATE", "SERVER_PARAMETERS", "DoorTelnetReader", "Server", "ServerState",
           "TelnetReader", "TelnetWriter", "create_server", "keep_no_clients"]

PRIVATE: dict[str, tuple[str, ...]] = {
    "TelnetReader": ("_buffer", "_waiter", "_exception", "_eof", "_paused", "_transport",
                     "_maybe_resume_transport"),
    "TelnetServer": ("_rx_bytes", "_tx_bytes", "_closing", "_tasks", "_waiter_connected",
                     "_check_later", "_advanced", "_echo_negotiated", "_tls_checked",
                     "_timer", "_mccp2_enabled", "_mccp3_decompressor", "_drain_waiters"),
    "Server": ("_protocols", "_new_client"),
}
"""telnetlib3's private names the door reads or writes, by the class that has them
(``_drain_waiters`` is asyncio's, under telnetlib3's protocol)."""

HOOKS: dict[str, tuple[str, ...]] = {
    "TelnetReader": ("feed_data", "at_eof"),
    "TelnetWriter": ("feed_byte", "slc_simulated", "iac_received", "cmd_received",
                     "connection_closed", "protocol", "transport"),
    "TelnetServer": ("begin_negotiation", "check_negotiation", "data_received",
                     "connection_made", "connection_lost", "on_naws", "reader", "writer",
                     "rx_bytes"),
}
"""Public names the door overrides or leans on whose meaning telnetlib3 documents little."""

SERVER_PARAMETERS = ("reader_factory", "writer_factory")
"""``TelnetServer``'s keyword arguments that give it the door's reader and writer
(``create_server`` does not pass them on: :class:`ServerState` does)."""

CLASSES: dict[str, type] = {"TelnetReader": TelnetReader, "TelnetWriter": TelnetWriter,
                            "TelnetServer": TelnetServer, "Server": Server}

VERSION: str = telnetlib3.__version__


class DoorTelnetReader(TelnetReader):
    """telnetlib3's binary reader with a lean way in and out for the door's hot path (one
    key a packet): :meth:`feed_data` appends and wakes, :meth:`take` returns all that came.

    The parent's ``read`` asks ``asyncio.get_running_loop()`` each time it waits (a
    ``getpid()`` system call on Python 3.11), checks its arguments, slices and copies the
    buffer twice; this reader keeps its loop and hands the whole buffer over.  It works on
    the parent's own state (buffer, EOF, exception, waiter), so whatever telnetlib3 itself
    feeds (data after an IAC, EOF, a lost connection) reaches :meth:`take` in the order it
    came.

    It holds at most INPUT_HELD bytes: a caller sending faster than the door's input pacing
    lets the session read loses what comes past that (a flood, not a typist), and the
    connection goes on being read, so that a hang-up behind the flood is seen at once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loop = asyncio.get_running_loop()  # made by the protocol, inside the loop
        self.dropped = 0
        """Bytes dropped past INPUT_HELD."""

    def feed_data(self, data: bytes) -> None:
        """The caller's bytes, kept up to INPUT_HELD waiting; past that they are dropped.

        The socket is read all the same, never paused: a caller who pastes more than the
        door would play in minutes and hangs up is gone now, not once the paste has been
        read (the end of the stream comes after it, and while reading is paused neither
        the door nor the kernel sees it: the caller's own kernel holds it back)."""
        if self._transport is not None:  # flow control wanted: the parent's way
            super().feed_data(data)
            return
        room = INPUT_HELD - len(self._buffer)
        if len(data) > room:
            self.dropped += len(data) - max(0, room)
            data = data[:max(0, room)]
        self._buffer += data
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def held(self) -> int:
        """How many bytes wait unread."""
        return len(self._buffer)

    def drop_held(self) -> None:
        """Forget the unread bytes (the caller hung up: they will never be played)."""
        self._buffer.clear()

    def wait_for_data(self) -> asyncio.Future[None] | None:
        """None when :meth:`take_now` has something to give (bytes, EOF, the connection's
        error); else a future, done when it has (one read waits at a time).  The waiting
        coroutine calls :meth:`waited` after it, however the wait ended."""
        if self._buffer or self._exception is not None or self._eof:
            return None
        if self._waiter is not None:
            raise RuntimeError("a read is already waiting for data")
        if self._paused:
            self._maybe_resume_transport()
        self._waiter = waiter = self._loop.create_future()
        return waiter

    def waited(self) -> None:
        """The wait :meth:`wait_for_data` began is over (a cancelled one too)."""
        self._waiter = None

    def take_now(self) -> bytes:
        """The bytes buffered, READ_SIZE at most; ``b""`` when there is none (at EOF).
        Raises the connection's error, as ``read`` does, once the bytes before it are
        taken."""
        buffer = self._buffer
        if not buffer:
            if self._exception is not None:
                raise self._exception
            return b""
        if len(buffer) > READ_SIZE:  # a paste: a few thousand keys at a time
            data = bytes(buffer[:READ_SIZE])
            del buffer[:READ_SIZE]
        else:
            data = bytes(buffer)
            buffer.clear()
        if self._paused:
            self._maybe_resume_transport()
        return data

    async def take(self) -> bytes:
        """The bytes buffered (READ_SIZE at most), after waiting for one if there is none;
        ``b""`` at EOF."""
        waiter = self.wait_for_data()
        if waiter is not None:
            try:
                await waiter
            finally:
                self.waited()
        return self.take_now()


class ServerState(TelnetServer):
    """telnetlib3's server protocol, with what the door asks of its private state named
    (the door's :class:`~door.net.telnet.DoorTelnetServer` builds on it)."""

    reader_class: type[TelnetReader] = DoorTelnetReader
    writer_class: type[TelnetWriter] = TelnetWriter

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("reader_factory", self.reader_class)
        kwargs.setdefault("writer_factory", self.writer_class)
        super().__init__(*args, **kwargs)
        # asyncio's drain waiters (append, remove, iterate): an empty list is 56 bytes, the
        # deque asyncio makes 760, for every connection of a flood.
        self._drain_waiters: list[asyncio.Future[None]] = []

    @property
    def closing(self) -> bool:
        """Closed, or being closed: telnetlib3 forgets a closing protocol."""
        return bool(self._closing)

    def mark_closing(self) -> None:
        """Closed by the door before telnetlib3 saw it open (a refused connection)."""
        self._closing = True

    def later(self, delay: float, callback: Callable[[], None]) -> None:
        """``callback`` after ``delay`` seconds, cancelled with the connection's own timers."""
        self._tasks.append(asyncio.get_running_loop().call_later(delay, callback))

    @property
    def shell_started(self) -> bool:
        """Negotiation is over (or was cut short): the shell runs or is about to."""
        return self._waiter_connected.done()

    def start_shell_now(self) -> None:
        """End negotiation now and begin the shell, with telnetlib3's own wait cancelled
        (it would end it again)."""
        if self._check_later is not None:
            self._check_later.cancel()
            self._check_later = None
        self._waiter_connected.set_result(None)

    def negotiation_incomplete(self) -> bool:
        """The options that follow a client's first answers (echo, environment) are still to
        be asked."""
        return not (self._advanced and self._echo_negotiated)

    def quiet(self) -> bool:
        """Negotiation is over and nothing of telnetlib3's per-packet machinery is on (no
        idle timer, no compression): a packet with no IAC is all data."""
        return bool(self._tls_checked and self._waiter_connected.done() and self._timer is None
                    and not self._mccp2_enabled and self._mccp3_decompressor is None)

    def count_received(self, size: int) -> None:
        """Bytes read past telnetlib3 (its ``rx_bytes``)."""
        self._rx_bytes += size

    def count_sent(self, size: int) -> None:
        """Bytes written past telnetlib3 (its ``tx_bytes``)."""
        self._tx_bytes += size

    def forget_in(self, listener: Server | None) -> None:
        """Off the listener's list of connections now, not at its next accept."""
        if listener is not None and self in listener._protocols:
            listener._protocols.remove(self)


def keep_no_clients(server: Server) -> None:
    """The listener keeps no queue of negotiated connections for ``wait_for_client()``."""
    server._new_client = _NoClients()  # type: ignore[assignment]


class _NoClients:
    """Stands in for ``telnetlib3.Server``'s queue of negotiated connections, which feeds
    ``wait_for_client()``: the door never calls it (each connection runs the shell), and the
    queue kept the last 1,000 connections of each listener alive, dead or not, with their
    reader's unread bytes (tens of MiB after a flood, never given back)."""

    def put_nowait(self, protocol: object) -> None:
        """Forget it: nothing waits for clients here."""

    def get_nowait(self) -> object:
        raise asyncio.QueueEmpty
