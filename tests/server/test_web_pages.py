"""The public pages and /api: what a real serve() answers over loopback, player text escaped,
answers cached, the vendored browser files as scripts/vendor-web.sh left them."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from serverhelp import configure, running
from waiting import WAIT
from webhelp import get

from door.catalog.registry import daily_deal, daily_games
from door.config import load_settings
from door.games.montecarlo import MonteCarlo
from door.store import Store
from door.store.scores import Scores
from door.store.visit import open_store
from door.web.public import Cache

NUMBER = 11982
DAY = datetime(2031, 5, 17).date()
VENDOR = Path(__file__).resolve().parents[2] / "door" / "web" / "static" / "vendor"


def played(number: int = NUMBER) -> MonteCarlo:
    game = MonteCarlo.new(number)
    while game.legal_moves():
        game.play(game.legal_moves()[0])
    return game


async def score(store: Store, source: str, alias: str, number: int = NUMBER) -> int:
    """A player of ``source`` with a finished Monte Carlo game on deal ``number``."""
    player = await store.players.player(source, alias.lower(), alias)
    game = played(number)
    ended = datetime.now(UTC)
    await store.scores.finish_game(player.id, game.record(), game.score, game.status.value, False,
                                   ended - timedelta(minutes=3), ended)
    return game.score


async def with_scores(home: Path) -> int:
    store = await open_store(load_settings(home))
    try:
        points = await score(store, "direct", "<b>x</b>")
        await score(store, "board:XA", "Pat@XA")
    finally:
        await store.close()
    return points


async def test_the_hall_of_fame_escapes_what_players_typed(door_home: Path) -> None:
    configure(door_home, XA="change-this-secret | 127.0.0.1 | <i>Xanadu</i> & Co")
    points = await with_scores(door_home)
    async with running(door_home, ssh=False, web=True) as ports:
        status, headers, html = await get(ports.web, "/halloffame/montecarlo")
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html
        assert f">{points}<" in html and "<script" not in html
        assert f'href="/halloffame/montecarlo/{NUMBER}"' in html
        status, _, html = await get(ports.web, "/halloffame/montecarlo?board=xa")
        assert status == 200
        assert "&lt;i&gt;Xanadu&lt;/i&gt; &amp; Co" in html and "<i>" not in html
        assert "Pat@XA" in html and "&lt;b&gt;" not in html  # the board's players only
        status, _, html = await get(ports.web, f"/halloffame/montecarlo/{NUMBER}")
        assert status == 200 and f"Best on Monte Carlo #{NUMBER}" in html
        assert "&lt;b&gt;x&lt;/b&gt;" in html
        status, _, html = await get(ports.web, "/halloffame")
        assert status == 200 and "Mariant" in html and "&lt;b&gt;x&lt;/b&gt;" in html


async def test_the_api_says_the_same_as_json(door_home: Path, monkeypatch) -> None:
    from door.ui.game import daily_status

    monkeypatch.setattr(daily_status, "CLOCK", lambda: datetime(2031, 5, 17, 8, 0, tzinfo=UTC))
    configure(door_home, XA="change-this-secret | 127.0.0.1 | Xanadu BBS")
    points = await with_scores(door_home)
    async with running(door_home, ssh=False, web=True) as ports:
        status, headers, body = await get(ports.web, "/api/halloffame/montecarlo")
        assert status == 200 and headers["Content-Type"].startswith("application/json")
        assert headers["Access-Control-Allow-Origin"] == "*"
        hall = json.loads(body)
        assert [(e["rank"], e["player"], e["score"], e["deal"], e["board"])
                for e in hall["entries"]] == [(1, "<b>x</b>", points, NUMBER, None),
                                              (2, "Pat@XA", points, NUMBER, "XA")]
        board = json.loads((await get(ports.web, "/api/halloffame/montecarlo?board=XA"))[2])
        assert board["board_name"] == "Xanadu BBS"
        assert [e["player"] for e in board["entries"]] == ["Pat@XA"]
        deal = json.loads((await get(ports.web, f"/api/halloffame/montecarlo/{NUMBER}"))[2])
        assert deal["deal"] == NUMBER and len(deal["entries"]) == 2
        online = json.loads((await get(ports.web, "/api/online"))[2])
        assert online["callers"] == []
        status, _, body = await get(ports.web, "/api/daily")
        assert status == 200
        today = json.loads(body)
        assert today["date"] == "2031-05-17" and today["resets"] == "00:00 UTC"
        assert [(g["game"], g["deal"], g["players"]) for g in today["games"]] == [
            (g, daily_deal(DAY, g).number, 0) for g in daily_games()]
        status, _, page = await get(ports.web, "/daily")
        assert status == 200 and f"Monte Carlo #{daily_deal(DAY, 'montecarlo').number}" in page
        assert "Resets at 00:00 UTC" in page
        index = json.loads((await get(ports.web, "/api"))[2])
        assert "/api/halloffame/montecarlo" in index["halloffame"]


async def test_who_is_online_lists_web_callers(door_home: Path) -> None:
    from serverhelp import signup, to_menu
    from webhelp import WebCaller

    configure(door_home, cache_seconds=0)
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await WebCaller.connect(ports.web)
        await caller.wait_for("Handle:")
        await signup(caller, "<u>Una</u>", "una-pass")
        await to_menu(caller)
        _, _, html = await get(ports.web, "/online")
        assert "&lt;u&gt;Una&lt;/u&gt;" in html and "main menu" in html
        online = json.loads((await get(ports.web, "/api/online"))[2])
        assert [(c["node"], c["player"]) for c in online["callers"]] == [(1, "<u>Una</u>")]
        await caller.close()


@pytest.mark.parametrize("path", ["/halloffame/chess", "/halloffame/montecarlo/0",
                                  "/halloffame/montecarlo/abc", "/halloffame/mariant?board=ZZ",
                                  "/api/halloffame/chess"])
async def test_what_is_not_here_is_a_clear_404(door_home: Path, path: str) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        status, _, body = await get(ports.web, path)
    assert status == 404 and "Traceback" not in body
    if path.startswith("/api/"):
        assert "No game 'chess' here" in json.loads(body)["error"]
    else:
        assert "Not here" in body and "<script" not in body


async def test_the_deal_form_goes_to_the_deal_without_javascript(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        status, headers, _ = await get(ports.web, "/deal?game=anciento&number=%23505")
        assert status == 303 and headers["Location"] == "/halloffame/anciento/505"
        status, _, body = await get(ports.web, "/deal?game=anciento&number=<x>")
        assert status == 404 and "&lt;x&gt;" in body


async def test_pages_are_cached_a_few_seconds(door_home: Path, monkeypatch) -> None:
    calls = []
    top = Scores.top

    async def counted(self, *args, **kw):
        calls.append(args)
        return await top(self, *args, **kw)
    monkeypatch.setattr(Scores, "top", counted)
    configure(door_home, cache_seconds=300)
    async with running(door_home, ssh=False, web=True) as ports:
        answers = await asyncio.gather(*(get(ports.web, "/halloffame/auntmary")
                                         for _ in range(20)))
        assert {status for status, _, _ in answers} == {200}
        assert answers[0][1]["Cache-Control"] == "public, max-age=300"
        await get(ports.web, "/api/halloffame/auntmary")
        assert len(calls) == 1  # twenty pages and the JSON: one query


async def test_the_cache_keeps_answers_for_its_seconds_and_not_failures() -> None:
    now = [0.0]
    cache = Cache(5.0, entries=2, clock=lambda: now[0])
    made = []

    async def make() -> int:
        made.append(1)
        return len(made)
    assert await cache.get(("a",), make) == 1
    now[0] = 4.9
    assert await cache.get(("a",), make) == 1
    now[0] = 5.0
    assert await cache.get(("a",), make) == 2

    async def fail() -> int:
        raise RuntimeError("database down")
    with pytest.raises(RuntimeError):
        await cache.get(("b",), fail)
    assert await cache.get(("b",), make) == 3  # the failure was not kept
    await cache.get(("c",), make)
    await cache.get(("d",), make)
    assert len(cache._kept) == 2  # the oldest answers make room


def test_vendored_browser_files_are_as_scripts_vendor_web_left_them() -> None:
    """scripts/vendor-web.sh copies the npm packages' files unchanged (the fonts cut down
    by pyftsubset) and writes their sha256 to MANIFEST.txt: a hand edit, or a file missing
    from the package, shows here."""
    listed = {}
    for line in (VENDOR / "MANIFEST.txt").read_text().splitlines():
        if line.startswith("file "):
            _, digest, name = line.split(" ", 2)
            listed[name] = digest
    present = {p.relative_to(VENDOR).as_posix() for p in VENDOR.rglob("*")
               if p.is_file() and p.name != "MANIFEST.txt"}
    assert present == set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name
    assert {"xterm/xterm.js", "xterm/LICENSE", "fonts/DejaVuSansMono.woff2",
            "fonts/DejaVuSansMono-Bold.woff2", "fonts/LICENSE"} <= present


async def test_the_play_page_loads_nothing_from_elsewhere(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        status, headers, html = await get(ports.web, "/")
        assert status == 200 and "default-src 'self'" in headers["Content-Security-Policy"]
        named = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert len(named) >= 7, named  # the scripts, style sheets, fonts and icon
        for asset in named:
            assert (await get(ports.web, asset))[0] == 200, asset
        assert "http://" not in html and "https://" not in html
        assert (await get(ports.web, "/static/../sysop.ini"))[0] in (403, 404)


def self_signed(folder: Path) -> None:
    """tls/cert.pem and tls/key.pem for 127.0.0.1, made here (cryptography comes with
    asyncssh)."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(days=1)).not_valid_after(now + timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    (folder / "tls").mkdir()
    (folder / "tls" / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "tls" / "key.pem").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))


