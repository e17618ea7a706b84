"""A BBS's caller gets their terminal back as it was: a door launched on a pty whose TERM
reports the mouse asks for it, plays a click, and takes the request back before it exits;
with TERM=ansi it never asks."""

from __future__ import annotations

from pathlib import Path

import pytest
from doorproc import PtyDoor, child_env, door_command

from door.term.mouse import MOUSE_OFF, MOUSE_ON

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

SAMPLES = Path(__file__).resolve().parent / "samples"


def launch(door_home: Path, tmp_path: Path, term: str) -> PtyDoor:
    (tmp_path / "DOOR.SYS").write_bytes((SAMPLES / "mystic_demoscene_DOOR.SYS").read_bytes())
    return PtyDoor(door_command(door_home, tmp_path / "DOOR.SYS"), door_home,
                   env=child_env(TERM=term))


def test_xterm_is_asked_for_the_mouse_and_left_without_it(door_home: Path,
                                                         tmp_path: Path) -> None:
    door = launch(door_home, tmp_path, "xterm-256color")
    try:
        door.to_menu()
        assert MOUSE_ON in door.term.raw
        row, col = door.term.find("[Q]") or (0, 0)
        door.send(f"\x1b[<0;{col + 2};{row + 1}M".encode())  # a click on the Quit entry
        door.wait_for("(Y/n)")
        door.send(b"y")
        door.wait_for("Farewell, dexter.")
        assert door.finish() == 0
        assert door.term.raw.rfind(MOUSE_OFF) > door.term.raw.rfind(MOUSE_ON)
    finally:
        door.close()


def test_ansi_is_never_asked(door_home: Path, tmp_path: Path) -> None:
    door = launch(door_home, tmp_path, "ansi")
    try:
        door.to_menu()
        door.send(b"qy")
        door.wait_for("Farewell, dexter.")
        assert door.finish() == 0
        assert MOUSE_ON not in door.term.raw and MOUSE_OFF not in door.term.raw
    finally:
        door.close()
