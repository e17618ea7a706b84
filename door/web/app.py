"""The HTTP listener of ``reussite serve`` (aiohttp, on the server's own event loop).

``/``          the play page: xterm.js (vendored under static/vendor) on a WebSocket
``/play``      that WebSocket: door/net/websocket.py gives its caller a Session, through the
               same login pool, logins, nodes, takeover and logs as telnet and SSH
``/halloffame``, ``/halloffame/GAME[?board=TAG]``, ``/halloffame/GAME/DEAL``, ``/online``,
``/daily``     the public pages, plain HTML without JavaScript
``/api/...``   the same as JSON, for boards that embed them

:func:`start_web` is the one call that starts it (``reussite serve`` makes it; a worker
process of its own would too, with ``reuse_port``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import socket
import ssl
from collections.abc import Awaitable, Callable
from functools import cache
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from .. import gamelist
from ..config import ConfigError, Networks, Settings, address_in
from ..net.terminal import DEFAULT_ROWS, MAX_ROWS, Terminal
from ..net.websocket import serve_websocket
from ..pool import LoginPool
from ..store import Store, StoreError
from . import pages
from .gate import Gate
from .public import NotFound, PublicData, parse_deal, parse_game

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
PLAY_PAGE_ROWS = 25  # 80x25 until the browser says its window's size
WS_MAX_MESSAGE = 64 * 1024  # a key message is a few bytes; a paste at most this
WS_HEARTBEAT_S = 30.0  # a browser that answers no ping for this long has gone
WS_CLOSE_S = 2.0  # the door closed the socket: the browser's answer is awaited this long
SHUTDOWN_S = 2.0  # handlers still running when the listener closes get this long
HTML_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
               "form-action 'self'; frame-ancestors *")
PLAY_POLICY = ("default-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
               "img-src 'self' data:; frame-ancestors *")

SessionRunner = Callable[[Terminal], Awaitable[None]]
DOOR_KEY = web.AppKey("door", dict)


class WebListener:
    """The HTTP listener on its servers (one per address), as ``serve`` keeps its
    listeners: ``sockets``, ``close()``, ``wait_closed()``."""

    def __init__(self, runner: web.AppRunner, servers: list[asyncio.Server]) -> None:
        self.runner, self.servers = runner, servers
        self._closing: asyncio.Future | None = None

    @property
    def sockets(self) -> list[socket.socket]:
        return [sock for server in self.servers for sock in server.sockets]

    @property
    def port(self) -> int:
        return self.sockets[0].getsockname()[1]

    def close(self) -> None:
        if self._closing is None:
            for server in self.servers:
                server.close()
            self._closing = asyncio.ensure_future(self.runner.cleanup())

    async def wait_closed(self) -> None:
        self.close()
        assert self._closing is not None
        await self._closing


class QuietBadRequests(logging.Filter):
    """aiohttp logs a malformed request (which anyone can send, as often as they like) as an
    ERROR with a traceback: here it becomes one WARNING line, which door/loglimit.py holds
    back when it repeats.  Errors of the door's own handlers keep their traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            peer = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg = "web %s: a malformed HTTP request (%s)"
            record.args = (peer, str(error.message).splitlines()[0][:80] if error.message
                           else type(error).__name__)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


def quiet_bad_requests() -> None:
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, QuietBadRequests) for f in server_log.filters):
        server_log.addFilter(QuietBadRequests())


async def start_web(settings: Settings, run_session: SessionRunner, pool: LoginPool | None,
                    store: Store | None, hosts: list[str], port: int,
                    reuse_port: bool = False) -> WebListener:
    """Listen on each of ``hosts`` at ``port`` (0: one the OS picks for the first, then the
    same for the others).  ``reuse_port``: SO_REUSEPORT, for several processes on one port.
    The servers are the loop's own (``loop.create_server``), as telnet's and SSH's are, so
    a loop that shares its listeners between worker processes shares this one too.
    Raises OSError when an address is taken, ConfigError for unusable TLS files."""
    tls = tls_context(settings)
    quiet_bad_requests()
    app = make_app(settings, run_session, pool, store)
    # A connection that sends no request (or no next one) is closed after the pool's
    # first-byte timeout, not aiohttp's hour.
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_S,
                           handle_signals=False,
                           keepalive_timeout=settings.server.first_byte_timeout)
    await runner.setup()
    assert runner.server is not None
    web_settings = settings.web
    gate = Gate(runner.server, web_settings.connections_per_address,
                web_settings.max_connections, web_settings.proxies)
    loop = asyncio.get_running_loop()
    servers: list[asyncio.Server] = []
    try:
        for host in hosts:
            server = await loop.create_server(gate, host, port, ssl=tls,
                                              backlog=1024, reuse_port=reuse_port or None)
            servers.append(server)
            port = port or server.sockets[0].getsockname()[1]
    except BaseException:
        for server in servers:
            server.close()
        await runner.cleanup()
        raise
    return WebListener(runner, servers)


