"""Telnet on a raw client socket: IAC out of the data, answers without loops, 0xFF doubled;
the socket checks; the session's time warnings, deadline clamp and carrier-loss save."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import time

import pytest
from pyteterm import PyteTerminal
from waiting import WAIT

from door.bbs.dropfile import MAX_TIME_LEFT_S
from door.commands.door import pick_charset, stdio_charset
from door.commands.door_visit import EXIT_CARRIER, door_visit
from door.net.socket import (
    DO,
    DONT,
    IAC,
    NAWS,
    SB,
    SE,
    WILL,
    WONT,
    NotASocket,
    TelnetFilter,
    inherit_socket,
    is_socket,
    open_socket_terminal,
)
from door.session import Caller, CarrierLost, Services, Session, TimeUp


def test_iac_stripped_doubled_ff_kept_and_split_anywhere() -> None:
    stream = bytes([ord("a"), IAC, IAC, ord("b"), IAC, 241, ord("c"), IAC, SB, 24, 0, 65, 66,
                    IAC, SE, ord("d")])
    whole = TelnetFilter().feed(stream)
    assert whole[0] == b"a\xffbcd"
    one_by_one = TelnetFilter()
    clean = b"".join(one_by_one.feed(bytes([byte]))[0] for byte in stream)
    assert clean == whole[0]


def test_negotiation_answers_once_and_refuses_the_unknown() -> None:
    telnet = TelnetFilter()
    greeting = telnet.greeting()
    assert bytes([IAC, WILL, 1]) in greeting and bytes([IAC, DO, NAWS]) in greeting
    _, replies, _ = telnet.feed(bytes([IAC, DO, 1, IAC, WILL, NAWS]))  # already agreed
    assert replies == b""
    _, replies, _ = telnet.feed(bytes([IAC, DO, 5, IAC, WILL, 24]))
    assert replies == bytes([IAC, WONT, 5, IAC, DONT, 24])
    _, replies, _ = telnet.feed(bytes([IAC, DONT, 1]))
    assert replies == bytes([IAC, WONT, 1])
    _, replies, _ = telnet.feed(bytes([IAC, DONT, 1]))  # already off: no loop
    assert replies == b""


def test_naws_sizes_and_output_escaping() -> None:
    telnet = TelnetFilter()
    _, _, sizes = telnet.feed(bytes([IAC, SB, NAWS, 0, 132, 0, IAC, IAC, IAC, SE]))
    assert sizes == [(132, 255)]
    assert TelnetFilter.escape(b"a\xffb") == b"a\xff\xffb"


def test_is_socket_tells_sockets_from_the_rest(tmp_path) -> None:
    a, b = socket.socketpair()
    read_end, write_end = os.pipe()
    with open(tmp_path / "f", "wb") as plain:
        assert is_socket(a.fileno())
        assert not is_socket(read_end) and not is_socket(plain.fileno())
        assert not is_socket(9999) and not is_socket(-1)
        with pytest.raises(NotASocket):
            inherit_socket(read_end)
    adopted = inherit_socket(os.dup(a.fileno()))
    assert adopted.type == socket.SOCK_STREAM
    for thing in (a, b, adopted):
        thing.close()
    os.close(read_end)
    os.close(write_end)


async def _recv(sock: socket.socket) -> bytes:
    """What comes until the line has been quiet a moment: for checking that nothing does."""
    loop = asyncio.get_running_loop()
    out = b""
    while True:
        try:
            out += await asyncio.wait_for(loop.sock_recv(sock, 65536), 0.2)
        except TimeoutError:
            return out


async def _recv_until(sock: socket.socket, screen: PyteTerminal, done) -> bytes:
    """Read into ``screen`` until ``done(screen, read so far)``, to a deadline."""
    loop = asyncio.get_running_loop()
    out = b""
    deadline = time.monotonic() + WAIT
    while not done(screen, out):
        assert time.monotonic() < deadline, "\n".join(screen.lines)
        with contextlib.suppress(TimeoutError):
            data = await asyncio.wait_for(loop.sock_recv(sock, 65536), 0.1)
            out += data
            screen.feed(data)
    return out


async def test_time_warnings_at_5_3_and_1_minutes(settings) -> None:
    now = [0.0]
    ours, theirs = socket.socketpair()
    terminal = await open_socket_terminal(ours, telnet=False)
    theirs.setblocking(False)
    session = Session(terminal, Services(settings, clock=lambda: now[0]),
                      Caller(alias="t", time_left_s=600))
    loop = asyncio.get_running_loop()
    screen = PyteTerminal(80, 24, "cp437")
    for at, expected in ((200, None), (301, "Only 5 minutes left"),
                         (421, "Only 3 minutes left"), (541, "Only 1 minute left in")):
        now[0] = at
        await loop.sock_sendall(theirs, b"x")
        assert (await session.key()).char == "x"
        if expected:
            await _recv_until(theirs, screen, lambda screen, out, expected=expected:
                              expected in screen.lines[22] and b"\x07" in out)
        else:
            assert await _recv(theirs) == b""
    now[0] = 601
    with pytest.raises(TimeUp):
        await session.key()
    theirs.close()
    await terminal.close()


async def test_deadline_is_clamped_to_a_day(settings) -> None:
    ours, theirs = socket.socketpair()
    terminal = await open_socket_terminal(ours, telnet=False)
    session = Session(terminal, Services(settings, clock=lambda: 0.0), Caller(time_left_s=10**9))
    assert session.time_left == MAX_TIME_LEFT_S
    theirs.close()
    await terminal.close()


async def test_game_saved_even_when_the_screen_cleared_its_hook(settings) -> None:
    ours, theirs = socket.socketpair()
    terminal = await open_socket_terminal(ours, telnet=False)
    session = Session(terminal, Services(settings), Caller())
    saved = []

    async def hook() -> None:
        saved.append("saved")
    session.autosave = hook
    theirs.close()  # the caller hangs up
    with pytest.raises(CarrierLost):
        await session.key()
    assert isinstance(session.ended_by, CarrierLost)
    session.autosave = None  # what a game screen's ``finally`` does while unwinding
    await session.save_game_in_progress()
    assert saved == ["saved"]
    await session.save_game_in_progress()  # once only
    assert saved == ["saved"]
    await terminal.close()


async def test_sighup_ends_the_visit_through_carrier_loss_and_saves(settings) -> None:
    before = signal.getsignal(signal.SIGHUP)  # SIG_IGN when the suite runs under nohup
    ours, theirs = socket.socketpair()
    terminal = await open_socket_terminal(ours, telnet=False)
    theirs.setblocking(False)
    session = Session(terminal, Services(settings), Caller(alias="hup", node=4))
    saved = []

    async def hook() -> None:
        saved.append("saved")
    session.autosave = hook
    visit = asyncio.ensure_future(door_visit(session))
    shown = b""
    while b"Press any key" not in shown:
        shown += await asyncio.wait_for(asyncio.get_running_loop().sock_recv(theirs, 65536),
                                        WAIT)
    os.kill(os.getpid(), signal.SIGHUP)
    assert await asyncio.wait_for(visit, WAIT) == EXIT_CARRIER
    assert saved == ["saved"] and terminal.carrier_lost
    assert signal.getsignal(signal.SIGHUP) == before
    theirs.close()


@pytest.mark.parametrize("env,name,glyphs", [
    ({"TERM": "pc3", "LANG": "en_US.UTF-8"}, "cp437", False),  # Synchronet's ExternalTermANSI
    ({"TERM": "syncterm", "LANG": "C.UTF-8"}, "cp437", True),
    ({"TERM": "ansi-bbs"}, "cp437", True),
    ({"TERM": "dumb", "LANG": "C.UTF-8"}, "ascii", False),
    ({"TERM": "xterm", "LANG": "C.UTF-8"}, "utf8", False),
    ({"TERM": "xterm-256color", "LC_ALL": "fr_FR.utf8"}, "utf8", False),
    ({"TERM": "xterm", "LANG": "C"}, "cp437", False),
    ({}, "cp437", False),
])
def test_stdio_charset_from_term_then_lang(env: dict[str, str], name: str,
                                           glyphs: bool) -> None:
    charset = stdio_charset(env)
    assert (charset.name, charset.c0_glyphs) == (name, glyphs)


def test_charset_choice_order(tmp_path) -> None:
    from argparse import Namespace

    from door.bbs.dropfile import parse_dropfile
    graphics = parse_dropfile(b"0\n-1\n1\nB\n1\nR\nA\n1\n9\n1\n1\n", "door32.sys")
    plain = parse_dropfile(b"0\n-1\n1\nB\n1\nR\nA\n1\n9\n0\n1\n", "door32.sys")
    assert pick_charset(Namespace(charset="utf8"), plain, "stdio").name == "utf8"
    assert pick_charset(Namespace(charset=None), plain, "socket").name == "ascii"
    assert pick_charset(Namespace(charset=None), graphics, "socket").name == "cp437"
