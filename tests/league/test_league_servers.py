"""Three real servers on loopback, each with its own home and database, in one league — once
around a hub, once peer to peer: every board plays the day's four challenges, and all
three end up with the same ladders; a board that was down catches up when it returns; a
forged result is refused by every board.  Joining and adding peers go through the sysop's
own commands (``reussite league join`` / ``add``)."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from pathlib import Path

import aiohttp
import pytest
from leaguehelp import daily_game, league_home, signed
from serverhelp import running
from waiting import WAIT, until

from door import cli
from door.catalog.registry import daily_games
from door.config import load_settings
from door.league.keys import BoardKey
from door.store import Store

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

REPO = Path(__file__).resolve().parents[2]
CODE = "join-code-for-tests"


def new_home(root: Path, name: str) -> Path:
    home = root / name.replace(" ", "_")
    (home / "ansi").mkdir(parents=True)
    (home / "data").mkdir()
    shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
    return home


async def reussite(*argv: str) -> int:
    """The sysop's command, as typed (in a thread: it runs its own event loop)."""
    return await asyncio.to_thread(cli.main, list(argv))


@contextlib.asynccontextmanager
async def store_of(home: Path) -> AsyncIterator[Store]:
    store = Store.from_settings(load_settings(home))
    await store.start()
    try:
        yield store
    finally:
        await store.close()


async def play_the_day(home: Path, handle: str, day: date, pick: int) -> None:
    """A caller of the board at ``home`` finishes each of the day's four challenges (the
    store call the game screens make; the screens are tested elsewhere)."""
    async with store_of(home) as store:
        player = await store.players.player("direct", handle.lower(), handle)
        for i, game in enumerate(daily_games()):
            played = daily_game(game, day, moves=12 + 5 * pick + i, pick=pick)
            now = datetime.now(UTC)
            await store.scores.finish_game(player.id, played.record(), played.score,
                                           str(played.status), False, now, now, daily_day=day)


async def ladders(home: Path, day: date) -> dict[str, list[tuple[str, str, int]]]:
    async with store_of(home) as store:
        return {game: [(e.board, e.handle, e.score)
                       for e in await store.league.ladder(game, day, 50)]
                for game in daily_games()}


async def same_ladders(homes: list[Path], day: date, boards: int) -> bool:
    seen = [await ladders(home, day) for home in homes]
    return all(len(seen[0][g]) == boards for g in daily_games()) and all(s == seen[0] for s in seen)


def url(ports) -> str:
    return f"http://127.0.0.1:{ports.web}"


async def forged_everywhere(urls: list[str], key: BoardKey, board: str, day: date) -> None:
    """A result with a changed score, and one signed by another board's key: every board
    refuses both, and says why."""
    played = daily_game("montecarlo", day, moves=9, pick=3)
    honest = signed(key, board, "Mallory", played, day=day)
    from dataclasses import replace
    changed = replace(honest, score=honest.score + 50).to_json()
    other = signed(BoardKey.generate(), board, "Mallory", played, day=day).to_json()
    async with aiohttp.ClientSession() as http:
        for base in urls:
            async with http.post(f"{base}/league/results",
                                 json={"from": "x", "results": [changed, other]}) as answer:
                report = await answer.json()
            assert answer.status == 200 and report["added"] == 0, report
            assert sum(r["count"] for r in report["refused"]) == 2
            assert all("signature" in r["reason"] for r in report["refused"])


@pytest.mark.timeout(600)
async def test_a_hub_league_of_three_boards(tmp_path: Path) -> None:
    day = datetime.now(UTC).date()
    hub = league_home(new_home(tmp_path, "Hub"), "Hub BBS", hub=True, code=CODE)
    alpha = league_home(new_home(tmp_path, "Alpha"), "Alpha")
    beta = league_home(new_home(tmp_path, "Beta"), "Beta")
    async with running(hub, ssh=False, web=True) as hub_ports:
        assert await reussite("league", "join", url(hub_ports), "--code", "wrong-code-x",
                              "--home", str(alpha)) == 2
        for home in (alpha, beta):
            assert await reussite("league", "join", url(hub_ports), "--code", CODE,
                                  "--home", str(home)) == 0
        async with running(alpha, ssh=False, web=True) as alpha_ports:
            async with running(beta, ssh=False, web=True) as beta_ports:
                for pick, home in enumerate((hub, alpha, beta)):
                    await play_the_day(home, f"Caller{pick}", day, pick)
                await until(lambda: same_ladders([hub, alpha, beta], day, 3),
                            "the same ladders on the three boards", WAIT)
                await forged_everywhere([url(p) for p in (hub_ports, alpha_ports,
                                                          beta_ports)],
                                        BoardKey.load_or_create(alpha / "data"), "Alpha", day)
            # Beta is down while the others play on: it catches up when it returns.
            await play_the_day(hub, "Late", day, 4)
            await play_the_day(alpha, "Later", day, 5)
            await until(lambda: same_ladders([hub, alpha], day, 5),
                        "the hub and Alpha agree", WAIT)
            assert len((await ladders(beta, day))["montecarlo"]) == 3
            async with running(beta, ssh=False, web=True):
                await until(lambda: same_ladders([hub, alpha, beta], day, 5),
                            "Beta caught up after its restart", WAIT)
    boards = {g: {b for b, _, _ in entries} for g, entries in (await ladders(beta, day)).items()}
    assert all(found == {"Hub BBS", "Alpha", "Beta"} for found in boards.values())


@pytest.mark.timeout(600)
async def test_a_peer_to_peer_league_of_three_boards(tmp_path: Path) -> None:
    day = datetime.now(UTC).date()
    homes = {name: league_home(new_home(tmp_path, name), name) for name in ("A1", "B2", "C3")}
    keys = {name: BoardKey.load_or_create(home / "data") for name, home in homes.items()}
    async with contextlib.AsyncExitStack() as stack:
        ports = {name: await stack.enter_async_context(running(home, ssh=False, web=True))
                 for name, home in homes.items()}
        for name, home in homes.items():
            for other in homes:
                if other != name:
                    assert await reussite("league", "add", other, keys[other].public,
                                          "--url", url(ports[other]),
                                          "--home", str(home)) == 0
        for pick, home in enumerate(homes.values()):
            await play_the_day(home, f"Peer{pick}", day, pick)
        await until(lambda: same_ladders(list(homes.values()), day, 3),
                    "the same ladders on the three peers", WAIT)
        await forged_everywhere([url(p) for p in ports.values()], keys["A1"], "A1", day)
