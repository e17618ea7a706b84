"""RLogin's client side (RFC 1282): how ``reussite bridge`` calls a Réussite hub.

The client opens with four NUL-terminated strings (an empty one, the client user name, the
server user name, ``terminal-type/speed``) and the server answers one NUL byte; then bytes
flow both ways untouched, 8 bits clean.  The server talks back out of band once: a TCP
urgent byte whose bit 0x80 asks for the window size, which the client then sends in-band
(``FF FF 73 73`` and rows, columns, x and y pixels as 16-bit numbers) at once and after
every change.  :mod:`door.net.rlogin` is the server side of the same protocol.

The urgent byte does not wake a read (it is not data), so the kernel's SIGURG says when it
has come, as BSD's rlogin does; every read from the hub looks for it too, for a system that
sends no SIGURG.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import signal
import socket
import struct
from dataclasses import dataclass
from typing import Any

from .rlogin import WINDOW_MAGIC, WINDOW_REQUEST

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10.0
"""Seconds for the connection and the hub's answering NUL (a hub far away, a slow DNS)."""
READ_SIZE = 4096
URGENT_WINDOW = WINDOW_REQUEST[0]  # bit 0x80 of the urgent byte: "send your window size"
MAX_WINDOW = 0xFFFF


class HubError(Exception):
    """The hub cannot be reached, or did not answer as an RLogin server; ``str()`` says
    why in one line (for the log: the caller gets a plainer one)."""


@dataclass(frozen=True)
class Opening:
    """The client's four strings.  ``speed`` travels after the terminal type, as ``/38400``."""

    client_user: str
    server_user: str
    term_type: str
    speed: int = 38400

    def encode(self) -> bytes:
        fields = (self.client_user, self.server_user, f"{self.term_type}/{self.speed}")
        for field in fields:
            if "\0" in field:
                raise ValueError("an RLogin opening field cannot hold a NUL byte")
        return b"\0" + b"".join(field.encode("utf-8") + b"\0" for field in fields)


def window_message(cols: int, rows: int) -> bytes:
    """The in-band window-size message: the magic, then rows, columns and no pixel sizes."""
    cols, rows = (max(0, min(MAX_WINDOW, n)) for n in (cols, rows))
    return WINDOW_MAGIC + struct.pack(">4H", rows, cols, 0, 0)


