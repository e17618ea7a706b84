"""Telnet callers end to end: signup, login, wrong password, a Monte Carlo move, quit."""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path

import pytest
from serverhelp import call, configure, login, new_member, open_game, running, signup, to_menu
from waiting import WAIT, until

import door.store.accounts
from door.config import load_settings
from door.games.montecarlo import MonteCarlo, position_name
from door.gate.hash_budget import AGAIN, FIRST
from door.net.telnet import TelnetTerminal
from door.store import Store
from door.ui.montecarlo.screen import cell_origin

NUMBER = 11982


async def test_signup_then_login_then_a_move_then_quit(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        alice = await new_member(ports.telnet, "Alice", "tulips4me")
        assert "Alice" in alice.term.text  # the status line names the caller
        await alice.log_off("Farewell, Alice")

        again = await call(ports.telnet)
        await login(again, "alice", "wrong one")  # any case finds the handle
        await again.wait_for("Wrong handle or password")
        await login(again, "ALICE", "tulips4me")
        await to_menu(again)
        await open_game(again, "c", NUMBER)
        game = MonteCarlo.new(NUMBER)
        p, q = game.pairs()[0]
        row, col = cell_origin(p)
        before = again.term.lines[row][col:col + 6]
        again.send(position_name(p) + position_name(q))
        await again.wait_until(lambda: again.term.lines[row][col:col + 6] != before,
                               "the pair left the grid")
        again.close()

    store = Store(load_settings(door_home).database_url)
    try:
        accounts = store.accounts
        assert await accounts.exists("aLiCe")
        assert await accounts.login("alice", "tulips4me") is not None
        assert await accounts.login("alice", "tulips4m") is None
    finally:
        await store.close()


async def test_a_taken_handle_any_case_is_refused(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        first = await call(ports.telnet)
        await signup(first, "Bob", "b0bpass")
        first.close()
        second = await call(ports.telnet)
        second.send("new\r")
        await second.wait_for("New user")
        second.send("BOB\r")
        await second.wait_for("'BOB' is taken")
        second.send("x\r")
        await second.wait_for("A handle has 2 to 20 characters")
        second.send("guest\r")
        await second.wait_for("reserved")
        second.send("Pat@XA\r")  # a member board's caller's name: not for a direct caller
        await second.wait_for("A handle has no @ in it")
        second.send("Bobby\r")
        await second.wait_for("Password:")
        second.send("one1\r")
        await second.wait_for("Again:")
        second.send("two2\r")
        await second.wait_for("The two passwords differ: type the password again.")
        second.close()


async def test_signup_tells_the_password_rule_and_asks_only_the_password_again(
        door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await call(ports.telnet)
        caller.send("new\r")
        await caller.wait_for("New user")
        assert "then a password: 4 to 64 characters." in caller.term.text  # before asking
        caller.send("Carla\r")
        await caller.wait_for("Password:")
        caller.send("abc\r")                                    # too short
        await caller.wait_for("A password has 4 to 64 characters.")
        assert "Handle:   Carla" in caller.term.text and "Again:" not in caller.term.text
        caller.send("good one\r")
        await caller.wait_for("Again:")
        caller.send("good 0ne\r")
        await caller.wait_for("The two passwords differ: type the password again.")
        assert "Handle:   Carla" in caller.term.text
        caller.send("good one\r")
        await caller.wait_for("Again:")
        caller.send("good one\r")
        await caller.wait_for("Press any key")
        caller.close()
        again = await call(ports.telnet)
        await login(again, "carla", "good one")
        await to_menu(again)
        again.close()


async def test_guest_login_when_the_sysop_allows_it(door_home: Path) -> None:
    configure(door_home, guest="on")
    async with running(door_home, ssh=False) as ports:
        caller = await call(ports.telnet)
        await caller.wait_for("GUEST looks around")
        caller.send("guest\r")
        await to_menu(caller)
        assert "Guest" in caller.term.text
        caller.close()


async def test_guest_is_refused_when_off(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await call(ports.telnet)
        assert "GUEST" not in caller.term.text
        await login(caller, "guest", "anything")
        await caller.wait_for("Wrong handle or password")
        caller.close()


async def test_a_finished_game_is_one_log_line(door_home: Path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="door.serve.server")
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Ada", "lovelace1")
        await open_game(caller, "a", 321, "Aunt Mary")
        caller.send("x")
        await caller.wait_for("Resign?")
        caller.send("y")
        await caller.wait_for("You resigned.")
        caller.close()
    ends = [r.getMessage() for r in caplog.records if " finished " in r.getMessage()]
    assert ends == ["node 1: Ada finished auntmary #321: resigned, score 0"], ends  # no rank


async def test_a_caller_who_hangs_up_while_the_password_waits_its_turn_costs_no_hash(
        door_home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
        ) -> None:
    """Both hashing threads busy; a caller types a password and hangs up before its turn:
    the hash is skipped when the turn comes (a login storm's dead lines no longer go
    first), and it does not count as a failed login."""
    checked: list[str] = []
    real_check = door.store.accounts.check_password
    monkeypatch.setattr(door.store.accounts, "check_password",
                        lambda password, stored: checked.append(password)
                        or real_check(password, stored))
    dropped: list[TelnetTerminal] = []
    real_dropped = TelnetTerminal.dropped
    monkeypatch.setattr(TelnetTerminal, "dropped",
                        lambda self: dropped.append(self) or real_dropped(self))
    caplog.set_level(logging.INFO)
    async with running(door_home, ssh=False) as ports:
        first = await call(ports.telnet)
        await signup(first, "Patience", "wait-for-it")
        first.close()
        gate = threading.Event()
        busy = [asyncio.ensure_future(door.store.accounts._hashing(
            f"busy{n}", gate.wait, WAIT, lane=lane))
            for lane in (FIRST, AGAIN) for n in range(door.store.accounts.HASHING_THREADS)]
        turns = door.store.accounts._TURNS[asyncio.get_running_loop()][FIRST]
        try:
            caller = await call(ports.telnet)
            await login(caller, "Patience", "wait-for-it")
            await until(lambda: "127.0.0.0/24" in turns.waiting, "the password queued")
            caller.close()
            await until(lambda: any(t.peer.startswith("127.0.0.1") for t in dropped),
                        "the hang-up seen")
        finally:
            gate.set()
        await asyncio.gather(*busy)
        await until(lambda: "left before logging in" in caplog.text, "the visit over")
        assert checked == []
        again = await call(ports.telnet)  # the handle and address are not backed off
        await login(again, "Patience", "wait-for-it")
        await to_menu(again)
        assert checked == ["wait-for-it"]
        again.close()
