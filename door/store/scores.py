"""Finished games and their halls of fame: a game is stored only after its record replays
to the score and status claimed, and ranked by the rules in queries.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import case, delete, func, select, update

from ..catalog import registry as gamelist
from ..games import GameRecord, IllegalMove, Status
from ..games.base import UNDO
from . import queries
from .core import Repository, unit
from .errors import RecordRejected, UnknownPlayer
from .models import DailyEntryRow, GameRow, PlayerRow
from .records import PastGame, ScoreEntry, entry_of
from .saves import clear_slot

HALL_SIZE = 10
"""Places in a hall of fame: finish_game reports a rank only inside it."""


def verify_record(record: GameRecord, score: int, status: str) -> bool:
    """Replay ``record`` and check the claimed score, win and resignation; return the
    replay's cheater flag.  Raises :class:`RecordRejected` naming what disagrees."""
    where = f"{record.game} #{record.number}"
    try:
        replayed = gamelist.engine(record.game).replay(record)
    except (IllegalMove, ValueError, TypeError, KeyError, IndexError) as exc:
        raise RecordRejected(f"the record of {where} does not replay: {exc}") from None
    if replayed.score != score:
        raise RecordRejected(f"the record of {where} replays to a score of {replayed.score}, "
                             f"not {score}")
    for final in (Status.WON, Status.RESIGNED):
        replays = replayed.status == final
        if replays != (status == final):
            raise RecordRejected(f"the record of {where} replays to a game "
                                 f"{'' if replays else 'not '}{final}, but it was reported "
                                 f"{status}")
    return replayed.cheater


@dataclass(frozen=True)
class StoredGame:
    """A finished game just stored, for :attr:`Scores.game_stored`."""

    player_id: int
    record: GameRecord
    score: int
    status: str
    rank: int | None
    """Its place in the hall of fame (1–10), or None."""