async def test_https_and_wss_with_the_sysops_certificate(door_home: Path) -> None:
    import ssl

    import aiohttp

    self_signed(door_home)
    configure(door_home, tls_cert="tls/cert.pem", tls_key="tls/key.pem")
    trust = ssl.create_default_context(cafile=str(door_home / "tls" / "cert.pem"))
    async with running(door_home, ssh=False, web=True) as ports, \
            aiohttp.ClientSession() as http:
        url = f"https://127.0.0.1:{ports.web}"
        async with http.get(f"{url}/halloffame", ssl=trust) as response:
            assert response.status == 200
        async with http.ws_connect(f"{url}/play", ssl=trust, origin=url) as ws:
            screen = b""
            while b"Handle:" not in screen:
                message = await asyncio.wait_for(ws.receive(), WAIT)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                screen += message.data
        with pytest.raises(aiohttp.ClientError):  # plain HTTP is not spoken there
            async with http.get(f"http://127.0.0.1:{ports.web}/halloffame") as response:
                await response.read()


async def test_unusable_tls_files_stop_the_door_with_one_line(door_home: Path) -> None:
    from door.config import ConfigError

    configure(door_home, tls_cert="nowhere/cert.pem", tls_key="nowhere/key.pem")
    with pytest.raises(ConfigError, match=r"\[web\] tls_cert .*nowhere/cert.pem"):
        async with running(door_home, ssh=False, web=True):
            pass


