"""Mouse reports over real telnet (telnetlib3 on loopback, the screen read through pyte), in
both forms a terminal sends them: SGR (``CSI < b;x;y M``, xterm's 1006) and the older X10
(``CSI M`` and three bytes).  Each game is entered from the menu by a click and played by
clicks; a terminal that says nothing of a mouse is never asked for one unless its caller
turns it on in Terminal Settings (kept for the next call); the request is taken back
before the door hangs up; F9 says the board in words."""

from __future__ import annotations

from pathlib import Path

from pyteterm import TelnetCaller
from serverhelp import call, login, running, signup, to_menu

from door.games.anciento import Anciento
from door.games.auntmary import AuntMary
from door.games.mariant import Mariant, column_key
from door.games.montecarlo import MonteCarlo, pair_name, position_name
from door.term.mouse import MOUSE_OFF, MOUSE_ON
from door.ui.anciento.screen import square_origin
from door.ui.auntmary.screen import UP_TOP, pile_left
from door.ui.mariant.board import CARDS_TOP, column_x, fitted_column
from door.ui.montecarlo.screen import cell_origin
from door.ui.shared.cards import card_label
from door.ui.shared.describe import card_words

NUMBER = 11982


def sgr(row: int, col: int, button: int = 0) -> bytes:
    """A press and its release at the screen's cell (row, col), 0-based, in the SGR form."""
    return (f"\x1b[<{button};{col + 1};{row + 1}M".encode()
            + f"\x1b[<{button};{col + 1};{row + 1}m".encode())


def x10(row: int, col: int, button: int = 0) -> bytes:
    """The same in the X10 form: button, column and row plus 32, then a release (3)."""
    where = bytes([col + 33, row + 33])
    return b"\x1b[M" + bytes([32 + button]) + where + b"\x1b[M#" + where


async def click_text(caller: TelnetCaller, needle: str, form=sgr, offset: int = 0) -> None:
    found = caller.term.find(needle)
    assert found is not None, f"{needle!r} not on the screen:\n{caller.term.text}"
    caller.send(form(found[0], found[1] + offset))


async def mouse_caller(port: int) -> TelnetCaller:
    """An xterm caller at the main menu: the door asked its terminal for the mouse."""
    caller = await TelnetCaller.at_menu(port, term_type="xterm", charset="utf8")
    assert MOUSE_ON in caller.term.raw
    return caller


async def test_monte_carlo_by_clicks(telnet_door) -> None:
    caller = await mouse_caller(await telnet_door())
    await click_text(caller, "Monte Carlo", x10)  # the menu entry's label
    await caller.wait_for("Game number:")
    caller.send(f"{NUMBER}\r")
    await caller.wait_for(f"Monte Carlo #{NUMBER}")
    game = MonteCarlo.new(NUMBER)
    for form in (sgr, x10):
        p, q = game.pairs()[0]
        for place in (p, q):
            row, col = cell_origin(place)
            caller.send(form(row, col + 2))
        game.play(pair_name(p, q))
        await caller.wait_for(f"Score {game.score:<3}")
        for place in (p, q):
            row, col = cell_origin(place)
            assert caller.term.lines[row][col:col + 6].strip(" []") == "··"
    p = game.pairs()[0][0]
    row, col = cell_origin(p)
    caller.send(x10(row, col))
    await caller.wait_until(lambda: "»" in caller.term.lines[row][col:col + 6], "picked")
    # Picked by a click; a click off the board changes nothing.
    caller.send(sgr(22, 79))
    caller.send(b"\x1b[20~")  # F9: the board in words
    await caller.wait_for("The screen in words")
    card = game.grid[p]
    assert card is not None
    assert f"Picked: {position_name(p)}, {card_words(card)}." in caller.term.text
    caller.send(" ")
    await caller.wait_for("P hint")
    await click_text(caller, "P hint")  # the key line
    await caller.wait_for("Hint:")
    await caller.leave_game()
    caller.close()


async def test_mariant_by_clicks(telnet_door) -> None:
    caller = await mouse_caller(await telnet_door())
    await click_text(caller, "[M]")
    await caller.wait_for("Game number:")
    caller.send(f"{NUMBER}")
    await click_text(caller, "Enter: deal", x10)
    await caller.wait_for(f"Mariant #{NUMBER}")
    game = Mariant.new(NUMBER)
    rows = caller.term.screen.lines - 4 - CARDS_TOP
    move = next(m for m in game.legal_moves() if ">" in m)
    src, dst = column_key_index(move.split(">")[0][0]), column_key_index(move[-1])
    count = int(move.split(":")[1].split(">")[0]) if ":" in move else game.group_length(src)
    down, up = game.visible()[src]
    cells = fitted_column(down, len(up), rows, game.group_length(src))
    first = next(i for i, cell in enumerate(cells)
                 if cell.kind == "card" and cell.index == len(up) - count)
    caller.send(sgr(CARDS_TOP + first, column_x(src) + 3))  # the card the group goes from
    await caller.wait_for("»")
    caller.send(x10(CARDS_TOP, column_x(dst) + 3))  # its new column
    game.play(move)
    await caller.wait_for("Score 1 ")
    assert "»" not in caller.term.text
    await caller.leave_game()
    caller.close()


