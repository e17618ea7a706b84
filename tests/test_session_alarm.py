"""The session's one alarm per visit (door/session.py ``Session._read``): an alarm set for
an earlier, shorter wait that rings during a later one is not taken for the caller's input
(which would count the idle limit again from that moment) nor for the wait's end."""

from __future__ import annotations

import asyncio

from waiting import WAIT

from door.config import Settings
from door.net.terminal import Terminal
from door.session import Services, Session
from door.term import Charset


class WakeableTerminal(Terminal):
    """Bytes the test feeds; :meth:`wake` makes the pending read return a NUL, as the
    telnet and SSH transports do."""

    wakeable = True

    def __init__(self) -> None:
        super().__init__(80, 24, Charset("cp437"))
        self.incoming: asyncio.Queue[bytes] = asyncio.Queue()
        self.wakes = 0

    async def read(self) -> bytes:
        return await self.incoming.get()

    def wake(self) -> None:
        self.wakes += 1
        self.incoming.put_nowait(b"\0")

    def write(self, data: bytes) -> None:
        return None

    async def drain(self) -> None:
        return None

    async def close(self) -> None:
        return None


async def test_an_earlier_alarm_is_neither_a_key_nor_the_end_of_a_longer_wait(
        settings: Settings) -> None:
    terminal = WakeableTerminal()
    session = Session(terminal, Services(settings))
    terminal.incoming.put_nowait(b"a")
    assert await session._read(0.01) == b"a"  # its alarm stays set, 10 ms ahead
    reading = asyncio.ensure_future(session._read(600.0))
    async with asyncio.timeout(WAIT):
        while terminal.wakes == 0:  # the short wait's alarm rings during the long one
            await asyncio.sleep(0.005)
    terminal.incoming.put_nowait(b"b")  # after the alarm's NUL
    assert await asyncio.wait_for(reading, WAIT) == b"b"


async def test_the_alarm_ends_a_wait_with_nothing_read(settings: Settings) -> None:
    session = Session(WakeableTerminal(), Services(settings))
    assert await asyncio.wait_for(session._read(0.01), WAIT) is None


async def test_a_resize_during_a_wait_ends_it_with_its_key(settings: Settings) -> None:
    terminal = WakeableTerminal()
    session = Session(terminal, Services(settings))
    reading = asyncio.ensure_future(session._read(600.0))
    await asyncio.sleep(0)
    terminal.resized(100, 30)
    assert await asyncio.wait_for(reading, WAIT) == b"\0"
    assert (await session.key()).name == "resize"


async def test_a_wait_with_a_timeout_ends_empty_or_with_the_key(settings: Settings) -> None:
    terminal = WakeableTerminal()
    session = Session(terminal, Services(settings))
    assert await asyncio.wait_for(session.key_unless(None, 0.01), WAIT) is None
    terminal.incoming.put_nowait(b"x")
    key = await asyncio.wait_for(session.key_unless(None, 600.0), WAIT)
    assert key is not None and key.char == "x"
