"""Telnet callers through telnetlib3: binary both ways, CP437 by default, NAWS and TTYPE read.

telnetlib3 runs in bytes mode (``encoding=False``): the session owns the character set, so
CP437 glyphs, UTF-8 and 7-bit ASCII are all ours to choose.  The shell always closes the
connection, whatever happens inside the session.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, cast

from ..gate.guard import address_of
from ..gate.pool import LoginPool, Refused, Ticket
from ..term.detect import PROBE_TIMEOUT, RAW_PROBE_TIMEOUT
from .telnetlib3_private import (
    DoorTelnetReader,
    LeanWriterState,
    Server,
    ServerState,
    TelnetReader,
    TelnetWriter,
    create_server,
    keep_no_clients,
)
from .terminal import Terminal

log = logging.getLogger(__name__)

IAC = b"\xff"
"""Telnet's "interpret as command" byte: a caller's data byte 0xFF travels doubled."""

SessionRunner = Callable[[Terminal], Awaitable[None]]


class TelnetTerminal(Terminal):
    kind = "telnet"
    wakeable = True

    def __init__(self, reader: DoorTelnetReader, writer: TelnetWriter) -> None:
        peer = writer.get_extra_info("peername")
        super().__init__(cols=writer.get_extra_info("cols") or 80,
                         rows=writer.get_extra_info("rows") or 24,
                         term_type=str(writer.get_extra_info("TERM") or ""),
                         peer=f"{peer[0]}:{peer[1]}" if peer else "")
        self._reader, self._writer = reader, writer
        self._buffered: Callable[[], int] | None = None  # the transport's unsent count
        self._transport: asyncio.WriteTransport | None = None  # looked up at the first frame
        self._protocol = writer.protocol

    async def read(self) -> bytes:
        if self.gone:  # hung up: what they typed before is not worth drawing
            return b""
        if self._pushback:
            return self.take_pushback()
        try:
            return await self._reader.take()
        except (ConnectionError, OSError):
            return b""

    async def receive(self) -> bytes:
        """:meth:`Terminal.receive` with :meth:`read` and the reader's ``take`` inside this
        one coroutine: a key's wait and wake-up passed through three (the door's hottest
        path).  The same steps: the meter, then what ``read`` returns."""
        meter = self.meter
        if meter is not None:
            pause = meter.pause()
            if pause is None:
                return b""
            if pause and not await self.paced(meter, pause):
                return b""
        if self.gone:
            data = b""
        elif self._pushback:
            data = self.take_pushback()
        else:
            reader = self._reader
            try:
                waiter = reader.wait_for_data()
                if waiter is not None:
                    try:
                        await waiter
                    finally:
                        reader.waited()
                data = reader.take_now()
            except (ConnectionError, OSError):
                data = b""
        if meter is not None:
            meter.took(len(data))
        return data

    def wake(self) -> None:
        """A NUL into the stream the pending read waits on (no key decodes from it): the
        read returns at once, with no task of its own to wake it (a key's read is the
        door's hottest path)."""
        if not self._reader.at_eof():
            self._reader.feed_data(b"\0")

    def write(self, data: bytes) -> None:
        """A frame to the caller: straight to the socket's transport with IAC doubled, as
        telnetlib3's ``TelnetWriter.write`` sends it (the door writes bytes, never telnet
        commands), without its layers of checks and trace logging on every frame.  The
        transport is the connection's for its life (the writer's ``close`` closes it, then
        forgets it): kept here, asked only whether it is closing."""
        transport = self._transport
        if transport is None:
            found = self._writer.transport
            if found is None or self._writer.connection_closed:
                return
            transport = self._transport = cast(asyncio.WriteTransport, found)
        if transport.is_closing():
            return
        if IAC in data:
            data = data.replace(IAC, IAC + IAC)
        transport.write(data)
        if self._protocol is not None:
            self._protocol.count_sent(len(data))

    def unsent(self) -> int | None:
        if self._buffered is None:  # looked up once: asked after every frame
            transport = self._writer.transport
            if not isinstance(transport, asyncio.WriteTransport):
                return None
            self._buffered = transport.get_write_buffer_size
        return self._buffered()

    async def drain(self) -> None:
        await self._writer.drain()

    async def close(self) -> None:
        self._writer.close()


class GuardedTelnetWriter(LeanWriterState, TelnetWriter):
    """telnetlib3's option state machine, with a client's malformed option answered by one
    log line instead of a traceback.

    Any client may send any option in any state (NEW-ENVIRON after a CHARSET that named an
    unknown codec, a four-byte NAWS of two bytes, TTYPE garbage, CHARSET TTABLE …); several
    make telnetlib3 raise, and it logs each traceback line by line as warnings: a log flood
    on demand.  The state machine resets itself in ``finally`` blocks, so the byte is simply
    dropped, as telnetlib3 itself does after logging.

    Special line characters are not simulated (``slc_simulated``): the door reads every
    byte as a key itself (Ctrl-C, Ctrl-R …), and telnetlib3 would otherwise rebuild the
    set of them for every packet a caller sends.  Its tables that a door connection hardly
    uses are made when first needed (door/net/telnetlib3_private.py)."""

    slc_simulated = False

    def feed_byte(self, byte: bytes) -> bool:
        try:
            return super().feed_byte(byte)
        except ValueError:
            raise  # "invalid telnet byte": telnetlib3 logs these at debug level only
        except Exception as exc:
            peer = self.get_extra_info("peername") or ("?", 0)
            log.warning("telnet %s:%s: ignored a malformed option (%s: %s)", peer[0], peer[1],
                        type(exc).__name__, str(exc)[:80])
            return False


NEGOTIATION_WAIT_S = 1.0
"""How long the door waits for a telnet client that has begun negotiating to finish
(telnetlib3's ``connect_maxwait``) before it shows the login screen anyway."""
SILENT_CLIENT_S = 0.25
"""A client that has sent nothing this long after the door's first telnet request is taken
for one that negotiates nothing (netcat, a raw gateway): it is shown the login screen now,
instead of after telnetlib3's whole wait (``connect_maxwait``), since it will not talk
before it sees a prompt, and silence is what the login pool drops first.  A real telnet
client answers within a round trip; one slower than this still has its answers handled
when they come (:meth:`DoorTelnetServer.data_received`)."""


class DoorTelnetServer(ServerState):
    """telnetlib3's server, admitting each connection to the login pool (door/gate/pool.py)
    before anything else, telling the pool what the caller sends (negotiation, then keys),
    starting at once for a client that negotiates nothing, and telling our terminal about
    window-size changes (NAWS)."""

    terminal: TelnetTerminal | None = None
    login_pool: LoginPool | None = None  # set on the class start_telnet makes
    listener: Server | None = None
    """The telnetlib3 server (set on the class too), whose list of connections loses a
    closed one at once here, not at its next accept (after a flood, none may come for
    hours, and the closed connections of the flood's last seconds stayed listed)."""
    ticket: Ticket | None = None
    _refused = False
    _heard = False
    _typed = False
    _started_silent = False
    """The shell began before the client said anything: late answers are negotiated then."""
    _settled = False
    """Negotiation is over and nothing of telnetlib3's per-packet machinery is on (no idle
    timer, no compression): see :meth:`data_received`."""

    writer_class = GuardedTelnetWriter
    reader_class = DoorTelnetReader

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self.login_pool is not None:
            peer = transport.get_extra_info("peername") or ("?", 0)
            try:
                self.ticket = self.login_pool.admit(address_of(f"{peer[0]}:{peer[1]}"),
                                                    f"telnet {peer[0]}:{peer[1]}",
                                                    self.hang_up)
            except Refused as exc:  # no telnet at all: one line, and close (the pool logs)
                self._refused = True
                self.mark_closing()  # telnetlib3 then forgets us
                if isinstance(transport, asyncio.WriteTransport):  # a socket's: always
                    transport.write(notice(str(exc)))
                transport.close()
                return
        super().connection_made(transport)

    def begin_negotiation(self) -> None:
        # telnetlib3 schedules this as the connection is made, and does not check whether
        # the connection was closed meanwhile (the pool may drop it in the same turn of the
        # loop to make room): its negotiation timer would then finish a cancelled future.
        if not self.closing:
            super().begin_negotiation()
            self.later(SILENT_CLIENT_S, self._start_if_silent)

    def _start_if_silent(self) -> None:
        """Nothing came since the first request: begin the shell (the login screen) now."""
        if self._heard or self.closing or self.shell_started:
            return
        self._started_silent = True
        self.start_shell_now()

    def data_received(self, data: bytes) -> None:
        """The caller's bytes.  The fast path: once negotiation is over, a packet with no
        IAC byte, arriving outside any telnet command, is all the caller's data and goes
        straight to the reader, as telnetlib3 would feed it after scanning it for IAC (a
        key a packet: the door's commonest packet).  Anything else (an IAC anywhere, a
        command or subnegotiation begun in an earlier packet, compression) takes
        telnetlib3's own path, byte by byte where it must.  Control bytes such as Ctrl-C
        skip telnetlib3's SLC snooping on this path: its handlers for them only log, and
        the door reads them as keys."""
        if self._refused:
            return
        if not self._heard:  # the pool's ticket needs the first packet only ...
            self._heard = True
            if self.ticket is not None:
                self.ticket.heard()
        writer, reader = self.writer, self.reader
        if (self._settled and writer is not None and reader is not None and 255 not in data
                and not writer.iac_received and not writer.cmd_received):
            self.count_received(len(data))
            reader.feed_data(data)
            if not self._typed:
                self._keys_came()
            return
        unread = reader.held() if isinstance(reader, DoorTelnetReader) else 0
        super().data_received(data)
        if not self._typed and isinstance(reader, DoorTelnetReader) and reader.held() > unread:
            self._keys_came()  # ... and the first that brings data, not telnet commands
        if self._started_silent and 255 in data and self.negotiation_incomplete():
            self.check_negotiation()  # late answers: the options that follow them
        # Asked again after each packet telnetlib3 reads (one with IAC may start compression).
        self._settled = self.quiet()
        if self._settled and isinstance(writer, LeanWriterState):
            writer.drop_idle_buffers()  # a subnegotiation's buffer, until the next one

    def _keys_came(self) -> None:
        self._typed = True
        if self.ticket is not None:
            self.ticket.typed()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.ticket is not None:
            self.ticket.close()
        if isinstance(self.reader, DoorTelnetReader):  # unread keys: never played now
            self.reader.drop_held()
        self.forget_in(self.listener)
        if self.terminal is not None:  # what the caller typed before hanging up is dropped
            self.terminal.dropped()
        if not self._refused:
            super().connection_lost(exc)
            if self.terminal is None and self.writer is not None:
                # No shell runs (the line dropped as it negotiated), whose end would close
                # the writer: telnetlib3's close is what breaks its reference cycles.
                self.writer.close()

    def hang_up(self, reason: str) -> None:
        """The pool's hang-up: one line saying why, then close."""
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write(notice(reason))
            self.writer.close()

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        if self.terminal is not None:
            self.terminal.resized(cols, rows)



def probe_timeout(protocol: DoorTelnetServer, terminal: TelnetTerminal) -> float:
    """How long the charset probe waits for its answer: a client that has said nothing at
    all (netcat, a raw gateway, or a flood) is not made to wait at all -- it will not type
    before it sees the prompt, and until it types, a flood may drop it to make room (the
    wait once took its prompt from 0.25 s to 0.65 s) -- its terminal's answer, if one
    comes, redraws the screen; one that negotiated but named no terminal type waits
    briefly; the others as long as a slow link needs."""
    if protocol._started_silent and not protocol._heard:
        return 0.0
    return PROBE_TIMEOUT if terminal.term_type else RAW_PROBE_TIMEOUT


def notice(text: str) -> bytes:
    """One line to a caller about to be dropped, on a line of its own."""
    return b"\r\n" + text.encode("ascii", "replace") + b"\r\n"


Shell = Callable[[TelnetReader, TelnetWriter], Coroutine[Any, Any, None]]
"""What telnetlib3 runs per connection once negotiation ends (its binary reader and writer:
the server is created with ``encoding=False``)."""


def make_shell(run_session: SessionRunner) -> Shell:
    async def shell(reader: TelnetReader, writer: TelnetWriter) -> None:
        protocol = writer.protocol
        if protocol is None or writer.is_closing():  # hung up as negotiation ended
            writer.close()
            return
        terminal = TelnetTerminal(cast(DoorTelnetReader, reader), writer)
        terminal.ticket = protocol.ticket
        protocol.terminal = terminal
        try:
            choice = await terminal.detect_charset(
                lang=str(writer.get_extra_info("LANG") or ""),
                charset=str(writer.get_extra_info("charset") or ""),
                timeout=probe_timeout(protocol, terminal))
            log.log(logging.INFO if protocol._heard else logging.DEBUG,  # (a flood's: debug)
                    "%s: %s%s, %s", terminal.peer, choice.charset.name,
                    " with glyphs" if choice.charset.c0_glyphs else "", choice.reason)
            await run_session(terminal)
        except ConnectionError:
            pass
        except Exception:
            log.exception("session on %s ended by an error", terminal.peer)
        finally:
            protocol.terminal = None
            writer.close()
    return shell


async def start_telnet(host: str, port: int, run_session: SessionRunner,
                       pool: LoginPool | None = None) -> Server:
    """Listen for telnet callers; each gets ``run_session(terminal)``.  With a ``pool``,
    each connection is admitted to it (or refused) as it is accepted."""
    protocol = cast(type[DoorTelnetServer], type("PooledTelnetServer", (DoorTelnetServer,),
                                                {"login_pool": pool}))
    server = await create_server(
        host=host, port=port, protocol_factory=protocol, shell=make_shell(run_session),
        encoding=False, force_binary=True, connect_maxwait=NEGOTIATION_WAIT_S, timeout=0)
    keep_no_clients(server)
    protocol.listener = server
    return server