async def test_listeners_of_several_workers_share_one_port(door_home: Path) -> None:
    """What a worker process of ``serve --workers`` does: its own listener, SO_REUSEPORT."""
    from door.web.app import start_web

    settings = load_settings(door_home)

    async def nobody(terminal) -> None:
        return None
    first = await start_web(settings, nobody, None, None, ["127.0.0.1"], 0, reuse_port=True)
    second = await start_web(settings, nobody, None, None, ["127.0.0.1"], first.port,
                             reuse_port=True)
    try:
        assert second.port == first.port
        for _ in range(4):
            status, _, body = await get(first.port, "/halloffame/montecarlo")
            assert status == 404 and "without a database" in body
    finally:
        for listener in (first, second):
            await listener.wait_closed()


async def test_the_daily_page_shows_the_month_as_the_door_does(door_home: Path,
                                                               monkeypatch) -> None:
    from door.ui.game import daily_status

    monkeypatch.setattr(daily_status, "CLOCK", lambda: datetime(2031, 5, 17, 8, 0, tzinfo=UTC))
    store = await open_store(load_settings(door_home))
    try:
        ann = await store.players.player("direct", "ann", "<i>Ann</i>")
        bob = await store.players.player("direct", "bob", "Bob")
        for player, day in [(ann, 15), (ann, 16), (ann, 17), (bob, 17), (bob, -1)]:
            when = DAY + timedelta(days=day - 17) if day > 0 else DAY - timedelta(days=17)
            game = played(daily_deal(when, "montecarlo").number)   # April's: not this month
            ended = datetime(when.year, when.month, when.day, 9, 0, tzinfo=UTC)
            await store.scores.finish_game(player.id, game.record(), game.score, game.status.value,
                                           False, ended - timedelta(minutes=3), ended,
                                           daily_day=when)
    finally:
        await store.close()
    async with running(door_home, ssh=False, web=True) as ports:
        today = json.loads((await get(ports.web, "/api/daily"))[2])
        assert today["month"] == "May 2031"
        games = {g["game"]: g for g in today["games"]}
        assert sorted(e["player"] for e in games["montecarlo"]["entries"]) == [
            "<i>Ann</i>", "Bob"]                                    # today's, as before
        month = [(s["rank"], s["player"], s["won"], s["played"])
                 for s in games["montecarlo"]["month"]]
        assert month == [(1, "<i>Ann</i>", 2, 3), (2, "Bob", 0, 1)]   # the store's order
        assert games["auntmary"]["month"] == []
        status, _, page = await get(ports.web, "/daily")
        assert status == 200
        assert "May 2031: Monte Carlo challenges, most won first" in page
        assert ('<td class="n">1.</td><td>&lt;i&gt;Ann&lt;/i&gt;</td><td class="n">2</td>'
                '<td class="n">3</td>') in page and "<i>Ann" not in page
        assert "May 2031: Aunt Mary challenges" in page
        assert "No challenge played this month yet." in page
