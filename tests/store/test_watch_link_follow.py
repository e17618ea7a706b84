"""Following a game of another process (door/watching/link.py) while the watching process's
read of the games it follows is under way: the bench's second batch of watchers (bench/watch.py
--across) joined games nobody there followed yet during such a read, and were told at once
that the game "could not be reached" (the read's answer did not list a game it was not asked
about, and the game was taken for gone)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from waiting import WAIT

from door.games.montecarlo import MonteCarlo
from door.store import Store
from door.store.live import LiveListing
from door.watching.hub import WatchHub
from door.watching.link import WatchLink

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds


async def listed(store: Store, count: int) -> dict[str, LiveListing]:
    """The games of the other processes, by player, once ``count`` are listed."""
    async with asyncio.timeout(WAIT):
        while len(games := await store.live.listing()) < count:
            await asyncio.sleep(0.05)
    return {game.alias: game for game in games}


async def test_a_game_followed_during_a_read_is_reached(db_url: str) -> None:
    player, watching = Store(db_url, host="player-host"), Store(db_url, host="watcher-host")
    assert await player.start()
    assert await watching.start()
    hub = WatchHub()
    here, there = WatchLink(player, hub), WatchLink(watching, WatchHub())
    here.start()
    there.start()
    try:
        hub.offer("Ann", "Monte Carlo", "#1", MonteCarlo.new(1), True)
        hub.offer("Bob", "Monte Carlo", "#2", MonteCarlo.new(2), True)
        games = await listed(watching, 2)
        ann, bob = games["Ann"], games["Bob"]
        assert await there.follow(ann) is not None  # the follower's reads go on

        under_way, release = asyncio.Event(), asyncio.Event()
        read = watching.live.news

        async def held_read(known: dict[int, int]) -> Any:
            under_way.set()
            await release.wait()
            return await read(known)

        watching.live.news = held_read  # type: ignore[method-assign]
        await asyncio.wait_for(under_way.wait(), WAIT)
        joining = asyncio.ensure_future(there.follow(bob))  # Bob's game: nobody followed it
        async with asyncio.timeout(WAIT):
            while bob.id not in there._followed:
                await asyncio.sleep(0)
        watching.live.news = read  # type: ignore[method-assign]
        release.set()
        game = await asyncio.wait_for(joining, WAIT)
        assert game is not None and game.alias == "Bob"  # no move needed: the count did it
    finally:
        await there.stop()
        await here.stop()
        await watching.close()
        await player.close()
