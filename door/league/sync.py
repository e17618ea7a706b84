"""Results between servers over HTTP(S): push this board's own, pull everyone's, catch up.

Each round (every [league] sync_seconds) the node signs this board's new counted attempts
(:mod:`door.league.outbox`), then, for each peer and the hub it reaches by URL:

* **push** its own results after the last one that board took (its ``pushed_after``
  cursor), a page at a time;
* **pull** every result that board holds after the last one read (``pulled_after``), a
  page at a time, through the one intake path (verified, replayed, stored once); from a
  hub, its signed roster first, so results of members this board never met can be checked.

A board that does not answer is tried again after a back-off that doubles up to an hour;
when it returns, the cursors make both sides catch up whatever was missed.  Results are
idempotent and order-free, so a page sent twice or out of order changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from ..config import Settings
from ..store import Store, StoreError
from ..store.league import LeagueBoard
from .intake import Intake, utc_now
from .keys import BadKey, BoardKey, parse_public_key
from .limits import TooLarge, read_at_most
from .outbox import sign_new
from .results import Refused, check_board_name, from_stored
from .roster import parse_roster

log = logging.getLogger(__name__)

PAGE = 500
"""Results per push or pull request."""
PAGES_PER_ROUND = 40
"""Pages one round reads from or sends to one board (20,000 results); the next round goes
on from there."""
MAX_RESPONSE = 8 * 1024 * 1024
TIMEOUT_S = 30.0
BACK_OFF_MAX_S = 3600.0
USER_AGENT = "reussite-league/1"


class SyncError(Exception):
    """A peer or hub could not be reached or answered nonsense (one line)."""


def base_url(url: str) -> str:
    """A board's address as sysops write it (``https://bbs.example.org:8023``), checked:
    http or https, a host, no query."""
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise ValueError(f"{url!r} is not an http:// or https:// address")
    return url


class LeagueClient:
    """The HTTP side of a board talking to another."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session

    async def _call(self, method: str, url: str, body: Any = None,
                    params: dict[str, str] | None = None) -> Any:
        try:
            async with self.session.request(
                    method, url, params=params,
                    data=None if body is None else json.dumps(body, ensure_ascii=True),
                    headers={"Content-Type": "application/json",
                             "User-Agent": USER_AGENT}) as response:
                try:
                    raw = await read_at_most(response.content, MAX_RESPONSE)
                except TooLarge:
                    raise SyncError(f"{url}: answer larger than {MAX_RESPONSE} bytes"
                                    ) from None
                try:
                    data = json.loads(raw) if raw else None
                except ValueError:
                    data = None
                if response.status >= 400:
                    why = data.get("error") if isinstance(data, dict) else None
                    raise SyncError(f"{url}: HTTP {response.status}"
                                    + (f": {str(why)[:120]}" if why else ""))
                if data is None:
                    raise SyncError(f"{url}: the answer is not JSON")
                return data
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise SyncError(f"{url}: {type(exc).__name__}: {str(exc)[:120]}") from None

    async def info(self, url: str) -> dict[str, Any]:
        data = await self._call("GET", f"{url}/league/info")
        if not isinstance(data, dict):
            raise SyncError(f"{url}: not a Réussite league board")
        return data

    async def push(self, url: str, sender: str, results: list[dict[str, Any]]) -> Any:
        return await self._call("POST", f"{url}/league/results",
                                {"from": sender, "results": results})

    async def pull(self, url: str, after: int, limit: int = PAGE) -> dict[str, Any]:
        data = await self._call("GET", f"{url}/league/results",
                                params={"after": str(after), "limit": str(limit)})
        if not isinstance(data, dict) or not isinstance(data.get("results"), list) \
                or not isinstance(data.get("last"), int):
            raise SyncError(f"{url}: not a page of league results")
        return data

    async def join(self, url: str, name: str, key: str, code: str, my_url: str
                   ) -> dict[str, Any]:
        data = await self._call("POST", f"{url}/league/join",
                                {"name": name, "key": key, "code": code, "url": my_url})
        if not isinstance(data, dict):
            raise SyncError(f"{url}: not a league hub")
        return data


def client_session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_S),
                                 connector=aiohttp.TCPConnector(limit=16))


def back_off(failures: int, every: float) -> timedelta:
    """How long after its ``failures``-th failure in a row a board is tried again."""
    return timedelta(seconds=min(BACK_OFF_MAX_S, every * 2 ** min(failures, 16)))


