"""Helpers for the server tests: a real ``serve()`` on 127.0.0.1 (telnet and SSH on ports the
OS picks), sysop.ini edits, and the login / signup keystrokes of a caller."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
from homehelp import configure as configure
from pyteterm import PyteCaller, PyteTerminal, TelnetCaller
from waiting import WAIT

from door.config import load_settings
from door.games.montecarlo import MonteCarlo, position_name
from door.serve.ports import Ports
from door.serve.server import serve

OTHER_ADDRESS = "::1"
"""A caller's second address on loopback: ``running(home, bind=TWO_ADDRESSES)`` listens on
both, so a test can call from "another address" (IPv6 loopback) as well as 127.0.0.1."""
TWO_ADDRESSES = f"127.0.0.1, {OTHER_ADDRESS}"


@contextlib.asynccontextmanager
async def running(home: Path, ssh: bool = True, rlogin: bool = False,
                  bind: str = "127.0.0.1", web: bool = False) -> AsyncIterator[Ports]:
    """``reussite serve`` in this event loop until the block ends (``web``: its HTTP
    listener too, on a port the OS picks)."""
    settings = load_settings(home)
    stop = asyncio.Event()
    started: asyncio.Future = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve(settings, bind, 0, started,
                                     ssh_port=0 if ssh else -1, stop=stop,
                                     rlogin_port=0 if rlogin else -1,
                                     web_port=0 if web else -1))
    done, _ = await asyncio.wait((started, task), return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()
    try:
        yield started.result()
    finally:
        stop.set()
        await asyncio.wait_for(task, WAIT)


async def call(port: int, rows: int = 24, charset: str = "cp437",
               host: str = "127.0.0.1", timeout: float = WAIT) -> TelnetCaller:
    caller = await TelnetCaller.connect(port, rows=rows, charset=charset, host=host)
    await caller.wait_for("Handle:", timeout)
    return caller


async def new_member(port: int, handle: str, password: str, **options: Any) -> TelnetCaller:
    """A telnet call (``options`` as :func:`call` takes them) that signs up as the new user
    ``handle``: at the main menu."""
    caller = await call(port, **options)
    await signup(caller, handle, password)
    await to_menu(caller)
    return caller


async def call_when_free(port: int, timeout: float = WAIT) -> TelnetCaller:
    """Call until the door lets us in: a caller who just hung up frees their node (and their
    place in the per-address count) a moment after, once their visit has unwound."""
    deadline = time.monotonic() + timeout
    while True:
        caller = await TelnetCaller.connect(port)
        try:
            await caller.wait_for("Handle:")
            return caller
        except AssertionError:
            caller.close()
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


async def signup(caller: PyteCaller, handle: str, password: str,
                 timeout: float = WAIT) -> None:
    """From the login screen to the title screen, as a new user (each step within
    ``timeout`` seconds: longer for a server under attack on a loaded machine)."""
    caller.send("new\r")
    await caller.wait_for("New user", timeout)
    caller.send(f"{handle}\r")
    await caller.wait_for("Password:", timeout)
    caller.send(f"{password}\r")
    await caller.wait_for("Again:", timeout)
    caller.send(f"{password}\r")
    await caller.wait_for("Press any key", timeout)


async def login(caller: PyteCaller, handle: str, password: str) -> None:
    caller.send(f"{handle}\r")
    await caller.wait_for("Password:")
    caller.send(f"{password}\r")


async def to_menu(caller: PyteCaller, timeout: float = WAIT) -> None:
    await caller.wait_for("Press any key", timeout)
    caller.send(" ")
    await caller.wait_for("Your choice", timeout)


async def open_game(caller: PyteCaller, key: str, number: int,
                    title: str = "Monte Carlo") -> None:
    """From the main menu into game ``number`` (``key`` is the menu's hot key)."""
    caller.send(key)
    await caller.wait_for("Game number:")
    caller.send(f"{number}\r")
    await caller.wait_for(f"{title} #{number}")


async def mid_game(caller: PyteCaller, handle: str, password: str, number: int) -> None:
    """From the login screen, as the new user ``handle``, into Monte Carlo game ``number``
    with its first pair taken: a call with a game to keep."""
    await signup(caller, handle, password)
    await to_menu(caller)
    await open_game(caller, "c", number)
    p, q = MonteCarlo.new(number).pairs()[0]
    caller.send(position_name(p) + position_name(q))
    await caller.settle()


class SSHCaller(PyteCaller):
    """asyncssh's client with a PTY on loopback; the screen is a pyte terminal."""

    def __init__(self, conn, process, term: PyteTerminal) -> None:
        super().__init__(process.stdout, process.stdin, term)
        self.conn, self.process = conn, process

    @classmethod
    async def connect(cls, port: int, user: str, password: str | None = None,
                      cols: int = 80, rows: int = 24, term_type: str = "xterm-256color",
                      charset: str = "utf8", host: str = "127.0.0.1") -> SSHCaller:
        conn = await asyncssh.connect(
            host, port, username=user, password=password, known_hosts=None,
            client_keys=None, agent_path=None,
            preferred_auth="password" if password else "none,password")
        process = await conn.create_process(term_type=term_type, term_size=(cols, rows),
                                            encoding=None)
        return cls(conn, process, PyteTerminal(cols, rows, charset))

    def resize(self, cols: int, rows: int) -> None:
        self.term.screen.resize(rows, cols)
        self.process.change_terminal_size(cols, rows)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()


class RLoginCaller(PyteCaller):
    """A scripted RLogin client (RFC 1282), as a BBS's gateway opens one: the two user-name
    fields and a terminal type, then bytes.  It answers cursor-position probes but not the
    window-size request (urgent data), like most BBS gateways."""

    @classmethod
    async def connect(cls, port: int, client_user: str, server_user: str,
                      term: str = "ansi-bbs/57600", charset: str = "cp437") -> RLoginCaller:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"\0" + b"\0".join(f.encode() for f in (client_user, server_user, term))
                     + b"\0")
        screen = PyteTerminal(80, 24, charset)
        screen.screen.write_process_input = lambda reply: writer.write(reply.encode("ascii"))
        caller = cls(reader, writer, screen)
        first = await asyncio.wait_for(reader.readexactly(1), WAIT)
        assert first == b"\0", f"the server's first byte is {first!r}, not NUL"
        return caller

    def close(self) -> None:
        self.writer.close()
