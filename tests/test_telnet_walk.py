"""End to end over loopback: a real telnet client sees title → menu → goodbye → closed."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from pyteterm import TelnetCaller
from waiting import until

from door.catalog import registry as gamelist


@pytest.mark.slow
async def test_title_menu_quit_goodbye(telnet_door, door_home: Path) -> None:
    port = await telnet_door()
    caller = await TelnetCaller.connect(port)
    await caller.wait_for("Press any key")
    assert "R  É  U  S  S  I  T  E" in caller.term.text
    assert "Sysop: Sysop" in caller.term.text
    caller.send("x")
    await caller.wait_for("Your choice")
    labels = [line.strip() for line in caller.term.lines if re.search(r"\[[A-Z0-9]\]", line)]
    labels = [re.sub(r"^.*?\[(\w)\]\s+(.*?)\s*║?$", r"\1 \2", line) for line in labels]
    games = [f"{info.menu_key} {info.label}" for info in gamelist.games()]
    assert labels == [*games, "D Daily Challenge", "H Hall of Fame", "E Message Centre",
                      "I Instructions",
                      "W Who's Online", "V Watch a Game", "S Terminal Settings",
                      "Q Log off"]  # "Quit to the BBS" to a caller who came from a BBS
    caller.send("q")
    await caller.wait_for("Log off? (Y/n)")
    caller.send("n")
    await caller.settle()
    assert "Log off?" not in caller.term.text and "Your choice" in caller.term.text
    caller.send("q")
    await caller.wait_for("Log off? (Y/n)")
    caller.send("\r")                                  # Enter: yes
    await caller.wait_for("Thanks for playing")
    assert "Farewell, Guest." in caller.term.text
    await caller.wait_closed()                         # the goodbye goes by itself (~2 s)


async def test_quit_without_asking_and_a_goodbye_that_waits_for_a_key(
        telnet_door, door_home: Path) -> None:
    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace(";confirm_quit = on",
                                                           "confirm_quit = off")
                   .replace(";goodbye_pause = 1.5", "goodbye_pause = 30"), encoding="utf-8")
    caller = await TelnetCaller.at_menu(await telnet_door())
    caller.send("q")
    await caller.wait_for("Thanks for playing")
    assert "Log off?" not in caller.term.text
    await caller.settle(0.5)
    assert await caller.pump(), "the goodbye stays up (30 s) until a key"
    caller.send("x")
    await caller.wait_closed()


async def test_menu_follows_sysop_ini(telnet_door, door_home: Path, monkeypatch) -> None:
    import door.ui.visits.actions as ui_actions
    built = {name: action for name, action in ui_actions.actions().items() if name != "mariant"}
    monkeypatch.setattr(ui_actions, "actions", lambda: built)  # stands for any unbuilt feature
    ini = door_home / "sysop.ini"
    text = ini.read_text(encoding="utf-8")
    text = text.replace("mariant = M | Mariant (Marie Antoinette) | on",
                        "mariant = 7 | Marie's Patience | on")
    text = text.replace("montecarlo = C | Monte Carlo | on", "montecarlo = C | Monte Carlo | off")
    text = text.replace("[door]\n", "[door]\n").replace("name = Réussite", "name = Solitaire Hut")
    # Move quit to the top: the menu must follow the file's order.
    text = text.replace("quit = Q | Quit to the BBS | on\n", "")
    text = text.replace("[menu]\n", "[menu]\nquit = X | Leave | on\n")
    ini.write_text(text, encoding="utf-8")
    port = await telnet_door()
    caller = await TelnetCaller.connect(port)
    await caller.wait_for("Press any key")
    caller.send(" ")
    await caller.wait_for("Your choice")
    screen = caller.term.text
    assert "Solitaire Hut" in screen
    assert "Monte Carlo" not in screen
    leave, patience = caller.term.find("[X]  Leave"), caller.term.find("[7]  Marie's Patience")
    assert leave and patience and leave[0] < patience[0]
    caller.send("c")  # switched off: not a hot key any more
    await caller.wait_for("Press one of the highlighted keys")
    caller.send("7")  # a feature not built yet says so plainly
    await caller.wait_for("not built yet")
    await caller.log_off("Thanks for playing Solitaire Hut", key="x")
    assert "Leave? (Y/n)" in caller.term.raw.decode("cp437")  # the sysop's own label


async def test_title_art_from_ansi_folder(telnet_door, door_home: Path) -> None:
    art = b"\x1b[2J\x1b[1;33mWELCOME \x03 TO THE HUT\x1b[0m\r\n\x1a" + b"SAUCE00" + b"\0" * 121
    (door_home / "ansi" / "title.ans").write_bytes(art)
    port = await telnet_door()
    caller = await TelnetCaller.connect(port)
    await caller.wait_for("Press any key")
    assert caller.term.lines[0].startswith("WELCOME H TO THE HUT")  # ♥ degrades without glyphs
    assert "SAUCE" not in caller.term.text
    cell = caller.term.screen.buffer[0][0]
    assert (cell.fg, cell.bold) == ("brown", True)
    caller.close()


async def test_caller_hanging_up_leaves_nothing_behind(telnet_door) -> None:
    port = await telnet_door()
    before = {t for t in asyncio.all_tasks() if not t.done()}
    for _ in range(3):
        caller = await TelnetCaller.connect(port)
        await caller.wait_for("Press any key")
        caller.close()

    def left() -> set[asyncio.Task]:
        return {t for t in asyncio.all_tasks() if not t.done()} - before

    await until(lambda: not left(), "every task of the three calls ended")
