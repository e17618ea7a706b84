"""The settings screen and the pager, end to end: a telnet caller whose screen is pyte."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from pyteterm import TelnetCaller
from waiting import WAIT

from door.config import load_settings
from door.net.telnet import start_telnet
from door.session import Services, Session
from door.term.codes import parse_codes
from door.term.screen import Attr
from door.ui.menus.settings import terminal_settings
from door.ui.shared.pager import page_text, paginate, wrap_line


async def open_settings(port: int, **kw) -> TelnetCaller:
    caller = await TelnetCaller.connect(port, **kw)
    await caller.wait_for("Test pattern")
    return caller


@pytest.mark.slow
async def test_settings_switch_charset_colour_and_rows(screen_door) -> None:
    port = await screen_door(terminal_settings)
    caller = await open_settings(port, charset="cp437")
    assert "Character set: CP437 (IBM PC)" in caller.term.text
    assert "Suits: S H D C" in caller.term.text  # no glyphs announced: letters
    assert "╔" in caller.term.text
    caller.send("c")  # CP437 with the control-range glyphs: this pyte terminal shows them
    await caller.wait_for("Character set: CP437 with")
    assert "Suits: ♠ ♥ ♦ ♣" in caller.term.text
    caller.send("c")  # UTF-8: this CP437 terminal now shows garbage, as a caller would see
    await caller.wait_for("Character set: UTF-8")
    caller.term.charset = "utf8"  # the caller switches their terminal too
    caller.send("\x12")  # Ctrl-R redraws
    await caller.settle()
    assert "Suits: ♠ ♥ ♦ ♣" in caller.term.text and "Réussite É à ç" in caller.term.text
    start = len(caller.term.raw)
    caller.send("c")
    await caller.wait_for("Character set: 7-bit ASCII")
    assert max(caller.term.raw[start:]) < 128
    caller.send("o")
    await caller.wait_for("Colour: off")
    start = len(caller.term.raw)
    caller.send("\x12")
    await caller.settle()
    sgr = re.findall(rb"\x1b\[([0-9;]*)m", bytes(caller.term.raw[start:]))
    assert sgr and not [p for p in sgr if re.search(rb"(^|;)[34][0-7]", p)]  # no colours
    assert b"7" in b";".join(sgr)  # coloured bars are shown in reverse video
    caller.send("r")
    await caller.wait_for("Screen rows: 25")
    caller.send("q")  # back: here the visit ends with the screen
    await caller.wait_closed()


async def test_pager_pages_text_with_colour_codes(door_home: Path) -> None:
    """page_text through a real telnet connection, with the sysop's [colors] palette."""
    text = "@E@ HOW TO PLAY\n" + "".join(f"@B@body line {i}\n" for i in range(40))
    text += "@H@the last line\n"
    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text(encoding="utf-8") + "heading = bright red on blue\n",
                   encoding="utf-8")
    settings = load_settings(door_home)
    done = asyncio.Event()

    async def run(terminal) -> None:
        await page_text(Session(terminal, Services(settings)), text, title="Monte Carlo")
        done.set()

    server = await start_telnet("127.0.0.1", 0, run)
    try:
        caller = await TelnetCaller.connect(server.sockets[0].getsockname()[1])
        await caller.wait_for("-- More (page 1/2)")
        row, col = caller.term.find("HOW TO PLAY")
        cell = caller.term.screen.buffer[row][col]
        assert (cell.fg, cell.bg, cell.bold) == ("red", "blue", True)
        assert "body line 20" in caller.term.text and "body line 21" not in caller.term.text
        caller.send(" ")
        await caller.wait_for("-- End (page 2/2)")
        assert "the last line" in caller.term.text and "@" not in caller.term.text
        caller.send("b")
        await caller.wait_for("-- More (page 1/2)")
        caller.send("q")
        await asyncio.wait_for(done.wait(), WAIT)
        caller.close()
    finally:
        server.close()
        await server.wait_closed()


def test_wrap_and_paginate() -> None:
    line = [("word " * 30, Attr())]
    rows = wrap_line(line, 80)
    assert [len("".join(t for t, _ in r)) for r in rows] == [79, 70]
    doc = parse_codes("a\nb\n@CLS@c\n" + "x\n" * 5)
    pages = paginate(doc, 80, 4)
    assert [["".join(t for t, _ in r) for r in page] for page in pages] == [
        ["a", "b"], ["c", "x", "x", "x"], ["x", "x", ""]]


async def test_naws_resize_redraws_the_current_screen(screen_door) -> None:
    port = await screen_door(resize_then_settings)
    caller = await open_settings(port)
    assert "Q/Esc back" in caller.term.lines[23]
    caller.writer.protocol._extra["rows"] = 30  # the caller's window grows: NAWS again
    caller.writer._send_naws()
    caller.term.screen.resize(30, 80)
    await caller.wait_for("choices: 24, 25, 30")
    await caller.settle()
    assert "Q/Esc back" in caller.term.lines[29] and "Q/Esc back" not in caller.term.lines[23]
    caller.send("q")
    await caller.wait_for("Test pattern")  # the next screen starts at the new size too
    await caller.settle()
    assert "Q/Esc back" in caller.term.lines[29]
    caller.close()


async def resize_then_settings(session: Session) -> None:
    await terminal_settings(session)
    await terminal_settings(session)
