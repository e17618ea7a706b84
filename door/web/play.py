"""The play page and its WebSocket, the web's replays and live games, and the static files.

``/``                   the play page: xterm.js on the WebSocket ``/play``
``/replay/ID``          a finished game played back (the door's own replay viewer,
                        ``door/ui/game/replay.py``), read-only, on ``/replay/ID/socket``
``/watch[?player=X]``   the games being played now, one of them live (the door's own
                        Watch a Game, ``door/ui/menus/watch.py``), read-only, on ``/watch/socket``
``/static/...``         the page's files (door/web/assets.py: hashed names, compressed)

The three pages are one template (``static/index.html``) and one script (``play.js``);
the page says which socket it opens.  A replay or a live game is a session of its own with
nobody logged in, which never takes a node: it counts against its address like any
connection (``max_per_address``), and at most ``max_nodes`` of them run at once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from collections.abc import Callable
from functools import cache
from html import escape
from typing import Any
from urllib.parse import quote

from aiohttp import WSMsgType, web

from ..catalog import registry as gamelist
from ..config import Settings
from ..net.terminal import DEFAULT_ROWS, MAX_ROWS, Terminal
from ..net.websocket import WebSocketTerminal, serve_websocket
from ..session import Caller, Services, Session, SessionEnded
from ..store import StoreError
from ..store.accounts import SOURCE, Account
from ..store.live import LiveListing
from ..ui.game.replay import Replay
from ..ui.menus.watch import GamesNow, watch_elsewhere, watch_game, watch_menu
from .assets import IMMUTABLE, REVALIDATE, Assets
from .context import DOOR_KEY, STATIC, peer_of
from .keys import keymap
from .origin import origin_allowed
from .public import NotFound

log = logging.getLogger(__name__)

PLAY_PAGE_ROWS = 25  # 80x25 until the browser says its window's size
WS_MAX_MESSAGE = 64 * 1024  # a key message is a few bytes; a paste at most this
WS_HEARTBEAT_S = 30.0  # a browser that answers no ping for this long has gone
WS_CLOSE_S = 2.0  # the door closed the socket: the browser's answer is awaited this long
PLAY_POLICY = ("default-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
               "img-src 'self' data:; frame-ancestors *")
VIEWER = "a web visitor"
"""A replay's or a live game's viewer, as the door's screens name them."""
ASSET = re.compile(r"\{\{asset:([^}]+)\}\}")
RESUME_WAIT_S = 5.0
"""A page calling again (``/play?resume=1``) sends its token as its first message within
this long (in a message, not the address: a proxy's access log keeps addresses)."""


# -- the page --------------------------------------------------------------------------------

@cache
def _template() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8")


def page_html(door: dict[str, Any], title: str, socket: str, mode: str) -> str:
    """The play page's template filled in: hashed file names, the door's name, the socket
    it opens, what it shows (``play``, ``replay``, ``watch``) and the key bar's keys."""
    settings: Settings = door["settings"]
    assets: Assets = door["assets"]
    keys = json.dumps(keymap(settings), ensure_ascii=False).replace("</", "<\\/")
    html = ASSET.sub(lambda m: assets.url(m.group(1)), _template())
    for name, value in (("door", escape(settings.door.name)), ("title", escape(title)),
                        ("socket", escape(socket)), ("mode", mode), ("keymap", keys)):
        html = html.replace("{{" + name + "}}", value)
    return html


def page_response(request: web.Request, html: str, status: int = 200) -> web.Response:
    response = web.Response(text=html, status=status, content_type="text/html",
                            charset="utf-8",
                            headers={"Content-Security-Policy": PLAY_POLICY,
                                     "Cache-Control": "no-cache"})
    response.enable_compression()
    return response


async def play_page(request: web.Request) -> web.Response:
    door = request.app[DOOR_KEY]
    name = door["settings"].door.name
    return page_response(request, page_html(door, name, "/play", "play"))


def _size(request: web.Request) -> tuple[int, int]:
    try:
        rows = int(request.query.get("rows", PLAY_PAGE_ROWS))
    except ValueError:
        rows = PLAY_PAGE_ROWS
    return 80, max(DEFAULT_ROWS, min(MAX_ROWS, rows))


