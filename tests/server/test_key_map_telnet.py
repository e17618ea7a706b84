"""``?`` over a real telnet door, read through pyte: the key map over every game and menu,
readable at 80 × 24, and the screen exactly as it was (text and colours) once it closes."""

from __future__ import annotations

import re
from pathlib import Path

from pyteterm import PyteCaller
from serverhelp import call, new_member, open_game, running, signup, to_menu

from door.catalog import registry as gamelist
from door.ui.shared.keymap import HELP, SHARED

CLOSED = "other keys: back"  # the map's footer


Looks = list[list[tuple[str, str, str, bool]]]


def looks(caller: PyteCaller) -> Looks:
    """Every cell of the caller's window as they see it: character, colours, bold (a blank
    shows only its background: the door may send one in any foreground)."""
    screen = caller.term.screen
    buffer = screen.buffer

    def cell(r: int, c: int) -> tuple[str, str, str, bool]:
        char = buffer[r][c]
        if char.data == " " and not char.reverse:
            return (" ", "", char.bg, False)
        return (char.data, char.fg, char.bg, char.bold)

    return [[cell(r, c) for c in range(screen.columns)] for r in range(screen.lines)]


def differences(before: Looks, after: Looks, live: bool = False) -> list[tuple[int, int]]:
    """The cells that differ (``live``: but for a figure, a digit for a digit)."""
    if len(before) != len(after) or len(before[0]) != len(after[0]):
        return [(-1, -1)]
    return [(r, c) for r, row in enumerate(before) for c, cell in enumerate(row)
            if cell != after[r][c]
            and not (live and cell[0].isdigit() and after[r][c][0].isdigit())]


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
    diff = [(r, c, before[r][c], after[r][c]) for r, c in differences(before, after, live)]
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


def centred(caller: PyteCaller, needle: str) -> bool:
    """``needle`` is shown inside the door's 80 columns, centred in the caller's window,
    with nothing drawn left or right of them."""
    left = (caller.term.screen.columns - 80) // 2
    lines = caller.term.lines
    return (any(needle in line[left:left + 80] for line in lines)
            and not any(line[:left].strip() or line[left + 80:].strip() for line in lines))


async def board_at(caller: PyteCaller, cols: int, rows: int, title: str) -> Looks:
    """Resize the window to ``cols`` × ``rows`` (NAWS) and return the game as drawn there."""
    caller.resize(cols, rows)
    await caller.wait_until(lambda: centred(caller, title) and "min left" in caller.term.lines[-1],
                            f"the game at {cols}×{rows}")
    await caller.settle()
    return looks(caller)


async def resized_under(caller: PyteCaller, cols: int, rows: int, needle: str,
                        title: str) -> None:
    """With an overlay open, resize to ``cols`` × ``rows``: the game is drawn for the new
    size and the overlay (``needle``) over it again, centred with it."""
    caller.resize(cols, rows)
    await caller.wait_until(lambda: centred(caller, needle) and centred(caller, title),
                            f"{needle!r} over the game again at {cols}×{rows}")


async def closes_to(caller: PyteCaller, board: Looks, key: str = "\x1b") -> None:
    """``key`` closes the overlay: the caller sees ``board`` again, cell for cell."""
    caller.send(key)
    await caller.wait_until(lambda: not differences(board, looks(caller), live=True),
                            "the board put back cell for cell")
    await caller.settle()
    diff = differences(board, looks(caller), live=True)
    assert not diff, diff[:6]


async def test_the_map_and_the_rules_stay_open_across_a_resize(door_home: Path) -> None:
    """``?`` open over a game while the window grows (NAWS), shrinks, and is too small
    for a moment: each time the game is drawn for the new size and the map over it again;
    closing it puts back the board as that window shows it, cell for cell.  ``?`` twice
    (the rules) and a menu's map stay open across a resize too."""
    title = "Monte Carlo #505"
    async with running(door_home, ssh=False) as ports:
        caller = await call(ports.telnet)
        await signup(caller, "Resize", "resize-pw")
        await to_menu(caller)
        caller.send(HELP.key)                                   # a menu's map too
        await caller.wait_for(CLOSED)
        await resized_under(caller, 100, 30, CLOSED, "The main menu: its keys")
        caller.send("\x1b")
        await caller.wait_until(lambda: CLOSED not in caller.term.text
                                and centred(caller, "Your choice"), "the menu at 100×30")
        await open_game(caller, "c", 505)
        big = await board_at(caller, 132, 50, title)
        small = await board_at(caller, 80, 24, title)

        caller.send(HELP.key)                                   # grows while open
        await caller.wait_for(CLOSED)
        await resized_under(caller, 132, 50, CLOSED, title)
        assert "Monte Carlo: its own keys" in caller.term.text
        await closes_to(caller, big)

        caller.send(HELP.key)                                   # shrinks while open
        await caller.wait_for(CLOSED)
        await resized_under(caller, 80, 24, CLOSED, title)
        await closes_to(caller, small)

        caller.send(HELP.key)                                   # too small, then widened
        await caller.wait_for(CLOSED)
        caller.resize(60, 20)
        await caller.wait_for("This door needs 80")
        await resized_under(caller, 80, 24, CLOSED, title)
        await closes_to(caller, small, key="z")                 # any key closes it

        caller.send(HELP.key)                                   # ? twice: the rules
        await caller.wait_for(CLOSED)
        caller.send(HELP.key)
        await caller.wait_for("Monte Carlo: the rules in short")
        await resized_under(caller, 132, 50, "Monte Carlo: the rules in short", title)
        await closes_to(caller, big, key=" ")
        caller.send("z")                          # the game reads keys again: no map left
        await caller.wait_for("That key does nothing here")
        caller.close()
