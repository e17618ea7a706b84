"""The daily challenge's boards: each day's counted attempts (``daily_entries``, written by
``Scores.finish_game``), a month's standings, and the days streaks are counted from
(``streaks.py``).  The deals themselves come from ``door.games.daily``."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import BigInteger, Integer, case, func, literal, select, tuple_

from ..catalog import registry as gamelist
from .core import Repository, unit
from .models import DailyEntryRow, PlayerRow
from .records import DailyEntry, DailyStanding, daily_of

BOARD_SIZE = 10


def _as_date(value: Any) -> date:
    """A Date column's value (SQLite may hand back the ISO text of a grouped date)."""
    return value if isinstance(value, date) else date.fromisoformat(str(value))


class Daily(Repository):
    @unit
    async def board(self, game: str, day: date, limit: int = BOARD_SIZE
                    ) -> list[DailyEntry]:
        """The day's counted attempts at ``game``'s challenge, best first (hall order)."""
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(DailyEntryRow, PlayerRow.alias, PlayerRow.source)
                .join(PlayerRow, PlayerRow.id == DailyEntryRow.player_id)
                .where(DailyEntryRow.game == game, DailyEntryRow.day == day)
                .order_by(DailyEntryRow.rank_key, DailyEntryRow.ended, DailyEntryRow.player_id)
                .limit(max(0, limit)))).all()
        return [daily_of(rank, row) for rank, row in enumerate(rows, 1)]

    @unit
    async def players(self, day: date) -> dict[str, int]:
        """How many players have a counted attempt at each game's challenge of ``day``."""
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(DailyEntryRow.game, func.count())
                .where(DailyEntryRow.day == day).group_by(DailyEntryRow.game))).all()
        return {game: count for game, count in rows}

    @unit
    async def entry(self, player_id: int, game: str, day: date) -> DailyEntry | None:
        """The player's counted attempt at ``game``'s challenge of ``day``, if any (its rank
        among the day's attempts)."""
        async with self._core.read() as conn:
            row = (await conn.execute(
                select(DailyEntryRow, PlayerRow.alias, PlayerRow.source)
                .join(PlayerRow, PlayerRow.id == DailyEntryRow.player_id)
                .where(DailyEntryRow.game == game, DailyEntryRow.day == day,
                       DailyEntryRow.player_id == player_id))).first()
            if row is None:
                return None
            order = (DailyEntryRow.rank_key, DailyEntryRow.ended, DailyEntryRow.player_id)
            ahead = (await conn.execute(
                select(func.count()).select_from(DailyEntryRow)
                .where(DailyEntryRow.game == game, DailyEntryRow.day == day,
                       tuple_(*order) < tuple_(
                           literal(row.rank_key, Integer()),
                           literal(row.ended, DailyEntryRow.ended.type),
                           literal(player_id, BigInteger()))))).scalar_one()
        return daily_of(ahead + 1, row)

    @unit
    async def month(self, game: str, first: date, last: date,
                    limit: int = BOARD_SIZE) -> list[DailyStanding]:
        """Players of ``game``'s challenges from ``first`` to ``last`` (a month): most days
        won first, then most days played, then the best score."""
        won = func.sum(case((DailyEntryRow.won.is_(True), 1), else_=0))
        played, best = func.count(), func.min(DailyEntryRow.rank_key)
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(DailyEntryRow.player_id, PlayerRow.alias, PlayerRow.source,
                       played.label("played"), won.label("won"), best.label("best"))
                .join(PlayerRow, PlayerRow.id == DailyEntryRow.player_id)
                .where(DailyEntryRow.game == game, DailyEntryRow.day >= first,
                       DailyEntryRow.day <= last)
                .group_by(DailyEntryRow.player_id, PlayerRow.alias, PlayerRow.source)
                .order_by(won.desc(), played.desc(), best, DailyEntryRow.player_id)
                .limit(max(0, limit)))).all()
        sign = 1 if gamelist.game(game).hall.lowest_wins else -1   # rank_key back to a score
        return [DailyStanding(rank, r.player_id, r.alias, int(r.played), int(r.won or 0),
                              sign * int(r.best), r.source)
                for rank, r in enumerate(rows, 1)]

    @unit
    async def days(self, since: date) -> list[tuple[int, str, date, bool]]:
        """(player id, alias, day, won any) for every day since ``since`` on which a player
        has a counted attempt at any challenge: what streaks are counted from."""
        won = func.max(case((DailyEntryRow.won.is_(True), 1), else_=0))
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(DailyEntryRow.player_id, PlayerRow.alias, DailyEntryRow.day,
                       won.label("won"))
                .join(PlayerRow, PlayerRow.id == DailyEntryRow.player_id)
                .where(DailyEntryRow.day >= since)
                .group_by(DailyEntryRow.player_id, PlayerRow.alias, DailyEntryRow.day)
                .order_by(DailyEntryRow.player_id, DailyEntryRow.day))).all()
        return [(r.player_id, r.alias, _as_date(r.day), bool(r.won)) for r in rows]
