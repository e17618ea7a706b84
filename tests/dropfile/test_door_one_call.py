"""One BBS user on two nodes: the second launch offers to take over, the first saves and
hangs up; a first process that cannot answer (its hang-up unnoticed by the BBS, here
stopped with SIGSTOP) can never overwrite the newer game when it wakes up.  Real door
processes on ptys, one real SQLite file."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from doorproc import WAIT, PtyDoor, door_command
from homehelp import configure

from door.games.montecarlo import MonteCarlo

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

def slot(home: Path, game: str = "montecarlo") -> dict | None:
    """The BBS user's resume slot for ``game``, read from the door's SQLite file."""
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        try:
            row = conn.execute("SELECT state FROM resume_slots WHERE game = ?",
                               (game,)).fetchone()
        except sqlite3.OperationalError:
            return None
    return json.loads(row[0]) if row else None


def owner(home: Path, game: str = "montecarlo") -> int | None:
    """The claim holding the resume slot (a new one at each game opened or resumed)."""
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        row = conn.execute("SELECT owner FROM resume_slots WHERE game = ?", (game,)).fetchone()
    return row[0] if row else None


def nodes(home: Path) -> list[int]:
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        return [r[0] for r in conn.execute("SELECT node FROM nodes ORDER BY node")]


def wait_until(check, what: str, timeout: float = WAIT) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"{what} never happened")
        time.sleep(0.1)


def launch(home: Path, dropfile: Path, node: int) -> PtyDoor:
    return PtyDoor(door_command(home, dropfile, "--node", str(node)), cwd=home)


def start_game(door: PtyDoor, number: int) -> MonteCarlo:
    door.send(b"c")
    door.wait_for("Game number")
    door.send(f"{number}\r".encode())
    door.wait_for(f"Monte Carlo #{number}")
    return MonteCarlo.new(number)


def play_one(door: PtyDoor, home: Path, game: MonteCarlo) -> None:
    """Type the first legal pair; wait until it is in the slot (the game's claim, or the
    keeper's write: no exit path)."""
    move = game.legal_moves()[0]
    door.send(move.encode())
    game.play(move)
    door.wait_for(f"Score {game.score}")
    wait_until(lambda: (slot(home) or {}).get("number") == game.number, "the game's claim")
    if (slot(home) or {}).get("actions") != game.actions:
        door.send(b"q")  # save_every is long here: leaving writes at once
        door.wait_for("Leave this game?")
        door.send(b"y")
        door.wait_for("Your choice")
        left = owner(home)
        door.send(b"c")
        door.wait_for(f"Resume your Monte Carlo game #{game.number}?")
        door.send(b"y")
        door.wait_for(f"Monte Carlo #{game.number}")
        # The claim is written in the background, the board drawn without waiting for it.
        wait_until(lambda: owner(home) != left, "the resumed game's claim")
    wait_until(lambda: (slot(home) or {}).get("actions") == game.actions, f"{move} kept")


def test_a_second_node_takes_over_and_resumes_the_first_nodes_game(door_home: Path,
                                                                    door_sys: Path) -> None:
    first = launch(door_home, door_sys, 1)
    second = None
    try:
        first.to_menu()
        game = start_game(first, 42)
        play_one(first, door_home, game)
        second = launch(door_home, door_sys, 2)
        second.wait_for("Press any key")
        second.send(b" ")
        second.wait_for("already in the door on node 1")
        second.send(b"y")
        second.wait_for("Your choice")
        assert first.finish() == 3  # saved and gone, as on a dropped line
        assert nodes(door_home) == [2]
        second.send(b"c")
        second.wait_for("Resume your Monte Carlo game #42?")
        second.send(b"y")
        second.wait_for("Monte Carlo #42")
        move = game.legal_moves()[0]
        second.send(move.encode())
        game.play(move)
        wait_until(lambda: (slot(door_home) or {}).get("actions") == game.actions,
                   "the second node's move in the slot")
    finally:
        first.close()
        if second is not None:
            second.close()


def test_a_stale_process_never_overwrites_the_newer_game(door_home: Path,
                                                         door_sys: Path) -> None:
    configure(door_home, save_every=60)  # the first process's last move waits for its exit
    first = launch(door_home, door_sys, 1)
    second = None
    try:
        first.to_menu()
        old = start_game(first, 42)
        play_one(first, door_home, old)
        move = old.legal_moves()[0]  # one more move, not written yet (save_every = 60)
        first.send(move.encode())
        old.play(move)
        first.wait_for(f"Score {old.score}")
        first.proc.send_signal(signal.SIGSTOP)  # hung: it cannot hear the takeover
        second = launch(door_home, door_sys, 2)
        second.wait_for("Press any key")
        second.send(b" ")
        second.wait_for("already in the door on node 1")
        second.send(b"y")
        second.wait_for("Your choice", timeout=WAIT + 10)  # waits out the silent node
        assert nodes(door_home) == [2]
        second.send(b"c")
        second.wait_for("Resume your Monte Carlo game #42?")
        second.send(b"n")
        new = start_game(second, 4242)
        play_one(second, door_home, new)
        first.proc.send_signal(signal.SIGCONT)
        first.proc.send_signal(signal.SIGHUP)  # the BBS finally notices
        assert first.finish() == 3
        assert slot(door_home)["number"] == 4242
        assert slot(door_home)["actions"] == new.actions
        log = (door_home / "data" / "door.log").read_text(encoding="utf-8")
        assert "slot belongs to a newer visit now" in log
    finally:
        for door in (first, second):
            if door is not None:
                if door.proc.poll() is None:
                    door.proc.send_signal(signal.SIGCONT)
                door.close()
