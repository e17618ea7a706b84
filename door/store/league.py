"""The league's tables (docs/league.md): the boards of this board's league, and the results
every board signed — this board's own callers' counted daily attempts and the ones other
boards sent, verified by replay before they reach :meth:`League.add`.

The ladders are read from here: a day's results of one game across every board (the
league ladder; this board's own daily board stays :mod:`door.store.daily`), board against
board totals, and the days streaks are counted from.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import case, delete, func, select, update

from ..catalog import registry as gamelist
from . import queries
from .core import Repository, unit
from .models import DailyEntryRow, GameRow, LeagueBoardRow, LeagueResultRow, PlayerRow

LADDER_SIZE = 10
TOTAL_POINTS = 10
"""A day's ladder gives its 1st place this many points, the 10th one point: the board
against board totals add them up."""

_won_as_one = case((LeagueResultRow.won.is_(True), 1), else_=0)


@dataclass(frozen=True)
class LeagueBoard:
    name: str
    public_key: str
    url: str
    role: str
    added: datetime
    pulled_after: int = 0
    pushed_after: int = 0
    failures: int = 0
    next_try: datetime | None = None
    last_ok: datetime | None = None
    last_error: str = ""


@dataclass(frozen=True)
class SignedFields:
    """What a board signs of one of its callers' counted daily attempts for the league:
    the fields of ``door.league.results.LeagueResult``, and of a result as stored here."""

    board: str
    handle: str
    day: date
    game: str
    number: int
    options: dict[str, Any]
    moves: list[str]
    score: int
    won: bool
    finished: datetime


@dataclass(frozen=True, kw_only=True)
class StoredResult(SignedFields):
    """A result as stored: the signed fields (``door.league.results`` rebuilds the signed
    object from them), its signature, its sequence number here and its verdicts."""

    signature: str
    seq: int
    rid: str
    cheater: bool = False


@dataclass(frozen=True)
class LadderEntry:
    rank: int
    seq: int
    board: str
    handle: str
    score: int
    won: bool
    finished: datetime
    moves: int


@dataclass(frozen=True)
class BoardTotal:
    """One board's day across the league: callers, attempts, wins, and ladder points."""

    rank: int
    board: str
    players: int
    attempts: int
    wins: int
    points: int


@dataclass(frozen=True)
class LocalAttempt:
    """A counted daily attempt of this board's callers, not signed for the league yet."""

    game_id: int
    handle: str
    day: date
    game: str
    number: int
    options: dict[str, Any]
    moves: list[str]
    score: int
    won: bool
    finished: datetime
    cheater: bool = False


def _board_of(row: Any) -> LeagueBoard:
    return LeagueBoard(row.name, row.public_key, row.url, row.role, row.added,
                       int(row.pulled_after), int(row.pushed_after), int(row.failures),
                       row.next_try, row.last_ok, row.last_error)


def _result_of(row: Any) -> StoredResult:
    return StoredResult(row.board, row.handle, _as_date(row.day), row.game, int(row.number),
                        dict(row.options), list(row.moves), int(row.score), bool(row.won),
                        row.finished, signature=row.signature, seq=int(row.seq), rid=row.rid,
                        cheater=bool(row.cheater))


