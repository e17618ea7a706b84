"""A session looks nothing up: the store, its game keeper, the watch hub, the clock and the
solvers it uses are the :class:`~door.session.Services` it was made with.  Here each is a
stand-in of the test's, and a game played on the session reaches only those."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from typing import Any

from pyteterm import QueueTerminal
from waiting import until

from door.config import Settings
from door.session import Services, Session
from door.store import Store
from door.store.keeper import GameKeeper
from door.ui.game.screen import play_game
from door.ui.montecarlo.screen import MonteCarloScreen
from door.watching.hub import HUB, WatchHub


class AskedSolvers:
    """A solver pool that notes what it is asked and knows nothing."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []

    async def solve(self, game: str, number: int, options: Any = None, **_: Any) -> None:
        self.asked.append((game, number))


async def test_a_game_reaches_the_hub_solvers_and_clock_it_was_given(
        settings: Settings) -> None:
    hub, solvers = WatchHub(), AskedSolvers()
    services = Services(settings, watch=hub, solvers=lambda _: solvers, clock=lambda: 1000.0)
    terminal = QueueTerminal()
    session = Session(terminal, services)
    before = session.time_left
    task = asyncio.create_task(play_game(session, MonteCarloScreen))
    try:
        await until(lambda: "Game number" in terminal.term.text, "the deal's question")
        terminal.inbox.put_nowait(b"42\r")
        await until(lambda: [w.title for w in hub.games()] == ["Monte Carlo"],
                     "the game offered in the session's hub")
        assert HUB.games() == []  # the process's own hub never heard of it
        await until(lambda: solvers.asked == [("montecarlo", 42)], "the deal asked about")
        assert session.time_left == before  # the clock given stands still
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert hub.games() == []  # withdrawn when the game is left


async def test_a_store_brings_its_keeper_once(settings: Settings, door_home) -> None:
    assert Services(settings).keeper is None
    store = Store(f"sqlite+aiosqlite:///{door_home / 'services.db'}")
    try:
        services = Services(settings, store=store)
        assert isinstance(services.keeper, GameKeeper)
        session = Session(QueueTerminal(), services)
        assert (session.store, session.keeper) == (store, services.keeper)
        later = replace(Services(settings), store=store)  # a BBS launch's store, opened later
        assert isinstance(later.keeper, GameKeeper) and later.keeper is not services.keeper
    finally:
        await store.close()
