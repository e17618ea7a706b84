"""The telnet fast paths (door/net/telnet.py): a packet with no IAC byte goes straight to the
reader once negotiation is over, and frames go straight to the socket with IAC doubled.

Each test runs a real telnet listener on loopback and a real telnetlib3 client that, past
negotiation, writes raw packets onto its socket: one packet at a time, each read by the
server before the next is sent, so that a command split across packets really arrives
split."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import telnetlib3
from waiting import until

from door.net.telnet import DoorTelnetServer, TelnetTerminal, start_telnet

IAC, SB, SE, WILL = b"\xff", b"\xfa", b"\xf0", b"\xfb"
NAWS, TTYPE = b"\x1f", b"\x18"


class Line:
    """One call: what the door's side read (wake-up NULs left out), and the raw socket of
    the caller's side."""

    def __init__(self) -> None:
        self.terminal: TelnetTerminal | None = None
        self.heard = bytearray()
        self.reply = b""  # written by the door once the caller sends "w"
        self.reader: telnetlib3.TelnetReader | None = None
        self.raw: asyncio.WriteTransport | None = None
        self.go = asyncio.Event()  # cleared: the door's side is busy and reads nothing
        self.go.set()
        self.ended = False
        self.client: telnetlib3.TelnetWriter | None = None

    @property
    def protocol(self) -> DoorTelnetServer:
        assert self.terminal is not None
        protocol = self.terminal._writer.protocol
        assert isinstance(protocol, DoorTelnetServer)
        return protocol

    async def session(self, terminal: TelnetTerminal) -> None:
        self.terminal = terminal
        while (await self.go.wait()) and (data := await terminal.read()):
            self.heard += data.replace(b"\0", b"")
            if b"w" in data:
                terminal.write(self.reply)
        self.ended = True

    async def send(self, packet: bytes) -> None:
        """One packet, read by the door before this returns."""
        assert self.raw is not None
        before = self.protocol.rx_bytes
        self.raw.write(packet)
        await until(lambda: self.protocol.rx_bytes >= before + len(packet),
                    f"the door read {packet!r}")


@pytest.fixture
async def line() -> AsyncIterator[Line]:
    call = Line()
    server = await start_telnet("127.0.0.1", 0, call.session)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", port, encoding=False, term="ansi", cols=80, rows=24,
        connect_minwait=0.05, connect_maxwait=1.0)
    call.reader = reader
    call.raw = writer.transport
    call.client = writer
    await until(lambda: call.terminal is not None and call.protocol._settled,
                "negotiation was over")
    try:
        yield call
    finally:
        writer.close()
        server.close()
        await server.wait_closed()


async def test_plain_keys_take_the_fast_path(line: Line) -> None:
    await line.send(b"abc")
    await line.send(b"\x1b[A")
    await until(lambda: bytes(line.heard) == b"abc\x1b[A", "the keys arrived whole")
    assert line.protocol._settled


async def test_a_doubled_iac_split_across_packets_is_one_0xff(line: Line) -> None:
    await line.send(b"a" + IAC)
    await line.send(IAC + b"b")
    await until(lambda: bytes(line.heard) == b"a\xffb", "0xFF arrived once")


async def test_a_command_split_across_packets_is_no_key(line: Line) -> None:
    await line.send(b"x" + IAC)
    await line.send(WILL)
    await line.send(TTYPE)  # no IAC in it: the end of a command all the same
    await line.send(b"y")
    await until(lambda: bytes(line.heard) == b"xy", "only the keys arrived")


async def test_a_window_size_split_across_packets_is_no_key(line: Line) -> None:
    await line.send(IAC + SB + NAWS)
    await line.send(b"\x00\x64\x00\x28")  # 100 × 40, no IAC: still inside the command
    await line.send(IAC + SE)
    await line.send(b"k")
    await until(lambda: bytes(line.heard) == b"k", "only the key arrived")
    assert line.terminal is not None and line.terminal.window == (100, 40)


async def test_0xff_in_a_cp437_frame_reaches_the_caller_once(line: Line) -> None:
    line.reply = b"<A\xffB\xff\xff>"  # CP437 0xFF is a glyph (a no-break space)
    await line.send(b"w")
    got = b""  # after the charset probe the door sent first

    async def more() -> bool:
        nonlocal got
        assert line.reader is not None
        got += await line.reader.read(64)
        return got.endswith(b">")

    await until(more, "the frame arrived")
    assert got[got.index(b"<"):] == b"<A\xffB\xff\xff>"  # undoubled by the client


async def test_a_key_split_across_packets_arrives_whole_and_in_order(line: Line) -> None:
    await line.send(b"\x1b[")
    await line.send(b"A")
    await line.send(b"q")
    await until(lambda: bytes(line.heard) == b"\x1b[Aq", "the key's bytes arrived in order")


async def test_keys_around_a_command_keep_their_order_while_the_door_is_busy(
        line: Line) -> None:
    """Plain packets go the fast way, a packet with IAC telnetlib3's: all of them land in
    one buffer, read in the order they came even when several wait unread."""
    line.go.clear()
    await line.send(b"a")
    await line.send(b"b" + IAC + WILL + TTYPE + b"c")
    await line.send(b"d" + IAC + IAC)
    await line.send(b"e")
    line.go.set()
    await until(lambda: bytes(line.heard) == b"abcd\xffe", "every key, in order")


async def test_a_caller_hanging_up_ends_a_waiting_read(line: Line) -> None:
    await line.send(b"z")
    await until(lambda: bytes(line.heard) == b"z", "the key arrived")
    assert line.client is not None
    line.client.close()  # the door's read waits for the next key meanwhile
    await until(lambda: line.ended, "the door's read returned the end of the call")
