"""``reussite bridge`` relays every byte value untouched, both ways, and the window size as
RLogin's window message.  The hub here is the door's own RLogin server side
(door/net/rlogin.py) on loopback, scripted, so the test sees the exact bytes and the opening
the bridge sent; the caller is a pty in raw mode (a stdio BBS) or a connect-back socket that
speaks raw telnet (IAC doubled, NAWS), as the BBS hands them to a door."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import time
from pathlib import Path

import pytest
from bridgehelp import HANDLE, XA, bridge_command, make_board
from doorproc import PtyDoor, child_env
from waiting import WAIT

from door.commands.bridge import EXIT_OK
from door.net.rlogin import Hello, RLoginTerminal

EVERY_BYTE = bytes(range(256))
END = b"END"  # after the caller's bytes: a lone 0xFF last could start a window message
IAC, SB, SE, NAWS = 255, 250, 240, 31


class ScriptedHub:
    """One call: the opening recorded, the window size asked and awaited, every byte value
    sent, the caller's bytes read up to END, then the hub hangs up."""

    def __init__(self, window: tuple[int, int]) -> None:
        self.window = window
        self.hello: Hello | None = None
        self.received = bytearray()
        self.done = asyncio.Event()
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._call, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _call(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        terminal = RLoginTerminal(reader, writer, "bridge")
        try:
            self.hello = await terminal.handshake()
            await terminal.ask_window_size()
            while terminal.window != self.window:  # a size alone reads as one NUL
                if not await terminal.read():
                    return
            terminal.write(EVERY_BYTE)
            while END not in self.received:
                data = await terminal.read()
                if not data:
                    return
                self.received += data
        finally:
            writer.close()
            self.done.set()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


@pytest.fixture
def board(tmp_path: Path) -> Path:
    return make_board(tmp_path)


def caller_bytes() -> bytes:
    return bytes(range(256)) + END


async def test_a_pty_caller_and_the_hub_get_every_byte_untouched(board: Path) -> None:
    hub = ScriptedHub(window=(80, 33))
    port = await hub.start()
    door = PtyDoor(bridge_command(board, port), cwd=board, rows=33, charset="cp437")
    try:
        raw = door.term.raw
        await asyncio.to_thread(door.wait_until, lambda: EVERY_BYTE in raw,
                                "every byte value from the hub")
        door.send(caller_bytes())  # the pty is raw by now: the bridge relayed already
        assert await asyncio.to_thread(door.finish) == EXIT_OK
        await asyncio.wait_for(hub.done.wait(), WAIT)
    finally:
        door.close()
        await hub.close()
    assert hub.received == caller_bytes()
    assert hub.hello == Hello(f"[XA]{HANDLE}", XA, "ansi", 38400)


async def test_a_telnet_socket_caller_gets_iac_doubled_and_sends_its_window(
        board: Path) -> None:
    hub = ScriptedHub(window=(100, 40))
    port = await hub.start()
    listener = socket.create_server(("127.0.0.1", 0))
    proc = subprocess.Popen(bridge_command(board, port, "--port",
                                           str(listener.getsockname()[1])),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=board, env=child_env())
    try:
        listener.settimeout(WAIT)
        conn, _ = await asyncio.to_thread(listener.accept)
        with conn:
            conn.sendall(bytes([IAC, SB, NAWS, 0, 100, 0, 40, IAC, SE]))
            expected = EVERY_BYTE.replace(b"\xff", b"\xff\xff")
            got = await asyncio.to_thread(read_until, conn, expected)
            assert got == expected
            conn.sendall(caller_bytes().replace(b"\xff", b"\xff\xff"))
            await asyncio.wait_for(hub.done.wait(), WAIT)
            assert await asyncio.to_thread(proc.wait, WAIT) == EXIT_OK
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        listener.close()
        await hub.close()
    assert hub.received == caller_bytes()


def read_until(conn: socket.socket, expected: bytes) -> bytes:
    """What the bridge sent the caller, once it holds ``expected`` (or the deadline)."""
    conn.settimeout(0.1)
    data = b""
    end = time.monotonic() + WAIT
    while expected not in data and time.monotonic() < end:
        with contextlib.suppress(TimeoutError):
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
    return data

