"""A caller on GNU telnet (in a pty, UTF-8 like tmux) and one through pyte see the same screen.

GNU telnet sends TTYPE but no LANG, so only the cursor probe can tell that its terminal is
UTF-8; without it the caller would see CP437 bytes as garbage.
"""

from __future__ import annotations

import asyncio
import codecs
import fcntl
import os
import pty
import struct
import subprocess
import termios
import time

from programs import need
from pyteterm import BBSScreen, BBSStream, TelnetCaller
from waiting import WAIT


class PtyTelnet:
    """GNU telnet on a pty whose screen is pyte (decoding UTF-8, answering CPR like tmux)."""

    def __init__(self, port: int) -> None:
        telnet = need("telnet", "apt-get install inetutils-telnet")
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen([telnet, "127.0.0.1", str(port)], stdin=slave,
                                     stdout=slave, stderr=slave, start_new_session=True,
                                     env={**os.environ, "TERM": "xterm-256color",
                                          "LANG": "C.UTF-8"})
        os.close(slave)
        os.set_blocking(self.master, False)
        self.screen = BBSScreen(80, 24)
        self.screen.write_process_input = lambda reply: os.write(self.master, reply.encode())
        self.stream = BBSStream(self.screen)
        self.utf8 = codecs.getincrementaldecoder("utf-8")("replace")

    def _pump(self) -> None:
        try:
            while data := os.read(self.master, 65536):
                self.stream.feed(self.utf8.decode(data))
        except (BlockingIOError, OSError):
            pass

    async def wait_for(self, needle: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while needle not in "\n".join(self.screen.display):
            assert time.monotonic() < deadline, "\n".join(self.screen.display)
            self._pump()
            await asyncio.sleep(0.02)


    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(WAIT)
        os.close(self.master)


def cells(screen) -> list[list[tuple]]:
    return [[(c.data, c.bg) if c.data == " " else (c.data, c.fg, c.bg, c.bold)
             for c in (screen.buffer[y][x] for x in range(79))] for y in range(24)]


async def same_screens(gnu: PtyTelnet, pyte_caller: TelnetCaller) -> None:
    """Read both until their screens are the same (the rest of a frame may still come)."""
    deadline = time.monotonic() + WAIT
    while cells(gnu.screen) != cells(pyte_caller.term.screen):
        assert time.monotonic() < deadline, "\n".join(gnu.screen.display)
        gnu._pump()
        await pyte_caller.pump(0.02)


async def test_gnu_telnet_and_pyte_see_the_same_title_and_settings(screen_door) -> None:
    port = await screen_door()
    gnu = PtyTelnet(port)
    try:
        pyte_caller = await TelnetCaller.connect(port, charset="utf8", term_type="xterm")
        await gnu.wait_for("Press any key")
        await pyte_caller.wait_for("Press any key")
        assert "R  É  U  S  S  I  T  E" in "\n".join(gnu.screen.display)
        assert "╔" in "\n".join(gnu.screen.display)  # UTF-8 box, not CP437 garbage
        await same_screens(gnu, pyte_caller)
        gnu.send(b"x")
        pyte_caller.send(b"x")
        await gnu.wait_for("Test pattern")
        await pyte_caller.wait_for("Test pattern")
        await same_screens(gnu, pyte_caller)
        assert "Suits: ♠ ♥ ♦ ♣" in "\n".join(gnu.screen.display)
        pyte_caller.close()
    finally:
        gnu.close()
