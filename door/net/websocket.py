"""Web callers: the play page's terminal (xterm.js) on a WebSocket, straight into a Session.

No telnet in between: the browser sends the caller's keys as binary messages and its window
size as a text message ``{"resize": [cols, rows]}``; the door sends the screen as binary
messages, UTF-8 (xterm.js decodes nothing else).  Everything a caller writes in one turn of
the event loop goes out as one message, so a frame is one WebSocket message, not dozens.

:func:`serve_websocket` is the listener's side of door/pool.py's interface: admit, heard on
every message, the pool's hang-up closes the socket, the ticket closed when it is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import WSMsgType, web

from ..guard import address_of
from ..pool import LoginPool, Refused
from ..term import Charset
from .telnet import notice
from .terminal import INPUT_HELD, READ_SIZE, Terminal

log = logging.getLogger(__name__)

SessionRunner = Callable[[Terminal], Awaitable[None]]
CLOSE_WAIT_S = 2.0  # a closing socket's last frame and close handshake, at most


class WebSocketTerminal(Terminal):
    """One browser's terminal.  Reads come from :meth:`feed` (the socket's reader calls
    it); writes are gathered and sent as one binary message per turn of the loop."""

    kind = "web"
    fixed_charset = True  # xterm.js decodes UTF-8 and nothing else

    def __init__(self, ws: web.WebSocketResponse, peer: str, cols: int = 80,
                 rows: int = 25) -> None:
        super().__init__(cols=cols, rows=rows, charset=Charset("utf8"),
                         term_type="xterm-256color", peer=peer)
        self.color = True
        self._ws = ws
        self._input = bytearray()
        self._arrived = asyncio.Event()  # keys, a wake, or the end
        self._room = asyncio.Event()  # the session took what was waiting
        self._room.set()
        self._woken = False
        self._out = bytearray()
        self._sender: asyncio.Future | None = None
        self.gone = False
        """The socket is closed: reads say so at once, writes are dropped."""
        self.closing: asyncio.Future | None = None  # the pool's hang-up, under way

    # -- the socket's side ------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        if data and not self.gone:
            self._input += data
            self._arrived.set()
            if len(self._input) >= INPUT_HELD:
                self._room.clear()

    async def room(self) -> None:
        """Wait until the session has taken most of the keys waiting."""
        await self._room.wait()

    def lost(self) -> None:
        """The socket is gone: what the caller typed before is dropped, reads end."""
        self.gone = True
        self._input.clear()
        self._out.clear()
        self._arrived.set()
        self._room.set()

    # -- the session's side -----------------------------------------------------------------
    async def read(self) -> bytes:
        if self.gone:
            return b""
        early = self.take_pushback()
        if early:
            return early
        while not self._input and not self._woken and not self.gone:
            self._arrived.clear()
            await self._arrived.wait()
        if self.gone:
            return b""
        if not self._input:  # woken: the session looks at its keys (a resize) again
            self._woken = False
            return b"\0"
        data = bytes(self._input[:READ_SIZE])
        del self._input[:READ_SIZE]
        if len(self._input) < INPUT_HELD // 2:
            self._room.set()
        return data

    def wake(self) -> None:
        self._woken = True
        self._arrived.set()

    def write(self, data: bytes) -> None:
        if self.gone or not data:
            return
        self._out += data
        if self._sender is None or self._sender.done():
            # Starts on the next turn of the loop: the rest of this frame joins the message.
            self._sender = asyncio.ensure_future(self._send_all())

    async def _send_all(self) -> None:
        try:
            while self._out and not self.gone:
                data = bytes(self._out)
                self._out.clear()
                await self._ws.send_bytes(data)
        except (ConnectionError, RuntimeError, OSError) as exc:  # closed under us
            log.debug("%s: send: %s", self.peer, exc)
            self.lost()

    async def drain(self) -> None:
        if self._sender is not None:
            await asyncio.shield(self._sender)  # a timed-out drain leaves the send going
        if self.gone:
            raise ConnectionError("the browser has gone")

    async def close(self) -> None:
        """Send what is waiting, then close the socket (never hangs)."""
        with contextlib.suppress(ConnectionError, TimeoutError):
            await asyncio.wait_for(self.drain(), CLOSE_WAIT_S)
        self.lost()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._ws.close(), CLOSE_WAIT_S)


def window_size(text: str) -> tuple[int, int] | None:
    """``(cols, rows)`` from a ``{"resize": [cols, rows]}`` message, None for anything else."""
    try:
        message = json.loads(text)
        cols, rows = message["resize"]
    except (ValueError, TypeError, KeyError):
        return None
    if isinstance(cols, int) and isinstance(rows, int) and 0 < cols < 1000 and 0 < rows < 1000:
        return cols, rows
    return None


async def serve_websocket(ws: web.WebSocketResponse, peer: str, run_session: SessionRunner,
                          pool: LoginPool | None, cols: int = 80, rows: int = 25) -> None:
    """One browser caller on a WebSocket already open: the login pool, then
    ``run_session(terminal)`` while this reads the socket; returns once both are over."""
    terminal = WebSocketTerminal(ws, peer, cols, rows)

    def hang_up(reason: str) -> None:  # the pool's: one line saying why, then close
        terminal.write(notice(reason))
        terminal.closing = asyncio.ensure_future(terminal.close())

    if pool is not None:
        try:
            terminal.ticket = pool.admit(address_of(peer), f"web {peer}", hang_up)
        except Refused as exc:
            log.warning("web %s: refused: %s", peer, exc)
            terminal.write(notice(str(exc)))
            await terminal.close()
            return
    session = asyncio.create_task(_run(run_session, terminal))
    try:
        await _pump(ws, terminal)
    finally:
        terminal.lost()
        terminal.wake()
        if terminal.ticket is not None:
            terminal.ticket.close()
        with contextlib.suppress(Exception):
            await session
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), CLOSE_WAIT_S)


async def _run(run_session: SessionRunner, terminal: WebSocketTerminal) -> None:
    """The session, then the socket closed with its last screen sent."""
    try:
        await run_session(terminal)
    except ConnectionError:
        pass
    except Exception:
        log.exception("session on %s ended by an error", terminal.peer)
    finally:
        await terminal.close()


async def _pump(ws: web.WebSocketResponse, terminal: WebSocketTerminal) -> None:
    """The socket's messages into the terminal until the socket closes: the browser went,
    or the session ended and closed it (:func:`_run`)."""
    ticket = terminal.ticket
    async for message in ws:
        if ticket is not None:
            ticket.heard()
        if message.type == WSMsgType.BINARY:
            terminal.feed(message.data)
            await terminal.room()  # a flood waits in the kernel's buffers, not ours
        elif message.type == WSMsgType.TEXT:
            size = window_size(message.data)
            if size is not None:
                terminal.resized(*size)
