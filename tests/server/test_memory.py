"""What a call leaves behind once it has ended: nothing.

Counted in objects, never bytes: the sessions, terminals and telnet protocols of calls that
have hung up must be gone (door/net/telnet.py keeps telnetlib3 from holding the last 1,000
connections of each listener; door/serve/collector.py collects the reference cycles a call leaves
once the server is quiet), and a caller typing faster than the door reads holds at most
INPUT_HELD bytes and READ_SIZE keys in the server, however much they send."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest
from serverhelp import call, login, running, signup, to_menu
from waiting import WAIT, until

import door.serve.collector
from door.net.buffers import INPUT_HELD, READ_SIZE
from door.net.telnet import DoorTelnetReader, DoorTelnetServer, TelnetTerminal
from door.session import Session

CALLS = 6


def alive(kind: type) -> int:
    """Objects of ``kind`` in this process (the server runs in the test's event loop)."""
    return sum(1 for obj in gc.get_objects() if isinstance(obj, kind))


async def calls_that_end(port: int, count: int) -> None:
    """``count`` calls, one after another: log in, reach the main menu, hang up."""
    for n in range(count):
        caller = await call(port)
        if n == 0:
            await signup(caller, "Mona", "mona-pass")
        else:
            await login(caller, "mona", "mona-pass")
        await to_menu(caller)
        caller.close()
        await caller.wait_closed(WAIT)


async def test_ended_calls_leave_no_session_terminal_or_protocol(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        await calls_that_end(ports.telnet, CALLS)
        seen: list[tuple[int, int, int]] = []

        def nothing_left() -> bool:
            gc.collect()
            seen[:] = [(alive(Session), alive(TelnetTerminal), alive(DoorTelnetServer))]
            return seen[0] == (0, 0, 0)

        try:
            await until(nothing_left, f"{CALLS} ended calls leaving nothing behind")
        except AssertionError as exc:
            raise AssertionError(f"{exc}: sessions, terminals, protocols alive: {seen}"
                                 ) from None


async def test_a_quiet_server_collects_what_calls_left(door_home: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """No ``gc.collect()`` here: the server's own collection must free the ended calls,
    whose sessions sit in reference cycles that the young generation never reaches."""
    monkeypatch.setattr(door.serve.collector, "QUIET_S", 0.2)
    async with running(door_home, ssh=False) as ports:
        await calls_that_end(ports.telnet, 3)
        await until(lambda: alive(Session) == 0, "the ended calls' sessions collected")


async def test_a_flood_is_held_to_a_bound() -> None:
    """Bytes past INPUT_HELD are dropped as they come; each read hands READ_SIZE on."""
    reader = DoorTelnetReader()
    for _ in range(40):
        reader.feed_data(b"x" * 10_000)
    assert len(reader._buffer) == INPUT_HELD
    assert reader.dropped == 400_000 - INPUT_HELD
    assert reader.take_now() == b"x" * READ_SIZE
    reader.feed_data(b"y")
    taken = b"".join(iter(reader.take_now, b""))
    assert taken == b"x" * (INPUT_HELD - READ_SIZE) + b"y"


async def test_keys_typed_ahead_are_bounded_by_one_read(door_home: Path) -> None:
    """A caller pasting far more than the door reads: the session never holds more keys
    than one read brings, nor the reader more than INPUT_HELD bytes."""
    async with running(door_home, ssh=False) as ports:
        caller = await call(ports.telnet)
        try:
            caller.send("a" * 300_000)

            def flood_arrived() -> bool:
                readers = [o for o in gc.get_objects() if isinstance(o, DoorTelnetReader)]
                return any(r.dropped for r in readers)

            await until(flood_arrived, "the flood reached the door")
            sessions = [o for o in gc.get_objects() if isinstance(o, Session)]
            readers = [o for o in gc.get_objects() if isinstance(o, DoorTelnetReader)]
            assert sessions and readers
            assert max(len(s._keys) for s in sessions) <= READ_SIZE
            assert max(len(r._buffer) for r in readers) <= INPUT_HELD
        finally:
            caller.close()



def scheduled_for_calls(loop: asyncio.AbstractEventLoop) -> list[str]:
    """The timers still to ring that belong to a call (its session's read alarm, its
    login pool ticket's check): what a call that has ended must not leave behind."""
    names = []
    for handle in loop._scheduled:  # type: ignore[attr-defined]
        callback = handle._callback
        if handle.cancelled() or callback is None:
            continue
        name = getattr(callback, "__qualname__", repr(callback))
        if name in ("_ring", "LoginPool._check"):
            names.append(name)
    return names


async def test_ended_calls_leave_no_timer_to_ring(door_home: Path) -> None:
    """A call's read alarm waits until the idle limit (minutes): left scheduled when the call
    ends, each of a flood's calls kept a timer, its context and a weak reference for
    minutes, scattered among the memory the calls had freed (issue #36)."""
    loop = asyncio.get_running_loop()
    async with running(door_home, ssh=False) as ports:
        await calls_that_end(ports.telnet, 2)
        left: list[str] = []

        def none_left() -> bool:
            left[:] = scheduled_for_calls(loop)
            return not left

        try:
            await until(none_left, "the ended calls' timers gone")
        except AssertionError as exc:
            raise AssertionError(f"{exc}: still scheduled: {left}") from None
