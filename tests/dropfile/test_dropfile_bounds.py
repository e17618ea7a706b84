"""Numbers, names and file names a dropfile writer (or whoever can write into the BBS's
drop folder) gets wrong on purpose: every number is read by one bounded reader (a
5,000-digit number is one clear line naming the file and line, exit 2, never a
traceback), names are cut, and escape bytes never reach the sysop's terminal or log raw."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from doorproc import WAIT, child_env, door_command
from test_dropfile_writers import door_sys

from door.bbs.dropfile import (
    MAX_DIGITS,
    MAX_NAME,
    DropfileError,
    parse_dropfile,
    read_dropfile,
)
from door.cli import main

SAMPLES = Path(__file__).parent / "samples"
HUGE = "9" * 5000
DOOR32 = (SAMPLES / "godoors_talisman_door32.sys").read_bytes().decode("cp437").splitlines()
DORINFO = (SAMPLES / "jezebel_DORINFO1.DEF").read_bytes().decode("cp437").splitlines()


def door32(changes: dict[int, str]) -> bytes:
    lines = list(DOOR32)
    for number, value in changes.items():
        lines[number - 1] = value
    return "\r\n".join(lines).encode("cp437")


def dorinfo(changes: dict[int, str]) -> bytes:
    lines = list(DORINFO)
    for number, value in changes.items():
        lines[number - 1] = value
    return "\r\n".join(lines).encode("cp437")


CASES = ([("DOOR.SYS", n, door_sys({n: HUGE})) for n in (2, 4, 15, 18, 19, 21)]
         + [("DOOR.SYS", 5, door_sys({2: "0", 5: HUGE})),  # read when line 2 says nothing
            ("DOOR.SYS", 1, door_sys({1: f"COM0:SOCKET{HUGE}"})),
            ("DOOR.SYS", 1, door_sys({1: f"COM{HUGE}"}))]
         + [("DOOR32.SYS", n, door32({n: HUGE})) for n in (1, 2, 3, 8, 9, 10, 11)]
         + [("DORINFO1.DEF", n, dorinfo({n: HUGE})) for n in (5, 10, 11, 12)]
         + [("DORINFO1.DEF", 5, dorinfo({5: f"{HUGE} BAUD,N,8,1"})),
            ("DORINFO1.DEF", 4, dorinfo({4: f"COM{HUGE}"}))])


@pytest.mark.parametrize(("name", "line", "data"), CASES,
                         ids=[f"{name}-line{line}" for name, line, _ in CASES])
def test_a_5000_digit_number_is_one_line_naming_the_line(name: str, line: int,
                                                         data: bytes) -> None:
    with pytest.raises(DropfileError) as caught:
        parse_dropfile(data, name)
    text = str(caught.value)
    assert text.startswith(f"line {line} (") and "5000 digits long" in text, text
    assert "\n" not in text and len(text) < 120


def test_long_numbers_within_bounds_are_clamped_not_refused() -> None:
    """Up to MAX_DIGITS digits (leading zeros aside) is a number, read and clamped as before:
    writers do put 2147483647 or a 64-bit figure where they mean "a lot"."""
    caller = parse_dropfile(door_sys({15: "9" * MAX_DIGITS, 2: "0" * 100 + "2400",
                                      19: "18446744073709551615"}), "DOOR.SYS")
    assert (caller.security_level, caller.baud, caller.time_left_s) == (65535, 2400, 7560)
    assert "line 15 (security level): " + "9" * MAX_DIGITS + " is out of range: 65535 used" \
        in caller.warnings
    absurd = parse_dropfile(door32({2: str(2**40), 3: str(10**15)}), "DOOR32.SYS")
    assert absurd.socket_handle is None and absurd.baud is None
    assert {"line 2 (handle): 1099511627776 is no descriptor number: ignored",
            "line 3 (baud): 1000000000000000 is no line speed: ignored"} <= set(
                absurd.warnings)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["dropfile", "door"])
def test_the_commands_say_file_and_line_and_exit_2(door_home: Path, tmp_path: Path,
                                                   command: str) -> None:
    """`reussite dropfile` and `reussite door`, for real: exit 2, one line, no traceback."""
    path = tmp_path / "node1" / "DOOR.SYS"
    path.parent.mkdir()
    path.write_bytes(door_sys({19: HUGE}))
    args = door_command(door_home, path)
    if command == "dropfile":
        args = [*args[:args.index("door", 4)], "dropfile", str(path)]
    result = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            cwd=door_home, env=child_env(), timeout=WAIT)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines() == [
        f"reussite: {path}: line 19 (minutes left): a number 5000 digits long: no dropfile "
        "value is"]
    assert result.stdout == ""


def test_a_long_name_is_cut_and_its_warning_quotes_little(capsys, tmp_path: Path) -> None:
    """Names (or any line) of 30,000 characters, as much as a dropfile may hold: cut to
    MAX_NAME, and the warnings and JSON quote at most a short piece of them."""
    path = tmp_path / "DOOR.SYS"
    path.write_bytes(door_sys({1: "COM1" + "X" * 3000, 10: "A" * 30_000, 36: "B" * 30_000}))
    caller = read_dropfile(path)
    assert caller.user_name == "A" * MAX_NAME and caller.alias == "B" * MAX_NAME
    assert all(len(warning) < 200 for warning in caller.warnings), caller.warnings
    assert main(["dropfile", str(path)]) == 0
    assert len(capsys.readouterr().out) < 2000


def test_escape_bytes_in_a_dropfile_name_reach_no_terminal(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "node\x1b]0;owned\x07\x1b[2J"
    folder.mkdir()
    (folder / "DOOR.SYS").write_bytes(b"")
    assert main(["dropfile", str(folder / "door.sys")]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "node\\x1b]0;owned\\x07\\x1b[2J" in err and "the file is empty" in err


@pytest.mark.slow
def test_escape_bytes_in_names_are_escaped_in_the_door_log(door_home: Path,
                                                           tmp_path: Path) -> None:
    """The folder a BBS drops the file in (from a node or user name) and the handle in the
    file: door.log shows the bytes, escaped; the file itself never holds them raw."""
    folder = tmp_path / "node\x1b[31m1\u202e"
    folder.mkdir()
    path = folder / "DOOR.SYS"
    path.write_bytes(door_sys({36: "Eve\x1b[5m"}))
    piped = subprocess.run(door_command(door_home, path), input=b"", capture_output=True,
                           cwd=door_home, env=child_env(), timeout=WAIT)
    assert piped.returncode == 3  # the caller was gone at once: carrier lost
    log = (door_home / "data" / "door.log").read_text(encoding="utf-8")
    assert "\x1b" not in log and "\u202e" not in log
    assert "node\\x1b[31m1\\u202e" in log, log
    assert "line 36 (alias): control characters removed" in log


def test_dropfile_json_has_no_control_characters(capsys, tmp_path: Path) -> None:
    path = tmp_path / "DOOR32.SYS"
    path.write_bytes(door32({4: "BBS\x1b[31m", 6: "Real\x07", 7: "Al\x1bias"}))
    assert main(["dropfile", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["alias"] == "Alias" and data["user_name"] == "Real"
