"""Editing a test door home: sysop.ini keys set the way a sysop would set them."""

from __future__ import annotations

import re
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
