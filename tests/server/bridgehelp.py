"""A calling board's door home for the ``reussite bridge`` tests, and its command line."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from homehelp import configure

REPO = Path(__file__).resolve().parent.parent.parent
SAMPLES = REPO / "tests" / "dropfile" / "samples"
XA = "s3cret-for-xa"
HANDLE = "dexter"  # the alias in mystic_demoscene_DOOR.SYS


def make_board(tmp_path: Path, secret: str | None = XA) -> Path:
    """The board's own door home (not the hub's): [bridge] board XA and its secret, and
    the DOOR.SYS its BBS wrote."""
    home = tmp_path / "board"
    home.mkdir()
    shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
    configure(home, "bridge", board="XA")
    if secret is not None:
        configure(home, "bridge", secret=secret)
    (home / "DOOR.SYS").write_bytes((SAMPLES / "mystic_demoscene_DOOR.SYS").read_bytes())
    return home


def bridge_command(board: Path, port: int, *options: str) -> list[str]:
    """``reussite bridge`` as the BBS starts it, calling the hub on 127.0.0.1:``port``."""
    return [sys.executable, "-m", "door", "--home", str(board), "bridge",
            str(board / "DOOR.SYS"), "--hub", f"127.0.0.1:{port}", *options]
