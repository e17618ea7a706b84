"""The game keeper: moves reach the database within its interval, every exit path writes at
once, a slot another visit claimed is not written again, and a database that refuses
writes (here: a full disk, SQLite's own max_page_count) loses nothing once it takes them
again.  Waits poll to a deadline."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from storehelp import played_game
from waiting import until

from door.store import Store, StoreUnavailable
from door.store.keeper import GameKeeper, KeptGame


def follow(game: Any, player_id: int, told: list[str | None] | None = None) -> KeptGame:
    return KeptGame(player_id, game.name, game.to_json,
                    trouble=told.append if told is not None else None)


async def test_moves_are_written_as_they_are_played(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    keeper = GameKeeper(store.saves, every_s=0.1)
    game = played_game("auntmary", 5, 0)
    kept = keeper.start(follow(game, ann.id))
    assert await keeper.claim_of(kept) is not None
    assert (await store.saves.load_resume(ann.id, "auntmary"))["actions"] == []
    for move in game.legal_moves()[:1]:
        game.play(move)
        keeper.changed(kept)

    async def written() -> bool:
        state = await store.saves.load_resume(ann.id, "auntmary")
        return len(state["actions"]) == len(game.actions)
    await until(written, "the move written")
    assert not kept.dirty
    await keeper.close()


async def test_flush_writes_now_and_close_leaves_nothing_behind(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    keeper = GameKeeper(store.saves, every_s=3600)  # never by itself in this test
    game = played_game("montecarlo", 9, 0)
    kept = keeper.start(follow(game, ann.id))
    game.play(game.legal_moves()[0])
    keeper.changed(kept)
    assert await keeper.flush(kept)
    assert (await store.saves.load_resume(ann.id, "montecarlo"))["actions"] == game.actions
    game.play(game.legal_moves()[0])
    keeper.changed(kept)
    assert await keeper.close() == 0
    assert (await store.saves.load_resume(ann.id, "montecarlo"))["actions"] == game.actions


async def test_a_game_another_visit_claimed_is_not_written_again(store: Store) -> None:
    ann = await store.players.player("bbs", "17", "Ann")
    stale_keeper = GameKeeper(store.saves, every_s=3600)
    keeper = GameKeeper(store.saves, every_s=3600)
    old = played_game("mariant", 3, 2)
    stale = stale_keeper.start(follow(old, ann.id))
    await stale_keeper.claim_of(stale)
    new = played_game("mariant", 4, 1)
    assert await keeper.claim_of(keeper.start(follow(new, ann.id))) is not None  # another node
    old.play(old.legal_moves()[0])
    stale_keeper.changed(stale)
    assert not await stale_keeper.flush(stale) or stale.refused
    assert stale.refused
    assert (await store.saves.load_resume(ann.id, "mariant"))["number"] == 4
    await stale_keeper.close()
    await keeper.close()


async def test_a_new_visit_resumes_what_an_ended_visit_left_unwritten(store: Store) -> None:
    """A caller who hangs up while the database is slow and calls straight back gets the
    game as they left it (from this process's keeper), and the ended visit's late write
    cannot come after the new visit's claim."""
    ann = await store.players.player("direct", "ann", "Ann")
    keeper = GameKeeper(store.saves, every_s=3600)  # nothing written by itself: "slow"
    game = played_game("auntmary", 12, 0)
    ended = keeper.start(follow(game, ann.id))
    await keeper.claim_of(ended)
    for _ in range(3):
        game.play(game.legal_moves()[0])
        keeper.changed(ended)
    assert (await store.saves.load_resume(ann.id, "auntmary"))["actions"] == []
    state = keeper.unwritten(ann.id, "auntmary")
    assert state is not None and state["actions"] == game.actions
    assert keeper.unwritten(ann.id, "mariant") is None
    resumed = played_game("auntmary", 12, 0)
    for move in state["actions"]:
        resumed.play(move)
    again = keeper.start(follow(resumed, ann.id))  # the new visit resumes it
    assert ended.refused and keeper.unwritten(ann.id, "auntmary") is None
    resumed.play(resumed.legal_moves()[0])
    keeper.changed(again)
    assert await keeper.flush()
    assert (await store.saves.load_resume(ann.id, "auntmary"))["actions"] == resumed.actions
    await keeper.close()


@pytest.mark.slow
async def test_a_full_disk_loses_nothing_once_space_returns(tmp_path: Path) -> None:
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'reussite.db'}")
    assert await store.start()
    ann = await store.players.player("direct", "ann", "Ann")
    disk = {"full": False, "refused": 0}

    @event.listens_for(store.core.engine.sync_engine, "before_cursor_execute")
    def _write(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if disk["full"] and statement.lstrip().upper().startswith(("INSERT", "UPDATE",
                                                                    "DELETE")):
            disk["refused"] += 1
            raise sqlite3.OperationalError("database or disk is full")  # SQLite's ENOSPC

    told: list[str | None] = []
    keeper = GameKeeper(store.saves, every_s=0.1)
    game = played_game("auntmary", 5, 3)
    kept = keeper.start(follow(game, ann.id, told))
    await keeper.claim_of(kept)
    disk["full"] = True
    game.play(game.legal_moves()[0])
    keeper.changed(kept)
    await until(lambda: len(told) == 1, "the caller told")
    assert told[0] == "Not saved yet (disk full): your moves are kept."
    later = played_game("mariant", 8, 2)
    keeper.start(follow(later, ann.id, told))  # its claim waits too
    finished = played_game("montecarlo", 11, 0)
    while finished.legal_moves():
        finished.play(finished.legal_moves()[0])
    now = datetime.now(UTC)
    at_end = keeper.start(follow(finished, ann.id))
    assert await keeper.claim_of(at_end) is None  # the disk is full
    keeper.forget(at_end)  # as a screen does at the end
    with pytest.raises(StoreUnavailable, match="no space left"):
        await keeper.finish("Ann's Monte Carlo #11", lambda: store.scores.finish_game(
            ann.id, finished.record(), finished.score, str(finished.status), False, now, now))
    tries = disk["refused"]
    await until(lambda: disk["refused"] >= tries + 3, "three more tries refused")
    assert keeper.waiting == 3 and len(told) == 2  # once per game, not once per try
    disk["full"] = False  # space is back
    await until(lambda: keeper.waiting == 0, "every game written")
    assert told[2:] == [None, None]  # and each caller told it is over
    assert (await store.saves.load_resume(ann.id, "auntmary"))["actions"] == game.actions
    assert (await store.saves.load_resume(ann.id, "mariant"))["actions"] == later.actions
    assert [e.number for e in await store.scores.top("montecarlo")] == [11]
    await keeper.close()
    await store.close()

