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
import collections
from collections.abc import Callable, Iterator
from typing import Any

import telnetlib3
from telnetlib3 import Server, TelnetReader, TelnetServer, TelnetWriter, create_server, slc
from telnetlib3.stream_writer import Option

from .buffers import INPUT_HELD, READ_SIZE

__all__ = ["HOOKS", "PRIVATE", "SERVER_PARAMETERS", "DoorTelnetReader", "LeanWriterState",
           "Server", "ServerState", "TelnetReader", "TelnetWriter", "create_server",
           "keep_no_clients"]

PRIVATE: dict[str, tuple[str, ...]] = {
    "TelnetReader": ("_buffer", "_waiter", "_exception", "_eof", "_paused", "_transport",
                     "_maybe_resume_transport"),
    "TelnetServer": ("_rx_bytes", "_tx_bytes", "_closing", "_tasks", "_waiter_connected",
                     "_check_later", "_advanced", "_echo_negotiated", "_tls_checked",
                     "_timer", "_mccp2_enabled", "_mccp3_decompressor", "_drain_waiters"),
    "Server": ("_protocols", "_new_client"),
    "TelnetWriter": ("_iac_callback", "_slc_callback", "_ext_callback", "_ext_send_callback",
                     "_ext_offer_callback", "slctab", "_sb_buffer", "_slc_buffer",
                     "default_slc_tab"),
    "Option": ("_on_change",),
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
                            "TelnetServer": TelnetServer, "Server": Server, "Option": Option}

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


# -- the lean writer state (an idle caller's memory) --------------------------------------

TABLES = ("_iac_callback", "_slc_callback", "_ext_callback", "_ext_send_callback",
          "_ext_offer_callback")
"""telnetlib3's tables of callbacks (command byte(s) → handler), filled in its writer's
``__init__`` with the writer's own methods and later by ``set_*_callback``."""

_NAMES: dict[tuple[type, str, bool], dict[bytes, str]] = {}
"""Per writer class, table and side (server or client): the handlers' method names, shared
by every connection."""


class BoundLater:
    """A table of callbacks as telnetlib3 uses it (look up, ``in``, set, ``get``, clear),
    whose default entries are method names of ``owner``, bound at each look-up, shared by
    every connection; only callbacks set later (``set_ext_callback`` …) are kept here."""

    __slots__ = ("_names", "_owner", "_set")

    def __init__(self, owner: object, names: dict[bytes, str]) -> None:
        self._owner = owner
        self._names = names
        self._set: dict[bytes, Callable[..., Any]] | None = None

    def __getitem__(self, cmd: bytes) -> Callable[..., Any]:
        if self._set is not None and cmd in self._set:
            return self._set[cmd]
        handler: Callable[..., Any] = getattr(self._owner, self._names[cmd])  # KeyError
        return handler

    def get(self, cmd: bytes, default: Any = None) -> Any:
        try:
            return self[cmd]
        except KeyError:
            return default

    def __setitem__(self, cmd: bytes, func: Callable[..., Any]) -> None:
        if self._set is None:
            self._set = {}
        self._set[cmd] = func

    def __contains__(self, cmd: object) -> bool:
        return (self._set is not None and cmd in self._set) or cmd in self._names

    def __iter__(self) -> Iterator[bytes]:
        yield from self._names
        if self._set is not None:
            yield from (cmd for cmd in self._set if cmd not in self._names)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def clear(self) -> None:
        """telnetlib3's writer clears its tables as it closes, to break its reference
        cycles: the owner goes too (it is that writer)."""
        self._names = {}  # the shared names stay as they are for the others
        self._set = None
        self._owner = None


def bound_later(owner: object, table: dict[bytes, Callable[..., Any]], key: tuple[type, str, bool]
                ) -> BoundLater:
    """``table`` (telnetlib3's, as its ``__init__`` left it) as a :class:`BoundLater`: the
    entries that are ``owner``'s own methods by name, the others kept as they are."""
    own = {cmd: name for cmd, func in table.items()
           if getattr(func, "__self__", None) is owner
           and getattr(type(owner), name := method_name(func), None) is func.__func__}  # type: ignore[attr-defined]
    names = _NAMES.get(key)
    if names != own:  # the first connection of its kind (or a different one): its own names
        names = _NAMES.setdefault(key, own) if names is None else own
    lean = BoundLater(owner, names)
    for cmd, func in table.items():
        if cmd not in own:
            lean[cmd] = func
    return lean


