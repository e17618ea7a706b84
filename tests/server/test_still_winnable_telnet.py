""""Still winnable?" through a real telnet door with its store: asked, kept with the
unfinished game, recorded when it ends, marked in the hall of fame."""

from __future__ import annotations

from pathlib import Path

from serverhelp import call, open_game, running, signup, to_menu

from door.ui.still_winnable import CAN, CANNOT, HALL_LEGEND


async def test_asked_kept_recorded_and_marked(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await call(ports.telnet)
        await signup(caller, "Vera", "still-pw")
        await to_menu(caller)
        await open_game(caller, "a", 2, "Aunt Mary")        # a deal nobody can win
        caller.send("v")
        await caller.wait_for(CANNOT, 60)
        await caller.leave_game()                            # kept, with the question
        caller.send("a")
        await caller.wait_for("Resume your Aunt Mary game #2?")
        caller.send("y")
        await caller.wait_for("Aunt Mary #2")
        caller.send("x")
        await caller.wait_for("Resign?")
        caller.send("y")
        await caller.wait_for('"Still winnable?" asked 1 time: the hall of fame marks this')
        caller.send("m")
        await caller.wait_for("Your choice")
        caller.send("h")
        await caller.wait_for("Hall of Fame")
        caller.send("3")
        await caller.wait_for("Aunt Mary: Hall of Fame")
        row, _ = caller.term.find("Vera")
        assert "0v #2" in caller.term.lines[row]
        assert HALL_LEGEND in caller.term.text
        caller.send("\x1b")
        await caller.wait_for("Your choice")
        await open_game(caller, "c", 2)                     # Monte Carlo #2 can be won
        caller.send("v")
        await caller.wait_for(CAN, 60)
        caller.close()
