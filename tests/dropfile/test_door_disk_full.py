"""A database that cannot be written during play, under a BBS door: the caller is told on
their status line, at once and for as long as it lasts (a move's own note does not wipe it),
sees no traceback (stderr is their screen) and plays on; a game finished meanwhile is kept
too; everything reaches the database as soon as it can, without the caller doing anything,
and the status line says so; the sysop's log has one line a minute about it, naming the
cause, never "damaged".

Two ways to make the writes fail, the same play for both:

* a real full disk: the data folder is a 4 MiB tmpfs filled to the last byte.  Mounting one
  needs root (CI runs as root); elsewhere that case says so and skips;
* the door's file size limit (RLIMIT_FSIZE, ``ulimit -f``, set on the running door with
  prlimit: any user may lower their own process's): no file of the door may grow, the
  database, its journal and the log alike, while what is already there can be rewritten
  in place: as on a full disk.  The one difference is the error: EFBIG, which SQLite calls
  a "disk I/O error" where a full disk is "database or disk is full"; the door tells the
  two apart (door/store/failures.py) and the caller reads "file size limit".  Room
  returns when the limit is raised again.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from doorproc import PtyDoor, door_command
from homehelp import configure, logged_once_a_minute
from montecarlohelp import keys_for

from door.games.montecarlo import MonteCarlo

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

NUMBER = 31


@contextlib.contextmanager
def tiny_disk(path: Path, size: str = "4m") -> Iterator[Path]:
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700",
                              "tmpfs", str(path)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip() or 'not root'}): "
                    "the file size limit case plays the same without root")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(disk: Path) -> Path:
    """Write a file until the disk is full, to the last byte; return it (delete it to make
    room)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler


def kept(data: Path) -> list[str] | None:
    with sqlite3.connect(data / "reussite.db") as conn:
        row = conn.execute("SELECT state FROM resume_slots WHERE game = 'montecarlo'"
                           ).fetchone()
    return json.loads(row[0])["actions"] if row else None


def finished(data: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(data / "reussite.db") as conn:
        return conn.execute("SELECT game, number FROM games").fetchall()


def play_through(door: PtyDoor, data: Path, full: Callable[[], object],
                 room: Callable[[], object], why: str) -> None:
    """Moves and a finished game while the writes fail, then room again."""
    door.to_menu()
    door.send(b"c")
    door.wait_for("Game number")
    door.send(f"{NUMBER}\r".encode())
    door.wait_for(f"Monte Carlo #{NUMBER}")
    door.wait_until(lambda: kept(data) == [], "the game's claim")
    game = MonteCarlo.new(NUMBER)
    full()
    alert = f"Not saved yet ({why}): your moves are kept."
    for _ in range(3):
        move = game.legal_moves()[0]
        door.send(keys_for(game, move).encode())
        game.play(move)
        door.wait_for(f"Score {game.score}")
    door.wait_for(alert)  # as soon as the keeper has tried: no key needed to see it
    move = game.legal_moves()[0]
    door.send(keys_for(game, move).encode())
    game.play(move)
    door.wait_for(f"Score {game.score}")
    assert alert in door.term.text  # the move's own note did not wipe it
    assert kept(data) == []
    door.send(b"q")
    door.wait_for("Leave this game?")
    door.send(b"y")
    door.wait_for("Your choice")
    assert alert in door.term.text  # the game is still to be written: the menu says so too
    door.send(b"n")  # an Anciento game, ended at once: finished while the writes fail
    door.wait_for("New Anciento game")
    door.send(f"s{NUMBER}\r".encode())
    door.wait_for(f"Anciento #{NUMBER}")
    door.send(b"x")
    door.wait_for("End the game now")
    door.send(b"y")
    door.wait_for(f"Not stored yet ({why}): your score is kept and stored later.")
    assert finished(data) == []
    room()  # and nothing more from the caller: the door writes it all by itself
    door.wait_until(lambda: kept(data) == game.actions, "the moves written")
    door.wait_until(lambda: finished(data) == [("anciento", NUMBER)], "the game stored")
    door.wait_for("Saved: your moves are all written now.")
    assert alert not in door.term.text
    door.send(b"m")
    door.wait_for("Your choice")
    door.send(b"q")
    door.wait_for("(Y/n)")
    door.send(b"y")
    assert door.finish() == 0
    assert "Traceback" not in door.term.text


def test_a_full_disk_loses_nothing_and_the_caller_knows(door_home: Path, door_sys: Path,
                                                         tmp_path: Path) -> None:
    with tiny_disk(tmp_path / "disk") as disk:
        configure(door_home, data_dir=str(disk))
        door = PtyDoor(door_command(door_home, door_sys), cwd=door_home)
        filler: list[Path] = []
        try:
            play_through(door, disk, lambda: filler.append(fill(disk)),
                         lambda: filler[0].unlink(), "disk full")
        finally:
            door.close()
        log = (disk / "door.log").read_text(encoding="utf-8")
        logged_once_a_minute(log, "no space left on device")



@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="prlimit is Linux's")
def test_the_file_size_limit_loses_nothing_and_the_caller_knows(door_home: Path,
                                                                 door_sys: Path) -> None:
    door = PtyDoor(door_command(door_home, door_sys), cwd=door_home)
    pid = door.proc.pid
    _, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    try:
        play_through(door, door_home / "data",
                     lambda: resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, hard)),
                     lambda: resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard)),
                     "file size limit")
    finally:
        door.close()
    log = (door_home / "data" / "door.log").read_text(encoding="utf-8")
    logged_once_a_minute(log, "file size limit")
    assert re.search(r"database .*: the door's file size limit is reached", log)
