"""Windows larger than 80×24 show the door's screen centred, through a real telnet or SSH
session read with pyte: the menu, each of the four games and the resume box sit in the
middle of a 132×50 and a 100×30 window with nothing around them; a resize mid-game, from
80×24 to the larger window and back, leaves exactly the screen the caller had; a click on
a centred card picks that card, and a click where the card would be without the centring
picks nothing."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import partial

import pytest
from pyteterm import PyteCaller, TelnetCaller
from serverhelp import SSHCaller, new_member, running, signup, to_menu

from door.games.montecarlo import MonteCarlo, pair_name
from door.ui.montecarlo.screen import cell_origin
from door.ui.shared.cards import card_label

WINDOWS = [(132, 50), (100, 30)]
TOP_ROWS = 12
"""The rows of a game's header and board, drawn alike in any window height."""
MINUTES = re.compile(r"\d+ min left")


def steady(lines: list[str]) -> list[str]:
    """Rows as compared: the status line's minutes left may tick meanwhile."""
    return [MINUTES.sub("", line).rstrip() for line in lines]


def frame(caller: PyteCaller, left: int) -> list[str]:
    """The 80 columns the door draws, from column ``left`` of every row."""
    return [line[left:left + 80] for line in caller.term.lines]


def margins(caller: PyteCaller, left: int) -> list[int]:
    """Rows with anything drawn left or right of the frame (none when it is centred)."""
    return [r for r, line in enumerate(caller.term.lines)
            if line[:left].strip() or line[left + 80:].strip()]


def box(lines: list[str]) -> list[str]:
    """A menu's box, from its top edge to its bottom edge (where it sits depends on the
    window's height: menus centre it in the rows they have)."""
    first = next(r for r, line in enumerate(lines) if "╔" in line)
    last = next(r for r, line in enumerate(lines) if "╚" in line)
    return lines[first:last + 1]


def same_screen(small: list[str], big: list[str], game: bool) -> bool:
    """``big`` (a larger window's frame) shows what ``small`` (80×24) does: the board's
    rows, the key line and the status line for a game, the header, the box and the status
    line for a menu."""
    small, big = steady(small), steady(big)
    if game:
        return small[:TOP_ROWS] == big[:TOP_ROWS] and small[-3:] == big[-3:]
    return small[0] == big[0] and box(small) == box(big) and small[-1] == big[-1]


def centred_as(caller: PyteCaller, before: list[str], left: int, game: bool,
               exactly: bool = False) -> bool:
    """The caller's window shows ``before`` (an 80×24 display) centred at ``left``, blank
    around it; ``exactly``: every row the same (the window is 80×24 again)."""
    if exactly:
        return steady(caller.term.lines) == steady(before)
    return same_screen(before, frame(caller, left), game) and not margins(caller, left)


def board_at(caller: PyteCaller, board: list[str], left: int) -> bool:
    """The game's top rows are ``board``, from column ``left``, blank around them."""
    return steady(frame(caller, left))[:TOP_ROWS] == board and not margins(caller, left)


async def enter(caller: PyteCaller, key: str, prompt: str, number: str, title: str) -> None:
    caller.send(key)
    await caller.wait_for(prompt)
    caller.send(number)
    await caller.wait_for(title)
    await caller.settle()


