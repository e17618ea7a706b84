"""The main menu's Instructions through a telnet door: the four games' rules, the door's
keys, scoring and the hall of fame, and the sysop's news when there is some."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pyteterm import TelnetCaller, instructions_text

REPO = Path(__file__).resolve().parents[2]


def ship_pages(home: Path) -> None:
    for page in (REPO / "ansi").glob("*.ins"):
        shutil.copy(page, home / "ansi" / page.name)


async def at_instructions(port: int) -> TelnetCaller:
    caller = await TelnetCaller.at_menu(port)
    caller.send("i")
    await caller.wait_for("Read about")
    return caller


async def read_to_the_end(caller: TelnetCaller, first_page: str) -> str:
    """Page through; the text of every page seen."""
    await caller.wait_for(first_page)
    seen = caller.term.text
    while "-- End" not in caller.term.text:
        caller.send(" ")
        await caller.settle()
        seen += caller.term.text
    caller.send(" ")
    await caller.wait_for("Read about")
    return seen


@pytest.mark.slow
async def test_every_page_of_the_instructions(telnet_door, door_home: Path) -> None:
    ship_pages(door_home)
    caller = await at_instructions(await telnet_door())
    menu = caller.term.text
    for label in ("[1]  Mariant", "[2]  Monte Carlo", "[3]  Aunt Mary", "[4]  Anciento",
                  "[K]  The door's keys", "[S]  Scores and the hall of fame"):
        assert label in menu
    assert "News" not in menu  # the sysop wrote none
    for key, game, heading in (("1", "mariant", "MARIANT"), ("2", "montecarlo", "MONTE CARLO"),
                               ("3", "auntmary", "AUNT MARY"), ("4", "anciento", "ANCIENTO")):
        instructions_text(game)  # the file keeps its form
        caller.send(key)
        await read_to_the_end(caller, heading)
    caller.send("k")
    keys = await read_to_the_end(caller, "THE DOOR'S KEYS")
    assert "Ctrl-Z" in keys and "column letter then row number" in keys
    caller.send("\x1b[B\r")  # arrows and Enter choose too: the entry below the keys
    scores = await read_to_the_end(caller, "SCORES AND THE HALL OF FAME")
    assert "Hit Parade" in scores and "plays the moves again" in scores
    caller.send("x")
    await caller.wait_for("Press one of the highlighted keys.")
    caller.send("q")
    await caller.wait_for("Your choice")
    caller.close()


async def test_a_missing_page_is_said_plainly(telnet_door, door_home: Path) -> None:
    caller = await at_instructions(await telnet_door())  # an empty ansi folder
    caller.send("2")
    await caller.wait_for("No page here: montecarlo.ins is missing from the ansi folder.")
    caller.send(" ")
    await caller.wait_for("Read about")
    caller.close()


async def test_the_sysops_news_as_text_or_as_art(telnet_door, door_home: Path) -> None:
    (door_home / "ansi" / "news.asc").write_text(
        "@E@Tournament!\r\n@B@Deal #505 all week: best score wins a mug.\r\n",
        encoding="cp437")
    port = await telnet_door()
    caller = await at_instructions(port)
    assert "[N]  News from the sysop" in caller.term.text
    caller.send("n")
    await caller.wait_for("Deal #505 all week: best score wins a mug.")
    assert "@E@" not in caller.term.text
    caller.send("q")
    await caller.wait_for("Read about")
    caller.close()

    art = b"".join(b"\x1b[1;36mNEWS LINE %02d \x04\x1b[0m\r\n" % i for i in range(40))
    (door_home / "ansi" / "news.ans").write_bytes(art + b"\x1a")  # art comes first
    caller = await at_instructions(port)
    caller.send("n")
    await caller.wait_for("NEWS LINE 00")
    assert "NEWS LINE 21" in caller.term.text and "NEWS LINE 23" not in caller.term.text
    caller.send(" ")
    await caller.wait_for("NEWS LINE 39")
    cell = caller.term.screen.buffer[caller.term.find("NEWS LINE 39")[0]][0]
    assert (cell.fg, cell.bold) == ("cyan", True)
    caller.close()
