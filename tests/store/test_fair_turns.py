"""Password hashes in turn by address (door/store/fair.py): a caller from one address does
not wait behind a flood from another, and a waiter that gives up hands on nothing it does
not hold."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from waiting import WAIT, until

from door.store.fair import Abandoned, FairTurns


class Gate:
    """Jobs that block their thread until let through, recording the order they ran in."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.go = threading.Semaphore(0)

    def job(self, name: str) -> str:
        self.ran.append(name)
        if not self.go.acquire(timeout=WAIT):
            raise TimeoutError(f"{name} never let through")
        return name


async def test_a_lone_caller_goes_before_the_rest_of_a_flood() -> None:
    gate = Gate()
    with ThreadPoolExecutor(max_workers=1) as pool:
        turns = FairTurns(pool, 1)
        flood = [asyncio.ensure_future(turns.run("::1", gate.job, f"flood{i}"))
                 for i in range(5)]
        await until(lambda: gate.ran == ["flood0"] and turns.waiting == {"::1": 4},
                    "the flood queued behind its first hash")
        lone = asyncio.ensure_future(turns.run("127.0.0.1", gate.job, "lone"))
        await until(lambda: turns.waiting == {"::1": 4, "127.0.0.1": 1}, "the lone caller in")
        for _ in range(6):
            gate.go.release()
        assert await asyncio.gather(*flood, lone) == [*(f"flood{i}" for i in range(5)), "lone"]
    # after one more of the flood's hashes (queued before it), not after all four
    assert gate.ran == ["flood0", "flood1", "lone", "flood2", "flood3", "flood4"]


class CancelledOnItsTurn(FairTurns):
    """Cancels ``victim`` the moment a slot is handed to it, before it can use it (the
    caller hung up just then)."""

    victim: asyncio.Future | None = None

    def _hand_on(self) -> None:
        super()._hand_on()
        if self.victim is not None:
            self.victim.cancel()
            self.victim = None


async def test_a_waiter_cancelled_before_or_after_its_turn_hands_nothing_wrong() -> None:
    gate = Gate()
    with ThreadPoolExecutor(max_workers=1) as pool:
        turns = CancelledOnItsTurn(pool, 1)
        first = asyncio.ensure_future(turns.run("a", gate.job, "first"))
        await until(lambda: gate.ran == ["first"], "the first hash running")
        gone = asyncio.ensure_future(turns.run("b", gate.job, "gone"))
        late = asyncio.ensure_future(turns.run("c", gate.job, "late"))
        await until(lambda: turns.waiting == {"b": 1, "c": 1}, "two waiting")
        gone.cancel()                        # gives up while waiting: leaves the queue
        await asyncio.gather(gone, return_exceptions=True)
        assert turns.waiting == {"c": 1}
        turns.victim = late                  # given the slot as ``first`` ends, and gone
        gate.go.release()
        await asyncio.gather(first, late, return_exceptions=True)
        assert late.cancelled() and turns.waiting == {}
        gate.go.release()
        assert await asyncio.wait_for(turns.run("d", gate.job, "next"), WAIT) == "next"
    assert gate.ran == ["first", "next"]     # the slot was handed on, not lost


async def test_a_hash_whose_caller_hung_up_while_it_waited_is_not_run() -> None:
    """Its turn comes, nobody wants it: it is skipped (Abandoned) and the slot goes on to
    the next in line."""
    gate = Gate()
    hung_up = {"b": False}
    with ThreadPoolExecutor(max_workers=1) as pool:
        turns = FairTurns(pool, 1)
        first = asyncio.ensure_future(turns.run("a", gate.job, "first"))
        await until(lambda: gate.ran == ["first"], "the first hash running")
        gone = asyncio.ensure_future(turns.run("b", gate.job, "gone",
                                               wanted=lambda: not hung_up["b"]))
        kept = asyncio.ensure_future(turns.run("c", gate.job, "kept", wanted=lambda: True))
        await until(lambda: turns.waiting == {"b": 1, "c": 1}, "two waiting")
        hung_up["b"] = True
        gate.go.release()
        gate.go.release()
        assert await asyncio.wait_for(first, WAIT) == "first"
        with pytest.raises(Abandoned):
            await asyncio.wait_for(gone, WAIT)
        assert await asyncio.wait_for(kept, WAIT) == "kept"
    assert gate.ran == ["first", "kept"]
