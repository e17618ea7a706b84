"""Test side of a BBS launch: ``python -m door door …`` as a child process whose caller is a
pty (read through pyte) or a socket, the way Synchronet, ENiGMA½ or Mystic start a door."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import socket
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

from pyteterm import PyteTerminal
from waiting import WAIT


def door_command(home: Path, dropfile: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "door", "--home", str(home), "door", str(dropfile),
            *options]


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REUSSITE_HOME", "LC_ALL",
                                                              "LC_CTYPE")}
    env.update({"TERM": "xterm", "LANG": "C.UTF-8"}, **extra)
    return env


class PtyDoor:
    """The door on the slave side of a fresh pty; the test holds the master, like a BBS."""

    def __init__(self, args: list[str], cwd: Path, rows: int = 24, cols: int = 80,
                 charset: str = "utf8", env: dict[str, str] | None = None,
                 controlling: bool = False) -> None:
        """``controlling``: the pty is the program's controlling terminal (``/dev/tty``,
        where ssh asks for a password), as a login shell's is."""
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.modes_before = termios.tcgetattr(self.slave)
        self.term = PyteTerminal(cols, rows, charset)
        self.proc = subprocess.Popen(args, stdin=self.slave, stdout=self.slave,
                                     stderr=self.slave, cwd=cwd, env=env or child_env(),
                                     start_new_session=not controlling,
                                     preexec_fn=_controlling_tty if controlling else None)

    def pump(self, timeout: float = 0.05) -> bool:
        """Feed what the door sent; False when nothing came within ``timeout``."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        self.term.feed(data)
        return bool(data)

    def wait_for(self, text: str, timeout: float = WAIT) -> None:
        end = time.monotonic() + timeout
        while text not in self.term.text:
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} never came; screen:\n{self.term.text}")
            if not self.pump(0.1) and self.proc.poll() is not None:
                self.pump(0.1)
                if text not in self.term.text:
                    raise AssertionError(f"door exited {self.proc.returncode} before "
                                         f"{text!r}; screen:\n{self.term.text}")

    def wait_until(self, check, what: str, timeout: float = WAIT) -> None:
        end = time.monotonic() + timeout
        while not check():
            if time.monotonic() > end:
                raise AssertionError(f"{what} never happened; screen:\n{self.term.text}")
            self.pump(0.1)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def to_menu(self) -> None:
        """Past the title screen to the main menu."""
        self.wait_for("Press any key")
        self.send(b" ")
        self.wait_for("Your choice")

    def finish(self, timeout: float = WAIT) -> int:
        """Wait for the exit, reading everything the door still had to say."""
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self.pump(0.05)
        code = self.proc.wait(timeout=1)
        while self.pump(0.05):
            pass
        return code

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)
        os.close(self.slave)


def _controlling_tty() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class SocketCaller:
    """The caller's end of a socket the door talks on; its screen is pyte."""

    def __init__(self, sock: socket.socket, charset: str = "cp437") -> None:
        self.sock = sock
        self.sock.settimeout(0.1)
        self.term = PyteTerminal(80, 24, charset)
        self.closed = False

    def pump(self) -> bool:
        try:
            data = self.sock.recv(65536)
        except TimeoutError:
            return False
        except OSError:
            data = b""
        if not data:
            self.closed = True
            return False
        self.term.feed(data)
        return True

    def wait_for(self, text: str, timeout: float = WAIT) -> None:
        end = time.monotonic() + timeout
        while text not in self.term.text:
            if time.monotonic() > end or self.closed:
                raise AssertionError(f"{text!r} never came; screen:\n{self.term.text}")
            self.pump()

    def wait_closed(self, timeout: float = WAIT) -> None:
        end = time.monotonic() + timeout
        while not self.closed and time.monotonic() < end:
            self.pump()
        assert self.closed, "the door kept the connection open"


@contextlib.contextmanager
def connect_back_door(home: Path, dropfile: Path, *options: str
                      ) -> Iterator[tuple[subprocess.Popen, SocketCaller]]:
    """The door connecting back to our listener, the way ENiGMA½ ``io: socket`` and WWIV run
    it: (the door's process, the caller's end of the socket)."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(WAIT)
    port = listener.getsockname()[1]
    proc = subprocess.Popen(door_command(home, dropfile, "--port", str(port), *options),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=home, env=child_env())
    try:
        conn, _ = listener.accept()
        yield proc, SocketCaller(conn)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        listener.close()
