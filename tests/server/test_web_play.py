"""The web door's WebSocket: the same Session, logins, caps, lockouts, takeover and logs as
telnet, checked with a browser-protocol client (the Chromium test is test_web_browser.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
import time
from pathlib import Path

import aiohttp
import pytest
from serverhelp import (
    OTHER_ADDRESS,
    TWO_ADDRESSES,
    call,
    configure,
    login,
    mid_game,
    open_game,
    running,
    signup,
    to_menu,
)
from test_hostile import closed_by_server, log_says, still_answers, tracebacks_in
from waiting import WAIT
from webhelp import WebCaller, handshake, masked_frame

import door.session
from door.games.montecarlo import MonteCarlo, position_name

NUMBER = 11982


async def web_call(port: int, **kw: object) -> WebCaller:
    caller = await WebCaller.connect(port, **kw)
    await caller.wait_for("Handle:", WAIT)
    return caller


async def wait_until(check, what: str, timeout: float = WAIT,
                     caller: WebCaller | None = None) -> None:
    """Poll ``check`` to a deadline, reading ``caller``'s screen meanwhile."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        if caller is not None:
            await caller.pump(0.05)
        else:
            await asyncio.sleep(0.05)


async def test_a_web_caller_signs_up_and_plays_in_utf8(door_home: Path, caplog) -> None:
    caplog.set_level(logging.INFO)
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web)
        assert len(caller.term.lines) == 25  # 80x25 until the browser says otherwise
        await signup(caller, "Wendy", "wendy-pw", WAIT)
        await to_menu(caller, WAIT)
        await open_game(caller, "c", NUMBER)
        assert "─" in caller.term.text or "│" in caller.term.text  # UTF-8 box drawing
        assert any(suit in caller.term.text for suit in "♠♥♦♣")
        p, q = MonteCarlo.new(NUMBER).pairs()[0]
        caller.send(position_name(p) + position_name(q))
        game = MonteCarlo.new(NUMBER)
        game.play(position_name(p) + position_name(q))
        await caller.wait_for(f"Score {game.score}", WAIT)
        await caller.close()
        await wait_until(lambda: "node 1: disconnect" in caplog.text, "the disconnect")
    assert "web connect from 127.0.0.1:" in caplog.text
    assert "node 1: login Wendy from 127.0.0.1:" in caplog.text


async def test_the_screen_follows_the_browser_window(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web, rows=30)
        await signup(caller, "Rowan", "rowan-pw", WAIT)
        await to_menu(caller, WAIT)
        assert "Hot key" in caller.term.lines[29]  # the status line on the last row
        caller.resize(80, 40)
        await wait_until(lambda: "Hot key" in caller.term.lines[39], "a 40-row screen",
                         caller=caller)
        caller.resize(80, 25)
        await wait_until(lambda: "Hot key" in caller.term.lines[24], "a 25-row screen",
                         caller=caller)
        await caller.close()