def tls_context(settings: Settings) -> ssl.SSLContext | None:
    files = settings.web_tls
    if files is None:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(*files)
    except (OSError, ssl.SSLError) as exc:
        raise ConfigError(f"[web] tls_cert {files[0]} and tls_key {files[1]}: cannot use "
                          f"them: {exc}") from None
    return context


def make_app(settings: Settings, run_session: SessionRunner, pool: LoginPool | None,
             store: Store | None) -> web.Application:
    app = web.Application(middlewares=[_headers])
    app[DOOR_KEY] = {"settings": settings, "run": run_session, "pool": pool,
                     "public": PublicData(settings, store)}
    routes = [
        web.get("/", play_page), web.get("/play", play_socket),
        web.get("/favicon.ico", no_icon),
        web.get("/halloffame", halls), web.get("/halloffame/{game}", hall),
        web.get("/halloffame/{game}/{number}", deal), web.get("/deal", deal_form),
        web.get("/online", online), web.get("/daily", daily),
        web.get("/api", api_index), web.get("/api/halloffame/{game}", hall),
        web.get("/api/halloffame/{game}/{number}", deal), web.get("/api/online", online),
        web.get("/api/daily", daily),
    ]
    app.add_routes(routes)
    app.router.add_static("/static", STATIC, append_version=False)
    if settings.league.enabled:
        from ..league.http import add_league_routes
        from ..league.keys import BoardKey

        add_league_routes(app, settings, store, BoardKey.load_or_create(settings.data_dir))
        app.add_routes([web.get("/league", league), web.get("/api/league", league)])
    return app


@web.middleware
async def _headers(request: web.Request, handler: Callable) -> web.StreamResponse:
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


# -- who is calling -------------------------------------------------------------------------

def peer_of(request: web.Request, proxies: Networks) -> str:
    """``host:port`` of the caller: the connection's, or, from a proxy listed in [web]
    proxies, the last address of its X-Forwarded-For (the one that proxy saw)."""
    peer = request.transport.get_extra_info("peername") if request.transport else None
    host, port = (peer[0], peer[1]) if peer else ("?", 0)
    forwarded = request.headers.get("X-Forwarded-For", "")
    if forwarded and address_in(host, proxies):
        last = forwarded.split(",")[-1].strip()
        with contextlib.suppress(ValueError):
            host = str(ipaddress.ip_address(last))
    return f"{host}:{port}"


def origin_allowed(request: web.Request, origins: tuple[str, ...]) -> bool:
    """A browser's WebSocket says which page opened it (Origin): this door's own page (the
    host and port the browser asked for), or one listed in [web] origins.  Anything else
    (a page elsewhere, or no Origin at all) is refused: no other site may play for a
    visitor of theirs."""
    origin = request.headers.get("Origin", "").strip().rstrip("/").lower()
    if not origin:
        return False
    if origin in origins:
        return True
    host = request.headers.get("Host", "").strip().lower()
    return bool(host) and urlsplit(origin).netloc == host


# -- the play page and its socket -----------------------------------------------------------

@cache
def _play_html() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8")


async def play_page(request: web.Request) -> web.Response:
    door = request.app[DOOR_KEY]
    html = _play_html().replace("{{door}}", escape(door["settings"].door.name))
    return web.Response(text=html, content_type="text/html", charset="utf-8",
                        headers={"Content-Security-Policy": PLAY_POLICY,
                                 "Cache-Control": "no-cache"})


async def no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204, headers={"Cache-Control": "public, max-age=86400"})


def _size(request: web.Request) -> tuple[int, int]:
    try:
        rows = int(request.query.get("rows", PLAY_PAGE_ROWS))
    except ValueError:
        rows = PLAY_PAGE_ROWS
    return 80, max(DEFAULT_ROWS, min(MAX_ROWS, rows))


