"""RFC 1282 on the wire: the opening in pieces, window sizes in-band (even split across
reads), and what is not an RLogin client."""

from __future__ import annotations

import asyncio
import socket
import struct
import time

import pytest
from waiting import WAIT

from door.net.rlogin import HandshakeError, Hello, RLoginTerminal, parse_hello, start_rlogin


def test_parse_hello() -> None:
    assert parse_hello(b"") is None
    assert parse_hello(b"\0pat\0secret\0ansi-bbs/57") is None  # not finished yet
    hello = parse_hello(b"\0pat\0secret\0xtrn=MonteCarlo/38400\0keys")
    assert hello == Hello("pat", "secret", "xtrn=MonteCarlo", 38400)
    assert hello.xtrn == "MonteCarlo"
    assert parse_hello(b"\0\0s\0xterm\0").xtrn is None
    with pytest.raises(HandshakeError, match="not an RLogin client"):
        parse_hello(b"GET / HTTP/1.0\r\n")
    with pytest.raises(HandshakeError, match="longer than"):
        parse_hello(b"\0" + b"x" * 600)


async def test_opening_in_pieces_window_sizes_and_keys() -> None:
    """The opening comes in three writes; after the server asks (urgent 0x80), a window
    size split across two writes resizes the terminal and never reaches the keys."""
    got: asyncio.Queue = asyncio.Queue()

    async def run(terminal: RLoginTerminal) -> None:
        hello = await terminal.handshake()
        await terminal.ask_window_size()
        sizes: list[tuple[int, int]] = []
        terminal.on_resize = lambda cols, rows: sizes.append((cols, rows))
        keys = b""
        while b"!" not in keys:
            keys += await terminal.read()
        await got.put((hello, sizes, keys.replace(b"\0", b"")))

    server = await start_rlogin("127.0.0.1", 0, run)
    port = server.sockets[0].getsockname()[1]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for piece in (b"\0pa", b"t\0s3cret\0ans", b"i-bbs/57600\0"):
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0.02)  # apart: the door must join what TCP splits
        assert await asyncio.wait_for(reader.readexactly(1), WAIT) == b"\0"
        raw = writer.get_extra_info("socket")
        dup = raw.dup()
        try:
            loop = asyncio.get_running_loop()
            urgent = await asyncio.wait_for(loop.run_in_executor(
                None, lambda: _recv_urgent(dup)), WAIT)
        finally:
            dup.close()
        assert urgent == b"\x80"
        size = b"\xff\xffss" + struct.pack(">4H", 40, 100, 0, 0)
        writer.write(b"ab" + size[:6])
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.write(size[6:] + b"c!")
        hello, sizes, keys = await asyncio.wait_for(got.get(), WAIT)
        assert hello == Hello("pat", "s3cret", "ansi-bbs", 57600)
        assert sizes == [(80, 40)]  # the door is always 80 columns wide; 40 rows
        assert keys == b"abc!"
        writer.close()
    finally:
        server.close()
        await server.wait_closed()


def _recv_urgent(sock: socket.socket) -> bytes:
    """The urgent byte, once it has arrived (MSG_OOB fails until then)."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            return sock.recv(1, socket.MSG_OOB)
        except (BlockingIOError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)
