"""Every byte a screen sends goes through the session, whose renderer makes it: no module of
door/ui/ writes to, drains or reads a transport itself, nor holds an escape sequence of its
own (the colour reset of a goodbye, a clear) — those are door/term's to make.

Read twice: in the source (any door/ui module, however the packages are arranged later),
and at run time, where a terminal notes which module called its ``write``, through a whole
visit (title, menu, log off, goodbye), the small-window farewell and the decline of a
second call."""

from __future__ import annotations

import ast
import asyncio
import sys
from dataclasses import replace
from pathlib import Path

from pyteterm import QueueTerminal
from waiting import WAIT, until

from door.config import Settings
from door.session import Services, Session
from door.ui.visits.takeover import say_declined
from door.ui.visits.visit import run_visit

UI = Path(__file__).resolve().parents[2] / "door" / "ui"
TRANSPORT_CALLS = {"write", "writelines", "drain", "receive", "read", "close", "send"}
"""What a screen may not ask of a terminal, a writer or a transport."""
TRANSPORTS = {"terminal", "writer", "transport", "stdout", "sock", "socket"}
CONTROL = set(range(0x20)) - {0x00}
"""A byte string with any of these is an escape sequence or a line end a screen made."""


def _receiver_names(node: ast.expr) -> set[str]:
    """The names along ``a.b.c`` (a call's receiver): {"a", "b", "c"}."""
    names = set()
    while isinstance(node, ast.Attribute):
        names.add(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.add(node.id)
    return names


def _offences(path: Path, root: Path = UI.parent.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')}"
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in TRANSPORT_CALLS
                and _receiver_names(node.func.value) & TRANSPORTS):
            found.append(f"{where}: {ast.unparse(node.func)}()")
        if (isinstance(node, ast.Constant) and isinstance(node.value, bytes)
                and set(node.value) & CONTROL):
            found.append(f"{where}: bytes {node.value!r}")
    return found


def test_no_screen_module_touches_a_transport_or_makes_escape_sequences() -> None:
    modules = sorted(UI.rglob("*.py"))
    assert len(modules) > 20  # the screens are there to be read
    offences = [line for path in modules for line in _offences(path)]
    assert offences == []


def test_the_source_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The check above is not blind: the writes this change took out of door/ui are found."""
    path = tmp_path / "sample.py"
    path.write_text('async def f(session):\n'
                    '    session.terminal.write(b"\\x1b[0m\\r\\n")\n'
                    '    await session.terminal.drain()\n', encoding="utf-8")
    assert len(_offences(path, tmp_path)) == 3


class CallerNoting(QueueTerminal):
    """A queue terminal that notes the module whose code called ``write``."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.writers: set[str] = set()
        self.raw = bytearray()

    def write(self, data: bytes) -> None:
        self.writers.add(sys._getframe(1).f_code.co_filename)
        self.raw += data
        super().write(data)


def no_pause(settings: Settings) -> Settings:
    """The goodbye goes at once (its pause is the other tests' business)."""
    return replace(settings, door=replace(settings.door, goodbye_pause=0))


def _only_the_session_wrote(terminal: CallerNoting) -> None:
    assert {Path(name).name for name in terminal.writers} == {"session.py"}, terminal.writers


async def test_a_whole_visit_writes_only_through_the_session(settings: Settings) -> None:
    settings = no_pause(settings)
    terminal = CallerNoting()
    session = Session(terminal, Services(settings))
    visit = asyncio.create_task(run_visit(session))
    await until(lambda: "Press any key" in terminal.term.text, "the title")
    terminal.inbox.put_nowait(b"x")
    await until(lambda: "Your choice" in terminal.term.text, "the main menu")
    terminal.inbox.put_nowait(b"q")
    await until(lambda: "Log off?" in terminal.term.text, "the question")
    terminal.inbox.put_nowait(b"\r")
    await asyncio.wait_for(visit, WAIT)
    assert "Farewell, Guest." in terminal.term.text
    assert terminal.raw.endswith(b"\x1b[0m\r\n")  # the goodbye leaves the terminal clean
    _only_the_session_wrote(terminal)


async def test_the_small_window_farewell_writes_through_the_session(
        settings: Settings) -> None:
    terminal = CallerNoting()
    terminal.resized(60, 20)
    session = Session(terminal, Services(settings))
    visit = asyncio.create_task(run_visit(session))
    await until(lambda: "Widen it" in terminal.term.text, "the small-window notice")
    terminal.inbox.put_nowait(b"q")
    await asyncio.wait_for(visit, WAIT)
    assert terminal.raw.endswith(b"\x1b[0m\x1b[2J\x1b[HFarewell, Guest: see you in a "
                                 b"bigger window.\r\n")
    _only_the_session_wrote(terminal)


async def test_a_declined_second_call_writes_through_the_session(settings: Settings) -> None:
    settings = no_pause(settings)
    terminal = CallerNoting()
    session = Session(terminal, Services(settings))
    await say_declined(session)
    assert "One call at a time" in terminal.term.text
    assert terminal.raw.endswith(b"\x1b[0m\r\n")
    _only_the_session_wrote(terminal)
