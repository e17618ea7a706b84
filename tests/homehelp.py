"""Editing a test door home: sysop.ini keys set the way a sysop would set them."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path


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
