"""Web callers: the play page's terminal (xterm.js) on a WebSocket, straight into a Session.

No telnet in between: the browser sends the caller's keys as binary messages and its window
size as a text message ``{"resize": [cols, rows]}``; the door sends the screen as binary
messages, UTF-8 (xterm.js decodes nothing else).  Everything a caller writes in one turn of
the event loop goes out as one message, so a frame is one WebSocket message, not dozens.
Beside the screen the door sends a few text messages, JSON, for the page around the
terminal: ``{"doing": "Playing <title>", "caller": "Ada"}`` when the caller changes
screens (its title and key bar follow), ``{"say": "…"}`` with what changed on the board in
words, for the page's live region, once the page asked with ``{"describe": true}`` (its
screen-reader switch), and whatever the listener adds (``side``).

:func:`serve_websocket` is the listener's side of door/gate/pool.py's interface: admit, heard on
every message, the pool's hang-up closes the socket, the ticket closed when it is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSMsgType, web

from ..gate.guard import address_of
from ..gate.pool import LoginPool, Refused
from ..term import Charset
from .buffers import INPUT_HELD, READ_SIZE
from .telnet import notice
from .terminal import Terminal

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
        self._woken = False
        self._out = bytearray()
        self._side: list[str] = []  # text messages for the page, sent after the bytes before
        self._sender: asyncio.Future[None] | None = None
        self._cursor = True  # xterm.js shows its cursor until told otherwise
        self.account: Any = None
        """An account the listener vouches for (a page resuming a dropped call:
        door/web/resume.py): the door then asks for no password, as for SSH's."""
        self.first_action: str | None = None
        """A game to open first, before the main menu (the one a resumed call was
        playing when its line dropped); None: the title, then the menu."""
        self.on_doing: Callable[[WebSocketTerminal, str, str], None] | None = None
        """The listener's ear for :meth:`doing` (this terminal, alias, activity): handed the
        terminal, it holds none (a reference cycle kept the ended call for the server's
        full collection: door/serve/collector.py)."""
        self.closing: asyncio.Future[None] | None = None  # the pool's hang-up, under way
        self.door_closed = False
        """The door ended the call (:meth:`close`), rather than the browser going."""

    # -- the socket's side ------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Keys from the browser, kept up to INPUT_HELD waiting; past that they are
        dropped, and the socket is read all the same: a close behind a paste the door
        would play for minutes is seen when it comes."""
        if data and not self.gone:
            room = INPUT_HELD - len(self._input)
            if room <= 0:
                return
            self._input += data[:room]
            self._arrived.set()

    def lost(self) -> None:
        """The socket is gone: what the caller typed before is dropped, reads end."""
        self._input.clear()
        self._out.clear()
        self._side.clear()
        self.dropped()
        self._arrived.set()

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
        return data

    def wake(self) -> None:
        self._woken = True
        self._arrived.set()

    def write(self, data: bytes) -> None:
        if self.gone or not data:
            return
        self._out += data
        self._send_soon()

    def side(self, message: dict[str, Any]) -> None:
        """A text message for the page (JSON), after the screen's bytes written before."""
        if not self.gone:
            self._side.append(json.dumps(message, ensure_ascii=False))
            self._send_soon()

    def _send_soon(self) -> None:
        if self._sender is None or self._sender.done():
            # Starts on the next turn of the loop: the rest of this frame joins the message.
            self._sender = asyncio.ensure_future(self._send_all())

    def doing(self, caller: Any, activity: str) -> None:
        alias = str(getattr(caller, "alias", ""))
        self.side({"doing": activity, "caller": alias})
        if self.on_doing is not None:
            self.on_doing(self, alias, activity)

    def announce(self, text: str) -> None:
        self.side({"say": text})

    def cursor_shown(self, shown: bool) -> None:
        if shown != self._cursor:
            self._cursor = shown
            self.write(b"\x1b[?25h" if shown else b"\x1b[?25l")

    async def _send_all(self) -> None:
        try:
            while (self._out or self._side) and not self.gone:
                if self._out:
                    data = bytes(self._out)
                    self._out.clear()
                    await self._ws.send_bytes(data)
                if self._side and not self._out:
                    await self._ws.send_str(self._side.pop(0))
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
        self.door_closed = True
        try:
            await asyncio.wait_for(self.drain(), CLOSE_WAIT_S)
        except (ConnectionError, TimeoutError) as exc:
            # wait_for's task keeps the error, whose traceback holds wait_for's frame, which
            # holds the task: a reference cycle that kept the call for the server's full
            # collection (door/serve/collector.py).
            exc.__traceback__ = None
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


def announcements_wanted(text: str) -> bool | None:
    """``{"describe": true}`` (the page's screen-reader switch, on or off): whether the
    page wants what changed said in words after each move; None for anything else."""
    try:
        wanted = json.loads(text)["describe"]
    except (ValueError, TypeError, KeyError):
        return None
    return wanted if isinstance(wanted, bool) else None


async def serve_websocket(ws: web.WebSocketResponse, peer: str, run_session: SessionRunner,
                          pool: LoginPool | None, cols: int = 80, rows: int = 25,
                          prepare: Callable[[WebSocketTerminal], None] | None = None,
                          logged_in: bool = False) -> bool:
    """One browser caller on a WebSocket already open: the login pool, then
    ``run_session(terminal)`` while this reads the socket; returns once both are over:
    True when the browser went first (a dropped line, a closed tab), False when the door
    ended the call.  ``prepare`` sees the terminal before the session starts;
    ``logged_in``: a caller who never logs in (a read-only viewer) leaves the pool at once,
    counted against its address only."""
    terminal = WebSocketTerminal(ws, peer, cols, rows)
    if prepare is not None:
        prepare(terminal)

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
            return False
        if logged_in:
            terminal.ticket.heard()
            terminal.ticket.logged_in()
    session = asyncio.create_task(_run(run_session, terminal))
    went_first = False
    try:
        await _pump(ws, terminal)
        went_first = not terminal.door_closed
    finally:
        terminal.lost()
        terminal.wake()
        if terminal.ticket is not None:
            terminal.ticket.close()
        with contextlib.suppress(Exception):
            await session
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), CLOSE_WAIT_S)
    return went_first


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
            if ticket is not None:
                ticket.typed()  # keys: never dropped for room (door/gate/pool.py)
            terminal.feed(message.data)
        elif message.type == WSMsgType.TEXT:
            size = window_size(message.data)
            if size is not None:
                terminal.resized(*size)
            else:
                wants = announcements_wanted(message.data)
                if wants is not None:
                    terminal.announces = wants
