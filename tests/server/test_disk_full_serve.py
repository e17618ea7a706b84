"""``reussite serve`` when its database cannot take writes during play: a telnet caller in a
game is told on their status line, at once and until it is over (before, a one-off note
that the next move's own note replaced at once, so nobody saw it), plays on, and their moves
reach the database as soon as there is room, with no key from them; the log has one line a
minute about it.

The server runs in its own process, under a file size limit set with prlimit (no file of the
server may grow, as on a full disk: tests/dropfile/test_door_disk_full.py says how faithful
that is, and plays the same on a real full tmpfs when run as root)."""

from __future__ import annotations

import json
import resource
import sqlite3
from pathlib import Path

import pytest
from homehelp import logged_once_a_minute
from montecarlohelp import keys_for
from serverhelp import new_member, open_game
from waiting import until
from workerhelp import log_text, serving

from door.games.montecarlo import MonteCarlo

NUMBER = 31
pytestmark = pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="prlimit is Linux's")


def kept(home: Path) -> list[str] | None:
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        row = conn.execute("SELECT state FROM resume_slots WHERE game = 'montecarlo'"
                           ).fetchone()
    return json.loads(row[0])["actions"] if row else None


async def test_a_caller_knows_their_moves_wait_and_they_are_written_when_room_returns(
        door_home: Path) -> None:
    command = ("-m", "door", "--home", str(door_home), "--log-level", "info", "serve",
               "--telnet-port", "0", "--ssh-port", "-1", "--workers", "1")
    async with serving(door_home, *command) as (server, port):
        caller = await new_member(port, "Fuller", "fu11-pw")
        await open_game(caller, "c", NUMBER)
        await until(lambda: kept(door_home) == [], "the game's claim")
        _, hard = resource.prlimit(server.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (0, hard))
        game = MonteCarlo.new(NUMBER)
        alert = "Not saved yet (file size limit): your moves are kept."
        for _ in range(4):
            move = game.legal_moves()[0]
            caller.send(keys_for(game, move))
            game.play(move)
            await caller.wait_for(f"Score {game.score}")
        await caller.wait_for(alert)  # no key needed: it comes as the keeper fails
        move = game.legal_moves()[0]
        caller.send(keys_for(game, move))
        game.play(move)
        await caller.wait_for(f"Score {game.score}")
        await caller.settle()
        assert alert in caller.term.text  # the move's own note did not wipe it
        assert kept(door_home) == []
        resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (hard, hard))  # room again
        await until(lambda: kept(door_home) == game.actions, "the moves written")
        await caller.wait_for("Saved: your moves are all written now.")
        assert alert not in caller.term.text
        caller.close()
    logged_once_a_minute(log_text(door_home), "file size limit")
