"""A launch that names a command loads that command's module alone: ``reussite door`` (a BBS
caller waiting for the title) does not pay for the sysop's, the league's or the solver's
command lines; the help still lists every command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from door.cli import COMMANDS, build_parser, command_named

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("argv", "named"), [
    (["door", "DOOR.SYS"], "door"), (["--home", "h", "door"], "door"),
    (["--home=h", "--log-level", "debug", "sysop", "players"], "sysop"),
    (["door", "--help"], "door"), (["--help"], None), (["-h", "door"], None),
    (["serve"], None), ([], None), (["--bogus", "door"], None), (["dor"], None)])
def test_the_command_a_launch_names(argv: list[str], named: str | None) -> None:
    assert command_named(argv) == named


def test_a_launch_naming_door_loads_no_other_command() -> None:
    code = ("import sys, door.cli; door.cli.build_parser(door.cli.command_named(['door', 'x']));"
            "print(' '.join(m for m in sys.modules if m.startswith('door.commands.')))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True, cwd=ROOT).stdout.split())
    assert "door.commands.door" in loaded
    assert not loaded & {f"door.commands.{name}" for name in COMMANDS if name != "door"}


def test_the_help_lists_every_command() -> None:
    listed = {line.split()[0] for line in build_parser().format_help().splitlines()
              if line.startswith("    ") and not line.startswith("     ")}
    assert listed == {*COMMANDS, "serve", "local", "init"}
