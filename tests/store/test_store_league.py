"""The league's tables, on SQLite and PostgreSQL: results stored once whatever arrives twice,
this board's counted attempts signed once, ladders and board totals in the hall's order,
and a dropped board's results gone."""

from __future__ import annotations

from datetime import UTC, datetime

from leaguehelp import DAY, daily_game, signed

from door.league.keys import BoardKey
from door.league.outbox import sign_new
from door.league.results import from_stored
from door.store import Store

ALPHA, BETA = BoardKey.generate(), BoardKey.generate()


async def test_results_are_stored_once_and_read_back_signed(store: Store) -> None:
    games = [daily_game("montecarlo", pick=p) for p in range(3)]
    results = [signed(ALPHA, "Alpha", f"P{i}", g) for i, g in enumerate(games)]
    assert await store.league.add([(r, False) for r in results]) == 3
    assert await store.league.add([(results[0], False), (results[1], True)]) == 0
    assert await store.league.known([r.rid for r in results] + ["0" * 32]) == {
        r.rid for r in results}
    page = await store.league.since(0, 2)
    assert [from_stored(s) for s in page] == results[:2]
    assert [s.rid for s in await store.league.since(page[-1].seq, 10)] == [results[2].rid]
    assert await store.league.since(0, 10, board="Beta") == []


async def test_the_ladder_and_the_board_totals(store: Store) -> None:
    scored = []
    for pick in range(6):
        played = daily_game("montecarlo", pick=pick, moves=5 + pick)
        scored.append(played)
    entries = [signed(ALPHA if i % 2 else BETA, "Alpha" if i % 2 else "Beta", f"P{i}", g,
                      finished=datetime(2026, 12, 3, 10 + i, tzinfo=UTC))
               for i, g in enumerate(scored)]
    await store.league.add([(r, False) for r in entries])
    ladder = await store.league.ladder("montecarlo", DAY)
    assert [e.rank for e in ladder] == list(range(1, 7))
    keys = [(-e.score, e.finished) for e in ladder]
    assert keys == sorted(keys)  # highest score first, ties to the earlier finish
    totals = await store.league.totals(DAY)
    assert {t.board for t in totals} == {"Alpha", "Beta"}
    assert sum(t.attempts for t in totals) == 6
    assert sum(t.points for t in totals) == 10 + 9 + 8 + 7 + 6 + 5
    assert totals[0].points >= totals[1].points
    days = await store.league.days(DAY)
    assert {(b, h) for b, h, _, _ in days} == {("Alpha", f"P{i}") for i in (1, 3, 5)} | {
        ("Beta", f"P{i}") for i in (0, 2, 4)}


async def test_a_dropped_board_takes_its_results_with_it(store: Store) -> None:
    await store.league.set_board("Alpha", ALPHA.public, "peer", "http://127.0.0.1:1")
    await store.league.set_board("Beta", BETA.public, "peer")
    await store.league.add([(signed(ALPHA, "Alpha", "Pat", daily_game("anciento")), False),
                            (signed(BETA, "Beta", "Sam", daily_game("anciento")), False)])
    assert await store.league.drop("Alpha") == (1, 1)
    assert [b.name for b in await store.league.boards()] == ["Beta"]
    assert [s.board for s in await store.league.since(0, 10)] == ["Beta"]


async def test_a_new_key_is_a_new_board_its_cursors_restart(store: Store) -> None:
    assert await store.league.set_board("Alpha", ALPHA.public, "peer", "http://a")
    await store.league.mark("Alpha", ok=True, pulled_after=7, pushed_after=3)
    assert not await store.league.set_board("Alpha", ALPHA.public, "peer", "http://a")
    assert await store.league.set_board("Alpha", ALPHA.public, "peer", "http://b")
    (board,) = await store.league.boards()
    assert (board.url, board.pulled_after, board.pushed_after) == ("http://b", 7, 3)
    await store.league.set_board("Alpha", BETA.public, "peer", "http://b")
    (board,) = await store.league.boards()
    assert (board.pulled_after, board.pushed_after) == (0, 0)


async def test_this_boards_counted_attempts_are_signed_once(store: Store) -> None:
    player = await store.players.player("bbs", "1", "Pat")
    played = daily_game("montecarlo", moves=8)
    now = datetime(2026, 12, 3, 9, tzinfo=UTC)
    await store.scores.finish_game(player.id, played.record(), played.score, str(played.status),
                                   False, now, now, daily_day=DAY)
    key = BoardKey.generate()
    assert await sign_new(store, key, "Home", DAY) == 1
    assert await sign_new(store, key, "Home", DAY) == 0  # signed once, even asked again
    (mine,) = await store.league.since(0, 10, board="Home")
    assert (mine.handle, mine.score, mine.moves) == ("Pat", played.score, played.actions)
    result = from_stored(mine)
    from door.league.keys import signature_valid
    assert signature_valid(key.public, result.signed_bytes(), result.signature)
