"""``reussite local``: the sysop plays on this terminal; the log goes to a file, never onto
the screen being played on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from doorproc import PtyDoor

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds


def test_local_play_keeps_the_log_off_the_screen(door_home: Path) -> None:
    door = PtyDoor([sys.executable, "-m", "door", "--home", str(door_home), "--log-level",
                    "info", "local"], door_home)
    try:
        door.wait_for("Press any key")
        door.send(b" ")
        door.wait_for("Your choice")
        door.send(b"qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        door.wait_for("Farewell, Sysop.")
        assert door.finish() == 0
        assert b"INFO" not in door.term.raw and b"door.session" not in door.term.raw
    finally:
        door.close()
    log = (door_home / "data" / "door.log").read_text(encoding="utf-8")
    assert "node 0 " in log and "Sysop left" in log
