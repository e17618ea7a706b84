"""Caps from sysop.ini: max nodes, connections per address, failed-login lockouts."""

from __future__ import annotations

from pathlib import Path

from pyteterm import TelnetCaller
from serverhelp import call, call_when_free, configure, login, running, signup


async def test_all_nodes_busy_past_max_nodes(door_home: Path) -> None:
    configure(door_home, max_nodes=1)
    async with running(door_home, ssh=False) as ports:
        first = await call(ports.telnet)
        second = await TelnetCaller.connect(ports.telnet)
        await second.wait_for("All nodes are busy")
        await second.wait_closed()
        first.close()
        await first.wait_closed()
        third = await call_when_free(ports.telnet)  # the node came back
        third.close()


async def test_connections_per_address_are_capped(door_home: Path) -> None:
    configure(door_home, max_per_address=2)
    async with running(door_home, ssh=False) as ports:
        callers = [await call(ports.telnet) for _ in range(2)]
        extra = await TelnetCaller.connect(ports.telnet)
        await extra.wait_for("Too many connections from your address")
        await extra.wait_closed()
        callers[0].close()
        await callers[0].wait_closed()
        again = await call_when_free(ports.telnet)
        again.close()
        callers[1].close()


async def test_failed_logins_lock_the_address_out(door_home: Path) -> None:
    configure(door_home, login_attempts=2)
    async with running(door_home, ssh=False) as ports:
        owner = await call(ports.telnet)
        await signup(owner, "Gina", "gina-pass")
        owner.close()
        guesser = await call(ports.telnet)
        await login(guesser, "gina", "guess-1")
        await guesser.wait_for("Wrong handle or password")
        await login(guesser, "gina", "guess-2")
        await guesser.wait_for("Too many failed logins from your address")
        await guesser.wait_closed()
        back = await TelnetCaller.connect(ports.telnet)  # a new line from there: still locked
        await back.wait_for("Too many failed logins from your address")
        await back.wait_closed()
