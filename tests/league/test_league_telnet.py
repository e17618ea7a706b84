"""What a caller sees of the league over telnet (read through pyte): on the daily board, L
shows the day's ladder across boards with their names, R replays another board's game
from the moves that travelled with its score, B shows board against board.  Without
[league] the keys are not offered."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from leaguehelp import daily_game, league_home, signed
from serverhelp import new_member, running

from door.config import load_settings
from door.league.keys import BoardKey
from door.store import Store
from door.ui.game import daily_status

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

NOON = datetime(2031, 5, 17, 12, 30, tzinfo=UTC)
DAY = NOON.date()


@pytest.fixture
def on_day(monkeypatch):
    monkeypatch.setattr(daily_status, "CLOCK", lambda: NOON)


async def other_boards_played(home: Path) -> int:
    """Two results of another board's callers on today's Monte Carlo, as received."""
    other = BoardKey.generate()
    store = Store.from_settings(load_settings(home))
    await store.start()
    try:
        await store.league.set_board("Far Away BBS", other.public, "peer")
        results = [signed(other, "Far Away BBS", handle, daily_game("montecarlo", DAY, 4 + p,
                                                                     pick=p), day=DAY)
                   for p, handle in enumerate(("Sam", "Kim"))]
        await store.league.add([(r, False) for r in results])
        return max(r.score for r in results)
    finally:
        await store.close()


async def test_the_league_ladder_on_the_daily_board(door_home: Path, on_day) -> None:
    league_home(door_home, "Home Board")
    best = await other_boards_played(door_home)
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Dora", "league-pw")
        caller.send("d")
        await caller.wait_for("L league · B boards")
        caller.send("2")
        caller.send("l")
        await caller.wait_for("League: Monte Carlo")
        row, _ = caller.term.find("Far Away BBS")
        first, second = caller.term.lines[row], caller.term.lines[row + 1]
        assert first.split()[0] == "1." and first.split()[-3] == str(best)
        assert {first.split()[1], second.split()[1]} == {"Sam", "Kim"}
        caller.send("r")
        await caller.wait_for("@Far Away BBS")
        caller.send("\x1b")
        await caller.wait_for("League: Monte Carlo")
        caller.send("b")
        await caller.wait_for("board against board")
        row, _ = caller.term.find("Far Away BBS")
        assert caller.term.lines[row].split()[-4:] == ["19", "0", "2", "2"]  # 10 + 9 points


async def test_without_the_league_the_keys_are_not_offered(door_home: Path, on_day) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Dora", "league-pw")
        caller.send("d")
        await caller.wait_for("T today's board")
        assert "L league" not in caller.term.text
        caller.send("l")
        await caller.settle()
        assert "League:" not in caller.term.text
