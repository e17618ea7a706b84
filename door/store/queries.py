"""The hall-of-fame rules as SQL: which games count, in which order, and a game's rank.

One ordering serves every game: ``rank_key`` ascending (lower is better), then the earlier
``ended``, then the lower ``id``; the three indexes on ``games`` follow it exactly, so a
top list is an index range scan and a rank is an index-only count.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Integer,
    Select,
    and_,
    func,
    literal,
    select,
    tuple_,
)

from ..catalog import registry as gamelist
from .models import GameRow, PlayerRow


def counts_for_hall(game: str, status: str, cheater: bool) -> bool:
    """Whether a finished game enters its hall of fame (its record's :class:`HallRule`).
    A game flagged as cheated never does."""
    return gamelist.game(game).hall.counts(status, cheater)


def rank_key(game: str, score: int) -> int:
    return gamelist.game(game).hall.rank_key(score)


def hall_filter(game: str, *extra: ColumnElement[bool]) -> ColumnElement[bool]:
    return and_(GameRow.game == game, GameRow.hof.is_(True), *extra)


ORDER = (GameRow.rank_key, GameRow.ended, GameRow.id)


def better_than(key: int, ended: datetime, game_id: int) -> ColumnElement[bool]:
    """Games ranked above the game (key, ended, id)."""
    return tuple_(*ORDER) < tuple_(literal(key, Integer()), literal(ended, GameRow.ended.type),
                                   literal(game_id, BigInteger()))


def board(where: ColumnElement[bool], limit: int) -> Select[*tuple[Any, ...]]:
    """A top list: the games matching ``where`` in hall-of-fame order, with their player."""
    return (select(GameRow.id, GameRow.player_id, PlayerRow.alias, GameRow.score,
                   GameRow.number, GameRow.status, GameRow.ended, GameRow.rank_key,
                   PlayerRow.source, GameRow.still_asks)
            .join(PlayerRow, PlayerRow.id == GameRow.player_id)
            .where(where).order_by(*ORDER).limit(limit))


def count_above(where: ColumnElement[bool], key: int, ended: datetime, game_id: int,
                cap: int | None = None) -> Select[Any]:
    """How many games matching ``where`` rank above (key, ended, id); stops at ``cap``."""
    ahead = select(GameRow.id).where(where, better_than(key, ended, game_id))
    if cap is None:
        return select(func.count()).select_from(ahead.subquery())
    return select(func.count()).select_from(ahead.limit(cap).subquery())
