"""The daily challenge in the store, on SQLite and PostgreSQL: the first finished attempt
counts, boards for a day and a month, the days streaks are counted from."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from storehelp import played_game

from door.catalog.registry import daily_deal
from door.store import Store
from door.store.streaks import streaks

DAY = date(2031, 5, 17)
"""Injected: no test depends on today's real date."""
T0 = datetime(2031, 5, 17, 9, 0, tzinfo=UTC)


def daily_game(day: date, moves: int, pick: int = 0):
    deal = daily_deal(day, "montecarlo")
    return played_game("montecarlo", deal.number, moves, pick)


async def finish(store: Store, player_id: int, game, day: date | None, at: datetime) -> None:
    await store.scores.finish_game(player_id, game.record(), game.score, str(game.status), False,
                                   at, at + timedelta(minutes=3), daily_day=day)


@pytest.mark.slow
async def test_the_first_finished_attempt_counts_and_ranks(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    weak, strong = daily_game(DAY, 2), daily_game(DAY, 8)
    assert strong.score > weak.score
    await finish(store, ann.id, weak, DAY, T0)
    await finish(store, ann.id, strong, DAY, T0 + timedelta(hours=1))   # later: not counted
    await finish(store, bob.id, strong, DAY, T0 + timedelta(hours=2))
    other = played_game("montecarlo", daily_deal(DAY, "montecarlo").number + 1, 8)
    await finish(store, bob.id, other, DAY, T0)            # not the day's deal: not counted
    await finish(store, ann.id, strong, None, T0)          # not started as the challenge
    board = await store.daily.board("montecarlo", DAY)
    assert [(e.rank, e.alias, e.score) for e in board] == [(1, "Bob", strong.score),
                                                          (2, "Ann", weak.score)]
    assert await store.daily.players(DAY) == {"montecarlo": 2}
    assert await store.daily.players(DAY + timedelta(days=1)) == {}
    mine = await store.daily.entry(ann.id, "montecarlo", DAY)
    assert mine is not None and (mine.rank, mine.score) == (2, weak.score)
    assert await store.daily.entry(ann.id, "auntmary", DAY) is None
    record = await store.scores.game_record(board[1].game_id)         # replayable from the board
    assert record == weak.record()


async def test_month_board_and_streak_days(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    for offset in range(3):                                  # Ann: 3 days in a row
        day = DAY + timedelta(days=offset)
        await finish(store, ann.id, daily_game(day, 4), day, T0 + timedelta(days=offset))
    await finish(store, bob.id, daily_game(DAY, 9), DAY, T0)
    month = await store.daily.month("montecarlo", date(2031, 5, 1), date(2031, 5, 31))
    assert [(s.rank, s.alias, s.played, s.won) for s in month] == [(1, "Ann", 3, 0),
                                                                  (2, "Bob", 1, 0)]
    assert month[1].best == daily_game(DAY, 9).score
    june = await store.daily.month("montecarlo", date(2031, 6, 1), date(2031, 6, 30))
    assert june == []
    days = await store.daily.days(DAY - timedelta(days=30))
    assert sorted((alias, day) for _, alias, day, _ in days) == [
        ("Ann", DAY), ("Ann", DAY + timedelta(days=1)), ("Ann", DAY + timedelta(days=2)),
        ("Bob", DAY)]
    ann_streak = streaks(days, DAY + timedelta(days=3))[0]
    assert (ann_streak.alias, ann_streak.played_now, ann_streak.played_best) == ("Ann", 3, 3)
    assert await store.players.delete(ann.id)
    assert [e.alias for e in await store.daily.board("montecarlo", DAY)] == ["Bob"]


def test_streaks_count_days_in_a_row_up_to_today_or_yesterday() -> None:
    d = date(2031, 1, 10)
    rows = [(1, "Ann", d - timedelta(days=n), n != 1) for n in (0, 1, 2, 3, 6, 7)]
    rows += [(2, "Bob", d - timedelta(days=n), True) for n in (2, 3, 4, 5, 6)]
    ann, bob = streaks(rows, d)
    assert (ann.alias, ann.played_now, ann.played_best, ann.won_now, ann.won_best) == (
        "Ann", 4, 4, 1, 2)
    assert (bob.alias, bob.played_now, bob.played_best, bob.won_now, bob.won_best) == (
        "Bob", 0, 5, 0, 5)                                   # broken: nothing yesterday
    assert streaks(rows, d + timedelta(days=1))[0].played_now == 4   # yesterday still counts
