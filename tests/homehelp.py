"""Editing a test door home: sysop.ini keys set the way a sysop would set them."""

from __future__ import annotations

import re
import shutil
from datetime import datetime
from pathlib import Path

from docsnippets import ROOT
from toygame.record import INSTRUCTIONS, TOY

from door.catalog.record import GameInfo


def configure(home: Path, section: str | None = None, **keys: object) -> None:
    """Set keys in home/sysop.ini by uncommenting their line: ``configure(home, guest="on")``;
    ``section``: the first such line after ``[section]`` (a key two sections share)."""
    path = home / "sysop.ini"
    text = path.read_text(encoding="utf-8")
    start = 0 if section is None else text.index(f"\n[{section}]")
    head, text = text[:start], text[start:]
    for key, value in keys.items():
        text, n = re.subn(rf"(?m)^;?{key} =.*$", f"{key} = {value}", text, count=1)
        assert n == 1, f"no {key} in sysop.ini"
    path.write_text(head + text, encoding="utf-8")


def door_log(home: Path) -> str:
    """The door's log in ``home`` so far ("" before it writes one)."""
    path = home / "data" / "door.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def hub_home(root: Path, secret: str) -> Path:
    """A hub's door home in ``root``/hub: the repository's sysop.ini, with board XA calling
    from 127.0.0.1 with ``secret``."""
    home = root / "hub"
    (home / "data").mkdir(parents=True)
    shutil.copy(ROOT / "sysop.ini", home / "sysop.ini")
    configure(home, "boards", XA=f"{secret} | 127.0.0.1 | Xanadu BBS")
    return home


def boards(home: Path, *lines: str) -> None:
    """Put ``lines`` in sysop.ini's [boards], where its commented example is."""
    path = home / "sysop.ini"
    text = path.read_text(encoding="utf-8")
    example = next(line for line in text.splitlines() if line.startswith(";XA = "))
    path.write_text(text.replace(example, "\n".join(lines)), encoding="utf-8")


def logged_once_a_minute(log: str, reason: str) -> None:
    """The log names ``reason`` in an ERROR line, at most once a minute however many
    tries failed meanwhile, and never calls the database damaged or shows a traceback."""
    assert "damaged" not in log and "Traceback" not in log
    lines = [line for line in log.splitlines() if " ERROR " in line and reason in line]
    assert lines, log
    stamps = [datetime.strptime(line[:19], "%Y-%m-%d %H:%M:%S") for line in lines]
    minutes = (stamps[-1] - stamps[0]).total_seconds() / 60
    assert len(lines) <= 1 + int(minutes), "\n".join(lines)


def offer_game(door_home: Path, info: GameInfo) -> None:
    """Put a game the shipped sysop.ini does not list on the door home's main menu, with its
    rules page, as a sysop adding it does (docs/adding-a-game.md, step 4)."""
    ini = door_home / "sysop.ini"
    text = ini.read_text(encoding="utf-8")
    line = f"{info.name} = {info.menu_key} | {info.label} | on\n"
    if line not in text:
        ini.write_text(text.replace("quit = Q |", f"{line}quit = Q |"), encoding="utf-8")
    page = door_home / "ansi" / info.instructions_file
    if info is TOY and not page.exists():
        page.write_text(INSTRUCTIONS, encoding="cp437")
