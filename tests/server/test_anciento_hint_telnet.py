"""Anciento's hint through a real telnet door with its store: the search player's square
(worked out in the solver pool) lit and named, placed with Enter, kept with the unfinished
game, recorded when it ends and marked in the hall of fame."""

from __future__ import annotations

import re
import time
from pathlib import Path

from pyteterm import PyteCaller
from serverhelp import new_member, running
from waiting import WAIT

from door.games.anciento import Anciento
from door.ui.anciento.screen import square_origin
from door.ui.game.still_winnable import HALL_LEGEND

NUMBER = 505
HINT = re.compile(r"Hint: ([a-l]\d+)\.")


async def hinted_square(caller: PyteCaller) -> str:
    """The square named on the message line once the hint comes (the pool may be slow)."""
    deadline = time.monotonic() + WAIT
    while not (found := HINT.search(caller.term.text)):
        assert time.monotonic() < deadline, f"no hint came; screen:\n{caller.term.text}"
        assert await caller.pump(), "the door hung up"
    return found.group(1)


async def test_hint_lit_placed_kept_recorded_and_marked(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Hana", "hint-pw", charset="utf8")
        caller.send("n")
        await caller.wait_for("New Anciento game")
        caller.send(f"s{NUMBER}\r")
        await caller.wait_for(f"Anciento #{NUMBER}")
        assert "P hint" in caller.term.text                      # the key on the key line
        caller.send("p")
        name = await hinted_square(caller)
        game = Anciento.new(NUMBER)
        square = game.geo.names.index(name)
        assert square in game.legal_squares()                    # a square the stone fits
        row, col = square_origin(game, square)
        line = caller.term.lines[row]
        assert line[col - 1:col + 4] == "[<->]", line            # lit, the cursor on it
        caller.send("\r")                                        # Enter places it there
        game.play(name)
        await caller.wait_for(f"Stones left {game.stones_left}")
        assert caller.term.lines[row][col + 1:col + 3] != "->"
        await caller.leave_game()                                # kept, with the hint
        caller.send("n")
        await caller.wait_for(f"Resume your Anciento game #{NUMBER}?")
        caller.send("y")
        await caller.wait_for(f"Anciento #{NUMBER}")
        caller.send("x")
        await caller.wait_for("End the game now")
        caller.send("y")
        await caller.wait_for("1 hint used: the hall of fame marks this game.")
        caller.send("m")
        await caller.wait_for("Your choice")
        caller.send("h")
        await caller.wait_for("Hall of Fame")
        caller.send("4")
        await caller.wait_for("Anciento: Hall of Fame")
        row, _ = caller.term.find("Hana")
        assert re.search(rf"\dv #{NUMBER}", caller.term.lines[row]), caller.term.lines[row]
        assert HALL_LEGEND in caller.term.text
        caller.close()
