"""Test side of the wire: a pyte terminal that reads what the door sends, like a caller's.

pyte has no CP437 and ignores ANSI.SYS save/restore (research/stack.md §3), so bytes are
decoded here with CP437's glyphs for 0x01–0x1F and the stream learns CSI s / CSI u.
"""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

import pyte
import telnetlib3

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


class TelnetCaller:
    """A real telnet client (telnetlib3) on loopback whose screen is a :class:`PyteTerminal`."""

    def __init__(self, reader, writer, term: PyteTerminal) -> None:
        self.reader, self.writer, self.term = reader, writer, term

    @classmethod
    async def connect(cls, port: int, cols: int = 80, rows: int = 24,
                      charset: str = "cp437", term_type: str = "ansi",
                      answer_cpr: bool = True) -> TelnetCaller:
        """``answer_cpr``: answer cursor position requests as a real terminal does (pyte
        replies through ``write_process_input``); False plays a client that never answers."""
        reader, writer = await telnetlib3.open_connection(
            "127.0.0.1", port, encoding=False, cols=cols, rows=rows, term=term_type,
            connect_minwait=0.05, connect_maxwait=1.0)
        term = PyteTerminal(cols, rows, charset)
        if answer_cpr:
            term.screen.write_process_input = lambda reply: writer.write(reply.encode("ascii"))
        return cls(reader, writer, term)

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

    async def wait_for(self, needle: str, timeout: float = 5.0) -> None:
        """Read until ``needle`` is on the screen; fail with the screen shown if it never is."""
        deadline = time.monotonic() + timeout
        while needle not in self.term.text:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; screen:\n{self.term.text}")
            if not await self.pump():
                if needle in self.term.text:
                    return
                raise AssertionError(f"closed before {needle!r}; screen:\n{self.term.text}")

    async def settle(self, quiet: float = 0.15) -> None:
        """Read until the server has been quiet for ``quiet`` seconds."""
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

    async def wait_closed(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while await self.pump(0.1):
            if time.monotonic() > deadline:
                raise AssertionError("the door did not close the connection")

    def close(self) -> None:
        self.writer.close()
