"""The HTTP listener of ``reussite serve`` (aiohttp, on the server's own event loop).

``/``          the play page: xterm.js (vendored under static/vendor) on a WebSocket
``/play``      that WebSocket: door/net/websocket.py gives its caller a Session, through the
               same login pool, logins, nodes, takeover and logs as telnet and SSH
``/replay/ID``, ``/watch``  a finished game played back, the games being played now:
               read-only sessions on WebSockets of their own (play.py has these)
``/halloffame``, ``/halloffame/GAME[?board=TAG]``, ``/halloffame/GAME/DEAL``, ``/online``,
``/daily``     the public pages, plain HTML without JavaScript
``/api/...``   the same as JSON, for boards that embed them

Every request names a host this door answers to (door/web/origin.py), or gets 421.

:func:`start_web` is the one call that starts it (``reussite serve`` makes it; a worker
process of its own would too, with ``reuse_port``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import ssl
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler

from ..catalog import registry as gamelist
from ..config import ConfigError, Settings
from ..gate.pool import LoginPool
from ..net.terminal import Terminal
from ..session import Services
from ..store import Store, StoreError
from . import pages, play
from .assets import Assets
from .context import DOOR_KEY, STATIC, peer_of
from .gate import Gate
from .origin import host_allowed, parse_origin
from .public import NotFound, PublicData, parse_deal, parse_game
from .resume import ResumeTokens

log = logging.getLogger(__name__)

SHUTDOWN_S = 2.0  # handlers still running when the listener closes get this long
HTML_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
               "form-action 'self'; frame-ancestors *")

SessionRunner = Callable[[Terminal], Awaitable[None]]
__all__ = ["DOOR_KEY", "STATIC", "make_app", "peer_of", "start_web"]


class WebListener:
    """The HTTP listener on its servers (one per address), as ``serve`` keeps its
    listeners: ``sockets``, ``close()``, ``wait_closed()``."""

    def __init__(self, runner: web.AppRunner, servers: list[asyncio.Server]) -> None:
        self.runner, self.servers = runner, servers
        self._closing: asyncio.Future[None] | None = None

    @property
    def sockets(self) -> list[socket.socket]:
        return [sock for server in self.servers for sock in server.sockets]

    @property
    def port(self) -> int:
        port: int = self.sockets[0].getsockname()[1]  # (host, port[, flow, scope])
        return port

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
    ERROR with a traceback: here it becomes one WARNING line, which door/logs/policy.py holds
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
                    reuse_port: bool = False, viewing: Services | None = None) -> WebListener:
    """Listen on each of ``hosts`` at ``port`` (0: one the OS picks for the first, then the
    same for the others).  ``reuse_port``: SO_REUSEPORT, for several processes on one port.
    The servers are the loop's own (``loop.create_server``), as telnet's and SSH's are, so
    a loop that shares its listeners between worker processes shares this one too.
    Raises OSError when an address is taken, ConfigError for unusable TLS files."""
    tls = tls_context(settings)
    quiet_bad_requests()
    app = make_app(settings, run_session, pool, store, viewing)
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
             store: Store | None, viewing: Services | None = None) -> web.Application:
    """The web door's routes.  ``viewing``: the services of read-only viewers (replays,
    watchers), whose sessions keep nothing (the server's, with its watch link; else this
    process's hub alone)."""
    app = web.Application(middlewares=[_for_this_door, _headers, _errors])
    assets = Assets(STATIC)
    app[DOOR_KEY] = {"settings": settings, "run": run_session, "pool": pool, "store": store,
                     "public": PublicData(settings, store), "assets": assets,
                     "tokens": ResumeTokens(), "viewers": 0,
                     "viewing": viewing or Services(settings),
                     "public_origin": parse_origin(settings.web.public_url)}
    routes = [
        web.get("/", play.play_page), web.get("/play", play.play_socket),
        web.get("/replay/{game_id}", play.replay_page),
        web.get("/replay/{game_id}/socket", play.replay_socket),
        web.get("/watch", play.watch_page), web.get("/watch/socket", play.watch_socket),
        web.get("/static/{name:.+}", play.static_file),
        web.get("/favicon.ico", play.favicon),
        web.get("/halloffame", halls), web.get("/halloffame/{game}", hall),
        web.get("/halloffame/{game}/{number}", deal), web.get("/deal", deal_form),
        web.get("/online", online), web.get("/daily", daily),
        web.get("/api", api_index), web.get("/api/halloffame/{game}", hall),
        web.get("/api/halloffame/{game}/{number}", deal), web.get("/api/online", online),
        web.get("/api/daily", daily),
    ]
    app.add_routes(routes)
    if settings.league.enabled:
        from ..league.http import (
            add_league_routes,  # local: the league's modules load only when it is on
        )
        from ..league.keys import BoardKey  # local: the league's modules load only when it is on

        add_league_routes(app, settings, store, BoardKey.load_or_create(settings.data_dir))
        app.add_routes([web.get("/league", league), web.get("/api/league", league)])

    async def compress(app: web.Application) -> None:  # the first browser finds them made
        app[DOOR_KEY]["compressing"] = asyncio.ensure_future(
            asyncio.to_thread(assets.compress_all))
    app.on_startup.append(compress)
    return app


@web.middleware
async def _for_this_door(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A request naming a host this door does not answer to (a page elsewhere whose name
    points here: DNS rebinding) gets nothing but a 421 (door/web/origin.py)."""
    door = request.app[DOOR_KEY]
    host = request.headers.get("Host", "")
    if not host_allowed(host, door["public_origin"]):
        settings: Settings = door["settings"]
        log.warning("web %s: refused: Host %r is not this door's ([web] public_url names "
                    "the door's own)", peer_of(request, settings.web.proxies), host[:80])
        return web.Response(status=421, text="This door does not answer to that name.\n")
    return await handler(request)


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """An address with no page, or a page that failed: the door's own 404 and 500 pages
    (JSON under /api), never aiohttp's bare text or a traceback."""
    try:
        return await handler(request)
    except web.HTTPNotFound:
        why = f"There is no page at {request.path[:80]}."
        return _answer(request, {"error": why}, lambda: pages.not_found_page(_name(request),
                                                                             why), 404)
    except NotFound as exc:
        why = str(exc)
        return _answer(request, {"error": why}, lambda: pages.not_found_page(_name(request),
                                                                             why), 404)
    except StoreError as exc:
        log.warning("web %s: %s", request.path[:80], exc)
        return _answer(request, {"error": "scores are unavailable right now"},
                       lambda: pages.unavailable_page(_name(request)), 503)
    except web.HTTPException:
        raise
    except Exception:
        log.exception("web %s: the page failed", request.path[:80])
        return _answer(request, {"error": "this page failed: the sysop can read why in "
                                          "the door's log"},
                       lambda: pages.failed_page(_name(request)), 500)


def _name(request: web.Request) -> str:
    return str(request.app[DOOR_KEY]["settings"].door.name)


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
    response = web.Response(text=html(), status=status, content_type="text/html",
                            charset="utf-8", headers=headers)
    response.enable_compression()
    return response


async def _public(request: web.Request, fetch: Callable[[PublicData], Awaitable[Any]],
                  html: Callable[[str, Any], str]) -> web.Response:
    """A public page or its JSON (no such game or deal: 404, a database that does not
    answer: 503, both from :func:`_errors`)."""
    door = request.app[DOOR_KEY]
    name = door["settings"].door.name
    data = await fetch(door["public"])
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
    raise web.HTTPSeeOther(f"/halloffame/{parse_game(game)}/{parse_deal(number.lstrip('#'))}")


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
            "online": "/api/online", "daily": "/api/daily", "replay": "/replay/{game_id}",
            "watch": "/watch?player={handle}"}
    return _answer(request, data, lambda: "")
