"""RLogin callers (RFC 1282): how BBSes send their users to a door server.

The client opens with four NUL-terminated strings: an empty one, the client user name, the
server user name and ``terminal-type/speed``.  Door networks use them as the BBS's shared
secret and its user's handle (which field carries which varies: Synchronet's ``rlogin.js``
puts the alias first, ENiGMA½'s modules and Mystic put the password first), and a terminal
type ``xtrn=CODE`` asks for one door straight away.  The server answers one NUL byte, then
bytes flow both ways untouched.  Window sizes come in-band (``FF FF 73 73`` and four 16-bit
numbers) once the server asks with the urgent byte 0x80.

This module is the protocol only: who may call, and as whom, is decided by the server
(``door/serve/server.py``) from sysop.ini's ``[boards]``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..term.digits import parse_number
from .stream import StreamTerminal, serve_streams

log = logging.getLogger(__name__)

HANDSHAKE_TIMEOUT = 10.0  # seconds for the four opening strings: a BBS sends them at once
HANDSHAKE_MAX = 512  # bytes: the strings are names and a terminal type
WINDOW_REQUEST = b"\x80"  # urgent byte: "send me your window size"
WINDOW_MAGIC = b"\xff\xffss"
WINDOW_MESSAGE = 12  # the magic and four 16-bit numbers: rows, columns, x and y pixels
XTRN = "xtrn="

SessionRunner = Callable[["RLoginTerminal"], Awaitable[None]]


class HandshakeError(Exception):
    """The connection did not open as an RLogin client does; ``str()`` says how."""


@dataclass(frozen=True)
class Hello:
    """The client's opening: the two user-name fields and the terminal type."""

    client_user: str
    server_user: str
    term_type: str  # without the "/speed"
    speed: int | None = None

    @property
    def xtrn(self) -> str | None:
        """The door code of a terminal type ``xtrn=CODE`` (Synchronet's convention)."""
        if self.term_type.lower().startswith(XTRN):
            return self.term_type[len(XTRN):].strip()
        return None


def parse_hello(data: bytes) -> Hello | None:
    """The opening in ``data``, or None while incomplete; HandshakeError if it is not one."""
    if not data:
        return None
    if data[:1] != b"\0":
        raise HandshakeError("not an RLogin client (the first byte is not NUL)")
    fields = data[1:].split(b"\0")
    if len(fields) < 4:
        if len(data) >= HANDSHAKE_MAX:
            raise HandshakeError("an opening longer than any RLogin client sends")
        return None
    client, server, term = (f.decode("utf-8", "replace") for f in fields[:3])
    kind, _, speed = term.partition("/")
    return Hello(client, server, kind.strip(), parse_number(speed))


class RLoginTerminal(StreamTerminal):
    """One RLogin caller; :meth:`handshake` first, then the usual terminal."""

    kind = "rlogin"

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 peer: str) -> None:
        super().__init__(reader, writer, 80, 24, peer=peer)
        self.hello: Hello | None = None
        self._answered = False
        self._window_asked = False
        self._held = b""  # the start of a window-size message split across reads
        self._sizes_seen = 0

    async def handshake(self, timeout: float = HANDSHAKE_TIMEOUT) -> Hello:
        """Read the client's opening and answer it; HandshakeError if it never comes right."""
        data = b""
        try:
            async with asyncio.timeout(timeout):
                while (hello := parse_hello(data)) is None:
                    chunk = await self._reader.read(HANDSHAKE_MAX)
                    if not chunk:
                        raise HandshakeError("the client hung up before its opening")
                    data += chunk
        except TimeoutError:
            raise HandshakeError(f"no RLogin opening within {timeout:g} s") from None
        except (ConnectionError, OSError) as exc:
            raise HandshakeError(f"the connection failed: {exc}") from None
        rest = data[1:].split(b"\0", 3)[3]
        self.hello = hello
        self.term_type = hello.term_type.lower()
        self._answer()
        if rest:
            self.unread(self._take_window_sizes(rest))
        return hello

    def _answer(self) -> None:
        """The NUL that starts the data phase: before anything else we ever send."""
        if not self._answered:
            self._answered = True
            self._send(b"\0")

    def write(self, data: bytes) -> None:
        self._answer()
        self._send(data)

    async def ask_window_size(self) -> None:
        """Send the urgent byte 0x80: clients that can (rlogin, PuTTY, SyncTERM) answer with
        their window size in-band.  A BBS gateway usually cannot, and stays 80x24."""
        await self.drain()  # the NUL first: urgent data may overtake what is queued
        sock = self._writer.get_extra_info("socket")
        if sock is None:
            return
        try:
            with socket.socket(fileno=os.dup(sock.fileno())) as dup:
                dup.send(WINDOW_REQUEST, socket.MSG_OOB)
        except OSError as exc:
            log.debug("%s: window size not asked: %s", self.peer, exc)
            return
        self._window_asked = True

    def _incoming(self, data: bytes) -> bytes:
        before = self._sizes_seen
        clean = self._take_window_sizes(data)
        return clean or (b"\0" if self._sizes_seen != before else b"")

    def _take_window_sizes(self, data: bytes) -> bytes:
        """The caller's bytes without the window-size messages (after we asked for them)."""
        if not self._window_asked:
            return data
        data, self._held = self._held + data, b""
        out = bytearray()
        while data:
            at = data.find(WINDOW_MAGIC[:1])
            if at < 0:
                out += data
                break
            out += data[:at]
            data = data[at:]
            if len(data) < WINDOW_MESSAGE and WINDOW_MAGIC.startswith(data[:4]):
                self._held = data  # maybe the start of a message: wait for the rest
                break
            if data.startswith(WINDOW_MAGIC):
                rows, cols, _, _ = struct.unpack(">4H", data[4:WINDOW_MESSAGE])
                self._sizes_seen += 1
                self.resized(cols, rows)
                data = data[WINDOW_MESSAGE:]
            else:
                out += data[:1]
                data = data[1:]
        return bytes(out)

    async def close(self) -> None:
        await super().close()
        self._writer.close()
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await asyncio.wait_for(self._writer.wait_closed(), 1.0)


async def start_rlogin(host: str, port: int, run_session: SessionRunner) -> asyncio.Server:
    """Listen for RLogin callers; each gets ``run_session(terminal)`` before its handshake
    (the server decides whether to read it), and is closed afterwards whatever happens."""
    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        name = writer.get_extra_info("peername")
        peer = f"{name[0]}:{name[1]}" if isinstance(name, tuple) else "?"
        terminal = RLoginTerminal(reader, writer, peer)
        try:
            await run_session(terminal)
        except ConnectionError:
            pass
        except Exception:
            log.exception("rlogin session on %s ended by an error", peer)
        finally:
            await terminal.close()

    return await serve_streams(connected, host, port)
