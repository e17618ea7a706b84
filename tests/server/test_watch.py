"""Watching a game live through the real server: a watcher sees the player's move appear
(drawn for the watcher's own window), the player's status line counts watchers, who's
online says who watches whom, a refusing player's would-be watcher is told why."""

from __future__ import annotations

import re
import time
from pathlib import Path

from pyteterm import TelnetCaller
from serverhelp import new_member, open_game, running, signup, to_menu
from waiting import WAIT

from door.games.montecarlo import MonteCarlo


async def caller_at_menu(port: int, handle: str, cols: int = 80, rows: int = 24
                         ) -> TelnetCaller:
    caller = await TelnetCaller.connect(port, cols=cols, rows=rows)
    await caller.wait_for("Handle:")
    await signup(caller, handle, f"{handle.lower()}-pass")
    await to_menu(caller)
    return caller


def score_shown(text: str) -> int:
    found = re.search(r"Score\s+(\d+)", text)
    assert found, text
    return int(found.group(1))


async def wait_score(caller: TelnetCaller, score: int, timeout: float = WAIT) -> None:
    """Read until the watcher's status line shows ``score``."""
    deadline = time.monotonic() + timeout
    while score_shown(caller.term.text) != score:
        assert time.monotonic() < deadline, f"score {score} never shown:\n{caller.term.text}"
        assert await caller.pump(), "the connection closed"


async def test_a_watcher_sees_the_players_move_appear(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        ann = await caller_at_menu(ports.telnet, "Ann", cols=132, rows=50)
        await open_game(ann, "c", 42)
        ben = await caller_at_menu(ports.telnet, "Ben")
        ben.send("v")
        await ben.wait_for("Games being played now")
        await ben.wait_for("Ann")
        assert "Monte Carlo #42" in ben.term.text
        ben.send("1")
        await ben.wait_for("Watching Ann · Monte Carlo #42 · Score 0 · 1 watching · Q leaves")
        lines = ben.term.lines
        assert lines[0].rstrip().endswith("Monte Carlo #42")  # the whole 80×24 screen
        assert "read-only" in lines[21]
        assert "Score" in ben.term.text and "Stock" in ben.term.text
        assert score_shown(ben.term.text) == 0

        ann.send("\x1b[C")  # a cursor key: the player's frame counts the watcher
        await ann.wait_for("1 watching")
        assert "Monte Carlo #42" in ann.term.lines[0]  # the player's whole 80×50 screen
        assert "1 watching" in ann.term.lines[49] and "Ann" in ann.term.lines[49]
        assert "Watching" not in ann.term.text
        game = MonteCarlo.new(42)
        move = game.legal_moves()[0]
        game.play(move)
        ann.send(move)
        await ann.wait_for(f"Score {game.score}")
        await wait_score(ben, game.score)

        cat = await new_member(ports.telnet, "Cat", "cat-pass")
        cat.send("w")
        await cat.wait_for("Watching Ann")

        ann.send("q")
        await ann.wait_for("Leave this game?")
        ann.send("y")
        await ben.wait_for("Ann has left this game")
        ben.send(" ")
        await ben.wait_for("Nobody is playing right now")
        ben.send("\x1b")
        await ben.wait_for("Your choice")
        for caller in (ann, ben, cat):
            caller.close()


async def test_a_refusing_players_watcher_is_told_why(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        ann = await caller_at_menu(ports.telnet, "Ann")
        ann.send("s")
        await ann.wait_for("Others may watch my games: yes")
        ann.send("w")
        await ann.wait_for("Nobody may watch your games")
        assert "Others may watch my games: no" in ann.term.text
        ann.send("q")
        await ann.wait_for("Your choice")
        await open_game(ann, "c", 7)
        ben = await caller_at_menu(ports.telnet, "Ben")
        ben.send("v")
        await ben.wait_for("(not watchable)")
        ben.send("1")
        await ben.wait_for("Ann prefers not to be watched")
        assert "Watching Ann" not in ben.term.text
        ann.close()
        ben.close()


async def test_the_sysop_switches_watching_off(door_home: Path) -> None:
    from door.watching.hub import HUB

    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace(
        "watch = V | Watch a Game | on", "watch = V | Watch a Game | off"), encoding="utf-8")
    async with running(door_home, ssh=False) as ports:
        ann = await caller_at_menu(ports.telnet, "Ann")
        await open_game(ann, "c", 42)
        assert HUB.games() == []  # no game is offered at all
        ben = await caller_at_menu(ports.telnet, "Ben")
        assert "Watch a Game" not in ben.term.text
        ben.send("s")
        await ben.wait_for("Terminal Settings")
        assert "Others may watch" not in ben.term.text
        ann.close()
        ben.close()
