"""The web listener's door keeper: how many HTTP connections (WebSockets included) one
address, and everyone together, may hold open; the surplus is answered with a status.

aiohttp has no hook between a connection's accept and its request handler, and closing the
transport from inside its handler's start-up (what the cap did before) leaves that handler's
task asserting on a connection already gone: one "Task exception was never retrieved"
traceback per refused connection.  So the refusal happens in front of aiohttp instead: the
listener's protocol factory is a :class:`Gate`, whose protocol looks at the peer as the
connection opens and either hands every event on to an aiohttp request handler made for it
(``web.Server`` is aiohttp's public protocol factory) or answers the HTTP status itself
(429 past the per-address cap, 503 past the total) and closes, no aiohttp code involved.

A refused connection is answered at once and its own request read and dropped for up to
:data:`LINGER_S` (closing a socket with a request unread makes the kernel reset the
connection, and the client may lose the answer); past :data:`MAX_LINGERING` refusals at
once, the next are closed right after the answer, so a flood costs no more descriptors.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from aiohttp import web

from ..config import Networks, address_in
from ..gate.guard import address_of

log = logging.getLogger(__name__)

LINGER_S = 1.0
"""How long a refused connection's request is read (and dropped) before it is closed."""
MAX_LINGERING = 64
"""Refused connections read at once; past this many the next are closed after the answer."""
RETRY_AFTER_S = 10

_REASONS = {429: "Too Many Requests", 503: "Service Unavailable"}


def refusal(status: int, text: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection."""
    body = (text + "\n").encode()
    return (f"HTTP/1.1 {status} {_REASONS[status]}\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
            f"Retry-After: {RETRY_AFTER_S}\r\nConnection: close\r\n\r\n").encode() + body


class Gate:
    """The protocol factory of the web listener: at most ``per_address`` connections from
    one address (an address listed in ``proxies``, a reverse proxy, has no such limit: its
    callers are told apart by X-Forwarded-For) and ``total`` from everyone."""

    def __init__(self, server: web.Server, per_address: int, total: int,
                 proxies: Networks) -> None:
        self.server, self.per_address, self.total, self.proxies = (server, per_address,
                                                                   total, proxies)
        self.open: Counter[str] = Counter()
        """Connections handed to aiohttp, by address (proxies under their own address)."""
        self.count = 0
        self.lingering = 0

    def __call__(self) -> GatedConnection:
        return GatedConnection(self)

    def admit(self, host: str) -> int:
        """0 when ``host`` may open one more connection (it is then counted), else the
        HTTP status that refuses it."""
        if self.count >= self.total:
            return 503
        if self.open[host] >= self.per_address and not address_in(host, self.proxies):
            return 429
        self.open[host] += 1
        self.count += 1
        return 0

    def release(self, host: str) -> None:
        self.count -= 1
        self.open[host] -= 1
        if self.open[host] <= 0:
            del self.open[host]


class GatedConnection(asyncio.Protocol):
    """One connection: refused with a status, or aiohttp's request handler behind it."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.inner: asyncio.Protocol | None = None
        self.host = ""
        self.transport: asyncio.Transport | None = None
        self._linger: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        host, port = (str(peer[0]), peer[1]) if peer else ("?", 0)
        self.host = host if address_in(host, self.gate.proxies) else address_of(f"{host}:{port}")
        status = self.gate.admit(self.host)
        if status:
            self._refuse(transport, status, f"{host}:{port}")
            return
        self.inner = self.gate.server()
        self.inner.connection_made(transport)

    def _refuse(self, transport: asyncio.Transport, status: int, peer: str) -> None:
        gate = self.gate
        if status == 429:
            log.warning("web %s: refused (429): more than %d HTTP connections at once from "
                        "that address", peer, gate.per_address)
            text = "Too many connections at once from your address: try again soon."
        else:
            log.warning("web %s: refused (503): %d HTTP connections open, the most [web] "
                        "max_connections allows", peer, gate.total)
            text = "The door is answering as many connections as it can: try again soon."
        transport.write(refusal(status, text))
        if gate.lingering >= MAX_LINGERING:
            transport.close()
            return
        try:
            if transport.can_write_eof():
                transport.write_eof()
        except OSError:  # the client has gone already
            transport.close()
            return
        gate.lingering += 1
        self._linger = asyncio.get_running_loop().call_later(LINGER_S, transport.close)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)  # a refused connection's request is dropped

    def eof_received(self) -> bool | None:
        if self.inner is not None:
            return self.inner.eof_received()
        return False  # refused, and the client is done: close

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.gate.release(self.host)
            inner, self.inner = self.inner, None
            inner.connection_lost(exc)
        elif self._linger is not None:
            self._linger.cancel()
            self._linger = None
            self.gate.lingering -= 1
        self.transport = None