async def _open(request: web.Request) -> web.WebSocketResponse | web.Response:
    """The WebSocket of a page of this door (its Origin checked), or the refusal."""
    door = request.app[DOOR_KEY]
    settings: Settings = door["settings"]
    scheme = "https" if request.secure else "http"
    if not origin_allowed(request.headers.get("Origin", ""), request.headers.get("Host", ""),
                          scheme, door["public_origin"], settings.web.origins):
        log.warning("web %s: WebSocket refused, Origin %r is not this door's",
                    peer_of(request, settings.web.proxies),
                    request.headers.get("Origin", "")[:80])
        return web.Response(status=403, text="This door's own page may open it, no other.\n")
    ws = web.WebSocketResponse(heartbeat=WS_HEARTBEAT_S, max_msg_size=WS_MAX_MESSAGE,
                               timeout=WS_CLOSE_S)
    if not ws.can_prepare(request).ok:
        return web.Response(status=400, text="A WebSocket, from the play page at /.\n")
    await ws.prepare(request)
    return ws


async def play_socket(request: web.Request) -> web.StreamResponse:
    door = request.app[DOOR_KEY]
    settings: Settings = door["settings"]
    tokens = door["tokens"]
    ws = await _open(request)
    if not isinstance(ws, web.WebSocketResponse):
        return ws
    peer = peer_of(request, settings.web.proxies)
    resumed = None
    if request.query.get("resume") == "1":
        resumed = await _resumed(door, await _first_text(ws, "resume"))
    issued: list[str] = []

    def heard(terminal: WebSocketTerminal, alias: str, activity: str) -> None:
        """The caller's screens, as who's online hears them: the first one after a
        log-in with an account gives the page its token for a dropped line."""
        if not issued and alias and alias != "Guest" and door["store"] is not None:
            issued.append(tokens.issue(alias))
            terminal.side({"resume": issued[0]})
        if issued:
            tokens.note(issued[0], activity)

    def prepare(terminal: WebSocketTerminal) -> None:
        terminal.on_doing = heard
        if resumed is not None:
            terminal.account = resumed["account"]
            terminal.first_action = resumed["action"]

    cols, rows = _size(request)
    dropped = await serve_websocket(ws, peer, door["run"], door["pool"], cols, rows,
                                    prepare=prepare)
    for token in issued:
        if dropped:
            tokens.dropped(token)
        else:
            tokens.revoke(token)
    return ws


async def _first_text(ws: web.WebSocketResponse, key: str) -> str:
    """``key`` of the socket's first message, JSON text sent at once; "" otherwise."""
    try:
        message = await ws.receive(timeout=RESUME_WAIT_S)
        value = json.loads(message.data).get(key, "") if message.type == WSMsgType.TEXT \
            else ""
    except (TimeoutError, ValueError, AttributeError, TypeError):
        return ""
    return value if isinstance(value, str) else ""


async def _resumed(door: dict[str, Any], token: str) -> dict[str, Any] | None:
    """The account a page's resume token stands for (door/web/resume.py), and the game to
    open first (the one being played when the line dropped); None: log in as usual."""
    found = door["tokens"].take(token)
    store = door["store"]
    if found is None or store is None:
        return None
    handle, last = found
    try:
        if not await store.accounts.exists(handle):
            return None
        player = await store.players.player(SOURCE, handle.lower(), handle)
    except StoreError as exc:
        log.warning("web: resuming %s: %s", handle, exc)
        return None
    enabled = {e.action for e in door["settings"].enabled_menu}
    action = next((info.name for info in gamelist.games()
                   if last == f"Playing {info.title}" and info.name in enabled), None)
    return {"account": Account(player), "action": action}


# -- replays and live games, read-only ---------------------------------------------------------

def _viewer_session(terminal: Terminal, services: Services) -> Session:
    """A session nobody logged in to: no store (nothing of theirs is kept), no node."""
    terminal.cursor_shown(False)
    return Session(terminal, services, Caller(alias=VIEWER, node=0))


async def _view(request: web.Request, run: Callable[[Session], Any]) -> web.StreamResponse:
    """A read-only session on this request's WebSocket, if there is room for one more."""
    door = request.app[DOOR_KEY]
    settings: Settings = door["settings"]
    ws = await _open(request)
    if not isinstance(ws, web.WebSocketResponse):
        return ws
    peer = peer_of(request, settings.web.proxies)
    if door["viewers"] >= settings.server.max_nodes:
        log.warning("web %s: viewer refused, %d viewing already", peer, door["viewers"])
        await ws.send_bytes(b"\r\nAs many people as this door has nodes are watching: "
                            b"please try again in a while.\r\n")
        await ws.close()
        return ws

    async def session(terminal: Terminal) -> None:
        viewer = _viewer_session(terminal, door["viewing"])
        with contextlib.suppress(SessionEnded):
            await run(viewer)

    door["viewers"] += 1
    try:
        cols, rows = _size(request)
        await serve_websocket(ws, peer, session, door["pool"], cols, rows, logged_in=True)
    finally:
        door["viewers"] -= 1
    return ws


