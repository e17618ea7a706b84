"""What a stranger sends reaches the log escaped (door/logs/policy.py's SafeFormatter on every
handler): a telnet terminal type and a malformed HTTP request line holding escape
sequences and a bell, a WebSocket's Origin holding a right-to-left override."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import telnetlib3
from serverhelp import running
from test_hostile import log_says
from waiting import WAIT

EVIL = "\x1b]0;pwned\x07\x1b[2J"


async def test_terminal_type_origin_and_request_line_are_escaped(door_home: Path,
                                                                 caplog) -> None:
    caplog.set_level(logging.INFO)
    async with running(door_home, ssh=False, web=True) as ports:
        _, writer = await telnetlib3.open_connection(
            "127.0.0.1", ports.telnet, encoding=False, term=f"syncterm{EVIL}",
            connect_minwait=0.0, connect_maxwait=1.0)
        await log_says(door_home, r"cp437 with glyphs, terminal type syncterm", WAIT)
        writer.close()
        for request, status in (
                ("GET /play HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://x\u202eevil\r\n"
                 "Upgrade: websocket\r\nConnection: Upgrade, close\r\n"
                 "Sec-WebSocket-Key: "
                 "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", b"403"),
                (f"GET /{EVIL} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", b"400"),
                ("GET / HTTP/1.1\r\nHost: evil\u202e.example\r\nConnection: close\r\n\r\n",
                 b"421")):
            reader, writer = await asyncio.open_connection("127.0.0.1", ports.web)
            writer.write(request.encode("utf-8"))
            answer = await asyncio.wait_for(reader.read(), WAIT)
            assert answer[9:12] == status, answer[:40]
            writer.close()
        await log_says(door_home, r"a malformed HTTP request", WAIT)
    log = (door_home / "data" / "reussite.log").read_text(encoding="utf-8")
    assert not any(ch in log for ch in "\x1b\x07\u202e")
    assert r"Origin 'http://x\u202eevil' is not this door's" in log
    assert r"Host 'evil\u202e.example' is not this door's" in log
    assert r"terminal type syncterm\x1b]0;pwned\x07\x1b[2j" in log  # (lower-cased)
