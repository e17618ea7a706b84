"""What the public pages show, as plain data: each game's hall of fame (the whole door's, or
one member board's), the best on one deal, who's online, today's daily challenge.

The HTML pages and the ``/api`` answers are both made from these dicts, so they never
disagree.  Every answer is kept ``cache_seconds`` (:class:`Cache`): a crawler, however fast,
costs the database one query per page per that long.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from ..bbs.boards import SOURCE_PREFIX, board_source
from ..catalog import registry as gamelist
from ..config import Settings
from ..store import HALL_SIZE, DailyEntry, OnlineNode, ScoreEntry, Store
from ..ui.game import daily_status
from ..ui.menus.daily import gather, standing_json
from ..ui.menus.halloffame import game_title, list_title, rule
from ..ui.menus.whosonline import idle_text

CACHE_ENTRIES = 1024  # answers kept at once (each a few KiB): deal numbers are endless


class NotFound(Exception):
    """No such game, deal number or board; ``str()`` says which."""


Answer = dict[str, Any]
"""What a public page or its /api twin shows: JSON, made by a query."""


V = TypeVar("V")


class Cache(Generic[V]):
    """Answers kept for ``seconds``; callers asking for one being made wait for it (a
    hundred requests at once make one query).  Failures are not kept."""

    def __init__(self, seconds: float, entries: int = CACHE_ENTRIES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.entries, self.clock = seconds, entries, clock
        self._kept: OrderedDict[tuple[Hashable, ...], tuple[float, asyncio.Future[V]]] = (
            OrderedDict())

    async def get(self, key: tuple[Hashable, ...], make: Callable[[], Awaitable[V]]) -> V:
        now = self.clock()
        kept = self._kept.get(key)
        if kept is not None and now - kept[0] < self.seconds:
            self._kept.move_to_end(key)
            return await asyncio.shield(kept[1])
        future = asyncio.ensure_future(make())
        self._kept[key] = (now, future)
        self._kept.move_to_end(key)
        while len(self._kept) > self.entries:
            self._kept.popitem(last=False)
        try:
            return await asyncio.shield(future)
        except BaseException:
            if self._kept.get(key, (0, None))[1] is future:
                del self._kept[key]
            raise


def parse_game(game: str) -> str:
    if game not in gamelist.names():
        raise NotFound(f"No game {game!r} here: the games are {', '.join(gamelist.names())}.")
    return game


def parse_deal(text: str) -> int:
    number = int(text) if text.isdigit() and len(text) <= 10 else -1
    if number < 1:
        raise NotFound(f"No deal {text!r}: a deal is a number from 1.")
    return number


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _board_tag(source: str) -> str | None:
    return source[len(SOURCE_PREFIX):] if source.startswith(SOURCE_PREFIX) else None


def entry_dict(entry: ScoreEntry, wins: dict[int, tuple[int, int, int]] | None = None
               ) -> dict[str, Any]:
    """One line of a board; ``wins``: the players' (won, lost, streak) in this game."""
    won, lost, streak = (wins or {}).get(entry.player_id, (None, None, None))
    return {"rank": entry.rank, "player": entry.alias, "score": entry.score,
            "deal": entry.number, "status": entry.status, "ended": _when(entry.ended),
            "board": _board_tag(entry.source), "still_asks": entry.still_asks,
            "game_id": entry.game_id, "replay": f"/replay/{entry.game_id}",
            "won": won, "lost": lost, "streak": streak}


async def entry_dicts(store: Store, game: str, entries: list[ScoreEntry]
                      ) -> list[dict[str, Any]]:
    """A board's lines with each player's games won and lost and current streak."""
    wins = await store.scores.win_records(game, [e.player_id for e in entries])
    return [entry_dict(e, wins) for e in entries]


def daily_entry_dict(entry: DailyEntry) -> dict[str, Any]:
    return {"rank": entry.rank, "player": entry.alias, "score": entry.score,
            "won": entry.won, "ended": _when(entry.ended), "board": _board_tag(entry.source)}


def online_dict(node: OnlineNode, servers: list[str], now: datetime) -> dict[str, Any]:
    idle = max(0, int((now - node.heartbeat).total_seconds()))
    return {"server": servers.index(node.host) + 1, "node": node.node,
            "player": node.alias, "doing": node.activity, "idle_seconds": idle,
            "idle": idle_text(idle)}


