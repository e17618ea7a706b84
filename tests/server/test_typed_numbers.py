"""Digits that are not ASCII digits, typed at the door's number prompts over real telnet: the
key is refused with a word, the caller stays, and nothing reaches the log as a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from serverhelp import new_member, running

SUPERSCRIPT_TWO = {"cp437": b"\xfd", "utf8": "²".encode()}


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
async def test_a_superscript_at_game_number_is_refused_and_the_caller_stays(
        door_home: Path, charset: str) -> None:
    two = SUPERSCRIPT_TWO[charset]
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Sven", "sven-pass", charset=charset)
        for key, title in (("c", "Monte Carlo"), ("a", "Aunt Mary")):
            caller.send(key)
            await caller.wait_for("Game number:")
            caller.send(two)
            await caller.wait_for("Type digits 0 to 9 only.")
            caller.send(two + b"1" + two + b"\r")  # ² 1 ² Enter: the game of number 1
            await caller.wait_for(f"{title} #1")
            await caller.leave_game()
        caller.send("h")  # Hall of Fame: 1-4 pick a game; ² is none of them
        await caller.wait_for("Hall of Fame")
        caller.send(two + b"q")
        await caller.wait_for("Your choice")
        caller.close()
    log = (door_home / "data" / "reussite.log").read_text(encoding="utf-8")
    assert "Traceback" not in log and "ValueError" not in log
    assert "ended by an error" not in log