async def test_a_page_elsewhere_may_not_open_the_socket(door_home: Path) -> None:
    configure(door_home, origins="https://bbs.example.org")
    async with running(door_home, ssh=False, web=True) as ports:
        for origin in ("http://evil.example", None, f"http://127.0.0.1:{ports.web + 1}"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await WebCaller.connect(ports.web, origin=origin)
            assert refused.value.status == 403
        listed = await web_call(ports.web, origin="https://bbs.example.org")
        await listed.close()


async def test_a_silent_socket_is_dropped_by_the_login_pool(door_home: Path) -> None:
    configure(door_home, first_byte_timeout=2)
    async with running(door_home, ssh=False, web=True) as ports:
        silent = await WebCaller.connect(ports.web)  # the page is sent, nothing comes back
        await silent.wait_for("Nothing received: goodbye.", WAIT)
        await silent.wait_closed(WAIT)
        await silent.close()


async def test_web_and_telnet_share_the_per_address_cap(door_home: Path) -> None:
    configure(door_home, max_per_address=2)
    async with running(door_home, ssh=False, web=True) as ports:
        telnet = await call(ports.telnet)
        telnet.send("x")  # not silent: the cap cannot make room by dropping it
        web = await web_call(ports.web)
        web.send("y")
        extra = await WebCaller.connect(ports.web)
        await extra.wait_for("Too many connections from your address", WAIT)
        await extra.wait_closed(WAIT)
        for caller in (extra, web):
            await caller.close()
        telnet.close()


async def test_failed_web_logins_lock_the_handle_for_telnet_too(door_home: Path) -> None:
    configure(door_home, login_attempts=2)
    async with running(door_home, ssh=False, web=True) as ports:
        owner = await call(ports.telnet)
        await signup(owner, "Gina", "gina-pass")
        owner.close()
        guesser = await web_call(ports.web)
        for guess in ("guess-1", "guess-2"):
            await login(guesser, "gina", guess)
            await guesser.settle()
        await guesser.wait_for("Too many failed logins on that handle", WAIT)
        await guesser.wait_closed(WAIT)
        await guesser.close()
        back = await call(ports.telnet)  # the same address, by telnet
        back.send("gina\r")
        await back.wait_for("Too many failed logins on that handle from your address", WAIT)
        back.close()


async def test_a_web_call_takes_over_from_a_telnet_one(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        first = await call(ports.telnet)
        await mid_game(first, "Remy", "again-pw", NUMBER)
        second = await web_call(ports.web)
        await login(second, "remy", "again-pw")
        await second.wait_for("Remy is already in the door on node 1.", WAIT)
        second.send("y")
        await first.wait_for("You have called again from another line", WAIT)
        await first.wait_closed(WAIT)
        await to_menu(second, WAIT)
        second.send("c")
        await second.wait_for(f"Resume your Monte Carlo game #{NUMBER}?", WAIT)
        await second.close()


async def test_a_proxy_listed_in_sysop_ini_names_the_caller(door_home: Path, caplog) -> None:
    caplog.set_level(logging.INFO)
    configure(door_home, proxies="127.0.0.1")
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web, headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.9"})
        await caller.close()
        await wait_until(lambda: "web connect from 203.0.113.9:" in caplog.text, "the log line")


async def test_x_forwarded_for_from_anyone_else_is_ignored(door_home: Path, caplog) -> None:
    caplog.set_level(logging.INFO)
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web, headers={"X-Forwarded-For": "203.0.113.9"})
        await caller.close()
        await wait_until(lambda: "web connect from 127.0.0.1:" in caplog.text, "the log line")
    assert "203.0.113.9" not in caplog.text


async def test_shutdown_tells_web_callers(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web)
    await caller.wait_for("The door is closing for maintenance", WAIT)
    await caller.wait_closed(WAIT)
    await caller.close()


async def test_a_browser_that_never_reads_is_dropped(door_home: Path, monkeypatch,
                                                     caplog) -> None:
    caplog.set_level(logging.INFO, logger="door")  # the INFO lines reach data/reussite.log
    monkeypatch.setattr(door.session, "DRAIN_TIMEOUT", 1.0)
    async with running(door_home, ssh=False, web=True, bind=TWO_ADDRESSES) as ports:
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await loop.sock_connect(sock, (OTHER_ADDRESS, ports.web))
        port = sock.getsockname()[1]
        await loop.sock_sendall(sock, handshake(ports.web, OTHER_ADDRESS))
        for _ in range(2000):  # Ctrl-R, one message at a time: a repaint each, never read
            await loop.sock_sendall(sock, masked_frame(b"\x12"))
            await asyncio.sleep(0.002)
        await still_answers(ports.telnet, "Ned")
        await log_says(door_home, rf"web \[?{OTHER_ADDRESS}\]?:{port}: left before logging in")
        reader, writer = await asyncio.open_connection(sock=sock)
        assert await closed_by_server(reader), "the door must hang up on a stuck reader"
        writer.close()
    assert tracebacks_in(door_home / "data" / "reussite.log") == []


async def test_floods_and_oversized_messages_cost_nobody_else(door_home: Path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="door")
    async with running(door_home, ssh=False, web=True, bind=TWO_ADDRESSES) as ports:
        attackers = []
        for payload in (b"x" * 200_000, b"\x00" * 60_000):  # one message over the cap; keys
            reader, writer = await asyncio.open_connection(OTHER_ADDRESS, ports.web)
            writer.write(handshake(ports.web, OTHER_ADDRESS))
            writer.write(masked_frame(payload) * (1 if len(payload) > 65536 else 40))
            writer.write(masked_frame(b"not json", opcode=0x1) + masked_frame(b'{"resize": 7}',
                                                                               opcode=0x1))
            attackers.append((reader, writer))
        for request in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
                        bytes(range(256)) * 20):  # not even HTTP
            attackers.append(await asyncio.open_connection(OTHER_ADDRESS, ports.web))
            attackers[-1][1].write(request)
        await still_answers(ports.telnet, "Oona")
        web = await web_call(ports.web)
        web.send("new\r")
        await web.wait_for("New user", WAIT)
        await web.close()
        assert await closed_by_server(attackers[0][0]), "a message over 64 KiB ends the line"
        for _, writer in attackers:
            writer.close()
        await log_says(door_home, r"web \S+: a malformed HTTP request \(Invalid character in "
                                  r"Content-Length")
    assert tracebacks_in(door_home / "data" / "reussite.log") == []


async def test_a_silent_http_connection_is_closed(door_home: Path) -> None:
    configure(door_home, first_byte_timeout=2)
    async with running(door_home, ssh=False, web=True) as ports:
        reader, writer = await asyncio.open_connection("127.0.0.1", ports.web)
        assert await closed_by_server(reader), "an HTTP connection sending nothing is closed"
        writer.close()