class PublicData:
    """The public pages' data from one door's store and settings, cached."""

    def __init__(self, settings: Settings, store: Store | None) -> None:
        self.settings, self.store = settings, store
        self.cache: Cache[Answer] = Cache(settings.web.cache_seconds)
        self.boards = {board.tag: board for board in settings.boards}

    def _need_store(self) -> Store:
        if self.store is None:
            raise NotFound("This door runs without a database: no scores are kept.")
        return self.store

    def board_list(self) -> list[dict[str, str]]:
        """The member boards ([boards] in sysop.ini), each with a hall of fame of its own."""
        return [{"tag": b.tag, "name": b.name or b.tag} for b in self.boards.values()]

    def board_name(self, tag: str | None) -> str | None:
        """A member board's name (its tag when it has none); NotFound for an unknown tag."""
        if tag is None:
            return None
        board = self.boards.get(tag.upper())
        if board is None:
            raise NotFound(f"No member board {tag!r} here.")
        return board.name or board.tag

    async def hall(self, game: str, board: str | None = None) -> dict[str, Any]:
        """A game's hall of fame: the door's, or that of one member board's players."""
        game = parse_game(game)
        name = self.board_name(board)
        tag = board.upper() if board else None
        store = self._need_store()

        async def make() -> dict[str, Any]:
            source = board_source(tag) if tag else None
            entries = await store.scores.top(game, HALL_SIZE, source=source)
            title = list_title(game, None) + (f" ({name})" if name else "")
            return {"game": game, "game_name": game_title(game), "title": title,
                    "rule": rule(game), "board": tag, "board_name": name,
                    "boards": self.board_list(),
                    "entries": await entry_dicts(store, game, entries)}
        return await self.cache.get(("hall", game, tag), make)

    async def deal(self, game: str, number: int) -> dict[str, Any]:
        """The best games on one deal."""
        game = parse_game(game)
        store = self._need_store()

        async def make() -> dict[str, Any]:
            entries = await store.scores.number_board(game, number, HALL_SIZE)
            return {"game": game, "game_name": game_title(game), "deal": number,
                    "title": list_title(game, number), "rule": rule(game),
                    "entries": await entry_dicts(store, game, entries)}
        return await self.cache.get(("deal", game, number), make)

    async def online(self) -> dict[str, Any]:
        """Who is on every door server sharing the database; a server number appears when
        there are several."""
        store = self._need_store()

        async def make() -> dict[str, Any]:
            nodes = await store.online.nodes()
            now = datetime.now(UTC)
            servers = sorted({n.host for n in nodes})
            return {"servers": len(servers), "at": _when(now),
                    "callers": [online_dict(n, servers, now) for n in nodes]}
        return await self.cache.get(("online",), make)

    async def daily(self) -> dict[str, Any]:
        """Today's daily challenge (docs/daily.md): ``{"date", "month", "resets", "games":
        [{"game", "game_name", "deal", "players", "entries": [...], "month": [...]}],
        "streaks": [...]}`` -- each game's first attempts of the UTC day, best first, its
        standings of the month (most days won first, as the door's M board), and the
        players' streaks.  A door without a database still shows the day's deals, with no
        entries."""
        day = daily_status.today()
        month = f"{day:%B %Y}"

        async def make() -> dict[str, Any]:
            if self.store is None:
                games = [{"game": d.game, "game_name": game_title(d.game), "deal": d.number,
                          "players": 0, "entries": [], "month": []}
                         for d in gamelist.daily_deals(day)]
                return {"date": day.isoformat(), "month": month, "resets": "00:00 UTC",
                        "games": games, "streaks": []}
            found, runs = await gather(self.store, day, HALL_SIZE, month_limit=HALL_SIZE)
            return {"date": day.isoformat(), "month": month, "resets": "00:00 UTC",
                    "games": [{"game": g.game, "game_name": g.title, "deal": g.number,
                               "players": g.players,
                               "entries": [daily_entry_dict(e) for e in g.today],
                               "month": [dict(standing_json(s), board=_board_tag(s.source))
                                         for s in g.month]}
                              for g in found],
                    "streaks": [{"player": s.alias, "played": s.played_now,
                                 "played_best": s.played_best, "won": s.won_now,
                                 "won_best": s.won_best} for s in runs[:HALL_SIZE]]}
        return await self.cache.get(("daily", day.isoformat()), make)

    async def league(self) -> dict[str, Any]:
        """Today's league (docs/league.md): each game's ladder across every board, board
        against board, the league's streaks (``door.league.ladder.league_json``)."""
        from ..league.ladder import (  # local: the league's modules load only when it is on
            league_day,
            league_json,
        )

        store = self._need_store()
        day = daily_status.today()

        async def make() -> dict[str, Any]:
            found = await league_day(store, day, self.settings.league_name, HALL_SIZE,
                                     streak_lines=HALL_SIZE)
            return dict(league_json(found))
        return await self.cache.get(("league", day.isoformat()), make)
