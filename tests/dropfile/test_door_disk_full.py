"""A full disk under a BBS door: the caller is told once that moves cannot be saved right now,
sees no traceback (stderr is their screen), plays on, and every move reaches the database
when space returns; the log names the cause (no space left on device), never "damaged".

The data folder is a real 4 MiB tmpfs filled to the last byte.  Mounting needs root (CI runs
as root); elsewhere the test says so and the keeper's own full-disk test
(tests/store/test_keeper.py, SQLite's disk-full error raised at the driver) still runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from doorproc import PtyDoor, door_command
from homehelp import configure

from door.games.montecarlo import MonteCarlo

SAMPLES = Path(__file__).parent / "samples"
NUMBER = 31


@contextlib.contextmanager
def tiny_disk(path: Path, size: str = "4m") -> Iterator[Path]:
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700",
                              "tmpfs", str(path)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip() or 'not root'}): "
                    "the full-disk path is covered by tests/store/test_keeper.py")
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


def _poke(door: PtyDoor) -> bool:
    """A cursor key: the notice shows with the next frame."""
    door.send(b"\x1b[C")
    door.pump(0.5)
    return "no space left on device" in door.term.text


def kept(disk: Path) -> list[str] | None:
    with sqlite3.connect(disk / "reussite.db") as conn:
        row = conn.execute("SELECT state FROM resume_slots WHERE game = 'montecarlo'"
                           ).fetchone()
    return json.loads(row[0])["actions"] if row else None


def test_a_full_disk_loses_no_move_and_shows_no_traceback(door_home: Path,
                                                           tmp_path: Path) -> None:
    dropfile = tmp_path / "DOOR.SYS"
    dropfile.write_bytes((SAMPLES / "mystic_demoscene_DOOR.SYS").read_bytes())
    with tiny_disk(tmp_path / "disk") as disk:
        configure(door_home, data_dir=str(disk))
        door = PtyDoor(door_command(door_home, dropfile), cwd=door_home)
        try:
            door.to_menu()
            door.send(b"c")
            door.wait_for("Game number")
            door.send(f"{NUMBER}\r".encode())
            door.wait_for(f"Monte Carlo #{NUMBER}")
            door.wait_until(lambda: kept(disk) == [], "the game's claim")
            game = MonteCarlo.new(NUMBER)
            filler = fill(disk)
            for _ in range(3):
                move = game.legal_moves()[0]
                door.send(move.encode())
                game.play(move)
                door.wait_for(f"Score {game.score}")
            door.wait_until(lambda: _poke(door), "the notice")  # the keeper tried, then told
            assert "Your moves are kept for now, not saved yet" in door.term.text
            assert kept(disk) == []
            filler.unlink()  # space is back
            door.send(b"q")
            door.wait_for("Leave this game?")
            door.send(b"y")
            door.wait_for("Your choice")
            door.wait_until(lambda: kept(disk) == game.actions, "the moves written")
            door.send(b"q")
            door.wait_for("(Y/n)")
            door.send(b"y")
            assert door.finish() == 0
            assert "Traceback" not in door.term.text
        finally:
            door.close()
        log = (disk / "door.log").read_text(encoding="utf-8")
        assert "no space left on device" in log
        assert "damaged" not in log and "Traceback" not in log
