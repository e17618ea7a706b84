"""A busy database never holds up a caller's screen: opening a game and changing screens
write to the store in the background (the resume slot's claim, who's online), so a caller
sees the board at once while another process sits on the write lock, and everything is
written once it is free.  Under hostile.py's flood of garbage those writes took seconds
each and a game took 4-8 s to open."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pyteterm import TelnetCaller
from storehelp import played_game
from waiting import WAIT, until

from door.config import load_settings
from door.net.telnet import start_telnet
from door.serve.server import NodeTable, session_runner
from door.store import Store
from door.store.keeper import GameKeeper, KeptGame
from door.store.visit import open_store


@pytest.fixture
async def busy_door(door_home: Path) -> AsyncIterator[tuple[Store, int, Path]]:
    """The store tests' telnet door (Guest visits, SQLite) whose store waits for a held
    write lock far longer than any test waits: only the background writes keep the screens
    moving.  Yields (the store, the port, the database file)."""
    settings = load_settings(door_home)
    store = await open_store(settings, busy_timeout=WAIT * 4)
    server = await start_telnet("127.0.0.1", 0, session_runner(
        settings, NodeTable(settings.server.max_nodes), store))
    yield store, server.sockets[0].getsockname()[1], door_home / "data" / "reussite.db"
    server.close()
    await server.wait_closed()
    await store.close()


async def test_a_game_opens_while_another_process_holds_the_write_lock(busy_door) -> None:
    store, port, db = busy_door
    caller = await TelnetCaller.at_menu(port)
    guest = (await store.players.player("direct", "guest", "Guest")).id
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process sitting on the write lock
        caller.send("c")
        await caller.wait_for("Game number:")
        caller.send("\r")
        await caller.wait_for("Score")  # the board, drawn with the database still locked
        assert await store.saves.load_resume(guest, "montecarlo") is None  # reads never wait
        assert [n.activity for n in await store.online.nodes()] == ["main menu"]
    finally:
        holder.execute("ROLLBACK")
        holder.close()

    async def claimed() -> bool:
        return await store.saves.load_resume(guest, "montecarlo") is not None

    async def playing() -> bool:
        return [n.activity for n in await store.online.nodes()] == ["Playing Monte Carlo"]

    await until(claimed, "the resume slot claimed once the lock went")
    await until(playing, "who's online written once the lock went")
    caller.send("q")
    await caller.wait_for("Leave this game?")
    caller.send("y")
    await caller.wait_for("Your choice")
    await caller.log_off()


async def test_a_game_started_on_a_locked_database_is_written_once_it_is_free(
        tmp_path: Path) -> None:
    db = tmp_path / "reussite.db"
    store = Store(f"sqlite+aiosqlite:///{db}", busy_timeout=WAIT * 4)
    assert await store.start()
    ann = await store.players.player("direct", "ann", "Ann")
    keeper = GameKeeper(store.saves, every_s=0.1)
    game = played_game("montecarlo", 7, 0)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        kept = keeper.start(KeptGame(ann.id, game.name, game.to_json))  # returns at once
        game.play(game.legal_moves()[0])
        keeper.changed(kept)
        assert kept.owner is None and kept.dirty
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert await keeper.claim_of(kept) is not None

    async def written() -> bool:
        state = await store.saves.load_resume(ann.id, "montecarlo")
        return state is not None and state["actions"] == game.actions

    await until(written, "the claim, then the move, written")
    assert await keeper.close() == 0
    await store.close()


async def test_a_finished_game_leaves_no_slot_behind_its_claim(store: Store) -> None:
    """The end of a game waits for the claim made as it began (as the game screen does), so
    a claim still under way cannot land after the finished game emptied the slot."""
    ann = await store.players.player("direct", "ann", "Ann")
    keeper = GameKeeper(store.saves, every_s=3600)
    game = played_game("montecarlo", 11, 0)
    kept = keeper.start(KeptGame(ann.id, game.name, game.to_json))
    while game.legal_moves():
        game.play(game.legal_moves()[0])
    owner = await keeper.claim_of(kept)
    keeper.forget(kept)
    now = datetime.now(UTC)
    await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status), False,
                                   now, now, resume_owner=owner)
    assert await store.saves.load_resume(ann.id, "montecarlo") is None
    assert await keeper.close() == 0


async def test_activities_are_written_in_the_background_newest_first(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    await store.online.heartbeat(1, ann.id, "main menu", "call-1")
    await store.online.heartbeat(2, None, "main menu", "call-2")  # log-ins make the rows
    store.online.activity(1, ann.id, "Hall of Fame", "call-1")
    store.online.activity(2, None, "logging in", "call-2")
    store.online.activity(1, ann.id, "Playing Aunt Mary", "call-1")  # the newest wins

    async def both() -> bool:
        return [(n.node, n.activity) for n in await store.online.nodes()] == [
            (1, "Playing Aunt Mary"), (2, "logging in")]

    await until(both, "both nodes' activities written")
    store.online.activity(2, None, "main menu", "call-2")
    await store.online.leave(2, "call-2")  # the call hangs up at once: its activity is not
    store.online.activity(1, ann.id, "Message Centre", "call-1")  # written after it

    async def one() -> bool:
        return [(n.node, n.activity) for n in await store.online.nodes()] == [
            (1, "Message Centre")]

    await until(one, "node 2 gone, node 1's newest activity written")
    store.online.activity(2, None, "Hall of Fame", "call-2")  # a late one of the call gone:
    store.online.activity(1, ann.id, "Daily Challenge", "call-1")  # its row stays gone

    async def still_one() -> bool:
        return [(n.node, n.activity) for n in await store.online.nodes()] == [
            (1, "Daily Challenge")]

    await until(still_one, "node 1's activity written, node 2 not brought back")


async def test_a_late_claim_of_a_call_taken_over_is_refused(store: Store) -> None:
    """A claim waits for its turn in the background: if its process hangs meanwhile and a
    newer call of the player takes over (removing the old call's who's-online row), the
    claim, landing when the process wakes, must not replace the newer call's game."""
    ann = await store.players.player("direct", "ann", "Ann")
    await store.online.heartbeat(1, ann.id, "Playing Monte Carlo", "first")
    await store.online.heartbeat(2, ann.id, "main menu", "second")
    assert await store.saves.claim_resume(ann.id, "montecarlo", {"n": 1}, call="first") is not None
    await store.online.leave(1, "first")  # the takeover: the silent call's row removed
    assert await store.saves.claim_resume(ann.id, "montecarlo", {"n": 2}, call="second") is not None
    store.online.activity(1, ann.id, "Playing Monte Carlo", "first")  # queued before it hung
    online = store.online
    await until(lambda: online._activity_writer is None or online._activity_writer.done(),
                "the hung call's last activity written")
    assert await store.saves.claim_resume(ann.id, "montecarlo", {"n": 3}, call="first") is None
    assert await store.saves.load_resume(ann.id, "montecarlo") == {"n": 2}

    keeper = GameKeeper(store.saves, every_s=3600)
    game = played_game("montecarlo", 5, 0)
    late = keeper.start(KeptGame(ann.id, game.name, game.to_json, call="first"))
    assert await keeper.claim_of(late) is None and late.refused
    assert await keeper.flush() and await store.saves.load_resume(ann.id, "montecarlo") == {"n": 2}
    await keeper.close()

    await store.online.leave(2, "second")  # no call of Ann listed: a call whose row was never
    assert await store.saves.claim_resume(ann.id, "montecarlo", {"n": 4}, call="third")  # written
    assert await store.saves.load_resume(ann.id, "montecarlo") == {"n": 4}
