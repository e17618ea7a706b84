"""Helpers for the web tests: a browser-protocol caller (aiohttp's WebSocket client, as the
play page talks: keys as binary messages, the window size as a text message) whose screen
is a pyte terminal, and plain HTTP gets."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
from typing import Any

import aiohttp
from pyteterm import PyteCaller, PyteTerminal


class _Inbox:
    """The server's binary messages as a byte stream with a cancel-safe ``read``; its text
    messages (the page's side messages, JSON) in ``side``."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        self.side: list[dict[str, Any]] = []
        self.task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        try:
            async for message in self.ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.queue.put_nowait(message.data)
                elif message.type == aiohttp.WSMsgType.TEXT:
                    self.side.append(json.loads(message.data))
                    self.queue.put_nowait(b"\0")  # wakes a reader: pyte draws no NUL
        finally:
            self.queue.put_nowait(b"")

    async def read(self, _n: int = -1) -> bytes:
        data = await self.queue.get()
        if not data:
            self.queue.put_nowait(b"")  # the end stays the end
        return data


class _Outbox:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.sending: list[asyncio.Future] = []

    def write(self, data: bytes) -> None:
        self.sending.append(asyncio.ensure_future(self.ws.send_bytes(data)))


class WebCaller(PyteCaller):
    """A browser-protocol caller on the play page's WebSocket."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse,
                 term: PyteTerminal) -> None:
        super().__init__(_Inbox(ws), _Outbox(ws), term)
        self.http, self.ws = http, ws

    @classmethod
    async def connect(cls, port: int, rows: int = 25, origin: str | None = "",
                      host: str = "127.0.0.1", headers: dict[str, str] | None = None,
                      path: str = "/play", query: str = "") -> WebCaller:
        """``origin``: "" for the door's own page (http://host:port), None for none;
        ``path``: another socket (a replay's, the watch page's), ``query`` more of it."""
        http = aiohttp.ClientSession()
        url = f"http://{host}:{port}"
        try:
            ws = await http.ws_connect(f"{url}{path}?rows={rows}{query}", origin=(
                url if origin == "" else origin), headers=headers or {})
        except BaseException:
            await http.close()
            raise
        return cls(http, ws, PyteTerminal(80, rows, "utf8"))

    def resize(self, cols: int, rows: int) -> None:
        self.term.screen.resize(rows, cols)
        self.writer.sending.append(asyncio.ensure_future(
            self.ws.send_str(json.dumps({"resize": [cols, rows]}))))

    @property
    def side(self) -> list[dict[str, Any]]:
        """The door's text messages so far, oldest first."""
        return self.reader.side

    async def wait_side(self, key: str, value: Any = None, timeout: float = 10.0
                        ) -> dict[str, Any]:
        """The first side message holding ``key`` (equal to ``value`` unless None)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for message in self.side:
                if key in message and (value is None or message[key] == value):
                    return message
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no side message {key}={value!r}: {self.side}")
            await self.pump(0.05)

    async def drop(self) -> None:
        """The line drops: the connection ends with no WebSocket close (as a phone
        changing networks), and the server finds out from TCP."""
        sock = self.ws.get_extra_info("socket")
        assert sock is not None, "no socket under the WebSocket"
        sock.shutdown(socket.SHUT_RDWR)
        self.reader.task.cancel()
        await self.http.close()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.reader.task.cancel()
        await self.http.close()


async def get(port: int, path: str, **kw: Any) -> tuple[int, dict[str, str], str]:
    """(status, headers, body) of a GET on the door's HTTP listener."""
    async with aiohttp.ClientSession() as http, http.get(
            f"http://127.0.0.1:{port}{path}", allow_redirects=False, **kw) as response:
        return (response.status, dict(response.headers),
                (await response.read()).decode("utf-8", "replace"))


def masked_frame(payload: bytes, opcode: int = 0x2) -> bytes:
    """One WebSocket message from a client, masked as RFC 6455 wants (binary by default)."""
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | size]) if size < 126 else
                                     bytes([0x80 | 126]) + size.to_bytes(2) if size < 65536
                                     else bytes([0x80 | 127]) + size.to_bytes(8))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def handshake(port: int, host: str = "127.0.0.1") -> bytes:
    """The opening of a WebSocket to the play page, as a browser on the door's page sends
    it (no compression offered)."""
    key = base64.b64encode(os.urandom(16)).decode()
    origin = f"http://{host}:{port}" if ":" not in host else f"http://[{host}]:{port}"
    return (f"GET /play HTTP/1.1\r\nHost: {origin[7:]}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n").encode()
