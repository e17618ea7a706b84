"""An ended call goes with its last reference: what it leaves in reference cycles is a
handful of objects, for the server's full collections to find (door/serve/collector.py).

Each such collection stops the event loop for as long as it takes, and that grows with what
it frees: with ~300 objects in cycles per ended call it paused 0.2 to 2.2 s under the soak's
350 callers (issue #36), every caller's keys waiting meanwhile.  The calls are made from a
process of their own (tests/server/ended_calls.py), so that only the server's objects are
counted; the cyclic collector is off while they run, so none is freed before the count.

What is left, per call, is the libraries' own: asyncio's socket transport holds itself (a
bound method of its own: ~7 objects with its socket); an SSH call also leaves asyncssh's
connection and process with their streams (~90 in all), a web call aiohttp's request handler
and WebSocket response (~33).  Before, the kinds of call tested here left 126 to 371 each.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import os
import sys
from pathlib import Path

import pytest
from serverhelp import configure, running
from waiting import WAIT, until

import door.serve.collector
from door.serve.collector import CallCollector

CALLS = 4
FILES = "/proc/self/fd"
ENDED_CALLS = Path(__file__).with_name("ended_calls.py")
LEFT_PER_CALL = {  # kind of call: objects in cycles it may leave (now: 7-9, 92, 33; main 126-371)
    "telnet": 20, "telnet-hang-up": 20, "wrong-password": 20, "ssh": 120, "web": 60}


async def make_calls(kind: str, port: int, count: int) -> None:
    """``count`` calls of ``kind`` from another process (see the module docstring)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(ENDED_CALLS), kind, str(port), str(count),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output, _ = await asyncio.wait_for(process.communicate(), WAIT * count)
    assert process.returncode == 0, output.decode(errors="replace")[-3000:]


def open_sockets() -> int:
    """This process's open sockets: the server's listeners and its calls' lines."""
    found = 0
    for name in os.listdir(FILES):
        with contextlib.suppress(OSError):  # gone since listed
            found += os.readlink(f"{FILES}/{name}").startswith("socket:")
    return found


def kinds_of(objects: list[object]) -> str:
    """The commonest types among ``objects``, for a failure's message."""
    counts = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}"
                                 for o in objects)
    return ", ".join(f"{name} {n}" for name, n in counts.most_common(12))


@pytest.mark.skipif(not os.path.isdir(FILES), reason="no /proc/self/fd to see the sockets close")
@pytest.mark.parametrize("kind", list(LEFT_PER_CALL))
async def test_an_ended_call_leaves_a_handful_of_cyclic_objects(
        kind: str, door_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ended: list[int] = []
    record = CallCollector.ended

    def ended_then_record(collector: CallCollector, live: int) -> None:
        ended.append(live)
        record(collector, live)
    monkeypatch.setattr(CallCollector, "ended", ended_then_record)
    monkeypatch.setattr(door.serve.collector, "QUIET_S", 3600.0)  # the server's own: none
    monkeypatch.setattr(door.serve.collector, "BATCH", 10 ** 6)
    configure(door_home, login_attempts=50)  # wrong passwords: never a lockout here
    async with running(door_home, ssh=kind == "ssh", web=kind == "web") as ports:
        sockets = open_sockets()
        port = {"ssh": ports.ssh, "web": ports.web}.get(kind, ports.telnet)
        assert port
        await make_calls("new-member", ports.telnet, 1)
        await make_calls(kind, port, 1)  # what a first call of its kind makes once
        await until(lambda: len(ended) == 2 and ended[-1] == 0, "the first calls ended")
        await until(lambda: open_sockets() <= sockets, "the first calls' sockets closed")
        tasks = len(asyncio.all_tasks())
        gc.collect()
        gc.disable()
        try:
            await make_calls(kind, port, CALLS)
            # Ended, and let go of by the listeners: every socket of theirs closed.
            await until(lambda: len(ended) == 2 + CALLS and ended[-1] == 0
                        and len(asyncio.all_tasks()) <= tasks and open_sockets() <= sockets,
                        f"{CALLS} {kind} calls ended")
            gc.set_debug(gc.DEBUG_SAVEALL)
            found = gc.collect()
            left = list(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        assert found < CALLS * LEFT_PER_CALL[kind], (
            f"{CALLS} {kind} calls left {found} objects in reference cycles: {kinds_of(left)}")
