"""``live_games`` written by several processes at once (#18, watching across servers): the
player's process publishes and withdraws its games while watching processes count their
watchers in, each write touching several rows in its own order.  On PostgreSQL two such
writes used to deadlock (a withdrawal against a publication: the server aborted one, and a
watcher waited 15 s for a game "that could not be reached"); every write now locks its rows
in id order first."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from door.store import Store
from door.store.live import LiveState


@pytest.mark.slow
async def test_crossed_writes_of_two_processes_all_land(db_url: str) -> None:
    player, watcher = Store(db_url, host="player-host"), Store(db_url, host="watcher-host")
    assert await player.start()
    assert await watcher.start()
    try:
        ids = [await player.live.offer(f"p{n}", "Monte Carlo", f"#{n}", True, 0)
               for n in range(12)]
        rounds = 25

        async def publish(round_: int) -> None:  # the player's process: ascending ids
            await player.live.publish([LiveState(i, round_ + 1, {"actions": ["x"] * round_},
                                                 "", 1, False) for i in ids])

        async def count(change: int) -> None:  # a watching process: the other way round
            await watcher.live.count_watchers({i: change for i in reversed(ids)})

        async def refresh() -> None:  # the player's process again: all its rows
            await player.live.keep_alive({i: (3, datetime.now(UTC)) for i in reversed(ids)})

        for round_ in range(rounds):
            await asyncio.gather(publish(round_), count(+1), refresh(), count(+1))
        listed = {game.id: game for game in await watcher.live.listing()}
        assert set(listed) == set(ids)
        assert all(game.watching == 2 * rounds for game in listed.values())
        assert await player.live.watchers() == {i: 2 * rounds for i in ids}

        gone, kept = ids[::2], ids[1::2]
        await asyncio.gather(player.live.withdraw(list(reversed(gone))), count(-1),
                             publish(rounds))
        assert {game.id for game in await watcher.live.listing()} == set(kept)
    finally:
        await watcher.close()
        await player.close()
