"""Character widths: the cells a character takes on a caller's terminal."""

from __future__ import annotations

import subprocess
import sys

from wcwidth import wcwidth

from door.term.width import ONE_CELL, char_width, text_width


def test_the_characters_known_without_wcwidth_are_one_cell_by_wcwidth_too() -> None:
    disagree = sorted(ch for ch in ONE_CELL if wcwidth(ch) != 1)
    assert disagree == []
    assert all(char_width(ch) == 1 for ch in ONE_CELL)


def test_other_characters_are_measured_by_wcwidth() -> None:
    assert [char_width(ch) for ch in ("中", "😀", "\u0301", "\u200b", "\x07")] == [2, 2, 0, 0, 0]
    assert text_width("Réussite ♠ 中文 …") == 17


def test_a_door_drawing_its_own_screens_does_not_load_wcwidth() -> None:
    """Loading ``wcwidth`` costs a tenth of a door's launch: the door's command line and its
    own screens' characters (CP437's, dashes, the ellipsis) never need it."""
    code = ("import sys, door.cli\n"
            "from door.term.screen import Screen\n"
            "s = Screen()\n"
            "s.put(0, 0, '─│┌╔═░▒▓█ ♠♥♦♣ · … – — × é ►')\n"
            "print('wcwidth' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
