"""A burst of keys (a paste, a flood): a few frames and one bell, not one of each per key,
and the other callers' tasks keep running while it is handled."""

from __future__ import annotations

import asyncio

from pyteterm import ScreenCaller

from door.config import Settings
from door.session import KEYS_PER_TURN
from door.ui.montecarlo.screen import MonteCarloScreen


class Caller(ScreenCaller):
    screen_class = MonteCarloScreen


class CountingCaller(Caller):
    """Counts the terminal's writes (frames, bells) after the game is on screen."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings, charset="cp437")
        self.writes = 0
        feed = self.terminal.write

        def write(data: bytes) -> None:
            self.writes += 1
            feed(data)

        self.terminal.write = write  # type: ignore[method-assign]


async def test_four_thousand_refused_keys_cost_a_few_frames_and_one_bell(
        settings: Settings) -> None:
    caller = CountingCaller(settings)
    await caller.wait_for("Game number:")
    caller.send("7\r")
    await caller.wait_for("Monte Carlo #7")
    await caller.settle()
    writes, bells = caller.writes, caller.bells
    ticks = 0

    async def other_caller() -> None:  # counts the turns it gets meanwhile
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    other = asyncio.create_task(other_caller())
    caller.send(b"z" * 4000)  # no key of Monte Carlo: refused, every one
    await caller.wait_for("That key does nothing here")
    await caller.settle()
    other.cancel()
    assert caller.bells - bells == 1
    assert caller.writes - writes <= 20  # the last few keys of the burst, one frame each
    assert ticks >= 4000 // KEYS_PER_TURN - 1  # the loop was let go all along the burst
    caller.send("q")
    await caller.wait_for("Leave this game?")
