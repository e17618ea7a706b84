"""What each idle caller holds is kept lean (issue #36: an idle caller costs at most
64 KiB, measured by bench/bench_memory.py): the session keeps its attributes in slots, a
game screen's wake-up holds a list of waiters (Monte Carlo's shared looks:
tests/ui/test_montecarlo_screen.py).
These check the shape of the objects, never their size in bytes."""

from __future__ import annotations

import asyncio

from door.session import Session
from door.ui.game.screen import Wakeup


def test_a_session_has_slots_and_no_dictionary() -> None:
    assert "__slots__" in Session.__dict__
    assert "__dict__" not in Session.__dict__
    assert "__weakref__" in Session.__slots__  # door/serve/idle_rows.py keeps weak references


class _Terminal:
    woken = 0

    def wake(self) -> None:
        self.woken += 1


class _Session:
    terminal = _Terminal()


async def test_a_wakeup_wakes_its_waiters_with_its_list() -> None:
    wakeup = Wakeup(_Session())  # type: ignore[arg-type]
    waiting = [asyncio.ensure_future(wakeup.wait()) for _ in range(2)]
    await asyncio.sleep(0)
    assert len(wakeup._waiters) == 2 and isinstance(wakeup._waiters, list)
    wakeup.set()
    assert await asyncio.gather(*waiting) == [True, True]
    assert wakeup._waiters == [] and _Session.terminal.woken == 1
    wakeup.clear()
    assert not wakeup.is_set()