SCREENS: list[tuple[str, Callable[[PyteCaller], Awaitable[None]]]] = [
    ("menu", lambda caller: caller.settle()),
    ("Mariant", lambda c: enter(c, "m", "New Mariant game", "1\r", "Mariant #1")),
    ("Monte Carlo", lambda c: enter(c, "c", "Game number:", "7\r", "Monte Carlo #7")),
    ("Aunt Mary", lambda c: enter(c, "a", "Game number:", "7\r", "Aunt Mary #7")),
    ("Anciento", lambda c: enter(c, "n", "New Anciento game", "s3\r", "Anciento #3")),
    ("resume box", lambda c: enter(c, "c", "Resume your", "", "Resume your")),
]
"""In this order: each game is left (kept), so the last one's box offers it again."""


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: f"{w[0]}x{w[1]}")
async def test_every_game_and_the_menu_centred_and_back(door_home, window) -> None:
    """For the menu and each game: at 80×24, then the window grows (NAWS) and the same
    screen is in its middle with blank margins, then it shrinks back and the display is
    exactly the one before, every row."""
    cols, rows = window
    left = (cols - 80) // 2
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Centre", "centre-pw")
        for name, open_screen in SCREENS:
            await open_screen(caller)
            before = caller.term.lines
            game = name not in ("menu", "resume box")
            caller.resize(cols, rows)
            await caller.wait_until(partial(centred_as, caller, before, left, game),
                                    f"{name} centred in {cols}×{rows}")
            await caller.settle()
            assert margins(caller, left) == [], caller.term.text
            assert same_screen(before, frame(caller, left), game), caller.term.text
            caller.resize(80, 24)
            await caller.wait_until(partial(centred_as, caller, before, 0, game, True),
                                    f"{name} back as it was at 80×24")
            if game:
                await caller.leave_game()
        caller.close()


async def test_a_click_on_a_centred_card_picks_it(door_home) -> None:
    """Monte Carlo at 132×50 with the mouse on: a click where a card would be at 80×24
    (in the margin now) does nothing; a click on the card where it is shown picks it, and
    a click on its partner removes the pair."""
    left, number = 26, 11982
    game = MonteCarlo.new(number)
    p, q = game.pairs()[0]
    async with running(door_home, ssh=False) as ports:
        caller = await TelnetCaller.connect(ports.telnet, cols=132, rows=50,
                                            term_type="xterm", charset="utf8")
        await caller.wait_for("Handle:")
        await signup(caller, "Clicker", "clicker-pw")
        await to_menu(caller)
        await enter(caller, "c", "Game number:", f"{number}\r", f"Monte Carlo #{number}")
        row, col = cell_origin(p)
        assert card_label(game.grid[p]) in caller.term.lines[row][left + col:left + col + 6]
        shown = caller.term.lines
        caller.send(click(row, col + 2))  # the uncentred place: the margin
        await caller.settle()
        assert caller.term.lines == shown
        caller.send(click(row, left + col + 2))
        await caller.wait_until(
            lambda: "»" in caller.term.lines[row][left + col:left + col + 6], "picked")
        row_q, col_q = cell_origin(q)
        caller.send(click(row_q, left + col_q + 2))
        game.play(pair_name(p, q))
        await caller.wait_for(f"Score {game.score:<3}")
        for r, c in (cell_origin(p), cell_origin(q)):
            assert caller.term.lines[r][left + c:left + c + 6].strip(" []") == "··"
        caller.close()


def click(row: int, col: int) -> bytes:
    """A press and its release at the window's cell (row, col), 0-based, in the SGR form."""
    return f"\x1b[<0;{col + 1};{row + 1}M\x1b[<0;{col + 1};{row + 1}m".encode()


async def test_ssh_window_changes_move_the_board(door_home) -> None:
    """Over SSH: a 132×50 window shows the board centred from the first frame; window
    changes to 100×30 and to 80×24 move it to the middle of each, the board unchanged."""
    async with running(door_home) as ports:
        caller = await SSHCaller.connect(ports.ssh, "wide", cols=132, rows=50)
        await caller.wait_for("Handle:")
        await signup(caller, "Wide", "wide-pw")
        await to_menu(caller)
        assert margins(caller, 26) == []
        await enter(caller, "c", "Game number:", "7\r", "Monte Carlo #7")
        board = steady(frame(caller, 26))[:TOP_ROWS]
        assert margins(caller, 26) == [] and "Monte Carlo #7" in board[0]
        for cols, rows in ((100, 30), (80, 24), (132, 50)):
            left = (cols - 80) // 2
            caller.resize(cols, rows)
            await caller.wait_until(partial(board_at, caller, board, left),
                                    f"the board centred in {cols}×{rows}")
        await caller.close()
