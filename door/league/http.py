"""The league's routes on the web listener (``[web]`` on and ``[league]`` on):

``GET  /league/info``     this board's name and public key, and whether it is a hub
``POST /league/results``  a peer pushes results: verified, replayed, stored once
``GET  /league/results``  results stored here after ``?after=SEQ`` (a hub adds its roster)
``POST /league/join``     a board joins this hub with the hub's join code

Everything a peer sends is bounded before it is read (body size, results per request),
every address is rate-limited ([league] requests_per_minute and results_per_minute; wrong
join codes lock the address out for a while), and the work of a push yields between
results, so a peer, honest or not, cannot delay the board's own callers.  Refusals are JSON with an
``error`` line and a 4xx status, never a traceback.
"""

from __future__ import annotations

import hmac
import json
import logging
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from ..config import Settings
from ..logs.printable import printable
from ..store import Store, StoreError
from .intake import MAX_BATCH, Intake
from .keys import BadKey, BoardKey, parse_public_key
from .limits import TooLarge as BodyTooLarge
from .limits import read_at_most
from .results import Refused, check_board_name, from_stored
from .roster import signed_roster

log = logging.getLogger(__name__)

LEAGUE_KEY = web.AppKey("league", dict)
MAX_BODY = 4 * 1024 * 1024
"""A push's body at most (1,000 long results fit)."""
PULL_MAX = 500
JOIN_TRIES = 5
"""Wrong join codes from one address before it is refused for JOIN_LOCKOUT_S."""
JOIN_LOCKOUT_S = 900.0


class RateLimit:
    """Sliding one-minute windows per address: requests, and results pushed."""

    def __init__(self, requests: int, results: int) -> None:
        self.requests, self.results = requests, results
        self._seen: dict[str, deque[tuple[float, int]]] = {}
        self._bad_codes: dict[str, list[float]] = {}

    def _window(self, address: str, now: float) -> deque[tuple[float, int]]:
        window = self._seen.setdefault(address, deque())
        while window and window[0][0] < now - 60:
            window.popleft()
        if len(self._seen) > 10_000:  # forget idle addresses: a flood of them costs little
            for other in [a for a, w in self._seen.items() if not w][:5000]:
                del self._seen[other]
        return window

    def allow(self, address: str, results: int = 0) -> bool:
        now = time.monotonic()
        window = self._window(address, now)
        if len(window) >= self.requests or sum(n for _, n in window) + results > self.results:
            return False
        window.append((now, results))
        return True

    def join_locked(self, address: str) -> bool:
        now = time.monotonic()
        tries = [t for t in self._bad_codes.get(address, []) if t > now - JOIN_LOCKOUT_S]
        self._bad_codes[address] = tries
        return len(tries) >= JOIN_TRIES

    def bad_code(self, address: str) -> None:
        self._bad_codes.setdefault(address, []).append(time.monotonic())


def add_league_routes(app: web.Application, settings: Settings, store: Store | None,
                      key: BoardKey) -> None:
    app[LEAGUE_KEY] = {"settings": settings, "store": store, "key": key,
                       "intake": Intake(store, settings.league.accept_days) if store else None,
                       "limit": RateLimit(settings.league.requests_per_minute,
                                          settings.league.results_per_minute)}
    app.add_routes([web.get("/league/info", info), web.post("/league/results", push),
                    web.get("/league/results", pull), web.post("/league/join", join)])


def _error(status: int, why: str) -> web.Response:
    return web.json_response({"error": why}, status=status)


def _address(request: web.Request) -> str:
    peer = request.transport.get_extra_info("peername") if request.transport else None
    return str(peer[0]) if peer else "?"


def _league(request: web.Request) -> dict[str, Any]:
    return request.app[LEAGUE_KEY]


class TooLarge(Refused):
    """A body over MAX_BODY: 413."""


async def _body(request: web.Request) -> Any:
    """The request's JSON, refused past MAX_BODY before it is read whole."""
    too_large = TooLarge(f"a request body is at most {MAX_BODY} bytes")
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise too_large
    try:
        raw = await read_at_most(request.content, MAX_BODY)
    except BodyTooLarge:
        raise too_large from None
    try:
        return json.loads(raw)
    except ValueError:
        raise Refused("the body is not JSON") from None


