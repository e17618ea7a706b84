"""The writers' turns (door/store/turns.py): one writer at a time, screens' writes before
background writes, the background never starved, and a waiter that gives up passes on
nothing it does not hold."""

from __future__ import annotations

import asyncio

from waiting import until

from door.store.turns import BACKGROUND_EVERY, WriterTurns


async def test_screens_go_first_and_the_background_is_not_starved() -> None:
    turns = WriterTurns()
    order: list[str] = []
    release = asyncio.Event()
    holding = 0

    async def write(name: str, background: bool) -> None:
        nonlocal holding
        async with turns.turn(background):
            holding += 1
            assert holding == 1, "two writers at once"
            order.append(name)
            if name == "first":
                await release.wait()
            await asyncio.sleep(0)
            holding -= 1

    first = asyncio.ensure_future(write("first", False))
    await until(lambda: order == ["first"], "the first writer in")
    tasks = [asyncio.ensure_future(write(f"bg{i}", True)) for i in range(2)]
    tasks += [asyncio.ensure_future(write(f"screen{i}", False))
              for i in range(BACKGROUND_EVERY + 2)]
    await until(lambda: turns.waiting == (BACKGROUND_EVERY + 2, 2), "all waiting")
    release.set()
    await asyncio.gather(first, *tasks)
    screens = [f"screen{i}" for i in range(BACKGROUND_EVERY + 2)]
    assert order == ["first", *screens[:BACKGROUND_EVERY], "bg0", *screens[BACKGROUND_EVERY:],
                     "bg1"]
    assert turns.waiting == (0, 0)
    async with turns.turn(True):  # free again: taken at once
        pass


async def test_a_waiter_cancelled_before_or_after_its_turn_hands_nothing_wrong() -> None:
    turns = WriterTurns()
    entered: list[str] = []
    release = asyncio.Event()

    async def write(name: str, background: bool = False) -> None:
        async with turns.turn(background):
            entered.append(name)
            if name == "holder":
                await release.wait()

    holder = asyncio.ensure_future(write("holder"))
    await until(lambda: entered == ["holder"], "the holder in")
    gone = asyncio.ensure_future(write("gone"))
    late = asyncio.ensure_future(write("late", True))
    await until(lambda: turns.waiting == (1, 1), "two waiting")
    gone.cancel()                       # gives up while waiting: leaves the queue
    await asyncio.gather(gone, return_exceptions=True)
    assert turns.waiting == (0, 1)
    release.set()
    await asyncio.sleep(0)              # the holder leaves and hands the turn to ``late`` ...
    assert turns.waiting == (0, 0) and entered == ["holder"]
    late.cancel()                       # ... which is cancelled before it can use it
    await asyncio.gather(holder, late, return_exceptions=True)
    assert entered == ["holder"]
    async with asyncio.timeout(5):      # the turn was passed on, not lost with ``late``
        async with turns.turn():
            entered.append("next")
    assert entered == ["holder", "next"] and turns.waiting == (0, 0)