async def test_one_address_holds_a_bounded_number_of_http_connections(door_home: Path,
                                                                        caplog) -> None:
    """[web] connections_per_address: the surplus is answered 429 and closed, the others
    still answer, and one closed makes room again."""
    configure(door_home, "web", connections_per_address=3)
    async with running(door_home, ssh=False, web=True) as ports:
        held = [await asyncio.open_connection("127.0.0.1", ports.web) for _ in range(3)]
        answer = await answer_of(ports.web)
        assert answer.startswith(b"HTTP/1.1 429 Too Many Requests\r\n"), answer
        assert b"Retry-After: " in answer and b"Too many connections" in answer
        assert "refused (429): more than 3 HTTP connections at once" in caplog.text

        reader, writer = held[0]
        writer.write(b"GET /online HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert (await asyncio.wait_for(reader.readline(), WAIT)).startswith(b"HTTP/1.1 200")
        writer.close()
        deadline = time.monotonic() + WAIT
        while True:  # room again, once the server has seen that one go
            answer = await answer_of(ports.web)
            if answer.startswith(b"HTTP/1.1 200"):
                break
            assert answer.startswith(b"HTTP/1.1 429"), answer
            assert time.monotonic() < deadline, "no room after a connection closed"
            await asyncio.sleep(0.1)
        for _, other in held[1:]:
            other.close()
    assert tracebacks_in(door_home / "data" / "reussite.log") == []


async def test_everyone_together_holds_at_most_max_connections(door_home: Path,
                                                               caplog) -> None:
    configure(door_home, "web", connections_per_address=10, max_connections=2)
    async with running(door_home, ssh=False, web=True, bind=TWO_ADDRESSES) as ports:
        held = [await asyncio.open_connection(host, ports.web)
                for host in ("127.0.0.1", OTHER_ADDRESS)]
        answer = await answer_of(ports.web)
        assert answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n"), answer
        assert "refused (503): 2 HTTP connections open" in caplog.text
        for _, writer in held:
            writer.close()


async def test_a_listed_proxy_holds_as_many_http_connections_as_it_needs(door_home: Path
                                                                         ) -> None:
    configure(door_home, "web", connections_per_address=1, proxies="127.0.0.1")
    async with running(door_home, ssh=False, web=True) as ports:
        held = [await asyncio.open_connection("127.0.0.1", ports.web) for _ in range(3)]
        assert (await answer_of(ports.web)).startswith(b"HTTP/1.1 200")
        for _, writer in held:
            writer.close()


async def test_hundreds_of_connections_from_one_address_are_refused_without_a_traceback(
        door_home: Path) -> None:
    """300 connections at once from one address, three times over (HTTP requests, WebSocket
    upgrades, and connections reset before the server took them in): the surplus is told
    429, the log holds no traceback and no flood, and the door still answers after."""
    configure(door_home, "web", connections_per_address=20)
    async with running(door_home, ssh=False, web=True) as ports:
        for _ in range(3):
            reset_before_accepted(ports.web, 100)
            answers = await asyncio.gather(*(hostile_http(ports.web, i) for i in range(200)))
            assert sum(a.startswith(b"HTTP/1.1 429") for a in answers) > 0
            assert all(a[:12] in (b"", b"HTTP/1.1 101", b"HTTP/1.1 200", b"HTTP/1.1 429")
                       for a in answers), {a[:12] for a in answers}
        assert (await answer_of(ports.web)).startswith(b"HTTP/1.1 200")
    log = door_home / "data" / "reussite.log"
    assert tracebacks_in(log) == []
    refusals = [line for line in log.read_text(encoding="utf-8").splitlines()
                if "refused (429)" in line]
    assert 0 < len(refusals) <= 20, refusals  # held back: a few, then a count


def reset_before_accepted(port: int, count: int) -> None:
    """``count`` connections reset by their client before the server has taken them in (the
    kernel completes a loopback connection in the listener's backlog: this blocks nothing,
    and the server's loop, this one, sees them only once they are gone)."""
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


async def hostile_http(port: int, i: int) -> bytes:
    """One connection of a flood: a GET or a WebSocket upgrade (by ``i``); the head of the
    answer ("" if the connection closed without one)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if i % 2 == 0:
        writer.write(b"GET /online HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    else:
        writer.write(handshake(port))
    try:
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
    except asyncio.IncompleteReadError as exc:
        answer = exc.partial
    except ConnectionError:
        answer = b""
    writer.close()
    return answer


async def answer_of(port: int) -> bytes:
    """What one GET /online on a new connection brings before the connection closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /online HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    answer = b""
    with contextlib.suppress(ConnectionError):
        answer = await asyncio.wait_for(reader.read(), WAIT)
    writer.close()
    return answer
