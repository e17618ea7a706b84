"""Helpers for the store tests: a settable clock, real played games, direct game rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from door.catalog.registry import engine
from door.store import Store
from door.store.models import GameRow


class Clock:
    """A settable UTC clock for the store (rate limits, purges, who's online)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


def played_game(name: str, number: int, moves: int, pick: int = 0) -> Any:
    """A real game: ``moves`` legal moves played from deal ``number`` (choice ``pick``)."""
    game = engine(name).new(number)
    for i in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[(pick + i) % len(legal)])
    return game


async def insert_game(store: Store, player_id: int, game: str, score: int, *,
                      number: int = 1, status: str = "won", cheater: bool = False,
                      ended: datetime | None = None) -> int:
    """A finished-game row written directly (no replay), to test the hall-of-fame SQL with
    exact scores and dates, e.g. for Mariant whose wins need a solver to produce."""
    from door.store import queries

    ended = ended or datetime(2026, 1, 1, tzinfo=UTC)
    async with store.core.engine.begin() as conn:
        result = await conn.execute(GameRow.__table__.insert().values(
            player_id=player_id, game=game, number=number, options={}, moves=[], score=score,
            status=status, cheater=cheater, hof=queries.counts_for_hall(game, status, cheater),
            rank_key=queries.rank_key(game, score), started=ended, ended=ended, duration_s=0)
            .returning(GameRow.id))
        return result.scalar_one()
