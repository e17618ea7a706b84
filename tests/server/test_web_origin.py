"""Which requests the web door answers: its Host rules and its WebSocket's Origin rules,
with and without [web] public_url, against a DNS-rebinding page (its own name pointed at
the door's address: Host and Origin are evil.example)."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from homehelp import configure
from serverhelp import running
from webhelp import WebCaller, get

from door.config import ConfigError, load_settings
from door.web.origin import host_allowed, origin_allowed, parse_origin

REBINDING = {"Host": "evil.example", "Origin": "http://evil.example"}


async def refused_socket(port: int, headers: dict[str, str]) -> int:
    """The status a WebSocket upgrade with these headers gets (101 when it opened)."""
    async with aiohttp.ClientSession() as http:
        try:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/play", headers=headers)
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status
        await ws.close()
        return 101


async def test_a_rebinding_page_gets_nothing_by_default(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        for path in ("/", "/halloffame", "/api/online", "/static/play.js"):
            status, _, body = await get(ports.web, path, headers={"Host": "evil.example"})
            assert status == 421 and "does not answer" in body, path
        assert await refused_socket(ports.web, REBINDING) == 421
        # The door's own page, reached by its address, still plays.
        assert (await get(ports.web, "/"))[0] == 200
        assert (await get(ports.web, "/", headers={"Host": f"localhost:{ports.web}"}))[0] == 200
        caller = await WebCaller.connect(ports.web)
        try:
            await caller.wait_for("Handle:")
        finally:
            await caller.close()


async def test_public_url_names_the_door_and_nothing_else(door_home: Path) -> None:
    configure(door_home, public_url="https://bbs.example.org")
    async with running(door_home, ssh=False, web=True) as ports:
        named = {"Host": "bbs.example.org"}
        assert (await get(ports.web, "/halloffame", headers=named))[0] == 200
        assert (await get(ports.web, "/", headers={"Host": "bbs.example.org:443"}))[0] == 200
        assert (await get(ports.web, "/", headers={"Host": "bbs.example.org:8443"}))[0] == 421
        assert (await get(ports.web, "/", headers=REBINDING))[0] == 421
        assert await refused_socket(ports.web, REBINDING) == 421
        # The public origin opens the socket (a proxy in front passing the name on) ...
        assert await refused_socket(ports.web, {"Host": "bbs.example.org",
                                                "Origin": "https://bbs.example.org"}) == 101
        # ... its scheme counts: a page on plain http is another origin ...
        assert await refused_socket(ports.web, {"Host": "bbs.example.org",
                                                "Origin": "http://bbs.example.org"}) == 403
        # ... and a page elsewhere may not open it even naming the right host.
        assert await refused_socket(ports.web, {"Host": "bbs.example.org",
                                                "Origin": "https://evil.example"}) == 403
        assert await refused_socket(ports.web, {"Host": f"127.0.0.1:{ports.web}"}) == 403


def test_the_rules_one_by_one() -> None:
    public = parse_origin("https://bbs.example.org")
    assert public == ("https", "bbs.example.org", 443)
    assert host_allowed("127.0.0.1:8023", None) and host_allowed("[::1]:8023", None)
    assert host_allowed("localhost", None) and host_allowed("192.0.2.7:80", None)
    assert not host_allowed("evil.example", None) and not host_allowed("", None)
    assert not host_allowed("127.0.0.1.evil.example", None)
    assert not host_allowed("bbs.example.org:99999", public)
    assert not host_allowed("bbs.example.org@evil.example", public)
    # The page's own address, scheme included (http here: no TLS).
    assert origin_allowed("http://127.0.0.1:8023", "127.0.0.1:8023", "http", None, ())
    assert not origin_allowed("https://127.0.0.1:8023", "127.0.0.1:8023", "http", None, ())
    assert not origin_allowed("http://127.0.0.1:8024", "127.0.0.1:8023", "http", None, ())
    assert not origin_allowed("http://evil.example", "evil.example", "http", None, ())
    assert not origin_allowed("null", "127.0.0.1:8023", "http", None, ())
    assert not origin_allowed("", "127.0.0.1:8023", "http", None, ())
    assert origin_allowed("https://bbs.example.org", "127.0.0.1:8023", "http", public, ())
    assert origin_allowed("http://other.example:8080", "x", "http", None,
                          ("http://other.example:8080",))


@pytest.mark.parametrize(("value", "kept"), [
    ("https://BBS.example.org/", "https://bbs.example.org"),
    ("https://bbs.example.org:443", "https://bbs.example.org"),
    ("http://bbs.example.org:8023", "http://bbs.example.org:8023"),
    ("http://[2001:db8::1]:8023", "http://[2001:db8::1]:8023"),
    ("", ""),
])
def test_public_url_is_read_as_an_origin(door_home: Path, value: str, kept: str) -> None:
    configure(door_home, public_url=value)
    assert load_settings(door_home).web.public_url == kept


@pytest.mark.parametrize("value", ["bbs.example.org", "ftp://bbs.example.org",
                                   "https://bbs.example.org/play", "https://x:99999",
                                   "https://user@bbs.example.org"])
def test_a_public_url_that_is_not_one_says_so(door_home: Path, value: str) -> None:
    configure(door_home, public_url=value)
    with pytest.raises(ConfigError, match=r"\[web\] public_url: expected the address"):
        load_settings(door_home)