class Scores(Repository):
    game_stored: Callable[[StoredGame], None] | None = None
    """Told of every finished game once it is stored (door/serve/server.py logs one line per
    game, whichever screen or retry stored it); it must not raise."""

    @unit
    async def finish_game(self, player_id: int, record: GameRecord, score: int, status: str,
                          cheater: bool, started: datetime, ended: datetime,
                          resume_owner: int | None = None, still_asks: int = 0,
                          daily_day: date | None = None) -> int | None:
        """Store a finished game, after replaying its record to check the score.  Returns the
        rank it earned in its game's hall of fame (1–10), or None if it did not place.
        ``resume_owner``: the game's resume slot is emptied in the same transaction, if
        that owner still holds it.  ``still_asks``: how often "still winnable?" was asked, or
        a search player's hint shown (the hall marks the game).  ``daily_day``: started as that
        day's challenge; if its deal and options are that day's (``door.games.daily``) and
        the player has no finished attempt at it yet, it is their counted attempt."""
        status = str(status)
        replay_cheater = await asyncio.to_thread(verify_record, record, score, status)
        cheater = bool(cheater) or replay_cheater
        hof = queries.counts_for_hall(record.game, status, cheater)
        key = queries.rank_key(record.game, score)
        async with self._core.write() as conn:
            bumped = await conn.execute(
                update(PlayerRow).where(PlayerRow.id == player_id)
                .values(games_played=PlayerRow.games_played + 1, last_seen=self._core.now()))
            if bumped.rowcount != 1:
                raise UnknownPlayer(f"no player #{player_id}")
            game_id = (await conn.execute(
                self._core.insert(conn, GameRow).values(
                    player_id=player_id, game=record.game, number=record.number,
                    options=dict(record.options), moves=list(record.actions), score=score,
                    status=status[:16], cheater=cheater, hof=hof, rank_key=key,
                    started=started, ended=ended, still_asks=max(0, int(still_asks)),
                    duration_s=max(0, int((ended - started).total_seconds())))
                .returning(GameRow.id))).scalar_one()
            if daily_day is not None and gamelist.is_daily(record.game, record.number,
                                                  record.options, daily_day):
                await conn.execute(self._core.insert(conn, DailyEntryRow).values(
                    day=daily_day, game=record.game, player_id=player_id, game_id=game_id,
                    number=record.number, score=score, won=status == "won", rank_key=key,
                    ended=ended).on_conflict_do_nothing(
                        index_elements=["day", "game", "player_id"]))
            if resume_owner is not None:
                await clear_slot(conn, player_id, record.game, resume_owner)
            rank = None
            if hof:
                ahead = (await conn.execute(queries.count_above(
                    queries.hall_filter(record.game), key, ended, game_id,
                    cap=HALL_SIZE))).scalar_one()
                rank = ahead + 1 if ahead < HALL_SIZE else None
        if self.game_stored is not None:
            self.game_stored(StoredGame(player_id, record, score, status, rank))
        return rank

    async def top(self, game: str, limit: int = 10, source: str | None = None
                  ) -> list[ScoreEntry]:
        """The hall of fame of ``game``: best first, ties to the earlier game; only the
        players of ``source`` (a member board's, say) when given, ranked among themselves."""
        if source is None:
            return await self._board(queries.hall_filter(game), limit)
        return await self._board(queries.hall_filter(game, PlayerRow.source == source), limit)

    async def number_board(self, game: str, number: int, limit: int = 10) -> list[ScoreEntry]:
        """The best games on one deal ("best on Pebbles #505")."""
        return await self._board(queries.hall_filter(game, GameRow.number == number), limit)

    @unit
    async def player_best(self, game: str, player_id: int) -> ScoreEntry | None:
        """The player's best game of ``game`` and its rank in the whole hall of fame."""
        async with self._core.read() as conn:
            best = (await conn.execute(queries.board(
                queries.hall_filter(game, GameRow.player_id == player_id), 1))).first()
            if best is None:
                return None
            ahead = (await conn.execute(queries.count_above(
                queries.hall_filter(game), best.rank_key, best.ended, best.id))).scalar_one()
        return entry_of(ahead + 1, best)

    @unit
    async def _board(self, where: Any, limit: int) -> list[ScoreEntry]:
        async with self._core.read() as conn:
            rows = (await conn.execute(queries.board(where, max(0, limit)))).all()
        return [entry_of(rank, row) for rank, row in enumerate(rows, 1)]

    @unit
    async def win_records(self, game: str, player_ids: list[int]
                          ) -> dict[int, tuple[int, int, int]]:
        """Each player's finished games of ``game``: (won, not won, current streak: the
        games won since the last one not won), for the public halls' columns.  Two
        grouped reads on the players' index, however many games they have."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        won = func.sum(case((GameRow.status == "won", 1), else_=0))
        async with self._core.read() as conn:
            totals = (await conn.execute(
                select(GameRow.player_id, won, func.count())
                .where(GameRow.game == game, GameRow.player_id.in_(ids))
                .group_by(GameRow.player_id))).all()
            last_loss = (select(GameRow.player_id.label("pid"),
                                func.max(GameRow.ended).label("ended"))
                         .where(GameRow.game == game, GameRow.player_id.in_(ids),
                                GameRow.status != "won")
                         .group_by(GameRow.player_id).subquery())
            streaks = (await conn.execute(
                select(GameRow.player_id, func.count())
                .outerjoin(last_loss, last_loss.c.pid == GameRow.player_id)
                .where(GameRow.game == game, GameRow.player_id.in_(ids),
                       GameRow.status == "won",
                       (last_loss.c.ended.is_(None)) | (GameRow.ended > last_loss.c.ended))
                .group_by(GameRow.player_id))).all()
        streak = {pid: int(n) for pid, n in streaks}
        return {pid: (int(w or 0), int(n) - int(w or 0), streak.get(pid, 0))
                for pid, w, n in totals}

    @unit
    async def game_record(self, game_id: int) -> GameRecord | None:
        async with self._core.read() as conn:
            row = (await conn.execute(select(GameRow).where(GameRow.id == game_id))).first()
        if row is None:
            return None
        return GameRecord(row.game, row.number, dict(row.options), list(row.moves))

    @unit
    async def player_games(self, player_id: int, offset: int, limit: int
                           ) -> tuple[list[PastGame], int]:
        """The player's finished games ``offset`` … ``offset + limit``, newest first, hall
        of fame or not, and how many the player has in all (the "Your games" screen)."""
        async with self._core.read() as conn:
            total = (await conn.execute(select(func.count()).select_from(GameRow)
                                        .where(GameRow.player_id == player_id))).scalar_one()
            rows = (await conn.execute(
                select(GameRow.id, GameRow.game, GameRow.number, GameRow.options,
                       GameRow.score, GameRow.status, GameRow.ended, GameRow.moves,
                       GameRow.cheater, GameRow.still_asks)
                .where(GameRow.player_id == player_id)
                .order_by(GameRow.ended.desc(), GameRow.id.desc())
                .offset(max(0, offset)).limit(max(0, limit)))).all()
        return [PastGame(r.id, GameRecord(r.game, r.number, dict(r.options), list(r.moves)),
                         r.score, r.status, r.ended, list(r.moves).count(UNDO),
                         bool(r.cheater), int(r.still_asks or 0)) for r in rows], int(total)

    @unit
    async def reset(self, game: str) -> int:
        """Forget every finished game of ``game`` (the sysop's fresh start)."""
        async with self._core.write() as conn:
            await conn.execute(delete(DailyEntryRow).where(DailyEntryRow.game == game))
            result = await conn.execute(delete(GameRow).where(GameRow.game == game))
        return result.rowcount

    async def game_rows(self, batch: int = 5000) -> AsyncIterator[dict[str, Any]]:
        """Every stored game with its player's alias, oldest first, read in short batches."""
        last = 0
        while True:
            async with self._core.read() as conn:
                rows = (await conn.execute(
                    select(GameRow, PlayerRow.alias, PlayerRow.source)
                    .join(PlayerRow, PlayerRow.id == GameRow.player_id)
                    .where(GameRow.id > last).order_by(GameRow.id).limit(batch))).all()
            for row in rows:
                yield dict(row._mapping)
            if len(rows) < batch:
                return
            last = rows[-1].id