def _as_date(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


class League(Repository):
    # -- boards ---------------------------------------------------------------------------
    @unit
    async def boards(self) -> list[LeagueBoard]:
        async with self._core.read() as conn:
            rows = (await conn.execute(select(LeagueBoardRow)
                                       .order_by(LeagueBoardRow.name))).all()
        return [_board_of(row) for row in rows]

    @unit
    async def set_board(self, name: str, public_key: str, role: str,
                        url: str = "") -> bool:
        """Add a board, or change its key, role or address (its cursors are kept unless its
        key changed: a new key is a new board).  True when something changed."""
        async with self._core.write() as conn:
            row = (await conn.execute(select(LeagueBoardRow)
                                      .where(LeagueBoardRow.name == name))).first()
            if row is None:
                await conn.execute(self._core.insert(conn, LeagueBoardRow).values(
                    name=name, public_key=public_key, role=role, url=url[:200],
                    added=self._core.now()))
                return True
            if (row.public_key, row.role, row.url) == (public_key, role, url[:200]):
                return False
            values: dict[str, Any] = {"public_key": public_key, "role": role,
                                      "url": url[:200]}
            if row.public_key != public_key:
                values |= {"pulled_after": 0, "pushed_after": 0}
            await conn.execute(update(LeagueBoardRow).where(LeagueBoardRow.name == name)
                               .values(**values))
            return True

    @unit
    async def drop(self, name: str) -> tuple[int, int]:
        """Forget a board and every result it signed: (boards, results) removed."""
        async with self._core.write() as conn:
            results = await conn.execute(delete(LeagueResultRow)
                                         .where(LeagueResultRow.board == name))
            boards = await conn.execute(delete(LeagueBoardRow)
                                        .where(LeagueBoardRow.name == name))
        return boards.rowcount, results.rowcount

    @unit
    async def mark(self, name: str, *, ok: bool, error: str = "",
                   pulled_after: int | None = None, pushed_after: int | None = None,
                   retry_in: timedelta | None = None) -> None:
        """After a sync with a board: its cursors moved, or a failure and when to try next."""
        values: dict[str, Any] = {}
        if ok:
            values |= {"failures": 0, "next_try": None, "last_ok": self._core.now(),
                       "last_error": ""}
        else:
            values |= {"failures": LeagueBoardRow.failures + 1, "last_error": error[:200],
                       "next_try": self._core.now() + (retry_in or timedelta(0))}
        if pulled_after is not None:
            values["pulled_after"] = pulled_after
        if pushed_after is not None:
            values["pushed_after"] = pushed_after
        async with self._core.write(background=True) as conn:
            await conn.execute(update(LeagueBoardRow).where(LeagueBoardRow.name == name)
                               .values(**values))

    # -- results --------------------------------------------------------------------------
    @unit
    async def known(self, rids: Iterable[str]) -> set[str]:
        """Which of these result ids are stored already (they need no second replay)."""
        wanted = list(dict.fromkeys(rids))
        known: set[str] = set()
        async with self._core.read() as conn:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                known.update((await conn.execute(
                    select(LeagueResultRow.rid).where(LeagueResultRow.rid.in_(chunk))
                )).scalars())
        return known

    @unit
    async def add(self, results: Iterable[tuple[Any, bool]],
                  game_ids: dict[str, int] | None = None) -> int:
        """Store verified results — (a ``door.league.results.LeagueResult``, its replay's
        cheater flag) — once each, whatever arrives twice.  ``game_ids``: for this board's
        own results, the local game each was signed from.  Returns how many were new."""
        now = self._core.now()
        game_ids = game_ids or {}
        rows = [dict(rid=result.rid, board=result.board, handle=result.handle, day=result.day,
                     game=result.game, number=result.number, options=dict(result.options),
                     moves=list(result.moves), score=result.score, won=result.won,
                     cheater=cheater, rank_key=queries.rank_key(result.game, result.score),
                     finished=result.finished, signature=result.signature, received=now,
                     game_id=game_ids.get(result.rid))
                for result, cheater in results]
        if not rows:
            return 0
        count = select(func.count()).select_from(LeagueResultRow).where(
            LeagueResultRow.rid.in_([row["rid"] for row in rows]))
        async with self._core.write(background=True) as conn:
            before = (await conn.execute(count)).scalar_one()
            # One statement for the batch (executemany): a page of 500 is one round trip to
            # the database's thread, not 500.
            await conn.execute(self._core.insert(conn, LeagueResultRow).on_conflict_do_nothing(),
                               rows)
            after = (await conn.execute(count)).scalar_one()
        return int(after - before)

    @unit
    async def since(self, after: int, limit: int, board: str | None = None,
                    since: date | None = None) -> list[StoredResult]:
        """Results stored here after sequence number ``after``, oldest first (what a peer
        pulls); only ``board``'s when given (what this board pushes of its own), only of
        days from ``since`` when given (a packet file)."""
        query = select(LeagueResultRow).where(LeagueResultRow.seq > after)
        if board is not None:
            query = query.where(LeagueResultRow.board == board)
        if since is not None:
            query = query.where(LeagueResultRow.day >= since)
        async with self._core.read() as conn:
            rows = (await conn.execute(query.order_by(LeagueResultRow.seq)
                                       .limit(max(0, limit)))).all()
        return [_result_of(row) for row in rows]

    @unit
    async def result(self, seq: int) -> StoredResult | None:
        async with self._core.read() as conn:
            row = (await conn.execute(select(LeagueResultRow)
                                      .where(LeagueResultRow.seq == seq))).first()
        return None if row is None else _result_of(row)

    @unit
    async def unsigned(self, since: date, limit: int = 500) -> list[LocalAttempt]:
        """This board's counted daily attempts since ``since`` that have no league result
        yet: what the league node signs next."""
        signed = select(LeagueResultRow.game_id).where(LeagueResultRow.game_id.is_not(None))
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(DailyEntryRow.game_id, DailyEntryRow.day, PlayerRow.alias,
                       GameRow.game, GameRow.number, GameRow.options, GameRow.moves,
                       GameRow.score, GameRow.status, GameRow.ended, GameRow.cheater)
                .join(GameRow, GameRow.id == DailyEntryRow.game_id)
                .join(PlayerRow, PlayerRow.id == DailyEntryRow.player_id)
                .where(DailyEntryRow.day >= since, DailyEntryRow.game_id.not_in(signed))
                .order_by(DailyEntryRow.game_id).limit(max(0, limit)))).all()
        return [LocalAttempt(int(r.game_id), r.alias, _as_date(r.day), r.game, int(r.number),
                             dict(r.options), list(r.moves), int(r.score), r.status == "won",
                             r.ended, bool(r.cheater)) for r in rows]

    # -- ladders --------------------------------------------------------------------------
    @unit
    async def ladder(self, game: str, day: date, limit: int = LADDER_SIZE
                     ) -> list[LadderEntry]:
        """The day's results of ``game`` on every board, best first (the hall's order: ties
        to the earlier finish)."""
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(LeagueResultRow.seq, LeagueResultRow.board, LeagueResultRow.handle,
                       LeagueResultRow.score, LeagueResultRow.won, LeagueResultRow.finished,
                       LeagueResultRow.moves)
                .where(LeagueResultRow.game == game, LeagueResultRow.day == day)
                .order_by(LeagueResultRow.rank_key, LeagueResultRow.finished,
                          LeagueResultRow.rid)
                .limit(max(0, limit)))).all()
        return [LadderEntry(rank, int(r.seq), r.board, r.handle, int(r.score), bool(r.won),
                            r.finished, len(r.moves)) for rank, r in enumerate(rows, 1)]

    @unit
    async def totals(self, day: date) -> list[BoardTotal]:
        """Board against board on ``day``: callers, attempts and wins per board, and points
        from every game's ladder (10 for a 1st place … 1 for a 10th)."""
        async with self._core.read() as conn:
            counts = (await conn.execute(
                select(LeagueResultRow.board,
                       func.count(func.distinct(LeagueResultRow.handle)).label("players"),
                       func.count().label("attempts"),
                       func.sum(_won_as_one).label("wins"))
                .where(LeagueResultRow.day == day)
                .group_by(LeagueResultRow.board))).all()
            points: dict[str, int] = {}
            for game in gamelist.names():
                ladder = (await conn.execute(
                    select(LeagueResultRow.board)
                    .where(LeagueResultRow.game == game, LeagueResultRow.day == day)
                    .order_by(LeagueResultRow.rank_key, LeagueResultRow.finished,
                              LeagueResultRow.rid)
                    .limit(TOTAL_POINTS))).scalars().all()
                for place, board in enumerate(ladder):
                    points[board] = points.get(board, 0) + TOTAL_POINTS - place
        totals = sorted(((points.get(r.board, 0), int(r.wins or 0), int(r.attempts), r.board,
                          int(r.players)) for r in counts),
                        key=lambda t: (-t[0], -t[1], -t[2], t[3].lower()))
        return [BoardTotal(rank, board, players, attempts, wins, score)
                for rank, (score, wins, attempts, board, players) in enumerate(totals, 1)]

    @unit
    async def days(self, since: date) -> list[tuple[str, str, date, bool]]:
        """(board, handle, day, won any) for each day since ``since`` a caller of any board
        has a result: what league streaks are counted from."""
        won = func.max(_won_as_one)
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(LeagueResultRow.board, LeagueResultRow.handle, LeagueResultRow.day,
                       won.label("won"))
                .where(LeagueResultRow.day >= since)
                .group_by(LeagueResultRow.board, LeagueResultRow.handle, LeagueResultRow.day)
                .order_by(LeagueResultRow.board, LeagueResultRow.handle,
                          LeagueResultRow.day))).all()
        return [(r.board, r.handle, _as_date(r.day), bool(r.won)) for r in rows]
