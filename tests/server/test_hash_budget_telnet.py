"""The password-hash budget and lanes (door/gate/hash_budget.py) on a real server over loopback:
a network past its hashes is refused without one, known and unknown handles alike, while
another network logs in; a line's first try is hashed while second tries wait."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from serverhelp import (
    OTHER_ADDRESS,
    TWO_ADDRESSES,
    call,
    configure,
    login,
    running,
    signup,
    to_menu,
)
from waiting import WAIT, until

import door.store.accounts
from door.gate.hash_budget import AGAIN, FIRST

REFUSED = "Many logins from your network just now"


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords the server hashed to check a login, in order."""
    seen: list[str] = []
    real_check = door.store.accounts.check_password
    monkeypatch.setattr(door.store.accounts, "check_password",
                        lambda password, stored: seen.append(password)
                        or real_check(password, stored))
    return seen


async def test_a_network_past_its_hashes_is_refused_without_one(
        door_home: Path, checked: list[str]) -> None:
    """Three hashes a minute per network: a sign-up and two wrong passwords from 127.0.0.0/24
    use them; then the right password and an unknown handle get the same plain refusal and
    nothing is hashed; a caller from another network (::1) still logs in; the refusal was
    not a failed login (the handle is not locked from 127.0.0.1 after login_attempts)."""
    configure(door_home, login_hashes_per_minute=3, login_attempts=2)
    async with running(door_home, ssh=False, bind=TWO_ADDRESSES) as ports:
        first = await call(ports.telnet)
        await signup(first, "Budget", "right-one")
        first.close()
        for handle, password in (("Budget", "wrong-one"), ("Nobody", "wrong-two")):
            wrong = await call(ports.telnet)
            await login(wrong, handle, password)
            await wrong.wait_for("Wrong handle or password")
            wrong.close()
        assert checked == ["wrong-one", "wrong-two"]
        for handle, password in (("Budget", "right-one"), ("Nobody", "x-x-x-x"),
                                 ("Budget", "right-one")):
            refused = await call(ports.telnet)
            await login(refused, handle, password)
            await refused.wait_for(REFUSED)
            refused.close()
        assert checked == ["wrong-one", "wrong-two"], "a hash past the budget"
        other = await call(ports.telnet, host=OTHER_ADDRESS)
        await login(other, "Budget", "right-one")
        await to_menu(other)
        other.close()
        assert checked[-1] == "right-one"


async def test_a_line_s_first_try_is_hashed_while_second_tries_wait(
        door_home: Path, checked: list[str]) -> None:
    """The again lane's thread is held busy: a second try on a line waits for it, in its
    network's turn; meanwhile another caller's first try is hashed on the first lane and
    gets in.  When the again lane frees, the waiting second try is checked."""
    async with running(door_home, ssh=False) as ports:
        first = await call(ports.telnet)
        await signup(first, "Second", "pass-two")
        first.close()
        new = await call(ports.telnet)
        await signup(new, "First", "pass-one")
        new.close()
        turns = door.store.accounts._TURNS[asyncio.get_running_loop()]
        gate = threading.Event()
        busy = [asyncio.ensure_future(door.store.accounts._hashing(
            f"busy{n}", gate.wait, WAIT, lane=AGAIN))
            for n in range(door.store.accounts.HASHING_THREADS)]
        try:
            retrying = await call(ports.telnet)
            await login(retrying, "Second", "not-it")
            await retrying.wait_for("Wrong handle or password")   # its first try: hashed
            await login(retrying, "Second", "pass-two")           # its second: waits
            await until(lambda: "127.0.0.0/24" in turns[AGAIN].waiting, "the second try queued")
            caller = await call(ports.telnet)
            await login(caller, "First", "pass-one")
            await to_menu(caller)
            caller.close()
            assert checked[-1] == "pass-one"
            assert "pass-two" not in checked
            assert "127.0.0.0/24" in turns[AGAIN].waiting
            assert not turns[FIRST].waiting
        finally:
            gate.set()
        await asyncio.gather(*busy)
        await to_menu(retrying)
        retrying.close()
        assert checked[-1] == "pass-two"
