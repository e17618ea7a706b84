"""The login pool on its own: caps, making room by dropping silent connections, clocks."""

from __future__ import annotations

import asyncio
import time

import pytest
from waiting import WAIT

from door.pool import (
    LOGIN_TIMED_OUT,
    MADE_ROOM,
    POOL_FULL,
    SILENT,
    TOO_MANY_FROM_ADDRESS,
    TOO_MANY_LOGGING_IN,
    LoginPool,
    Refused,
)


class Line:
    """A connection as the pool sees it: records the hang-up it was given."""

    def __init__(self) -> None:
        self.reason: str | None = None

    def hang_up(self, reason: str) -> None:
        self.reason = reason


def pool(**kw: float) -> LoginPool:
    args = {"size": 4, "per_address": 2, "max_per_address": 3, "first_byte_s": 300,
            "login_s": 600, **kw}
    return LoginPool(**args)  # type: ignore[arg-type]


async def test_an_address_full_of_silent_lines_makes_room_for_the_next() -> None:
    p, lines = pool(), [Line() for _ in range(3)]
    first, second = (p.admit("a", "a:1", lines[0].hang_up), p.admit("a", "a:2", lines[1].hang_up))
    third = p.admit("a", "a:3", lines[2].hang_up)  # the oldest silent one goes
    assert (lines[0].reason, first.closed) == (MADE_ROOM, True)
    assert lines[1].reason is None and not second.closed and not third.closed
    assert len(p) == 2 and p.connections_from("a") == 2


async def test_lines_that_talk_are_never_dropped_for_room() -> None:
    p = pool()
    for n in range(2):
        p.admit("a", f"a:{n}", Line().hang_up).heard()
    with pytest.raises(Refused, match=TOO_MANY_LOGGING_IN):
        p.admit("a", "a:9", Line().hang_up)
    assert p.admit("b", "b:1", Line().hang_up)  # another address is another share


async def test_logged_in_lines_leave_the_pool_but_count_for_their_address() -> None:
    p = pool()
    for n in range(3):
        ticket = p.admit("a", f"a:{n}", Line().hang_up)
        ticket.heard()
        ticket.logged_in()
    assert len(p) == 0 and p.connections_from("a") == 3
    with pytest.raises(Refused, match=TOO_MANY_FROM_ADDRESS):
        p.admit("a", "a:9", Line().hang_up)


async def test_a_full_pool_drops_its_oldest_silent_line_else_refuses() -> None:
    p = pool(size=3, per_address=3, max_per_address=9)
    lines = [Line() for _ in range(3)]
    tickets = [p.admit(address, address, line.hang_up)
               for address, line in zip("xyz", lines, strict=True)]
    tickets[0].heard()
    p.admit("w", "w", Line().hang_up)  # x talks: y, the oldest silent one, goes
    assert [line.reason for line in lines] == [None, MADE_ROOM, None]
    for ticket in p._waiting:
        ticket.heard()
    with pytest.raises(Refused, match=POOL_FULL):
        p.admit("v", "v", Line().hang_up)


async def test_a_full_pool_drops_a_silent_line_of_the_address_that_floods_it() -> None:
    p = pool(size=4, per_address=4, max_per_address=9)
    lone, flood = Line(), [Line() for _ in range(3)]
    p.admit("caller", "caller:1", lone.hang_up)  # the oldest, and still silent
    for n, line in enumerate(flood):
        p.admit("flood", f"flood:{n}", line.hang_up)
    p.admit("other", "other:1", Line().hang_up)
    assert lone.reason is None  # not the lone caller: the flood's oldest silent line goes
    assert [line.reason for line in flood] == [MADE_ROOM, None, None]


async def wait_for_hang_up(line: Line) -> str:
    deadline = time.monotonic() + WAIT
    while line.reason is None:
        assert time.monotonic() < deadline, "never hung up"
        await asyncio.sleep(0.02)
    return line.reason


async def test_silence_then_slowness_are_hung_up() -> None:
    p = pool(first_byte_s=0.1, login_s=0.4)
    silent, slow, quick = Line(), Line(), Line()
    p.admit("a", "a:1", silent.hang_up)
    p.admit("b", "b:1", slow.hang_up).heard()
    done = p.admit("c", "c:1", quick.hang_up)
    done.heard()
    done.logged_in()
    assert await wait_for_hang_up(silent) == SILENT
    assert await wait_for_hang_up(slow) == LOGIN_TIMED_OUT
    assert quick.reason is None and not done.closed
    assert len(p) == 0 and p.connections_from("a") == p.connections_from("b") == 0


async def test_close_is_idempotent_and_after_a_hang_up_harmless() -> None:
    p, line = pool(), Line()
    ticket = p.admit("a", "a:1", line.hang_up)
    ticket.hang_up("bye")
    ticket.close()
    ticket.close()
    ticket.logged_in()
    assert p.connections_from("a") == 0 and len(p) == 0 and line.reason == "bye"