def _game_id(request: web.Request) -> int:
    text = request.match_info["game_id"]
    if not text.isdigit() or len(text) > 15:
        raise NotFound(f"No game {text!r}: a game is a number.")
    return int(text)


async def _replayed(door: dict[str, Any], game_id: int) -> tuple[Any, str, int | None]:
    """A finished game's record, its player and score (from its deal's board, which the
    public pages cache: "" and None when it is not on it).  NotFound when no such game."""
    store = door["store"]
    if store is None:
        raise NotFound("This door runs without a database: no games are kept.")
    record = await store.scores.game_record(game_id)
    if record is None or record.game not in gamelist.names():
        raise NotFound(f"No finished game {game_id} here.")
    board = await door["public"].deal(record.game, record.number)
    entry = next((e for e in board["entries"] if e.get("game_id") == game_id), None)
    return record, (entry["player"] if entry else ""), (entry["score"] if entry else None)


async def replay_page(request: web.Request) -> web.Response:
    door = request.app[DOOR_KEY]
    game_id = _game_id(request)
    record, who, _ = await _replayed(door, game_id)
    title = f"Replay: {who + ' · ' if who else ''}{gamelist.title(record.game)} " \
            f"#{record.number}"
    return page_response(request, page_html(door, title, f"/replay/{game_id}/socket",
                                            "replay"))


async def replay_socket(request: web.Request) -> web.StreamResponse:
    door = request.app[DOOR_KEY]
    try:
        record, who, score = await _replayed(door, _game_id(request))
    except (NotFound, StoreError) as exc:
        return web.Response(status=404, text=f"{exc}\n")

    class WebReplay(Replay):
        def ask_solver(self) -> None:
            """A visitor nobody knows starts no solver work (the door's callers may)."""

    return await _view(request, lambda session: WebReplay(session, record, who, score).run())


async def watch_page(request: web.Request) -> web.Response:
    door = request.app[DOOR_KEY]
    player = request.query.get("player", "")[:40]
    title = f"Watching {player}" if player else "Watch a game"
    socket = "/watch/socket" + (f"?player={_quoted(player)}" if player else "")
    return page_response(request, page_html(door, title, socket, "watch"))


def _quoted(text: str) -> str:

    return quote(text, safe="")


async def watch_socket(request: web.Request) -> web.StreamResponse:
    player = request.query.get("player", "")[:40]
    return await _view(request, lambda session: watch_player(session, player))


async def watch_player(session: Session, player: str) -> None:
    """``player``'s game live, if they are playing one they let be watched; then (or
    else) the door's list of the games being played now."""

    if player:
        games = await GamesNow(session.services).games(fresh=True)
        found = next((g for g in games if g.alias.lower() == player.lower()
                      and g.watchable and not g.over), None)
        if isinstance(found, LiveListing):
            await watch_elsewhere(session, found)
        elif found is not None:
            await watch_game(session, found)
    await watch_menu(session)


# -- static files -------------------------------------------------------------------------------

async def static_file(request: web.Request) -> web.Response:
    door = request.app[DOOR_KEY]
    assets: Assets = door["assets"]
    found = assets.find(request.match_info["name"])
    if found is None:
        raise web.HTTPNotFound()
    asset, hashed = found
    headers = {"Cache-Control": IMMUTABLE if hashed else REVALIDATE,
               "ETag": f'"{asset.digest}"'}
    if asset.compressible:
        headers["Vary"] = "Accept-Encoding"
    if not hashed and asset.digest in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    body, coding = await assets.body(asset, request.headers.get("Accept-Encoding", ""))
    if coding:
        headers["Content-Encoding"] = coding
    return web.Response(body=body, content_type=asset.content_type, headers=headers,
                        charset="utf-8" if asset.content_type.startswith("text/") else None)


async def favicon(request: web.Request) -> web.Response:
    """Browsers ask for /favicon.ico whatever the page says: the door's card, as SVG."""
    assets: Assets = request.app[DOOR_KEY]["assets"]
    asset = assets.by_path["favicon.svg"]
    return web.Response(body=asset.body, content_type=asset.content_type,
                        headers={"Cache-Control": "public, max-age=86400"})
