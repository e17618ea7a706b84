"""The login pool against floods, over loopback: a client that negotiates nothing is shown
the prompt without waiting out telnet's negotiation, and answers it gives late are handled;
a crowded network loses its own connections before a caller's; a caller who has typed at the
prompt is never dropped.  The floods come from 127.0.9.x and 127.x.0.1 (Linux answers all of
127/8 on loopback), the callers from 127.0.0.1."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
from pyteterm import PyteCaller, PyteTerminal, TelnetCaller
from serverhelp import configure, running, signup, to_menu
from waiting import WAIT

import door.net.telnet
from door.gate.pool import MADE_ROOM

IAC, WILL, DO, SB, SE = 255, 251, 253, 250, 240
TTYPE, NAWS, SGA, ECHO = 24, 31, 3, 1


async def connect_from(port: int, source: str) -> tuple[asyncio.StreamReader,
                                                        asyncio.StreamWriter]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def raw_caller(port: int, source: str = "127.0.0.1") -> PyteCaller:
    """A client that speaks no telnet (netcat): the server's requests land on its screen
    as a few odd characters, and it answers none."""
    reader, writer = await connect_from(port, source)
    return PyteCaller(reader, writer, PyteTerminal(80, 24, "cp437"))


async def flood(port: int, sources: list[str]) -> list[asyncio.StreamWriter]:
    """A silent connection from each address, each let in (or refused) before the next."""
    writers = []
    for source in sources:
        reader, writer = await connect_from(port, source)
        await asyncio.wait_for(reader.read(1), WAIT)  # its first telnet request, or a refusal
        writers.append(writer)
    return writers


async def test_a_raw_client_is_shown_the_prompt_without_telnets_negotiation_wait(
        door_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The negotiation wait made ten minutes: a client that sends nothing still sees the
    prompt (it is let in on its silence, not on that wait), types, and gets in."""
    monkeypatch.setattr(door.net.telnet, "NEGOTIATION_WAIT_S", 600.0)
    async with running(door_home, ssh=False) as ports:
        caller = await raw_caller(ports.telnet)
        await caller.wait_for("Handle:", WAIT)
        await signup(caller, "Netcat", "nc-password", WAIT)
        await to_menu(caller, WAIT)
        caller.writer.close()


async def test_a_raw_client_is_shown_the_prompt_without_waiting_for_the_charset_probe(
        door_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe's waits made ten minutes: a client that has said nothing is sent the probe
    and the prompt together (its silence is what a flood's room-making drops first)."""
    monkeypatch.setattr(door.net.telnet, "RAW_PROBE_TIMEOUT", 600.0)
    monkeypatch.setattr(door.net.telnet, "PROBE_TIMEOUT", 600.0)
    async with running(door_home, ssh=False) as ports:
        caller = await raw_caller(ports.telnet)
        await caller.wait_for("Handle:", WAIT)
        assert b"\x1b[6n" in caller.term.raw  # the probe went out, unanswered
        await signup(caller, "Nowait", "nw-password", WAIT)
        await to_menu(caller, WAIT)
        caller.writer.close()


async def test_a_raw_clients_terminal_that_answers_the_probe_late_gets_its_charset(
        door_home: Path) -> None:
    """netcat in a UTF-8 terminal: the login screen comes in the default CP437 at once,
    and when the terminal's answer to the probe arrives, the screen is drawn again in
    UTF-8; the answer is not taken for keys."""
    async with running(door_home, ssh=False) as ports:
        reader, writer = await connect_from(ports.telnet, "127.0.0.1")
        caller = PyteCaller(reader, writer, PyteTerminal(80, 24, "utf8"))
        await caller.wait_for("Handle:", WAIT)
        assert "Welcome to R\ufffdussite" in caller.term.text  # CP437's é, not UTF-8
        writer.write(b"\x1b[24;1R\x1b[24;2R")  # é took one cell: a UTF-8 terminal
        await caller.wait_for("Welcome to Réussite", WAIT)
        caller.send("new")
        await caller.wait_for("Handle:   new", WAIT)
        writer.close()


async def test_telnet_answers_that_come_after_the_prompt_are_negotiated(
        door_home: Path) -> None:
    """A telnet client slower than the door's silence limit: shown the prompt first, its
    answers then get the options that follow them (character mode, the window size)."""
    async with running(door_home, ssh=False) as ports:
        reader, writer = await connect_from(ports.telnet, "127.0.0.1")
        seen = bytearray()
        while b"Handle:" not in seen:
            seen += await asyncio.wait_for(reader.read(4096), WAIT)
        writer.write(bytes([IAC, WILL, TTYPE, IAC, WILL, NAWS]))
        while bytes([IAC, WILL, SGA]) not in seen:  # advanced negotiation began
            seen += await asyncio.wait_for(reader.read(4096), WAIT)
        writer.write(bytes([IAC, SB, NAWS, 0, 100, 0, 30, IAC, SE]))
        writer.write(b"x")
        caller = PyteCaller(reader, writer, PyteTerminal(100, 30, "cp437"))
        await caller.wait_for("Handle:   x", WAIT)
        writer.close()


async def test_a_crowded_network_loses_its_own_lines_before_a_raw_caller(
        door_home: Path) -> None:
    """Eight places; a raw client, silent until its prompt, then 40 silent lines from one
    /24: the flood's own lines are dropped for room, never the caller's."""
    configure(door_home, login_pool=8, first_byte_timeout=300)
    async with running(door_home, ssh=False) as ports:
        caller = await raw_caller(ports.telnet)
        await asyncio.wait_for(caller.pump(WAIT), WAIT)  # let in: the first request came
        lines = await flood(ports.telnet, [f"127.0.9.{n}" for n in range(1, 41)])
        await caller.wait_for("Handle:", WAIT)
        await signup(caller, "Rawley", "raw-password", WAIT)
        await to_menu(caller, WAIT)
        assert MADE_ROOM not in caller.term.text
        for writer in lines:
            writer.close()


async def test_a_crowded_network_loses_before_a_telnet_caller(door_home: Path) -> None:
    configure(door_home, login_pool=8, first_byte_timeout=300)
    async with running(door_home, ssh=False) as ports:
        caller = await TelnetCaller.connect(ports.telnet)
        lines = await flood(ports.telnet, [f"127.0.9.{n}" for n in range(1, 41)])
        await caller.wait_for("Handle:", WAIT)
        await signup(caller, "Telly", "tel-password", WAIT)
        await to_menu(caller, WAIT)
        for writer in lines:
            writer.close()


async def test_a_caller_who_typed_is_never_dropped_even_in_a_crowded_network(
        door_home: Path) -> None:
    """The caller shares its /24 with the flood, and is the oldest line in it: once it has
    typed at the prompt it stays, while the flood's lines make room for each other and
    for lines from other networks."""
    configure(door_home, login_pool=4, first_byte_timeout=300)
    async with running(door_home, ssh=False) as ports:
        caller = await raw_caller(ports.telnet)
        await caller.wait_for("Handle:", WAIT)
        caller.send("new")
        await caller.wait_for("Handle:   new", WAIT)
        lines = await flood(ports.telnet, [f"127.0.0.{n}" for n in range(2, 30)])
        lines += await flood(ports.telnet, [f"127.{n}.0.1" for n in range(20, 60)])
        caller.send("\r")
        await caller.wait_for("New user", WAIT)
        caller.send("Typist\rtype-pass\rtype-pass\r")
        await to_menu(caller, WAIT)
        assert MADE_ROOM not in caller.term.text
        for writer in lines:
            writer.close()