def method_name(func: Callable[..., Any]) -> str:
    """The name a bound method's function was defined with."""
    return str(getattr(getattr(func, "__func__", None), "__name__", ""))


class LeanWriterState:
    """telnetlib3's per-connection tables, made when first needed instead of for every
    connection (issue #36: an idle caller's memory).

    For every connection telnetlib3's writer fills five tables with some 55 bound methods of
    its own (the handlers of IAC commands, special line characters, extended options), builds
    the 30-entry table of special line characters (30 objects) and two deques for
    subnegotiations (760 bytes each, empty): about 8 KiB per connection, 18 KiB with the rest
    of telnetlib3's state, for tables that a door connection reads a few times while it
    negotiates and then almost never (the door reads every byte as a key itself).

    :class:`LeanWriterState` is mixed into the door's writer (door/net/telnet.py): after
    telnetlib3's own ``__init__`` it swaps the five tables for :class:`BoundLater` mappings,
    which name the handlers and bind one when it is looked up, and it lets go of the special
    line characters' table and of the deques, made again, the same, the first time telnetlib3
    asks for them (a client negotiating LINEMODE, a subnegotiation).  telnetlib3 behaves as
    before: only where its state lives changes.  Its private names are in :data:`PRIVATE`
    (``TelnetWriter``)."""

    _slctab_made: dict[bytes, slc.SLC] | None = None
    _sb_deque: collections.deque[bytes] | None = None
    _slc_deque: collections.deque[bytes] | None = None
    default_slc_tab: dict[bytes, slc.SLC]  # telnetlib3's, on the writer's class
    server: bool
    pending_option: Option  # telnetlib3's option tables (see close)
    local_option: Option
    remote_option: Option

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in TABLES:
            table = getattr(self, name)
            if isinstance(table, dict):
                setattr(self, name, bound_later(self, table, (type(self), name, self.server)))
        self._slctab_made = None  # made again when first asked for: see slctab
        self._sb_deque = self._slc_deque = None

    @property
    def slctab(self) -> dict[bytes, slc.SLC]:
        """telnetlib3's table of special line characters, made from ``default_slc_tab``
        (as its ``__init__`` makes it) the first time it is asked for."""
        if self._slctab_made is None:
            self._slctab_made = slc.generate_slctab(self.default_slc_tab)
        return self._slctab_made

    @slctab.setter
    def slctab(self, table: dict[bytes, slc.SLC]) -> None:
        self._slctab_made = table

    @property
    def _sb_buffer(self) -> collections.deque[bytes]:
        """The subnegotiation being read, made when one begins; :meth:`drop_idle_buffers`
        lets an empty one go."""
        if self._sb_deque is None:
            self._sb_deque = collections.deque()
        return self._sb_deque

    @_sb_buffer.setter
    def _sb_buffer(self, buffer: collections.deque[bytes]) -> None:
        self._sb_deque = buffer

    @property
    def _slc_buffer(self) -> collections.deque[bytes]:
        """The special line characters being sent (LINEMODE), made when first needed."""
        if self._slc_deque is None:
            self._slc_deque = collections.deque()
        return self._slc_deque

    @_slc_buffer.setter
    def _slc_buffer(self, buffer: collections.deque[bytes]) -> None:
        self._slc_deque = buffer

    def close(self) -> None:
        """telnetlib3's close, which breaks the writer's reference cycles except those of
        its three option tables, each told of changes by a method of the writer: they let
        go of it too, and an ended call's writer goes with its last reference instead of
        waiting for the server's full collection (door/serve/collector.py)."""
        super().close()  # type: ignore[misc]
        for table in (self.pending_option, self.local_option, self.remote_option):
            table._on_change = None

    def drop_idle_buffers(self) -> None:
        """Let the subnegotiation buffers go while they are empty (between subnegotiations:
        the negotiation is over, or the next one makes them again)."""
        if self._sb_deque is not None and not self._sb_deque:
            self._sb_deque = None
        if self._slc_deque is not None and not self._slc_deque:
            self._slc_deque = None
