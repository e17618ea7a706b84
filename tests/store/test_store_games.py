"""Finished games and the hall of fame, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from storehelp import insert_game, played_game

from door.games import GameRecord
from door.store import RecordRejected, Store, UnknownPlayer
from door.store.queries import counts_for_hall, rank_key

T0 = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


async def test_finish_game_stores_the_record_and_replays_it(store: Store) -> None:
    ann = await store.players.player("Night Owl BBS", "17", "Ann")
    game = played_game("montecarlo", 4242, 6)
    rank = await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status),
                                          False, T0, T0 + timedelta(minutes=4))
    assert rank == 1
    top = await store.scores.top("montecarlo")
    assert [(e.rank, e.alias, e.score, e.number) for e in top] == [(1, "Ann", game.score, 4242)]
    stored = await store.scores.game_record(top[0].game_id)
    assert stored == game.record()
    again = type(game).replay(stored)
    assert again.score == game.score
    assert (await store.players.by_id(ann.id)).games_played == 1


async def test_anciento_record_is_verified_too(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    game = played_game("anciento", 505, 10)
    assert game.score > 0
    assert await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status),
                                          False, T0, T0) == 1
    assert (await store.scores.number_board("anciento", 505))[0].score == game.score


async def test_a_resigned_game_is_stored_as_such_and_never_ranked(store: Store) -> None:
    """Aunt Mary resigned with 3 cards left is a game kept in its player's list, marked
    resigned, and in no hall of fame: not "1st place"."""
    ann = await store.players.player("direct", "ann", "Ann")
    game = played_game("auntmary", 31, 6)
    game.play("resign")
    assert await store.scores.finish_game(ann.id, game.record(), game.score, str(game.outcome),
                                          False, T0, T0) is None
    assert await store.scores.top("auntmary") == []
    past, total = await store.scores.player_games(ann.id, 0, 10)
    assert total == 1 and past[0].status == "resigned"
    assert not counts_for_hall("montecarlo", "resigned", False)


@pytest.mark.parametrize("claim", ["lost", "resigned"])
async def test_a_resignation_must_replay(store: Store, claim: str) -> None:
    """Claimed resigned but not in the record, or resigned in the record but claimed lost:
    refused, like a win that does not replay."""
    ann = await store.players.player("direct", "ann", "Ann")
    game = played_game("montecarlo", 77, 5)
    if claim == "lost":
        game.play("resign")
    with pytest.raises(RecordRejected, match="resigned"):
        await store.scores.finish_game(ann.id, game.record(), game.score, claim, False, T0, T0)


@pytest.mark.parametrize("change", ["score", "won", "moves", "game"])
async def test_a_record_that_disagrees_is_refused_and_nothing_is_stored(
        store: Store, change: str) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    game = played_game("montecarlo", 77, 5)
    record, score, status = game.record(), game.score, str(game.status)
    if change == "score":
        score += 1
    elif change == "won":
        status = "won"
    elif change == "moves":
        record = GameRecord(record.game, record.number, record.options,
                            [*record.actions, "zz99"])
    else:
        record = GameRecord("solitaire-of-doom", record.number)
    with pytest.raises(RecordRejected) as caught:
        await store.scores.finish_game(ann.id, record, score, status, False, T0, T0)
    assert "#77" in str(caught.value)
    assert await store.scores.top("montecarlo") == []
    assert (await store.players.by_id(ann.id)).games_played == 0


async def test_unknown_player_is_refused(store: Store) -> None:
    game = played_game("montecarlo", 1, 3)
    with pytest.raises(UnknownPlayer):
        await store.scores.finish_game(999, game.record(), game.score, str(game.status), False,
                                       T0, T0)


async def test_highest_first_ties_to_the_earlier_game(store: Store) -> None:
    a = await store.players.player("direct", "a", "Alice")
    b = await store.players.player("direct", "b", "Bert")
    await insert_game(store, a.id, "anciento", 300, ended=T0 + timedelta(hours=2))
    await insert_game(store, b.id, "anciento", 300, ended=T0 + timedelta(hours=1))
    await insert_game(store, a.id, "anciento", 500, ended=T0 + timedelta(hours=3))
    await insert_game(store, b.id, "anciento", 100, ended=T0)
    top = await store.scores.top("anciento")
    assert [(e.rank, e.alias, e.score) for e in top] == [
        (1, "Alice", 500), (2, "Bert", 300), (3, "Alice", 300), (4, "Bert", 100)]


async def test_mariant_hit_parade_lowest_first_won_only_no_cheats(store: Store) -> None:
    a = await store.players.player("direct", "a", "Alice")
    b = await store.players.player("direct", "b", "Bert")
    await insert_game(store, a.id, "mariant", 900, status="won")
    await insert_game(store, b.id, "mariant", 400, status="won", ended=T0)
    await insert_game(store, a.id, "mariant", 400, status="won", ended=T0 + timedelta(1))
    await insert_game(store, b.id, "mariant", 10, status="lost")
    await insert_game(store, b.id, "mariant", 20, status="won", cheater=True)
    top = await store.scores.top("mariant")
    assert [(e.alias, e.score, e.rank) for e in top] == [("Bert", 400, 1), ("Alice", 400, 2),
                                                          ("Alice", 900, 3)]
    assert (await store.scores.player_best("mariant", b.id)).score == 400


def test_hall_rules() -> None:
    assert counts_for_hall("mariant", "won", False)
    assert not counts_for_hall("mariant", "lost", False)
    assert not counts_for_hall("mariant", "won", True)
    assert counts_for_hall("montecarlo", "lost", False)
    assert not counts_for_hall("anciento", "stuck", True)
    assert rank_key("mariant", 50) < rank_key("mariant", 60)
    assert rank_key("anciento", 60) < rank_key("anciento", 50)


async def test_rank_returned_only_inside_the_top_ten(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    for i in range(10):
        await insert_game(store, ann.id, "montecarlo", 1000 + i)
    bob = await store.players.player("direct", "bob", "Bob")
    low = played_game("montecarlo", 9, 2)
    assert await store.scores.finish_game(bob.id, low.record(), low.score, str(low.status), False,
                                          T0, T0) is None
    best = await store.scores.player_best("montecarlo", bob.id)
    assert best is not None and best.rank == 11 and best.score == low.score
    assert len(await store.scores.top("montecarlo")) == 10
    assert len(await store.scores.top("montecarlo", limit=20)) == 11


async def test_player_best_and_number_board(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    await insert_game(store, ann.id, "anciento", 50, number=505)
    await insert_game(store, ann.id, "anciento", 70, number=506)
    await insert_game(store, bob.id, "anciento", 60, number=505)
    await insert_game(store, bob.id, "anciento", 90, number=507)
    best = await store.scores.player_best("anciento", ann.id)
    assert (best.score, best.rank, best.number) == (70, 2, 506)
    assert await store.scores.player_best("anciento", 12345) is None
    board = await store.scores.number_board("anciento", 505)
    assert [(e.rank, e.alias, e.score) for e in board] == [(1, "Bob", 60), (2, "Ann", 50)]
    assert await store.scores.number_board("anciento", 999) == []
    assert await store.scores.top("mariant") == []


async def test_player_identity_and_settings(store: Store) -> None:
    first = await store.players.player("Night Owl BBS", "17", "Ann")
    again = await store.players.player("Night Owl BBS", "17", "Annie")
    other = await store.players.player("direct", "17", "Ann")
    assert first.id == again.id != other.id
    assert again.alias == "Annie"
    await store.players.update_settings(first.id, charset="utf8", rows=50, expert=True,
                                        color=False)
    got = await store.players.by_id(first.id)
    assert (got.charset, got.rows, got.expert, got.color) == ("utf8", 50, True, False)
    with pytest.raises(ValueError):
        await store.players.update_settings(first.id, rows="many")
    evil = await store.players.player("direct", "x", "\x1b[2JMallory\x07")
    assert evil.alias == "Mallory"
    assert [p.alias for p in await store.players.find("ANNIE")] == ["Annie"]


async def test_delete_player_takes_everything_of_theirs(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    await insert_game(store, ann.id, "anciento", 50)
    await store.saves.claim_resume(ann.id, "anciento", {"s": 1})
    await store.saves.save_named(ann.id, "anciento", "x", {"s": 2})
    await store.messages.send(ann.id, "Bob", "hi", "from Ann")
    await store.messages.send(bob.id, "Ann", "hi", "from Bob")
    await store.online.heartbeat(3, ann.id, "menu")
    assert await store.players.delete(ann.id)
    assert await store.scores.top("anciento") == []
    assert await store.players.by_id(ann.id) is None
    assert [m.sender for m in await store.messages.inbox(bob.id)] == ["Ann"]
    assert (await store.messages.inbox(bob.id))[0].sender_id is None
    assert await store.online.nodes() == []
    assert not await store.players.delete(ann.id)


async def test_reset_scores_and_export_rows(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    for score in (10, 20, 30):
        await insert_game(store, ann.id, "anciento", score)
    await insert_game(store, ann.id, "montecarlo", 5)
    rows = [row async for row in store.scores.game_rows(batch=2)]
    assert [r["score"] for r in rows] == [10, 20, 30, 5]
    assert rows[0]["alias"] == "Ann"
    assert await store.scores.reset("anciento") == 3
    assert await store.scores.top("anciento") == []
    assert len(await store.scores.top("montecarlo")) == 1


@pytest.mark.parametrize("game", ["mariant", "anciento"])
async def test_ranks_agree_with_a_plain_sort(store: Store, game: str) -> None:
    """Random scores with many ties and shared dates: the SQL order, each player's best and
    its rank are exactly what sorting in Python gives."""
    import random

    rnd = random.Random(5)
    players = [await store.players.player("direct", f"p{i}", f"P{i}") for i in range(6)]
    rows = []
    for _ in range(60):
        player = rnd.choice(players)
        score, status = rnd.randint(1, 8), rnd.choice(["won", "won", "lost"])
        cheater, ended = rnd.random() < 0.1, T0 + timedelta(hours=rnd.randint(0, 5))
        game_id = await insert_game(store, player.id, game, score, status=status,
                                    cheater=cheater, ended=ended)
        if counts_for_hall(game, status, cheater):
            rows.append((rank_key(game, score), ended, game_id, player.id))
    rows.sort()
    top = await store.scores.top(game, limit=100)
    assert [e.game_id for e in top] == [r[2] for r in rows]
    for player in players:
        best = await store.scores.player_best(game, player.id)
        mine = [i for i, r in enumerate(rows) if r[3] == player.id]
        if not mine:
            assert best is None
        else:
            assert (best.game_id, best.rank) == (rows[mine[0]][2], mine[0] + 1)


async def test_still_winnable_asks_are_kept_and_shown_on_the_boards(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    asked = played_game("montecarlo", 4242, 6)
    plain = played_game("montecarlo", 4243, 2)
    await store.scores.finish_game(ann.id, asked.record(), asked.score, str(asked.status), False,
                                   T0, T0, still_asks=3)
    await store.scores.finish_game(bob.id, plain.record(), plain.score, str(plain.status), False,
                                   T0, T0)
    marks = {e.alias: e.still_asks for e in await store.scores.top("montecarlo")}
    assert marks == {"Ann": 3, "Bob": 0}
    assert (await store.scores.number_board("montecarlo", 4242))[0].still_asks == 3
    assert (await store.scores.player_best("montecarlo", bob.id)).still_asks == 0
