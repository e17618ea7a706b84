"""A league board's HTTP face against peers that are wrong or hostile: garbage, oversized
bodies, huge numbers, floods, wrong join codes — each gets a status and one line, the
board's log gets no traceback, and the public pages escape what other boards named."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import pytest
from homehelp import configure
from leaguehelp import daily_game, league_home, signed
from serverhelp import running
from waiting import until

from door import cli
from door.league.http import MAX_BODY
from door.league.keys import BoardKey

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

REPO = Path(__file__).resolve().parents[2]


def home_at(root: Path, name: str, **league: object) -> Path:
    home = root / name
    (home / "ansi").mkdir(parents=True)
    (home / "data").mkdir()
    shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
    league_home(home, name, hub=True, code="the-join-code")
    if league:
        configure(home, "league", **league)
    return home


async def post(http: aiohttp.ClientSession, url: str, data: bytes | str,
               headers: dict[str, str] | None = None) -> tuple[int, dict]:
    async with http.post(url, data=data, headers=headers or {
            "Content-Type": "application/json"}) as answer:
        return answer.status, await answer.json(content_type=None)


async def test_garbage_gets_a_status_and_one_line(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.WARNING)
    home = home_at(tmp_path, "Target")
    async with running(home, ssh=False, web=True) as ports, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{ports.web}/league"
        cases = [
            (b"", 400), (b"{not json", 400), (b"[1, 2]", 400), (b'{"results": 5}', 400),
            (b'{"results": [' + b"9" * 5000 + b"]}", 400),
            (b'{"results": [' + b"{}," * 1200 + b"{}]}", 400),
            (b'{"results": [{"v": 1, "board": "\\u001b[2J"}]}', 200),
        ]
        for body, status in cases:
            got, answer = await post(http, f"{base}/results", body)
            assert got == status, (body[:40], answer)
            assert ("error" in answer) == (status != 200)
        huge = b'{"results": ["' + b"x" * (MAX_BODY + 10) + b'"]}'
        got, answer = await post(http, f"{base}/results", huge)
        assert got == 413 and "at most" in answer["error"]
        for body in (b"{}", b'{"name": "X", "key": "k"}', b"nonsense"):
            got, answer = await post(http, f"{base}/join", body)
            assert got in (400, 403), answer
        async with http.get(f"{base}/results?after=-5&limit=junk") as answer:
            assert answer.status == 200 and (await answer.json())["results"] == []
    messages = [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"
    assert not any("\x1b" in m for m in messages), "peer text reaches the log escaped"


async def test_a_flood_is_rate_limited_and_wrong_codes_lock_out(tmp_path: Path) -> None:
    home = home_at(tmp_path, "Target", requests_per_minute=5)
    async with running(home, ssh=False, web=True) as ports, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{ports.web}/league"
        statuses = []
        for _ in range(8):
            async with http.get(f"{base}/results") as answer:
                statuses.append(answer.status)
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3
    home2 = home_at(tmp_path, "Hub2")
    async with running(home2, ssh=False, web=True) as ports, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{ports.web}/league"
        key = BoardKey.generate().public
        codes = []
        for code in ["wrong-1-xx", "wrong-2-xx", "wrong-3-xx", "wrong-4-xx", "wrong-5-xx",
                     "the-join-code"]:
            got, _ = await post(http, f"{base}/join", f'{{"name": "Joiner", "key": "{key}", '
                                                      f'"code": "{code}"}}')
            codes.append(got)
        assert codes == [403] * 5 + [429], "the right code comes too late: locked out"


async def test_the_public_league_page_escapes_what_other_boards_named(tmp_path: Path) -> None:
    home = home_at(tmp_path, "Page Home")
    evil = BoardKey.generate()
    day = datetime.now(UTC).date()
    async with running(home, ssh=False, web=True) as ports, aiohttp.ClientSession() as http:
        assert await asyncio.to_thread(cli.main, [
            "league", "add", "Other", evil.public, "--home", str(home)]) == 0
        played = daily_game("anciento", day, moves=6)
        result = signed(evil, "Other", "<script>x</script>", played, day=day,
                        finished=datetime.now(UTC).replace(microsecond=0)).to_json()
        got, answer = await post(http, f"http://127.0.0.1:{ports.web}/league/results",
                                 json.dumps({"from": "Other", "results": [result]}))
        assert got == 200 and answer["added"] == 1, answer

        async def page() -> str:
            async with http.get(f"http://127.0.0.1:{ports.web}/league") as response:
                return await response.text()
        await until(lambda: _contains(page, "&lt;script&gt;"), "the league page shows it")
        text = await page()
        assert "<script>" not in text and "Other" in text
        async with http.get(f"http://127.0.0.1:{ports.web}/api/league") as response:
            data = await response.json()
        entries = {g["game"]: g["entries"] for g in data["games"]}
        assert entries["anciento"][0]["player"] == "<script>x</script>"


async def _contains(page, needle: str) -> bool:
    return needle in await page()


async def test_without_the_league_there_are_no_league_routes(tmp_path: Path) -> None:
    home = tmp_path / "plain"
    (home / "ansi").mkdir(parents=True)
    (home / "data").mkdir()
    shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
    async with running(home, ssh=False, web=True) as ports, aiohttp.ClientSession() as http:
        for path in ("/league/info", "/league", "/api/league"):
            async with http.get(f"http://127.0.0.1:{ports.web}{path}") as answer:
                assert answer.status == 404
    assert not (home / "data" / "league.key").exists()


async def test_a_full_page_of_results_arrives_whole(tmp_path: Path) -> None:
    """500 results in one push (a body of many network reads) are all taken."""
    home = home_at(tmp_path, "Big")
    peer = BoardKey.generate()
    day = datetime.now(UTC).date()
    now = datetime.now(UTC).replace(microsecond=0)
    games = [daily_game(("montecarlo", "anciento")[p % 2], day, moves=3 + p % 40, pick=p)
             for p in range(50)]
    results = [signed(peer, "Peer", f"Caller{i}", games[i % 50], day=day,
                      finished=now).to_json() for i in range(500)]
    async with running(home, ssh=False, web=True) as ports, aiohttp.ClientSession() as http:
        assert await asyncio.to_thread(cli.main, [
            "league", "add", "Peer", peer.public, "--home", str(home)]) == 0
        body = json.dumps({"from": "Peer", "results": results})
        assert len(body) > 100_000  # many reads (its size follows the day's deals: ~200 KB)
        got, answer = await post(http, f"http://127.0.0.1:{ports.web}/league/results", body)
        assert got == 200 and answer["added"] == 500 and answer["refused"] == [], answer