class LeagueNode:
    """The league's side of ``reussite serve``: one per server (worker 1 of several)."""

    def __init__(self, settings: Settings, store: Store, key: BoardKey,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.settings, self.store, self.key, self.clock = settings, store, key, clock
        self.name = settings.league_name
        self.intake = Intake(store, settings.league.accept_days, clock)
        self.wake = asyncio.Event()
        """Set to run a round now (a finished daily game, a test) rather than at the clock."""

    async def start(self) -> None:
        """Enter this board itself in its league tables (its key is what others check)."""
        await self.store.league.set_board(self.name, self.key.public, "self")

    async def run(self, stop: asyncio.Event) -> None:
        async with client_session() as session:
            client = LeagueClient(session)
            while not stop.is_set():
                try:
                    await self.round(client)
                except StoreError as exc:
                    log.warning("league: the database is unavailable: %s", exc)
                except Exception:
                    log.exception("league: a sync round failed")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._woken(stop), self.settings.league.sync_seconds)

    async def _woken(self, stop: asyncio.Event) -> None:
        _done, pending = await asyncio.wait(
            [asyncio.ensure_future(self.wake.wait()), asyncio.ensure_future(stop.wait())],
            return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        self.wake.clear()

    def since(self) -> date:
        return self.clock().date() - timedelta(days=self.settings.league.accept_days)

    async def round(self, client: LeagueClient) -> None:
        """Sign what is new, then push to and pull from every board due."""
        await sign_new(self.store, self.key, self.name, self.since())
        now = self.clock()
        for board in await self.store.league.boards():
            if board.role not in ("peer", "hub") or not board.url:
                continue
            if board.next_try is not None and board.next_try > now:
                continue
            try:
                pushed = await self.push(client, board)
                pulled = await self.pull(client, board)
            except (SyncError, Refused) as exc:
                retry = back_off(board.failures, self.settings.league.sync_seconds)
                if board.failures == 0:  # the first failure in a row, then one per hour
                    log.warning("league: %s: %s (trying again later)", board.name, exc)
                await self.store.league.mark(board.name, ok=False, error=str(exc),
                                             retry_in=retry)
            else:
                await self.store.league.mark(board.name, ok=True, pushed_after=pushed,
                                             pulled_after=pulled)
                if board.failures:
                    log.info("league: %s answers again", board.name)

    async def push(self, client: LeagueClient, board: LeagueBoard) -> int:
        """This board's own results that ``board`` has not taken yet; the new cursor."""
        cursor = board.pushed_after
        for _ in range(PAGES_PER_ROUND):
            page = await self.store.league.since(cursor, PAGE, board=self.name)
            if not page:
                break
            await client.push(board.url, self.name, [from_stored(r).to_json() for r in page])
            cursor = page[-1].seq
            if len(page) < PAGE:
                break
        return cursor

    async def pull(self, client: LeagueClient, board: LeagueBoard) -> int:
        """Everything ``board`` holds that this one has not read; the new cursor."""
        cursor = board.pulled_after
        for _ in range(PAGES_PER_ROUND):
            page = await client.pull(board.url, cursor)
            if board.role == "hub" and "roster" in page:
                await apply_roster(self.store, self.name, board, page["roster"])
            await self.intake.take(page["results"], f"{board.name} ({board.url})")
            cursor = max(cursor, int(page["last"]))
            if not page.get("more"):
                break
        return cursor


async def apply_roster(store: Store, me: str, hub: LeagueBoard, data: Any) -> None:
    """Take the hub's members and their keys (the hub's signature checked: Refused
    otherwise); forget the boards it no longer lists, with their results."""
    roster = parse_roster(data, hub.name, hub.public_key)
    known = {b.name: b for b in await store.league.boards()}
    for name, key in roster.boards.items():
        if name in (me, hub.name):
            continue
        mine = known.get(name)
        if mine is None or (mine.role == "listed" and mine.public_key != key):
            await store.league.set_board(name, key, "listed")
    for name, board in known.items():
        if board.role == "listed" and name not in roster.boards:
            await store.league.drop(name)
            log.info("league: %s left the league (hub %s): its results are dropped",
                     name, hub.name)


async def join_hub(store: Store, key: BoardKey, name: str, hub_url: str, code: str,
                   my_url: str = "") -> LeagueBoard:
    """Join the hub at ``hub_url`` with its join code: send this board's name and key, take
    the hub's, and store the hub (role ``hub``).  SyncError or Refused on failure."""
    url = base_url(hub_url)
    async with client_session() as session:
        data = await LeagueClient(session).join(url, name, key.public, code, my_url)
    try:
        hub_name = check_board_name(data.get("name"))  # type: ignore[arg-type]
        hub_key = parse_public_key(str(data.get("key", "")))
    except (Refused, BadKey) as exc:
        raise SyncError(f"{url}: the hub's answer is malformed ({exc})") from None
    await store.league.set_board(name, key.public, "self")
    await store.league.set_board(hub_name, hub_key, "hub", url)
    boards = {b.name: b for b in await store.league.boards()}
    return boards[hub_name]


async def sync_once(settings: Settings, store: Store, key: BoardKey) -> list[LeagueBoard]:
    """One round now (``reussite league sync``); the boards afterwards, with their state."""
    node = LeagueNode(settings, store, key)
    await node.start()
    async with client_session() as session:
        await node.round(LeagueClient(session))
    return await store.league.boards()
