"""``?`` over a real telnet door, read through pyte: the key map over every game and menu,
readable at 80 × 24, and the screen exactly as it was (text and colours) once it closes."""

from __future__ import annotations

import re
from pathlib import Path

from pyteterm import PyteCaller
from serverhelp import SSHCaller, new_member, open_game, running, to_menu

from door import gamelist
from door.config import load_settings
from door.store import Store
from door.ui.keymap import HELP, SHARED

CLOSED = "other keys: back"  # the map's footer


def looks(caller: PyteCaller) -> list[list[tuple[str, str, str, bool]]]:
    """Every cell as the caller sees it: character, colours, bold (a blank shows only its
    background: the door may send one in any foreground)."""
    buffer = caller.term.screen.buffer

    def cell(r: int, c: int) -> tuple[str, str, str, bool]:
        char = buffer[r][c]
        if char.data == " " and not char.reverse:
            return (" ", "", char.bg, False)
        return (char.data, char.fg, char.bg, char.bold)

    return [[cell(r, c) for c in range(80)] for r in range(24)]


async def map_shown_then_restored(caller: PyteCaller, close: str = "\x1b",
                                  live: bool = False) -> str:
    """Press ``?`` on a settled screen, read the map, close it; the screen must come back
    cell for cell (``live``: but for its figures, which a screen with a clock or live
    lists draws afresh after the map: time left, minutes idle).  Returns the map's text."""
    await caller.settle()
    before, text_before = looks(caller), caller.term.text
    caller.send(HELP.key)
    await caller.wait_for(CLOSED)
    shown = caller.term.text
    assert len(caller.term.lines) == 24 and all(len(line) == 80 for line in caller.term.lines)
    caller.send(close)
    if live:
        def same(text: str) -> bool:
            return re.sub(r"\d", "0", text) == re.sub(r"\d", "0", text_before)
    else:
        def same(text: str) -> bool:
            return text == text_before
    await caller.wait_until(lambda: same(caller.term.text), "the screen restored")
    await caller.settle()
    after = looks(caller)
    diff = [(r, c, before[r][c], after[r][c]) for r in range(24) for c in range(80)
            if before[r][c] != after[r][c]
            and not (live and before[r][c][0].isdigit() and after[r][c][0].isdigit())]
    assert not diff, diff[:6]
    return shown


async def test_question_mark_shows_the_map_on_every_game_and_menu(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Keymap", "keymap-pw")
        shown = await map_shown_then_restored(caller)             # the main menu
        assert "The main menu: its keys" in shown

        games = [("c", "Game number:", "montecarlo"), ("a", "Game number:", "auntmary"),
                 ("m", "New Mariant game", "mariant")]
        for menu_key, prompt, name in games:
            keys = gamelist.game(name).screen_class().keys
            caller.send(menu_key)
            await caller.wait_for(prompt)
            caller.send("7\r")
            await caller.wait_for(f"{keys.title} #7")
            shown = await map_shown_then_restored(caller, close="z")  # any key closes it
            assert f"{keys.title}: its own keys" in shown
            for action in SHARED:   # each shared key, as this game does it (or lacks it)
                for label, about in keys.map_entries():
                    if label == action.label:
                        assert f"{label}  {about}" in shown, (name, label)
            await caller.leave_game()

        caller.send("n")                                          # the Anciento menu
        await caller.wait_for("New Anciento game")
        shown = await map_shown_then_restored(caller)
        assert "The Anciento menu: its keys" in shown
        caller.send("s5\r")
        await caller.wait_for("Anciento #5")
        shown = await map_shown_then_restored(caller)
        assert "Anciento: its own keys" in shown and "V  no \"still winnable?\"" in shown
        caller.send(HELP.key)                                     # ? twice: the rules
        await caller.wait_for(CLOSED)
        caller.send(HELP.key)
        await caller.wait_for("Anciento: the rules in short")
        assert "4 (a Quatro) two of each" in caller.term.text
        caller.send(" ")
        await caller.wait_for("Anciento #5")
        await caller.leave_game()
        caller.close()


async def test_question_mark_shows_the_map_on_the_other_menus(door_home: Path) -> None:
    """Hall of fame, daily challenge, message centre, instructions, terminal settings, who's
    online and the games to watch: ``?`` shows their keys and the shared ones, and the
    screen comes back."""
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Menus", "menus-pw")
        screens = [("h", "# deal", "The hall of fame: its keys"),
                   ("d", "P play", "The daily challenge: its keys"),
                   ("e", "W write", "The message centre: its keys"),
                   ("i", "Read about", "Instructions: its keys"),
                   ("s", "change them", "Terminal settings: its keys"),
                   ("w", "R refreshes", "Who's online: its keys"),
                   ("v", "1-9 watch", "Watch a game: its keys")]
        for key, shows, title in screens:
            caller.send(key)
            await caller.wait_for(shows)
            shown = await map_shown_then_restored(caller, live=True)
            assert title in shown and f"{HELP.label}  this map of the keys" in shown
            caller.send("\x1b")
            await caller.wait_for("Your choice")
        caller.close()


async def test_a_resize_closes_the_map_and_the_game_redraws_whole(door_home: Path) -> None:
    store = Store(load_settings(door_home).database_url)
    try:
        await store.start()
        await store.accounts.signup("Rosa", "r0sa-pw")
    finally:
        await store.close()
    async with running(door_home) as ports:
        rosa = await SSHCaller.connect(ports.ssh, "rosa", password="r0sa-pw")
        await to_menu(rosa)
        await open_game(rosa, "c", 505)
        rosa.send(HELP.key)
        await rosa.wait_for(CLOSED)
        rosa.resize(100, 30)
        await rosa.wait_until(lambda: CLOSED not in rosa.term.text
                              and "min left" in rosa.term.lines[29], "the game at 100x30")
        assert "Monte Carlo #505" in rosa.term.text and "P hint" in rosa.term.text
        rosa.send("z")                            # the game reads keys again: no map left
        await rosa.wait_for("That key does nothing here")
        await rosa.close()
