"""Hostile callers on loopback, bounded in count and time: the server drops or survives the
bad connection and keeps answering everyone else.

Attackers call from ::1 and the real callers from 127.0.0.1 (the server listens on both), as
they would from two addresses; a few tests put them on one address on purpose.  Waits poll
to deadlines long enough for a loaded 2-core machine: nothing here measures speed.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverhelp import (
    OTHER_ADDRESS,
    TWO_ADDRESSES,
    call,
    call_when_free,
    configure,
    running,
    signup,
    to_menu,
)
from waiting import WAIT as DEADLINE
from waiting import until

import door.session


@pytest.fixture(autouse=True)
def door_logs_info(caplog: pytest.LogCaptureFixture, door_home: Path) -> Iterator[None]:
    """The door's INFO lines reach data/reussite.log, as under ``reussite serve``; and
    whatever the attack, no traceback reaches it."""
    caplog.set_level(logging.INFO, logger="door")
    yield
    log = door_home / "data" / "reussite.log"
    assert not log.exists() or tracebacks_in(log) == []

IAC, SB, SE, DO, DONT, WILL, WONT = 255, 250, 240, 253, 254, 251, 252
TTYPE, NAWS, TSPEED, LINEMODE, NEW_ENVIRON, CHARSET = 24, 31, 32, 34, 39, 42


def sb(option: int, body: bytes) -> bytes:
    return bytes([IAC, SB, option]) + body + bytes([IAC, SE])


NASTY_OPTIONS = [
    # CHARSET ACCEPTED an unknown codec, then NEW-ENVIRON: telnetlib3's LookupError flood
    sb(CHARSET, b"\x02bogus-cs") + sb(NEW_ENVIRON, b"\x00\x00USER\x01x"),
    sb(NEW_ENVIRON, b"\x00\x00LANG\x01xx_YY.NOPE\x03\xff\xff"),
    sb(NEW_ENVIRON, b"\x02\x03\x01"),
    sb(CHARSET, b"\x01;UTF-8;\xc3\x28;x"),  # REQUEST with a byte that is no ASCII
    sb(CHARSET, b"\x05"),  # TTABLE-IS: "not implemented"
    sb(CHARSET, b"\x09"),
    sb(TTYPE, b"\x00" + bytes(range(128, 200))),
    sb(TTYPE, b""),
    sb(LINEMODE, b"\x03\x01\x02"),
    sb(LINEMODE, b"\x01"),
    sb(NAWS, b"\x00"),  # four bytes expected
    sb(TSPEED, b"\x00abc,def"),
    sb(200, bytes(range(40))),
    bytes([IAC, SB, IAC, SE]),
    bytes([IAC, WILL, NEW_ENVIRON, IAC, WILL, CHARSET, IAC, DO, LINEMODE, IAC, WONT, TTYPE]),
    bytes([IAC, DONT, 1, IAC, DO, 0, IAC, 242, IAC, 249]),
]


async def raw_connection(port: int, rcvbuf: int | None = None, host: str = OTHER_ADDRESS):
    """A bare TCP connection, from the attackers' address (::1) unless told otherwise."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET,
                         socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    return await asyncio.open_connection(sock=sock)