async def info(request: web.Request) -> web.Response:
    league = _league(request)
    settings: Settings = league["settings"]
    return web.json_response({"name": settings.league_name, "key": league["key"].public,
                              "hub": settings.league.hub, "format": "reussite-league/1"})


async def push(request: web.Request) -> web.Response:
    league = _league(request)
    address = _address(request)
    if league["intake"] is None:
        return _error(503, "this board's database is unavailable")
    if not league["limit"].allow(address):
        return _error(429, "too many requests: try again in a minute")
    try:
        body = await _body(request)
        if not isinstance(body, dict) or not isinstance(body.get("results"), list):
            raise Refused("expected {\"from\": BOARD, \"results\": [...]}")
        results = body["results"]
        if len(results) > MAX_BATCH:
            raise Refused(f"at most {MAX_BATCH} results a request")
        if not league["limit"].allow(address, len(results)):
            return _error(429, "too many results: try again in a minute")
        sender = str(body.get("from", "?"))[:30]
        report = await league["intake"].take(results, f"push from {sender} at {address}")
    except Refused as exc:
        log.warning("league: push from %s refused: %s", printable(address), exc)
        return _error(413 if isinstance(exc, TooLarge) else 400, str(exc))
    except StoreError:
        return _error(503, "this board's database is unavailable")
    return web.json_response(report.to_json())


def _int_param(request: web.Request, name: str, default: int, high: int) -> int:
    try:
        return max(0, min(high, int(request.query.get(name, default))))
    except ValueError:
        return default


async def pull(request: web.Request) -> web.Response:
    league = _league(request)
    store: Store | None = league["store"]
    settings: Settings = league["settings"]
    if store is None:
        return _error(503, "this board's database is unavailable")
    if not league["limit"].allow(_address(request)):
        return _error(429, "too many requests: try again in a minute")
    after = _int_param(request, "after", 0, 2**62)
    limit = _int_param(request, "limit", PULL_MAX, PULL_MAX) or PULL_MAX
    try:
        page = await store.league.since(after, limit + 1)
        answer: dict[str, Any] = {
            "board": settings.league_name,
            "results": [from_stored(r).to_json() for r in page[:limit]],
            "last": page[min(limit, len(page)) - 1].seq if page else after,
            "more": len(page) > limit}
        if settings.league.hub:
            boards = {b.name: b.public_key for b in await store.league.boards()
                      if b.role in ("self", "member")}
            answer["roster"] = signed_roster(settings.league_name, league["key"], boards,
                                             datetime.now(UTC)).to_json()
    except StoreError:
        return _error(503, "this board's database is unavailable")
    return web.json_response(answer)


async def join(request: web.Request) -> web.Response:
    """A board joins this hub: it gives the hub's join code, its name, its key."""
    league = _league(request)
    settings: Settings = league["settings"]
    store: Store | None = league["store"]
    address = _address(request)
    limit: RateLimit = league["limit"]
    if not settings.league.hub or not settings.league.join_code:
        return _error(403, "this board takes no joins")
    if store is None:
        return _error(503, "this board's database is unavailable")
    if limit.join_locked(address) or not limit.allow(address):
        return _error(429, "too many tries: try again later")
    try:
        body = await _body(request)
        if not isinstance(body, dict):
            raise Refused("expected {\"name\", \"key\", \"code\"}")
        code = str(body.get("code", ""))
        if not hmac.compare_digest(code.encode(), settings.league.join_code.encode()):
            limit.bad_code(address)
            log.warning("league: join from %s refused: wrong join code", printable(address))
            return _error(403, "wrong join code")
        name = check_board_name(body.get("name"))  # type: ignore[arg-type]
        key = parse_public_key(str(body.get("key", "")))
        url = str(body.get("url", ""))[:200]
        boards = {b.name: b for b in await store.league.boards()}
        if name in boards and boards[name].public_key != key:
            raise Refused(f"a board named {name!r} is in this league with another key")
        await store.league.set_board(name, key, "member", url)
    except (Refused, BadKey) as exc:
        return _error(413 if isinstance(exc, TooLarge) else 400, str(exc))
    except StoreError:
        return _error(503, "this board's database is unavailable")
    log.info("league: board %r joined from %s", name, printable(address))
    return web.json_response({"name": settings.league_name, "key": league["key"].public})
