"""``reussite dropfile PATH``: exactly the documented JSON keys; one line and exit 2 when the
file is unusable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import WAIT

from door.bbs.dropfile import JSON_KEYS
from door.cli import main

SAMPLES = Path(__file__).parent / "samples"


def test_prints_the_caller_as_json(capsys) -> None:
    assert main(["dropfile", str(SAMPLES / "mystic_demoscene_DOOR.SYS")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == list(JSON_KEYS)
    assert data == {
        "format": "DOOR.SYS", "user_name": "Dexter Cellfish", "alias": "dexter",
        "user_id": "1", "node": 1, "security_level": 255, "location": "Hokksund",
        "time_left_s": 59940, "ansi": True, "screen_rows": 24, "comm": "serial",
        "socket_handle": None, "baud": 38400, "warnings": []}


def test_folder_and_warnings(tmp_path: Path, capsys) -> None:
    (tmp_path / "DOOR32.SYS").write_bytes((SAMPLES / "godoors_talisman_door32.sys")
                                          .read_bytes().replace(b"821", b"99999"))
    assert main(["dropfile", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "DOOR32.SYS" and data["time_left_s"] == 86400
    assert data["warnings"] == ["line 9 (time left): 5999940 s is more than a day: clamped "
                                "to 86400 s"]


@pytest.mark.slow
def test_unusable_file_one_line_exit_2() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "door", "dropfile",
         str(SAMPLES / "MALFORMED_esterian_conquest_DOOR.SYS")],
        capture_output=True, text=True, timeout=2 * WAIT)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("reussite: ")
    assert "does not follow the DOOR.SYS layout" in lines[0]


def test_missing_file_one_line_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["dropfile", str(tmp_path / "DOOR.SYS")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file or folder" in err
