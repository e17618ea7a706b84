"""What the benchmarks share: a terminal that counts bytes, percentiles, a plain full repaint
for screenshots, and a throwaway door home.  Imported by the bench scripts in this folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from door.net.terminal import Terminal
from door.term import Attr, Charset, Screen
from door.term.render import sgr_change

REPO = Path(__file__).resolve().parent.parent
DOOR_SYS = REPO / "tests" / "dropfile" / "samples" / "mystic_demoscene_DOOR.SYS"


def make_door_home(home: Path) -> Path:
    """A door home in ``home`` (the repository's sysop.ini, empty ansi/ and data/) with a
    Mystic DOOR.SYS beside it: returns the dropfile's path."""
    shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
    (home / "ansi").mkdir()
    (home / "data").mkdir()
    shutil.copy(DOOR_SYS, home / "DOOR.SYS")
    return home / "DOOR.SYS"


class CountingTerminal(Terminal):
    """Counts what the session writes.  Keys are handed to the screen directly; a screen that
    asks a question gets ``answer`` (None: asking is a bug in the benchmark)."""

    def __init__(self, charset: str, answer: bytes | None = None) -> None:
        super().__init__(80, 24, Charset(charset))
        self.sent = 0
        self.bells = 0
        self.answer = answer

    async def read(self) -> bytes:
        if self.answer is None:
            raise AssertionError("the benchmark hands keys to the screen directly")
        return self.answer

    def write(self, data: bytes) -> None:
        self.sent += len(data)
        self.bells += data.startswith(b"\x07")  # a bell goes out with the next frame

    async def drain(self) -> None:
        return None

    async def close(self) -> None:
        return None


def p95(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def plain_repaint(screen: Screen, charset: Charset) -> bytes:
    """Every cell, row by row, with SGR only: ansilove knows no cursor moves such as the
    renderer's backspaces, so the picture is drawn the way an .ANS file is."""
    out = bytearray(b"\x1b[0m\x1b[2J\x1b[H")
    attr = Attr(-1, -1)
    for r, line in enumerate(screen.cells):
        cells = line if r < screen.rows - 1 else line[:-1]  # never the bottom-right cell
        for cell in cells:
            if cell.attr != attr:
                out += sgr_change(attr, cell.attr)
                attr = cell.attr
            out += charset.encode_char(cell.ch)
    return bytes(out)