async def play_socket(request: web.Request) -> web.StreamResponse:
    door = request.app[DOOR_KEY]
    settings: Settings = door["settings"]
    peer = peer_of(request, settings.web.proxies)
    if not origin_allowed(request, settings.web.origins):
        log.warning("web %s: WebSocket refused, Origin %r is not this door's", peer,
                    request.headers.get("Origin", "")[:80])
        return web.Response(status=403, text="This door's own page may open it, no other.\n")
    ws = web.WebSocketResponse(heartbeat=WS_HEARTBEAT_S, max_msg_size=WS_MAX_MESSAGE,
                               timeout=WS_CLOSE_S)
    if not ws.can_prepare(request).ok:
        return web.Response(status=400, text="A WebSocket, from the play page at /.\n")
    await ws.prepare(request)
    cols, rows = _size(request)
    await serve_websocket(ws, peer, door["run"], door["pool"], cols, rows)
    return ws


# -- the public pages and /api --------------------------------------------------------------

def _wants_json(request: web.Request) -> bool:
    return request.path.startswith("/api/") or request.path == "/api"


def _answer(request: web.Request, data: Any, html: Callable[[], str],
            status: int = 200) -> web.Response:
    door = request.app[DOOR_KEY]
    seconds = int(door["settings"].web.cache_seconds)
    headers = {"Cache-Control": f"public, max-age={seconds}" if status == 200 else "no-store"}
    if _wants_json(request):
        headers["Access-Control-Allow-Origin"] = "*"
        return web.Response(text=json.dumps(data, ensure_ascii=False), status=status,
                            content_type="application/json", charset="utf-8",
                            headers=headers)
    headers["Content-Security-Policy"] = HTML_POLICY
    return web.Response(text=html(), status=status, content_type="text/html",
                        charset="utf-8", headers=headers)


async def _public(request: web.Request, fetch: Callable[[PublicData], Awaitable[Any]],
                  html: Callable[[str, Any], str]) -> web.Response:
    door = request.app[DOOR_KEY]
    name = door["settings"].door.name
    try:
        data = await fetch(door["public"])
    except NotFound as exc:
        why = str(exc)
        return _answer(request, {"error": why}, lambda: pages.not_found_page(name, why), 404)
    except StoreError as exc:
        log.warning("web %s: %s", request.path, exc)
        return _answer(request, {"error": "scores are unavailable right now"},
                       lambda: pages.unavailable_page(name), 503)
    return _answer(request, data, lambda: html(name, data))


async def halls(request: web.Request) -> web.Response:
    async def fetch(public: PublicData) -> list[dict[str, Any]]:
        return [await public.hall(game) for game in gamelist.names()]
    return await _public(request, fetch, pages.halls_page)


async def hall(request: web.Request) -> web.Response:
    game, board = request.match_info["game"], request.query.get("board") or None
    return await _public(request, lambda public: public.hall(game, board), pages.hall_page)


async def deal(request: web.Request) -> web.Response:
    game, number = request.match_info["game"], request.match_info["number"]

    async def fetch(public: PublicData) -> dict[str, Any]:
        return await public.deal(game, parse_deal(number.lstrip("#")))
    return await _public(request, fetch, pages.deal_page)


async def deal_form(request: web.Request) -> web.StreamResponse:
    """The "best on one deal" form (GET, no JavaScript) goes to the deal's page."""
    game, number = request.query.get("game", ""), request.query.get("number", "").strip()
    try:
        target = f"/halloffame/{parse_game(game)}/{parse_deal(number.lstrip('#'))}"
    except NotFound as exc:
        name, why = request.app[DOOR_KEY]["settings"].door.name, str(exc)
        return _answer(request, {"error": why}, lambda: pages.not_found_page(name, why), 404)
    raise web.HTTPSeeOther(target)


async def online(request: web.Request) -> web.Response:
    return await _public(request, lambda public: public.online(), pages.online_page)


async def daily(request: web.Request) -> web.Response:
    """Today's challenges (a database that does not answer: 503, as the other pages)."""
    return await _public(request, lambda public: public.daily(), pages.daily_page)


async def league(request: web.Request) -> web.Response:
    """Today's InterBBS league ([league] on): ladders across boards, boards, streaks."""
    return await _public(request, lambda public: public.league(), pages.league_page)


async def api_index(request: web.Request) -> web.Response:
    data = {"halloffame": [f"/api/halloffame/{g}" for g in gamelist.names()],
            "deal": "/api/halloffame/{game}/{deal}", "board": "/api/halloffame/{game}?board={tag}",
            "online": "/api/online", "daily": "/api/daily"}
    return _answer(request, data, lambda: "")
