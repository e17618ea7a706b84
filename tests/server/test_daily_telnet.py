"""The daily challenge through real telnet doors with their stores: the board, a counted
first attempt and a second one that is not, the boards of the day and the month, streaks,
a replay from the board -- and two door servers (two sysop.ini, two databases) that deal
the same challenges on the same date.  The date is injected
(``door.ui.game.daily_status.CLOCK``)."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from serverhelp import new_member, open_game, running

from door.catalog.registry import daily_deal, daily_games
from door.ui.game import daily_status

NOON = datetime(2031, 5, 17, 12, 30, tzinfo=UTC)
DAY = NOON.date()


@pytest.fixture
def on_day(monkeypatch):
    def at(moment: datetime) -> None:
        monkeypatch.setattr(daily_status, "CLOCK", lambda: moment)
    at(NOON)
    return at


def deal_numbers(text: str) -> dict[str, int]:
    """The board's deal column, by game."""
    import re

    titles = {"Mariant": "mariant", "Monte Carlo": "montecarlo", "Aunt Mary": "auntmary",
              "Anciento": "anciento"}
    found = {}
    for line in text.splitlines():
        match = re.search(r"\d\. (Mariant|Monte Carlo|Aunt Mary|Anciento)\s+#(\d+)", line)
        if match:
            found[titles[match.group(1)]] = int(match.group(2))
    return found


async def resign_aunt_mary(caller) -> None:
    caller.send("x")
    await caller.wait_for("Resign?")
    caller.send("y")
    await caller.wait_for("Final score: 0")


async def test_the_board_counts_the_first_attempt_only(door_home: Path, on_day) -> None:
    aunt = daily_deal(DAY, "auntmary").number
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Dora", "daily-pw")
        assert "Today's challenges (D): 0 attempts so far · resets at 00:00 UTC" in \
            caller.term.text
        caller.send("d")
        await caller.wait_for("resets at 00:00 UTC, in 11 h 30 min")
        assert "Saturday 17 May 2031" in caller.term.text
        assert deal_numbers(caller.term.text) == {g: daily_deal(DAY, g).number
                                                  for g in daily_games()}
        caller.send("3")
        await caller.wait_for(f"Today: Aunt Mary #{aunt}")
        caller.send("p")
        await caller.wait_for(f"Aunt Mary #{aunt}")
        await caller.wait_for("Daily challenge of 2031-05-17: your first finished attempt "
                              "counts.")
        caller.send("s")                                   # one move, then resign
        await caller.settle()
        await resign_aunt_mary(caller)
        assert "Daily challenge of 2031-05-17: this attempt counts." in caller.term.text
        assert "[M] the daily board" in caller.term.text
        caller.send("m")
        await caller.wait_for("Today: Aunt Mary")
        row, _ = caller.term.find("3. Aunt Mary")
        assert caller.term.lines[row].split()[-3:] == ["Dora", "0", "(1st)"]
        assert "1.  Dora" in caller.term.text.replace(". Dora", ".  Dora")
        caller.send("p")                                    # again: allowed, not counted
        await caller.wait_for("Your first attempt today counted (0). Play again, not counted?")
        caller.send("y")
        await caller.wait_for("Not counted: your first attempt at this challenge scored 0.")
        await resign_aunt_mary(caller)
        assert "Not counted" in caller.term.text
        caller.send("m")
        await caller.wait_for("Today: Aunt Mary")
        caller.send("r")                                    # replay the counted attempt
        await caller.wait_for("Replay: Dora's Aunt Mary")
        await caller.wait_for("The deal, before move 1 of 2. Score 0.")   # s, then resign
        caller.send("\x1b")
        await caller.wait_for("Today: Aunt Mary")
        caller.send("m")
        await caller.wait_for("May 2031: Aunt Mary challenges, most won first")
        row, _ = caller.term.find("1. Dora")
        assert caller.term.lines[row].split()[-3:] == ["0", "1", "0"]   # won, played, best
        caller.send("s")
        await caller.wait_for("Streaks: days in a row")
        row, _ = caller.term.find("1. Dora")
        assert caller.term.lines[row].split()[-4:] == ["1", "(1)", "0", "(0)"]
        caller.send("\x1b")
        await caller.wait_for("Today's challenges (D): 1 attempt so far")
        caller.close()


