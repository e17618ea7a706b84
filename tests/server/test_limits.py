"""Caps from sysop.ini: max nodes, connections per address, failed-login lockouts that a
stranger cannot aim at somebody else."""

from __future__ import annotations

from pathlib import Path

from pyteterm import TelnetCaller
from serverhelp import (
    OTHER_ADDRESS,
    TWO_ADDRESSES,
    call,
    call_when_free,
    configure,
    login,
    running,
    signup,
    to_menu,
)
from waiting import WAIT


async def test_all_nodes_busy_past_max_nodes(door_home: Path) -> None:
    """A node is taken once logged in: the second caller logs in, then hears of it."""
    configure(door_home, max_nodes=1)
    async with running(door_home, ssh=False) as ports:
        first = await call(ports.telnet)
        await signup(first, "Alma", "alma-pass")
        second = await call(ports.telnet)  # the login screen needs no node
        await signup_until(second, "Bert", "bert-pass", "All nodes are busy")
        await second.wait_closed(WAIT)
        first.close()
        await first.wait_closed(WAIT)
        third = await call_when_free(ports.telnet, timeout=WAIT)  # the node came back
        await login(third, "bert", "bert-pass")
        await to_menu(third)
        third.close()


async def signup_until(caller: TelnetCaller, handle: str, password: str, text: str) -> None:
    caller.send("new\r")
    await caller.wait_for("New user")
    caller.send(f"{handle}\r{password}\r{password}\r")
    await caller.wait_for(text, WAIT)


async def test_connections_per_address_are_capped(door_home: Path) -> None:
    configure(door_home, max_per_address=2)
    async with running(door_home, ssh=False) as ports:
        callers = [await call(ports.telnet) for _ in range(2)]
        extra = await TelnetCaller.connect(ports.telnet)
        await extra.wait_for("Too many connections from your address")
        await extra.wait_closed(WAIT)
        callers[0].close()
        await callers[0].wait_closed(WAIT)
        again = await call_when_free(ports.telnet, timeout=WAIT)
        again.close()
        callers[1].close()


async def test_failed_logins_lock_the_handle_from_that_address_only(door_home: Path) -> None:
    configure(door_home, login_attempts=2)
    async with running(door_home, ssh=False, bind=TWO_ADDRESSES) as ports:
        owner = await call(ports.telnet)
        await signup(owner, "Gina", "gina-pass")
        owner.close()
        guesser = await call(ports.telnet, host=OTHER_ADDRESS)
        await login(guesser, "gina", "guess-1")
        await guesser.wait_for("Wrong handle or password")
        await login(guesser, "gina", "guess-2")
        await guesser.wait_for("Too many failed logins on that handle from your address", WAIT)
        await guesser.wait_closed(WAIT)
        back = await call(ports.telnet, host=OTHER_ADDRESS)  # a new line from there ...
        back.send("gina\r")  # ... is refused that handle before any password
        await back.wait_for("Too many failed logins on that handle from your address", WAIT)
        assert "Password:" not in back.term.text
        back.close()
        owner = await call_when_free(ports.telnet, timeout=WAIT)  # the owner, elsewhere
        await login(owner, "gina", "gina-pass")  # slowed a moment, never locked out
        await to_menu(owner)
        owner.close()


async def test_an_address_failing_on_many_handles_is_locked(door_home: Path) -> None:
    """One failure per handle locks only that handle; four handles lock the address."""
    configure(door_home, login_attempts=1)
    async with running(door_home, ssh=False, bind=TWO_ADDRESSES) as ports:
        for handle in ("ann", "bob", "cid", "dee"):
            guesser = await call(ports.telnet, host=OTHER_ADDRESS)
            await login(guesser, handle, "guess")
            await guesser.wait_for("Too many failed logins", WAIT)
            await guesser.wait_closed(WAIT)
        locked = await TelnetCaller.connect(ports.telnet, host=OTHER_ADDRESS)
        await locked.wait_for("Too many failed logins from your address", WAIT)
        await locked.wait_closed(WAIT)
        await call(ports.telnet)  # 127.0.0.1 is another address: welcome
