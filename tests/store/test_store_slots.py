"""Owned resume slots and who's-online rows: a stale visit can neither overwrite a newer game
nor remove a newer call's row, and one call can tell another to hang up through the store.
Both backends (SQLite file, PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime

from storehelp import Clock, played_game

from door.store import SlotSave, Store


async def test_a_claim_makes_the_slot_one_visits_and_refuses_the_older_owner(
        store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    stale = await store.saves.claim_resume(ann.id, "montecarlo", {"moves": 1}, version=1)
    assert await store.saves.keep_resumes([SlotSave(ann.id, "montecarlo", stale, 2,
                                                    {"moves": 2})]) == []
    assert await store.saves.load_resume(ann.id, "montecarlo") == {"moves": 2}
    newer = await store.saves.claim_resume(ann.id, "montecarlo", {"moves": 2, "node": 2}, version=1)
    assert newer != stale
    late = SlotSave(ann.id, "montecarlo", stale, 3, {"moves": 3})
    assert await store.saves.keep_resumes([late]) == [late]  # the forgotten visit is refused
    assert await store.saves.load_resume(ann.id, "montecarlo") == {"moves": 2, "node": 2}


async def test_an_older_version_never_replaces_a_newer_one(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    owner = await store.saves.claim_resume(ann.id, "auntmary", {"v": 1}, version=1)
    assert await store.saves.keep_resumes([SlotSave(ann.id, "auntmary", owner, 5, {"v": 5})]) == []
    assert await store.saves.keep_resumes([SlotSave(ann.id, "auntmary", owner, 4, {"v": 4})]) == []
    assert await store.saves.load_resume(ann.id, "auntmary") == {"v": 5}


async def test_a_batch_writes_every_owner_and_names_only_the_refused(store: Store) -> None:
    players = [await store.players.player("direct", f"p{i}", f"P{i}") for i in range(5)]
    owners = [await store.saves.claim_resume(p.id, "mariant", {"v": 0}, version=1) for p in players]
    await store.saves.claim_resume(players[3].id, "mariant", {"v": "taken"}, version=1)
    saves = [SlotSave(p.id, "mariant", o, 2, {"v": i}) for i, (p, o) in
             enumerate(zip(players, owners, strict=True))]
    refused = await store.saves.keep_resumes(saves)
    assert refused == [saves[3]]
    states = [await store.saves.load_resume(p.id, "mariant") for p in players]
    assert states == [{"v": 0}, {"v": 1}, {"v": 2}, {"v": "taken"}, {"v": 4}]


async def test_a_finished_game_empties_its_slot_only_if_it_still_owns_it(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    game = played_game("montecarlo", 7, 3)
    now = datetime.now(UTC)
    owner = await store.saves.claim_resume(ann.id, "montecarlo", game.to_json(), version=1)
    newer = await store.saves.claim_resume(ann.id, "montecarlo", {"newer": True}, version=1)
    await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status), False, now,
                                   now, resume_owner=owner)
    assert await store.saves.load_resume(ann.id, "montecarlo") == {"newer": True}
    await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status), False, now,
                                   now, resume_owner=newer)
    assert await store.saves.load_resume(ann.id, "montecarlo") is None
    late = SlotSave(ann.id, "montecarlo", newer, 9, {"after": "finish"})
    assert await store.saves.keep_resumes([late]) == [late]  # gone: nothing comes back
    assert await store.saves.resumable(ann.id) == []


async def test_a_node_row_belongs_to_its_call(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    await store.online.heartbeat(1, ann.id, "main menu", "tok-ann")
    await store.online.heartbeat(1, bob.id, "main menu", "tok-bob")  # the BBS reused node 1
    await store.online.leave(1, "tok-ann")  # the old call's late exit
    assert [(n.node, n.alias) for n in await store.online.nodes()] == [(1, "Bob")]
    assert await store.online.hang_up_orders({1: "tok-ann"}) == [1]  # not its row any more: go
    assert await store.online.hang_up_orders({1: "tok-bob"}) == []


async def test_a_later_call_asks_the_earlier_one_to_hang_up(store: Store) -> None:
    ann = await store.players.player("bbs", "17", "Ann")
    await store.online.heartbeat(1, ann.id, "Playing Aunt Mary", "first")
    await store.online.heartbeat(2, ann.id, "main menu", "second")
    (other,) = await store.online.other_calls(ann.id, "second")
    assert (other.node, other.token, other.activity) == (1, "first", "Playing Aunt Mary")
    assert await store.online.hang_up_orders({1: "first"}) == []
    assert await store.online.ask_to_hang_up(other.host, other.node, other.token)
    assert await store.online.hang_up_orders({1: "first", 2: "second"}) == [1]
    await store.online.heartbeat(1, ann.id, "Playing Aunt Mary", "first")  # still ordered
    assert await store.online.hang_up_orders({1: "first"}) == [1]
    await store.online.leave(1, "first")
    assert await store.online.other_calls(ann.id, "second") == []
    assert not await store.online.ask_to_hang_up(other.host, 1, "first")  # gone already


async def test_a_call_whose_process_stopped_saying_alive_is_not_offered(db_url: str) -> None:
    clock = Clock()
    store = Store(db_url, host="test-host", clock=clock)
    assert await store.start()
    try:
        ann = await store.players.player("direct", "ann", "Ann")
        await store.online.heartbeat(1, ann.id, "Playing Monte Carlo", "crashed")
        await store.online.heartbeat(2, ann.id, "main menu", "running")
        clock.advance(seconds=10)
        assert await store.online.hang_up_orders({2: "running"}) == []  # node 2's process lives
        clock.advance(seconds=10)
        assert [c.node for c in await store.online.other_calls(ann.id, "new")] == [2]
    finally:
        await store.close()


async def test_a_servers_rows_go_with_its_workers_and_no_other(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    for host, node in (("moon:2323", 1), ("moon:2323/1", 2), ("moon:2323/2", 3),
                       ("moon:23231/1", 4), ("sun:2323/1", 5)):
        store.core.host = host
        await store.online.heartbeat(node, ann.id, "main menu", f"tok{node}")
    assert await store.online.forget_server("moon:2323") == 3  # itself alone, and its workers
    assert sorted(n.node for n in await store.online.nodes()) == [4, 5]