class HubLink:
    """One call to the hub, after its answering NUL: :meth:`read` and :meth:`write` carry
    the caller's bytes, :meth:`set_window` the window size (sent once the hub asked).

    The socket is read here, not by an asyncio transport: the kernel drops an urgent byte
    that normal reads have passed, and a read stops at it, so looking for it before each
    read catches it (and SIGURG, when the hub sends nothing after it)."""

    def __init__(self, sock: socket.socket, peer: str) -> None:
        self._sock = sock
        self._loop = asyncio.get_running_loop()
        self.peer = peer
        self.window_asked = False
        """The hub asked for the window size: it took the call (a refusing hub never asks)."""
        self._window: tuple[int, int] | None = None
        self._sent_window: tuple[int, int] | None = None
        self._urgent_signal = False
        self._out = bytearray()
        self._sending: asyncio.Future[None] | None = None
        self.closed = False

    @classmethod
    async def connect(cls, host: str, port: int, opening: Opening,
                      timeout: float = CONNECT_TIMEOUT) -> HubLink:
        """Connect, send the opening, and wait for the hub's NUL; HubError otherwise."""
        loop = asyncio.get_running_loop()
        peer = f"{host}:{port}"
        link: HubLink | None = None
        try:
            async with asyncio.timeout(timeout):
                infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
                link = cls(await _connect_first(loop, infos), peer)
                link._watch_urgent()
                link.write(opening.encode())
                await link.drain()
                answer = await link.read(1)
        except TimeoutError:
            if link is not None:
                await link.close()
            raise HubError(f"{peer}: no answer within {timeout:g} s") from None
        except socket.gaierror as exc:
            raise HubError(f"{host}: no such host ({exc.strerror})") from None
        except OSError as exc:
            if link is not None:
                await link.close()
            raise HubError(f"{peer}: {exc.strerror or exc}") from None
        assert link is not None
        if answer != b"\0":
            await link.close()
            what = "closed the connection" if not answer else f"answered {answer!r}"
            raise HubError(f"{peer} {what} instead of RLogin's NUL: is this its RLogin "
                           "port?")
        return link

    # -- urgent data --------------------------------------------------------------------

    def _watch_urgent(self) -> None:
        """SIGURG for this socket to this process, handled in the loop."""
        try:
            fcntl.fcntl(self._sock.fileno(), fcntl.F_SETOWN, os.getpid())
            self._loop.add_signal_handler(signal.SIGURG, self._take_urgent)
        except (OSError, ValueError, RuntimeError, NotImplementedError) as exc:
            log.debug("no SIGURG for the hub's urgent byte (%s): looked for at each read",
                      exc)
            return
        self._urgent_signal = True

    def _take_urgent(self) -> None:
        """Read the urgent byte, if one is waiting, and do what it asks."""
        if self.closed:
            return
        try:
            mark = self._sock.recv(1, socket.MSG_OOB | socket.MSG_DONTWAIT)
        except OSError as exc:  # EINVAL: none waiting; EAGAIN: not arrived yet
            if exc.errno not in (errno.EINVAL, errno.EAGAIN, errno.EWOULDBLOCK):
                log.debug("%s: urgent byte not read: %s", self.peer, exc)
            return
        if mark and mark[0] & URGENT_WINDOW:
            if not self.window_asked:
                log.debug("%s: the hub asks for the window size", self.peer)
            self.window_asked = True
            self._sent_window = None  # asked again: send it again
            self._send_window()
        # 0x02 (flush output) and 0x10/0x20 (flow control) mean nothing here: the caller's
        # terminal is the BBS's, and it does its own flow control.

    # -- the window size ----------------------------------------------------------------

    def set_window(self, cols: int, rows: int) -> None:
        """The caller's window: sent now if the hub asked for it, else when it does."""
        self._window = (cols, rows)
        self._send_window()

    def _send_window(self) -> None:
        if self.window_asked and self._window is not None and self._window != self._sent_window:
            self._sent_window = self._window
            self.write(window_message(*self._window))

    # -- bytes --------------------------------------------------------------------------

    async def read(self, size: int = READ_SIZE) -> bytes:
        """The hub's next bytes; ``b""`` once it has hung up (or the connection failed)."""
        while not self.closed:
            self._take_urgent()  # before the read that would pass it
            try:
                data = self._sock.recv(size)
            except (BlockingIOError, InterruptedError):
                await self._readable()
                continue
            except OSError:
                return b""
            self._take_urgent()
            return data
        return b""

    async def _readable(self) -> None:
        fd = self._sock.fileno()
        ready: asyncio.Future[None] = self._loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        self._loop.add_reader(fd, wake)
        try:
            await ready
        finally:
            if not self.closed:
                self._loop.remove_reader(fd)

    def write(self, data: bytes) -> None:
        """Queue ``data`` for the hub (nothing once it has gone)."""
        if self.closed or (self._sending is not None and self._sending.done()
                           and self._sending.exception() is not None):
            return
        self._out += data
        if self._sending is None or self._sending.done():
            self._sending = asyncio.ensure_future(self._send_queued())

    async def _send_queued(self) -> None:
        while self._out:
            chunk = bytes(self._out)
            self._out.clear()
            await self._loop.sock_sendall(self._sock, chunk)

    async def drain(self) -> None:
        """Wait until what was written is sent; ConnectionError (or OSError) once the
        hub is gone."""
        sending = self._sending
        if sending is not None:
            await asyncio.shield(sending)

    async def close(self) -> None:
        """Hang up: the hub sees the end of its caller's input (and saves their game)."""
        if self.closed:
            return
        if self._urgent_signal:
            with contextlib.suppress(RuntimeError, ValueError):
                self._loop.remove_signal_handler(signal.SIGURG)
            self._urgent_signal = False
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await asyncio.wait_for(self.drain(), 1.0)
        self.closed = True
        if self._sending is not None and not self._sending.done():
            self._sending.cancel()
        with contextlib.suppress(OSError, ValueError):
            self._loop.remove_reader(self._sock.fileno())
        self._sock.close()


async def _connect_first(loop: asyncio.AbstractEventLoop, infos: list[Any]) -> socket.socket:
    """A connected non-blocking socket to the first address that answers."""
    error: OSError | None = None
    for family, kind, proto, _, address in infos:
        sock = socket.socket(family, kind, proto)
        sock.setblocking(False)
        try:
            await loop.sock_connect(sock, address)
        except OSError as exc:
            sock.close()
            error = exc
            continue
        return sock
    raise error or OSError("no address to connect to")