async def test_two_servers_deal_the_same_challenges_on_the_same_date(
        door_home: Path, tmp_path: Path, on_day) -> None:
    other = tmp_path / "other-door"
    other.mkdir()
    shutil.copy(door_home / "sysop.ini", other / "sysop.ini")
    (other / "ansi").mkdir()
    (other / "data").mkdir()
    boards = []
    for home in (door_home, other):
        async with running(home, ssh=False) as ports:
            caller = await new_member(ports.telnet, "Dora", "daily-pw")
            caller.send("d")
            await caller.wait_for("4. Anciento")
            boards.append(deal_numbers(caller.term.text))
            caller.close()
    assert (door_home / "data" / "reussite.db").is_file()
    assert (other / "data" / "reussite.db").is_file()
    assert boards[0] == boards[1] == {g: daily_deal(DAY, g).number for g in daily_games()}
    assert len(boards[0]) == 4
    tomorrow = {g: daily_deal(date(2031, 5, 18), g).number for g in daily_games()}
    assert tomorrow != boards[0]


async def test_every_challenge_opens_and_one_left_unfinished_goes_on(door_home: Path,
                                                                      on_day) -> None:
    titles = {"mariant": "Mariant", "montecarlo": "Monte Carlo", "auntmary": "Aunt Mary",
              "anciento": "Anciento"}
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Ivo", "daily-pw")
        caller.send("d")
        await caller.wait_for("4. Anciento")
        for key, game in enumerate(daily_games(), 1):
            title = f"{titles[game]} #{daily_deal(DAY, game).number}"
            caller.send(str(key))
            await caller.wait_for(f"Today: {title}")
            caller.send("p")
            await caller.wait_for("your first finished attempt counts.")
            assert title in caller.term.lines[0]
            caller.send("q")
            await caller.wait_for("Leave this game?")
            caller.send("y")
            await caller.wait_for(f"Today: {title}")
        caller.send("2")                      # Monte Carlo's challenge, left unfinished
        await caller.wait_for("Today: Monte Carlo")
        caller.send("p")                      # goes on with it: no "replaced?" question
        await caller.wait_for("your first finished attempt counts.")
        assert "replaced" not in caller.term.text
        caller.close()


async def test_a_challenge_asks_before_it_replaces_another_unfinished_game(
        door_home: Path, on_day) -> None:
    aunt = daily_deal(DAY, "auntmary").number
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Una", "daily-pw")
        await open_game(caller, "a", 7, "Aunt Mary")   # an ordinary deal, left unfinished
        await caller.leave_game()

        async def play_the_challenge(answer: str) -> None:
            caller.send("d")
            await caller.wait_for("4. Anciento")
            caller.send("3")
            await caller.wait_for(f"Today: Aunt Mary #{aunt}")
            caller.send("p")
            await caller.wait_for("Your unfinished Aunt Mary game #7 will be replaced. Go on?")
            caller.send(answer)

        await play_the_challenge("n")         # kept: the board again, then the old game back
        await caller.wait_for("T today's board")
        caller.send("\x1b")
        await caller.wait_for("Your choice")
        caller.send("a")
        await caller.wait_for("Resume your Aunt Mary")
        caller.send("n")
        await caller.wait_for("Game number:")
        caller.send("\x1b")                  # back to the menu, the game #7 still kept
        await play_the_challenge("y")
        await caller.wait_for("your first finished attempt counts.")
        assert f"Aunt Mary #{aunt}" in caller.term.lines[0]
        caller.close()
