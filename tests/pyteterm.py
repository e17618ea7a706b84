"""Test side of the wire: a pyte terminal that reads what the door sends, like a caller's.

pyte has no CP437 and ignores ANSI.SYS save/restore (research/stack.md §3), so bytes are
decoded here with CP437's glyphs for 0x01–0x1F and the stream learns CSI s / CSI u.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from typing import Any, ClassVar

import pyte
import telnetlib3
from waiting import WAIT

from door.net.terminal import Terminal
from door.term import Charset
from door.term.charset import CP437_C0

_KEEP = {0x00, 0x07, 0x08, 0x0A, 0x0D, 0x1B}


def decode_cp437_bbs(data: bytes) -> str:
    return "".join(c if ord(c) >= 32 or ord(c) in _KEEP else CP437_C0[ord(c)]
                   for c in data.decode("cp437"))


class BBSScreen(pyte.Screen):
    def save_cursor(self, *args, **kwargs) -> None:
        super().save_cursor()

    def restore_cursor(self, *args, **kwargs) -> None:
        super().restore_cursor()

    def cursor_back(self, count: int | None = None, *font: int) -> None:
        """``CSI n D``; with two numbers it is SyncTERM's font selection (``CSI p;f SP D``,
        which ENiGMA½ sends), not a move: a terminal without those fonts ignores it."""
        if not font:
            super().cursor_back(count)


class BBSStream(pyte.Stream):
    csi: ClassVar[dict[str, str]] = {**pyte.Stream.csi, "s": "save_cursor",
                                     "u": "restore_cursor"}


class PyteTerminal:
    """A virtual terminal fed with raw bytes in a given charset (cp437, utf8 or ascii)."""

    def __init__(self, cols: int = 80, rows: int = 24, charset: str = "cp437") -> None:
        self.screen = BBSScreen(cols, rows)
        self.stream = BBSStream(self.screen)
        self.charset = charset
        self.raw = bytearray()
        self._utf8 = __import__("codecs").getincrementaldecoder("utf-8")("replace")

    def feed(self, data: bytes) -> None:
        self.raw += data
        if self.charset == "utf8":
            self.stream.feed(self._utf8.decode(data))
        else:
            self.stream.feed(decode_cp437_bbs(data))

    @property
    def lines(self) -> list[str]:
        return list(self.screen.display)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def find(self, needle: str) -> tuple[int, int] | None:
        for row, line in enumerate(self.screen.display):
            col = line.find(needle)
            if col >= 0:
                return row, col
        return None


class PyteCaller:
    """A caller on a byte stream (``reader.read``, ``writer.write``) whose screen is a
    :class:`PyteTerminal`: what the telnet and SSH clients of the tests share."""

    def __init__(self, reader, writer, term: PyteTerminal) -> None:
        self.reader, self.writer, self.term = reader, writer, term

    async def leave_game(self) -> None:
        """Q, confirm, and back at the main menu (the game is kept for resume)."""
        self.send("q")
        await self.wait_for("Leave this game?")
        self.send("y")
        await self.wait_for("Your choice")

    async def log_off(self, farewell: str = "Thanks for playing", key: str = "q") -> None:
        """Q (the menu's quit ``key``), yes to "Log off? (Y/n)", a key to pass the goodbye,
        and the door hangs up."""
        self.send(key)
        await self.wait_for("(Y/n)")
        self.send("y")
        await self.wait_for(farewell)
        self.send(" ")
        await self.wait_closed()

    async def pump(self, timeout: float = 0.05) -> bool:
        """Read what is waiting; False at end of connection."""
        try:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
        except TimeoutError:
            return True
        if not data:
            return False
        self.term.feed(data)
        return True

    async def wait_for(self, needle: str, timeout: float = WAIT) -> None:
        """Read until ``needle`` is on the screen; fail with the screen shown if it never is."""
        deadline = time.monotonic() + timeout
        while needle not in self.term.text:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; screen:\n{self.term.text}")
            if not await self.pump():
                if needle in self.term.text:
                    return
                raise AssertionError(f"closed before {needle!r}; screen:\n{self.term.text}")

    async def wait_until(self, check: Callable[[], bool], what: str,
                         timeout: float = WAIT) -> None:
        """Read until ``check()`` holds; fail with the screen shown if it never does."""
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"never {what}; screen:\n{self.term.text}")
            if not await self.pump() and not check():
                raise AssertionError(f"closed before {what}; screen:\n{self.term.text}")

    async def wait_match(self, pattern: str, what: str, timeout: float = WAIT) -> None:
        """Read until ``pattern`` (a regular expression) is on the screen."""
        await self.wait_until(lambda: re.search(pattern, self.term.text) is not None, what,
                              timeout)

    async def settle(self, quiet: float = 0.15) -> None:
        """Read until the server has been quiet for ``quiet`` seconds: for a key's effects to
        be drawn before the next is sent, or before checking that something did not come.
        What must come is waited for (:meth:`wait_for`, :meth:`wait_until`): a busy machine
        can be quiet longer than this in the middle of a frame."""
        while True:
            try:
                data = await asyncio.wait_for(self.reader.read(65536), quiet)
            except TimeoutError:
                return
            if not data:
                return
            self.term.feed(data)

    def send(self, data: bytes | str) -> None:
        self.writer.write(data.encode() if isinstance(data, str) else data)

    async def wait_closed(self, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while await self.pump(0.1):
            if time.monotonic() > deadline:
                raise AssertionError("the door did not close the connection")


class TelnetCaller(PyteCaller):
    """A real telnet client (telnetlib3) on loopback whose screen is a :class:`PyteTerminal`."""

    @classmethod
    async def connect(cls, port: int, cols: int = 80, rows: int = 24,
                      charset: str = "cp437", term_type: str = "ansi",
                      answer_cpr: bool = True, host: str = "127.0.0.1") -> TelnetCaller:
        """``answer_cpr``: answer cursor position requests as a real terminal does (pyte
        replies through ``write_process_input``); False plays a client that never answers."""
        reader, writer = await telnetlib3.open_connection(
            host, port, encoding=False, cols=cols, rows=rows, term=term_type,
            connect_minwait=0.05, connect_maxwait=1.0)
        term = PyteTerminal(cols, rows, charset)
        if answer_cpr:
            term.screen.write_process_input = lambda reply: writer.write(reply.encode("ascii"))
        return cls(reader, writer, term)

    @classmethod
    async def at_menu(cls, port: int, **options: Any) -> TelnetCaller:
        """Connect, pass the title screen, and stop at the main menu."""
        caller = await cls.connect(port, **options)
        await caller.wait_for("Press any key")
        caller.send(" ")
        await caller.wait_for("Your choice")
        return caller

    def resize(self, cols: int, rows: int) -> None:
        """The caller's window changes: pyte's screen, and a NAWS update to the door."""
        self.term.screen.resize(rows, cols)
        size = cols.to_bytes(2, "big") + rows.to_bytes(2, "big")
        self.writer.send_iac(b"\xff\xfa\x1f" + size.replace(b"\xff", b"\xff\xff")
                             + b"\xff\xf0")  # IAC SB NAWS <cols> <rows> IAC SE

    def close(self) -> None:
        self.writer.close()


def instructions_text(game: str) -> str:
    """``ansi/<game>.ins``, checked for what every instructions file keeps: lines of at most
    76 columns and all four colour codes (heading, highlight, body, normal)."""
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "ansi" / f"{game}.ins"
    text = path.read_text(encoding="cp437")
    assert all(len(line) <= 76 for line in text.splitlines()), f"{path.name}: a line > 76"
    assert all(code in text for code in ("@E@", "@H@", "@B@", "@N@")), path.name
    return text


class QueueTerminal(Terminal):
    """Keys from a queue, bytes into a pyte screen: a caller without the network."""

    def __init__(self, charset: str = "utf8", rows: int = 24, color: bool = True) -> None:
        super().__init__(80, rows, Charset(charset))
        self.color = color
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.term = PyteTerminal(80, rows, charset)

    async def read(self) -> bytes:
        return await self.inbox.get()

    def write(self, data: bytes) -> None:
        self.term.feed(data)

    async def drain(self) -> None:
        await asyncio.sleep(0)

    async def close(self) -> None:
        pass


class ScreenCaller:
    """Drives ``play_game`` for one game screen in-process and reads its pyte screen.

    Game screen tests subclass it, set ``screen_class`` and add what reads their board.
    """

    screen_class: ClassVar[type]

    def __init__(self, settings: Any, store: Any = None, player: Any = None,
                 **terminal: Any) -> None:
        from door.session import Services, Session
        from door.ui.game.screen import play_game

        self.terminal = QueueTerminal(**terminal)
        self.session = Session(self.terminal, Services(settings, store=store), player=player)
        self.task = asyncio.create_task(play_game(self.session, self.screen_class))

    @classmethod
    def dealing(cls, monkeypatch: Any, game: Any) -> None:
        """The screen's next game is a copy of ``game`` (its ``choose_game`` returns one; the
        test keeps ``game`` to play along)."""
        async def choose(screen_class: type, session: Any) -> Any:
            return type(game).from_json(game.to_json())
        monkeypatch.setattr(cls.screen_class, "choose_game", classmethod(choose))

    @property
    def term(self) -> PyteTerminal:
        return self.terminal.term

    @property
    def text(self) -> str:
        return self.term.text

    @property
    def bells(self) -> int:
        return self.term.raw.count(b"\x07")

    def send(self, data: str | bytes) -> None:
        assert data, "an empty read means a closed connection"
        self.terminal.inbox.put_nowait(data.encode() if isinstance(data, str) else data)

    async def wait_until(self, check: Callable[[], bool], what: str,
                         timeout: float = WAIT) -> None:
        """Wait until ``check()`` holds; fail with the screen if the game ends or time runs."""
        deadline = time.monotonic() + timeout
        while not check():
            if self.task.done():
                self.task.result()
                raise AssertionError(f"game ended before {what}:\n{self.text}")
            if time.monotonic() > deadline:
                raise AssertionError(f"never {what}; screen:\n{self.text}")
            await asyncio.sleep(0.005)

    async def wait_for(self, needle: str, timeout: float = WAIT) -> None:
        await self.wait_until(lambda: needle in self.text, f"saw {needle!r}", timeout)

    async def settle(self) -> None:
        """Let the session take every queued key and draw."""
        for _ in range(200):
            await asyncio.sleep(0)
            if self.terminal.inbox.empty():
                break
        for _ in range(50):
            await asyncio.sleep(0)

    async def close(self) -> None:
        await self.settle()  # let queued keys be read before the cancel
        if self.task.done():
            self.task.result()
            return
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        assert self.task.cancelled() or self.task.done()
