"""A caller on a TCP socket handed over by a BBS: inherited by descriptor, or reached by
connecting back to 127.0.0.1.

Synchronet's passthru, Talisman, Magicka and Envy give the door a socket descriptor (DOOR32.SYS
line 2 or the command line); ENiGMA½ (``io: socket``) and WWIV listen on a port the door
connects to.  A raw client connection still speaks telnet, so :class:`TelnetFilter` strips
and answers IAC sequences on input and doubles 0xFF on output (research/dropfiles.md §6.2).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat

from ..term import Charset
from .stream import StreamTerminal, open_stream

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
BINARY, ECHO, SGA, NAWS = 0, 1, 3, 31
WE_OFFER = frozenset({BINARY, ECHO, SGA})    # options we do when asked
WE_ASK = frozenset({BINARY, SGA, NAWS})      # options we want the client to do
MAX_SUBNEGOTIATION = 64


class NotASocket(ValueError):
    """The descriptor we were told to use is not a stream socket."""


def is_socket(fd: int) -> bool:
    """True when ``fd`` is an open socket (a pty, pipe or closed fd is not)."""
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except (OSError, ValueError, OverflowError):
        return False


def inherit_socket(fd: int) -> socket.socket:
    """Adopt descriptor ``fd`` as a socket object, after checking that it really is one."""
    if not is_socket(fd):
        raise NotASocket(f"descriptor {fd} is not a socket")
    sock = socket.socket(fileno=fd)
    if sock.type != socket.SOCK_STREAM:
        sock.detach()
        raise NotASocket(f"descriptor {fd} is not a stream socket")
    return sock


def connect_back(port: int, timeout: float = 5.0) -> socket.socket:
    """Connect to the BBS waiting on 127.0.0.1:``port`` (ENiGMA½ ``{srvPort}``, WWIV ``%Z``)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.settimeout(None)
    return sock


class TelnetFilter:
    """Telnet on a raw client stream: IAC sequences out of the data, answers for the peer.

    Answers only change of state (RFC 1143's spirit, without its queue): an option already
    agreed is never answered again, so two polite ends cannot loop.
    """

    def __init__(self) -> None:
        self.we_do: set[int] = set()
        self.they_do: set[int] = set()
        self._state = "data"
        self._verb = 0
        self._sub = bytearray()

    def greeting(self) -> bytes:
        """What we announce first: we echo and suppress go-ahead; binary both ways; NAWS."""
        out = bytearray()
        for option in sorted(WE_OFFER):
            self.we_do.add(option)
            out += bytes([IAC, WILL, option])
        for option in sorted(WE_ASK):
            self.they_do.add(option)
            out += bytes([IAC, DO, option])
        return bytes(out)

    @staticmethod
    def escape(data: bytes) -> bytes:
        return data.replace(b"\xff", b"\xff\xff")

    def feed(self, data: bytes) -> tuple[bytes, bytes, list[tuple[int, int]]]:
        """(caller's bytes, our replies, window sizes (cols, rows) the client reported)."""
        clean, replies, sizes = bytearray(), bytearray(), []
        for byte in data:
            state = self._state
            if state == "data":
                if byte == IAC:
                    self._state = "iac"
                else:
                    clean.append(byte)
            elif state == "iac":
                if byte == IAC:
                    clean.append(IAC)
                    self._state = "data"
                elif byte in (WILL, WONT, DO, DONT):
                    self._verb, self._state = byte, "option"
                elif byte == SB:
                    self._sub.clear()
                    self._state = "sb"
                else:  # NOP, GA, AYT, BRK…: nothing for a door to do
                    self._state = "data"
            elif state == "option":
                replies += self._negotiate(self._verb, byte)
                self._state = "data"
            elif state == "sb":
                if byte == IAC:
                    self._state = "sb-iac"
                elif len(self._sub) < MAX_SUBNEGOTIATION:
                    self._sub.append(byte)
            elif state == "sb-iac":
                if byte == SE:
                    size = self._naws()
                    if size:
                        sizes.append(size)
                    self._state = "data"
                else:  # IAC IAC inside SB is a data 0xFF
                    if byte == IAC and len(self._sub) < MAX_SUBNEGOTIATION:
                        self._sub.append(IAC)
                    self._state = "sb"
        return bytes(clean), bytes(replies), sizes

    def _negotiate(self, verb: int, option: int) -> bytes:
        if verb == DO:
            if option in WE_OFFER:
                if option in self.we_do:
                    return b""
                self.we_do.add(option)
                return bytes([IAC, WILL, option])
            return bytes([IAC, WONT, option])
        if verb == DONT:
            if option in self.we_do:
                self.we_do.discard(option)
                return bytes([IAC, WONT, option])
            return b""
        if verb == WILL:
            if option in WE_ASK:
                if option in self.they_do:
                    return b""
                self.they_do.add(option)
                return bytes([IAC, DO, option])
            return bytes([IAC, DONT, option])
        if option in self.they_do:  # WONT
            self.they_do.discard(option)
            return bytes([IAC, DONT, option])
        return b""

    def _naws(self) -> tuple[int, int] | None:
        sub = self._sub
        if len(sub) == 5 and sub[0] == NAWS:
            return (sub[1] << 8) | sub[2], (sub[3] << 8) | sub[4]
        return None


class SocketTerminal(StreamTerminal):
    """One caller on a stream socket; telnet handling on when the stream is a raw client."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                 telnet: bool, charset: Charset | None = None, rows: int | None = None,
                 peer: str = "") -> None:
        super().__init__(reader, writer, 80, rows or 24, charset, peer=peer)
        self.telnet = TelnetFilter() if telnet else None

    def _incoming(self, data: bytes) -> bytes:
        if self.telnet is None:
            return data
        clean, replies, sizes = self.telnet.feed(data)
        if replies:
            self._send(replies)
        for cols, rows in sizes:
            self.resized(cols, rows)
        return clean or (b"\0" if sizes else b"")

    def write(self, data: bytes) -> None:
        self._send(self.telnet.escape(data) if self.telnet else data)

    async def close(self) -> None:
        await super().close()
        self._writer.close()
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await asyncio.wait_for(self._writer.wait_closed(), 1.0)


async def open_socket_terminal(sock: socket.socket, *, telnet: bool, announce: bool = False,
                               charset: Charset | None = None,
                               rows: int | None = None) -> SocketTerminal:
    """Wrap a connected socket for the session.

    ``telnet``: strip and answer IAC on input, double 0xFF on output.  ``announce``: also
    offer our options first (echo, binary, NAWS), for a client nobody negotiated with; a
    BBS that bridges the caller has done that already, and an SSH caller must never see it.
    """
    try:
        name = sock.getpeername()
    except OSError:
        name = None
    peer = f"{name[0]}:{name[1]}" if isinstance(name, tuple) else "bbs"
    reader, writer = await open_stream(sock)
    terminal = SocketTerminal(reader, writer, telnet=telnet, charset=charset, rows=rows,
                              peer=peer)
    if terminal.telnet is not None and announce:
        writer.write(terminal.telnet.greeting())
    return terminal
