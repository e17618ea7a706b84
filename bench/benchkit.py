"""What the benchmarks share: a terminal that counts bytes, percentiles, a plain full repaint
for screenshots, and a throwaway door home.  Imported by the bench scripts in this folder.

``BENCH_WINDOW=132x50`` (environment) gives the counting terminal a window of that size
instead of 80x24: the bytes of a larger caller's frames (centred in the window).
"""

from __future__ import annotations

import os
import shutil
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from door.net.terminal import Terminal
from door.term import Attr, Charset, Key, Screen
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


def window() -> tuple[int, int]:
    """The counting terminal's window: ``$BENCH_WINDOW`` (``COLSxROWS``), else 80x24."""
    cols, _, rows = os.environ.get("BENCH_WINDOW", "80x24").partition("x")
    return int(cols), int(rows)


class CountingTerminal(Terminal):
    """Counts what the session writes.  Keys are handed to the screen directly; a screen that
    asks a question gets ``answer`` (None: asking is a bug in the benchmark)."""

    def __init__(self, charset: str, answer: bytes | None = None) -> None:
        cols, rows = window()
        super().__init__(cols, rows, Charset(charset))
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

    def unsent(self) -> int:
        """Nothing waits: as a socket with room, so the session skips the drain (and its
        time-out), as it does for a telnet caller who reads."""
        return 0

    async def drain(self) -> None:
        return None

    async def close(self) -> None:
        return None


def p95(values: list[Any]) -> Any:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


KEY_KINDS = ("cursor", "pick", "move", "undo", "hint")
"""The kinds of key issue #20 sets targets for, in every game."""
KEY_MEDIAN_B, KEY_P95_B, KEY_MEDIAN_MS = 100, 300, 0.10


class KeyStats:
    """Bytes sent and CPU used for each key, by kind of key (``cursor``, ``pick`` …).

    :meth:`press` does what ``GameScreen.run`` does with a key (act on it, draw, show) and
    counts the frame's bytes and the CPU time of the three (``time.thread_time``: the
    time this thread ran, so a busy machine slows the benchmark but not the figure)."""

    def __init__(self) -> None:
        self.bytes: dict[str, list[int]] = defaultdict(list)
        self.cpu: dict[str, list[float]] = defaultdict(list)

    async def press(self, screen: Any, key: Any, kind: str) -> bool:
        """Act on ``key``, draw, show; record it under ``kind``; the screen's answer."""
        terminal = screen.session.terminal
        sent, start = terminal.sent, time.thread_time()
        taken = await screen.on_key(key)
        if not taken:
            taken = await screen.common_key(key)
        screen.draw()
        await screen.session.show()
        self.cpu[kind].append(time.thread_time() - start)
        self.bytes[kind].append(terminal.sent - sent)
        return taken

    def rows(self, label: str) -> list[str]:
        """Table rows (``| label | kind | keys | median B | p95 B | max B | median ms |
        p95 ms | ok |``), the five target kinds first."""
        kinds = [k for k in KEY_KINDS if k in self.bytes]
        kinds += sorted(k for k in self.bytes if k not in KEY_KINDS)
        out = []
        for kind in kinds:
            sent, cpu = self.bytes[kind], self.cpu[kind]
            median, high = statistics.median(sent), p95(sent)
            ok = ""
            if kind in KEY_KINDS:
                ok = "yes" if median <= KEY_MEDIAN_B and high <= KEY_P95_B else "NO"
            out.append(f"| {label} | {kind} | {len(sent)} | {median:.0f} | {high} | "
                       f"{max(sent)} | {1000 * statistics.median(cpu):.3f} | "
                       f"{1000 * p95(cpu):.3f} | {ok} |")
        return out

    def missing(self) -> list[str]:
        return [k for k in KEY_KINDS if k not in self.bytes]


KEY_TABLE_HEAD = ("| game, charset, form | key | keys | median B | p95 B | max B | median ms "
                  "CPU | p95 ms CPU | bytes ok |\n|---|---|---:|---:|---:|---:|---:|---:|---|")


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


WALK = [Key("right"), Key("down"), Key("left"), Key("up")]
"""Cursor keys walking round a square: each one moves the outline and redraws."""


async def cpu_per_key(screen: Any, keys: int) -> list[float]:
    """This thread's CPU seconds for each of ``keys`` cursor keys (:data:`WALK`) on a drawn
    game screen: the key taken, the screen drawn and sent."""
    times = []
    for i in range(keys):
        start = time.thread_time()
        await screen.on_key(WALK[i % len(WALK)])
        screen.draw()
        await screen.session.show()
        times.append(time.thread_time() - start)
    return times
