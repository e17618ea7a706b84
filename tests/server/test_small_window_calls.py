"""Small windows through real clients: a fresh telnet call at 40×20, an SSH window that
shrinks mid-game and grows back (tests/ui/test_small_windows.py has the property over
every screen and size)."""

from __future__ import annotations

from pathlib import Path

from pyteterm import TelnetCaller
from serverhelp import SSHCaller, open_game, running, to_menu

from door.config import load_settings
from door.store import Store


def words(text: str) -> str:
    return " ".join(text.split())


async def test_a_fresh_telnet_call_in_a_small_window_gets_the_notice(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await TelnetCaller.connect(ports.telnet, cols=40, rows=20)
        await caller.wait_for("Widen it")
        assert words(caller.term.text) == ("This door needs 80x24; your window is 40x20. "
                                           "Widen it, or press Q to log off.")  # CP437: no ×
        caller.send("\x12")  # Ctrl-R repaints the notice, not the screen under it
        caller.send("x")
        await caller.settle()
        assert "Handle:" not in caller.term.text and caller.term.raw.count(b"\x07") == 1
        caller.send("q")
        await caller.wait_closed()


async def test_a_window_that_shrinks_and_grows_back(door_home: Path) -> None:
    store = Store(load_settings(door_home).database_url)
    try:
        await store.start()
        await store.accounts.signup("Dora", "d0ra-pw")
    finally:
        await store.close()
    async with running(door_home) as ports:
        dora = await SSHCaller.connect(ports.ssh, "dora", password="d0ra-pw")
        await to_menu(dora)
        await open_game(dora, "c", 505)
        dora.resize(60, 20)
        await dora.wait_for("your window is 60×20")
        assert "Monte Carlo" not in dora.term.text
        dora.resize(70, 30)
        await dora.wait_for("your window is 70×30")
        dora.resize(100, 30)
        await dora.wait_for("Monte Carlo #505")  # the game, whole, at the new size
        assert "min left" in dora.term.lines[29] and "Widen" not in dora.term.text
        await dora.close()