def column_key_index(key: str) -> int:
    return [column_key(i) for i in range(10)].index(key)


async def test_aunt_mary_by_clicks(telnet_door) -> None:
    caller = await mouse_caller(await telnet_door())
    await click_text(caller, "[A]", x10)
    await caller.wait_for("Game number:")
    caller.send("16\r")
    await caller.wait_for("Aunt Mary #16")
    game = AuntMary.new(16)
    for form in (sgr, x10):
        move = next(m for m in game.legal_moves() if m[0].isdigit() and ":" in m)
        src, rest = move.split(":")
        count, dst = (int(n) for n in rest.split(">"))
        k, d = int(src) - 1, dst - 1
        up = len(game.columns[k]) - game.face_down[k]
        caller.send(form(UP_TOP + up - count, pile_left(k) + 2))  # the run's first card
        await caller.wait_for("»")
        caller.send(form(UP_TOP, pile_left(d) + 3))  # anywhere on the column it goes to
        game.play(move)
        label, row = card_label(game.columns[d][-1]), UP_TOP + len(game.columns[d]) - 1
        row -= game.face_down[d]
        await caller.wait_until(
            lambda: label in caller.term.lines[row][pile_left(d):pile_left(d) + 6]  # noqa: B023
            and "»" not in caller.term.text, "the run moved")
    await click_text(caller, "X resign", sgr)
    await caller.wait_for("Resign?")
    await click_text(caller, "(y/N)", x10, offset=1)  # the question's Y (No is its default)
    await caller.wait_for("You resigned")
    await click_text(caller, "[M]")
    await caller.wait_for("Your choice")
    caller.close()


async def test_anciento_by_clicks(telnet_door) -> None:
    caller = await mouse_caller(await telnet_door())
    await click_text(caller, "Anciento", sgr)
    await caller.wait_for("Select a game")
    await click_text(caller, "Select a game", x10)
    await caller.wait_for("1 to 32000")
    caller.send("505\r")
    await caller.wait_for("Anciento #505")
    game = Anciento.new(505)
    for form in (sgr, x10):
        square = game.legal_squares()[0]
        row, col = square_origin(game, square)
        caller.send(form(row, col + 1))
        game.play(game.square_name(square))
        await caller.wait_for(f"Stones left {game.stones_left}")
    row, col = square_origin(game, 0)
    caller.send(x10(row, col + 1, button=2))  # the right button takes the last stone back
    await caller.wait_for("Took back")
    caller.close()


async def test_a_terminal_that_says_nothing_is_not_asked_unless_its_caller_says(
        door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await call(ports.telnet)  # term type "ansi": nothing known of a mouse
        await signup(caller, "Quiet", "quiet-pass")
        await to_menu(caller)
        caller.send("c")
        await caller.wait_for("Game number:")
        caller.send(f"{NUMBER}\r")
        await caller.wait_for(f"Monte Carlo #{NUMBER}")
        row, col = cell_origin(0)
        caller.send(sgr(row, col + 2))  # a report nobody asked for: nothing happens
        await caller.settle()
        assert "»" not in caller.term.lines[row]
        await caller.leave_game()
        assert MOUSE_ON not in caller.term.raw
        caller.send("s")  # Terminal Settings: M turns the mouse on
        await caller.wait_for("Mouse and touch: automatic: off")
        caller.send("m")
        await caller.wait_for("Mouse and touch: on")
        assert MOUSE_ON in caller.term.raw
        await click_text(caller, "Q/Esc back")
        await caller.wait_for("Your choice")
        await caller.log_off()
        assert caller.term.raw.rfind(MOUSE_OFF) > caller.term.raw.rfind(MOUSE_ON)
        caller.close()
        again = await call(ports.telnet)  # the choice was kept
        await login(again, "Quiet", "quiet-pass")
        await to_menu(again)
        assert MOUSE_ON in again.term.raw
        await click_text(again, "[Q]")
        await again.wait_for("(Y/n)")
        await click_text(again, "(Y/n)", offset=1)
        await again.wait_for("Thanks for playing")
        again.send(" ")
        await again.wait_closed()
        assert again.term.raw.rfind(MOUSE_OFF) > again.term.raw.rfind(MOUSE_ON)
