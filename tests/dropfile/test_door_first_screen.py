"""``reussite door``'s first screen: the title page goes out through the launch's terminal
before asyncio, the full settings (the game registry), the session and the store load, in
the caller's charset; the visit then carries on from it (only the games' names and the
welcome go out, no clear and no repaint), and a sysop.ini error found after it takes the
title away so that the one error line reads clearly.

The door runs for real on a pty, started by a few lines that note, at the launch
terminal's first write, which modules are loaded and what the frame is (bench/bench_launch.py
times the launch; no timing here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from doorproc import PtyDoor, child_env
from pyteterm import PyteTerminal

SAMPLES = Path(__file__).parent / "samples"
HEAVY = ("asyncio", "sqlalchemy", "alembic", "door.config", "door.catalog.registry",
         "door.session", "door.commands.door_visit", "door.net.stdio", "door.ui.visits.visit")
"""What loads after the caller's first screen, not before it."""

NOTING = """
import json, sys
import door.net.launch as launch
from door.cli import main
record, write = sys.argv.pop(1), launch.LaunchTerminal.write

def noted(self, data):
    if not getattr(launch, "noted", False):
        launch.noted = True
        with open(record, "w") as out:
            json.dump({"modules": sorted(sys.modules), "frame": data.decode("latin-1")}, out)
    write(self, data)

launch.LaunchTerminal.write = noted
sys.exit(main())
"""


def launch(home: Path, dropfile: Path, record: Path, charset: str = "utf8",
           **env: str) -> PtyDoor:
    args = [sys.executable, "-c", NOTING, str(record), "--home", str(home), "door",
            str(dropfile)]
    return PtyDoor(args, home, charset=charset, env=child_env(**env))


def first_frame(record: Path) -> tuple[list[str], bytes]:
    noted = json.loads(record.read_text())
    return noted["modules"], noted["frame"].encode("latin-1")


def named(home: Path, name: str) -> None:
    ini = home / "sysop.ini"
    text = ini.read_text()
    assert "\nname = Réussite\n" in text
    ini.write_text(text.replace("\nname = Réussite\n", f"\nname = {name}\n", 1))


@pytest.mark.slow
def test_the_title_goes_out_first_and_the_visit_carries_on(door_home: Path, door_sys: Path,
                                                          tmp_path: Path) -> None:
    named(door_home, "Club Nine")
    record = tmp_path / "first.json"
    door = launch(door_home, door_sys, record)
    try:
        door.wait_for("Press any key")
        modules, frame = first_frame(record)
        assert not set(HEAVY) & set(modules), "loaded before the first screen"
        first = PyteTerminal(80, 24, "utf8")
        first.feed(frame)
        assert "C  L  U  B     N  I  N  E" in first.text  # sysop.ini's [door] name
        assert "Sysop: Sysop" in first.text and "╔═" in first.text
        assert "Mariant" not in first.text  # the games' names come with the visit
        # Then only what the visit adds: no clear, the title not drawn again.
        after = bytes(door.term.raw[len(frame):])
        assert door.term.raw.startswith(frame)
        assert b"\x1b[2J" not in after and b"C  L  U  B" not in after
        assert "Welcome, dexter!" in door.term.text and "Mariant" in door.term.text
        assert "C  L  U  B     N  I  N  E" in door.term.text
        door.send(b" ")
        door.wait_for("Your choice")
    finally:
        door.close()


@pytest.mark.slow
@pytest.mark.parametrize(("term", "graphics", "charset"), [
    ("ansi-bbs", "GR", "cp437"),  # an ANSI-BBS terminal: CP437, its box glyphs
    ("xterm", "NG", "ascii"),  # the dropfile says no graphics: plain 7-bit text
])
def test_the_first_screen_is_in_the_callers_charset(door_home: Path, tmp_path: Path,
                                                     term: str, graphics: str,
                                                     charset: str) -> None:
    dropfile = tmp_path / "DOOR.SYS"
    lines = (SAMPLES / "mystic_demoscene_DOOR.SYS").read_text().splitlines()
    assert lines[19] == "GR"  # DOOR.SYS line 20: the caller's graphics
    lines[19] = graphics
    dropfile.write_text("\r\n".join(lines) + "\r\n")
    record = tmp_path / "first.json"
    door = launch(door_home, dropfile, record, charset="cp437", TERM=term)
    try:
        door.wait_for("Press any key")
        _, frame = first_frame(record)
        shown = PyteTerminal(80, 24, "cp437")
        shown.feed(frame)
        assert "R  É  U  S  S  I  T  E" in shown.text or "R  E  U  S  S  I  T  E" in shown.text
        if charset == "cp437":
            assert b"\xc9\xcd" in frame and "╔═" in shown.text  # CP437's ╔ and ═
        else:
            assert max(frame) < 0x80  # nothing a 7-bit caller cannot show
        assert "Sysop: Sysop" in door.term.text and "Welcome, dexter!" in door.term.text
    finally:
        door.close()


@pytest.mark.slow
def test_a_sysop_ini_error_after_the_title_takes_it_away(door_home: Path, door_sys: Path,
                                                         tmp_path: Path) -> None:
    """[door] reads well, so the title goes out; [server] has a bad port, found by the full
    read that follows: exit 2, the screen cleared, the one error line readable."""
    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text().replace("[server]\n", "[server]\ntelnet_port = 0\n", 1))
    record = tmp_path / "first.json"
    door = launch(door_home, door_sys, record)
    try:
        assert door.finish() == 2
        _, frame = first_frame(record)
        assert b"Sysop: Sysop" in frame  # the title went out first
        assert "Sysop" not in door.term.text  # and is gone
        assert "[server] telnet_port" in door.term.text
    finally:
        door.close()


def test_the_launch_path_imports_nothing_heavy() -> None:
    """What ``reussite door`` imports to parse its command line and send the first screen
    (a fresh interpreter, outside any timed window)."""
    code = ("import sys, door.cli, door.commands.door, door.bbs.dropfile; "
            "door.cli.build_parser(door.cli.command_named(['door', 'DOOR.SYS'])); "
            "print(' '.join(sorted(sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    assert "door.net.launch" in loaded and "door.ui.visits.title_page" in loaded
    assert not set(HEAVY) & loaded


@pytest.mark.slow
def test_a_warning_reading_sysop_ini_goes_to_the_log_not_over_the_title(
        door_home: Path, door_sys: Path, tmp_path: Path) -> None:
    """A retired key is a warning: written to data/door.log, never on the caller's screen
    (stderr, there), where it would land on the title the visit carries on from."""
    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text().replace("[auntmary]\n", "[auntmary]\npasses = 3\n", 1))
    door = launch(door_home, door_sys, tmp_path / "first.json")
    try:
        door.wait_for("Press any key")
        assert "no longer used" not in door.term.text
        assert b"no longer used" not in door.term.raw
        log = (door_home / "data" / "door.log").read_text()
        assert "[auntmary] passes is no longer used" in log
    finally:
        door.close()
