"""One call per handle: a second call takes over from the first (its game kept), or leaves."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from pyteterm import TelnetCaller
from serverhelp import (
    SSHCaller,
    call,
    configure,
    login,
    mid_game,
    new_member,
    running,
    to_menu,
)
from waiting import until

from door.serve.ports import Ports

NUMBER = 42


async def test_a_second_call_takes_over_and_finds_the_game_saved(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        first = await call(ports.telnet)
        await mid_game(first, "Remy", "again-pw", NUMBER)

        second = await call(ports.telnet)
        await login(second, "remy", "again-pw")
        await second.wait_for("Remy is already in the door on node 1.")
        second.send("y")
        await first.wait_for("You have called again from another line")
        row, _ = first.term.find("You have called again")
        assert "your game is saved." in first.term.lines[row]  # one line: it fits 80 columns
        await first.wait_closed()
        await to_menu(second)
        second.send("c")
        await second.wait_for(f"Resume your Monte Carlo game #{NUMBER}?")
        second.close()


async def test_a_second_call_that_declines_leaves_the_first_alone(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        first, second = await _called_twice(ports)
        second.send("n")
        await second.wait_for("One call at a time")
        await second.wait_closed()
        first.send("w")  # the first call still answers; who's online shows it alone
        await first.wait_for("Doing")
        rows = [line.split() for line in first.term.lines[3:20] if line.strip()]
        assert [row[:2] for row in rows] == [["1", "Remy"]], rows  # node 2 has gone
        first.close()


async def test_the_decline_stays_up_as_the_goodbye_does(door_home: Path) -> None:
    """"One call at a time" is read before the line drops: up for goodbye_pause, or until
    a key, as the goodbye is."""
    configure(door_home, goodbye_pause=60)
    async with running(door_home, ssh=False) as ports:
        first, second = await _called_twice(ports)
        second.send("n")
        await second.wait_for("One call at a time, please. Goodbye.")
        await second.settle()
        assert await second.pump(), "the line dropped under the notice"
        assert "One call at a time, please. Goodbye." in second.term.text
        second.send(" ")  # a key ends it at once
        await second.wait_closed()
        first.close()


async def test_a_second_call_hanging_up_at_the_question_is_no_error(
        door_home: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A caller whose line drops while "Hang up the call on node 1?" waits: the visit ends
    as on any hang-up, with no traceback in the log; the first call goes on."""
    async with running(door_home, ssh=False) as ports:
        first, second = await _called_twice(ports)
        second.close()
        await second.wait_closed()
        first.send("w")  # who's online: the second call's node goes, the first stays
        await first.wait_for("Doing")
        await until(lambda: [line.split()[:2] for line in first.term.lines[3:20]
                             if line.strip()] == [["1", "Remy"]], "node 2 gone")
        first.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_guests_share_a_record_and_come_in_together(door_home: Path) -> None:
    configure(door_home, guest="on")
    async with running(door_home, ssh=False) as ports:
        callers = [await call(ports.telnet) for _ in range(2)]
        for caller in callers:
            caller.send("guest\r")
            await to_menu(caller)
            assert "already in the door" not in caller.term.text
        for caller in callers:
            caller.close()


async def test_an_ssh_call_takes_over_from_a_telnet_one(door_home: Path) -> None:
    async with running(door_home) as ports:
        first = await new_member(ports.telnet, "Dana", "dana-pw1")
        second = await SSHCaller.connect(ports.ssh, "dana", password="dana-pw1")
        await second.wait_for("Dana is already in the door on node 1")
        second.send("\r")  # Enter is yes
        await first.wait_for("You have called again from another line")
        await first.wait_closed()
        await to_menu(second)
        await second.close()


async def _called_twice(ports: Ports) -> tuple[TelnetCaller, TelnetCaller]:
    """Remy at the main menu on node 1, and a second call of Remy's asked whether to hang
    up the first."""
    first = await new_member(ports.telnet, "Remy", "again-pw")
    second = await call(ports.telnet)
    await login(second, "Remy", "again-pw")
    await second.wait_for("already in the door on node 1")
    return first, second