async def closed_by_server(reader: asyncio.StreamReader, timeout: float = DEADLINE) -> bool:
    """Read (and drop) everything until end of stream; False if it has not come in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            data = await asyncio.wait_for(reader.read(65536), deadline - time.monotonic())
        except TimeoutError:
            return False
        except ConnectionError:
            return True
        if not data:
            return True
    return False


async def log_says(home: Path, pattern: str, timeout: float = DEADLINE) -> str:
    """Wait until data/reussite.log has a line matching ``pattern``; that line."""
    log = home / "data" / "reussite.log"
    deadline = time.monotonic() + timeout
    while True:
        text = log.read_text(encoding="utf-8") if log.exists() else ""
        found = re.search(pattern, text)
        if found:
            return found.group(0)
        if time.monotonic() > deadline:
            raise AssertionError(f"no {pattern!r} in the log:\n{text[-3000:]}")
        await asyncio.sleep(0.1)


async def still_answers(port: int, handle: str) -> None:
    """A real caller (127.0.0.1) gets the login screen, signs up and reaches the menu."""
    caller = await call_when_free(port, timeout=DEADLINE)
    await signup(caller, handle, "pass-word", DEADLINE)
    await to_menu(caller, DEADLINE)
    caller.close()
    await caller.wait_closed(DEADLINE)


async def test_garbage_iac_floods_and_a_megabyte_without_newline(door_home: Path) -> None:
    async with running(door_home, ssh=False, bind=TWO_ADDRESSES) as ports:
        attackers = [await raw_connection(ports.telnet) for _ in range(3)]
        (_, garbage), (_, floods), (_, long_line) = attackers
        garbage.write(bytes(range(256)) * 400)
        floods.write(bytes([IAC, WILL, 24, IAC, DO, 1]) * 20000)
        floods.write(bytes([IAC, SB, 31]) + b"\x01" * 300_000)  # a NAWS that never ends
        long_line.write(b"A" * 1_000_000)  # buffered on our side; the door takes its time
        await still_answers(ports.telnet, "Hana")  # meanwhile, a real caller gets in
        for _, writer in attackers:
            writer.close()
        await still_answers(ports.telnet, "Ida")


async def test_silent_connection_is_dropped_at_the_login_timeout(door_home: Path) -> None:
    """A line that trickles telnet negotiation is hung up at login_timeout, and the door
    still lets a caller in, under the same timeout (5 s: signing up types three lines;
    the password's hashing is the server's time and does not count, door/gate/pool.py)."""
    configure(door_home, login_timeout=5)
    async with running(door_home, ssh=False) as ports:
        reader, writer = await raw_connection(ports.telnet, host="127.0.0.1")
        writer.write(b"\xff\xfb\x18")  # one byte and more: not silent, just slow
        assert await closed_by_server(reader), "a slowloris connection must time out"
        writer.close()
        await log_says(door_home, r"hung up before logging in: Login timed out")
        await still_answers(ports.telnet, "June")


async def test_a_connection_that_sends_nothing_is_dropped_at_the_first_byte_timeout(
        door_home: Path) -> None:
    configure(door_home, first_byte_timeout=2)  # login_timeout stays 120 s
    async with running(door_home, ssh=False) as ports:
        reader, writer = await raw_connection(ports.telnet, host="127.0.0.1")
        assert await closed_by_server(reader)
        writer.close()
        await log_says(door_home, r"hung up before logging in: Nothing received")


@pytest.mark.parametrize("attackers", [OTHER_ADDRESS, "127.0.0.1"])
async def test_silent_connections_take_no_node_and_keep_no_caller_out(
        door_home: Path, attackers: str) -> None:
    """200 connections that send nothing, from another address or from the caller's own:
    the caller still gets the login screen, then a node (two nodes in all)."""
    configure(door_home, max_nodes=2)
    async with running(door_home, ssh=False, bind=TWO_ADDRESSES) as ports:
        silent = [await raw_connection(ports.telnet, host=attackers) for _ in range(200)]
        first = await call(ports.telnet, timeout=DEADLINE)
        await signup(first, "Quinn", "quinn-pass", DEADLINE)
        await to_menu(first, DEADLINE)
        more = [await raw_connection(ports.telnet, host=attackers) for _ in range(100)]
        second = await call(ports.telnet, timeout=DEADLINE)
        await signup(second, "Rosa", "rosa-pass", DEADLINE)
        await to_menu(second, DEADLINE)  # the second and last node: silent lines took none
        for _, writer in silent + more:
            writer.close()
        for caller in (first, second):
            caller.close()


async def test_silent_connections_arriving_together_make_room_for_each_other(
        door_home: Path) -> None:
    """Each new one drops the one before, often before telnet negotiation has begun."""
    configure(door_home, login_per_address=1)
    async with running(door_home, ssh=False, bind=TWO_ADDRESSES) as ports:
        lines = await asyncio.gather(*(raw_connection(ports.telnet) for _ in range(60)))
        closed = await asyncio.gather(*(closed_by_server(reader) for reader, _ in lines[:-1]))
        assert all(closed)
        for _, writer in lines:
            writer.close()
        await still_answers(ports.telnet, "Uma")


async def test_a_line_hung_up_before_its_negotiation_began(door_home: Path) -> None:
    """The pool may drop a connection accepted in the same turn of the loop, before
    telnetlib3 has begun negotiating: nothing of it may run later (it once set the result
    of a cancelled future a second on, a traceback in the log)."""
    from door.gate.pool import LoginPool
    from door.net.telnet import make_shell, start_telnet

    pool = LoginPool(8, 8, 8, 60, 60)
    server = await start_telnet("127.0.0.1", 0, make_shell, pool)
    problems: list[dict] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: problems.append(context))
    try:
        protocol = server._server._protocol_factory()  # as asyncio does on accept

        def made_then_dropped(transport: asyncio.BaseTransport) -> None:
            type(protocol).connection_made(protocol, transport)
            protocol.ticket.hang_up("room needed")  # the same turn, as an eviction does

        began: list[bool] = []

        def negotiation_begins() -> None:  # what telnetlib3 scheduled as the line was made
            type(protocol).begin_negotiation(protocol)
            began.append(True)

        protocol.connection_made = made_then_dropped  # type: ignore[method-assign]
        protocol.begin_negotiation = negotiation_begins  # type: ignore[method-assign]
        ours, theirs = socket.socketpair()
        transport, _ = await loop.connect_accepted_socket(lambda: protocol, ours)
        await until(lambda: began and len(pool) == 0, "the scheduled negotiation ran")
        # The negotiation timer (connect_maxwait later) would finish a cancelled future:
        # none may have been set for a line already closed.
        assert protocol._check_later is None, "a timer would run for a closed line"
        assert problems == []
        theirs.close()
        transport.close()
    finally:
        loop.set_exception_handler(None)
        server.close()
        await server.wait_closed()


async def test_half_open_and_reset_connections_give_their_places_back(door_home: Path) -> None:
    configure(door_home, max_nodes=3, max_per_address=3)
    async with running(door_home, ssh=False) as ports:
        for _ in range(12):
            _, writer = await raw_connection(ports.telnet, host="127.0.0.1")
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.write(b"x")
            writer.close()  # RST: the server finds out when it next reads or writes
        for name in ("Kim", "Lou", "Max"):  # every place and node is free again
            await still_answers(ports.telnet, name)


async def test_a_caller_who_never_reads_is_dropped(door_home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(door.session, "DRAIN_TIMEOUT", 1.0)
    async with running(door_home, ssh=False, bind=TWO_ADDRESSES) as ports:
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await loop.sock_connect(sock, (OTHER_ADDRESS, ports.telnet))
        port = sock.getsockname()[1]
        for _ in range(2000):  # Ctrl-R, one at a time: a full repaint each, never read
            await loop.sock_sendall(sock, b"\x12")
            await asyncio.sleep(0.002)
        await still_answers(ports.telnet, "Ned")
        # Reading now would unstick the server: wait until it says it let the line go.
        await log_says(door_home, rf"\]?:{port}: left before logging in")
        reader, writer = await asyncio.open_connection(sock=sock)
        assert await closed_by_server(reader), "the door must hang up on a stuck reader"
        writer.close()


def tracebacks_in(log: Path) -> list[str]:
    text = log.read_text(encoding="utf-8", errors="replace")
    return [line for line in text.splitlines()
            if "Traceback" in line or line.lstrip().startswith('File "')]


async def test_telnet_options_in_any_state_never_log_a_traceback(door_home: Path) -> None:
    """NEW-ENVIRON, CHARSET, TTYPE, LINEMODE, NAWS and garbage SB, before negotiation ends,
    at the login screen and at the menu, 40 times each: no traceback in the log, and the
    warnings they cause are a handful, not a flood."""
    rounds = 40
    async with running(door_home, ssh=False, bind=TWO_ADDRESSES) as ports:
        _, early = await raw_connection(ports.telnet)  # before negotiation is over
        early.write(b"".join(NASTY_OPTIONS) * rounds)
        at_login = await call(ports.telnet, timeout=DEADLINE)
        at_menu = await call(ports.telnet, timeout=DEADLINE)
        await signup(at_menu, "Olaf", "olaf-pass", DEADLINE)
        await to_menu(at_menu, DEADLINE)
        for caller in (at_login, at_menu):
            for _ in range(rounds):
                for sequence in NASTY_OPTIONS:
                    caller.writer.send_iac(sequence)
        at_login.send("x")  # both still answer keys
        await at_login.wait_for("Handle:   x", DEADLINE)
        at_menu.send("h")
        await at_menu.wait_for("Hall of Fame", DEADLINE)
        await still_answers(ports.telnet, "Pia")
        for caller in (at_login, at_menu):
            caller.close()
        early.close()
    log = door_home / "data" / "reussite.log"
    assert tracebacks_in(log) == []
    warnings = [line for line in log.read_text(encoding="utf-8").splitlines()
                if " WARNING " in line]
    assert len(warnings) < 60, "\n".join(warnings)  # 40 rounds x 3 states x 16 sequences
