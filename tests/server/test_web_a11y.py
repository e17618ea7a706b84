"""Every page of the web door audited by axe-core (the engine axe-playwright-python ships,
injected by Playwright into Debian's headless Chromium): no serious or critical violation,
at desktop size and, for the play page, on a phone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from browserhelp import PHONE, browser_page, chromium_path, sign_up, wait_for_text
from homehelp import configure
from programs import missing
from serverhelp import running

from door.config import load_settings
from door.games.montecarlo import MonteCarlo
from door.store.visit import open_store

NUMBER = 11982

if chromium_path() is None:
    pytest.skip(missing("chromium", "apt-get install chromium"), allow_module_level=True)


async def audit(page: Any) -> list[str]:
    """The serious and critical violations on the page, one line each."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page)
    return [f"{page.url}: {v['id']} ({v['impact']}): {v['help']}: "
            + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


async def a_stored_game(home: Path) -> int:
    store = await open_store(load_settings(home))
    try:
        player = await store.players.player("direct", "ann", "Ann")
        game = MonteCarlo.new(NUMBER)
        while game.legal_moves():
            game.play(game.legal_moves()[0])
        ended = datetime.now(UTC)
        await store.scores.finish_game(player.id, game.record(), game.score, game.status.value,
                                       False, ended - timedelta(minutes=3), ended)
        return (await store.scores.top("montecarlo", 1))[0].game_id
    finally:
        await store.close()


async def test_every_page_has_no_serious_violation(door_home: Path) -> None:
    configure(door_home, XA="change-this-secret | 127.0.0.1 | Xanadu")
    game_id = await a_stored_game(door_home)
    async with running(door_home, ssh=False, web=True) as ports, browser_page() as page:
        url = f"http://127.0.0.1:{ports.web}"
        found: list[str] = []
        await page.goto(url + "/")
        await sign_up(page, "Audra", "audra-pw")  # someone on: who's online has a row
        found += await audit(page)
        await page.click("#help")  # the help panel and its switch
        found += await audit(page)
        for path in ("/halloffame", "/halloffame/montecarlo",
                     "/halloffame/montecarlo?board=XA", f"/halloffame/montecarlo/{NUMBER}",
                     "/online", "/daily", "/nothing-here"):
            await page.goto(url + path)
            found += await audit(page)
        await page.goto(f"{url}/replay/{game_id}")
        await wait_for_text(page, "Replay")
        found += await audit(page)
        await page.goto(url + "/watch")
        await wait_for_text(page, "Games being played now")
        found += await audit(page)
        assert not found, "\n".join(found)


async def test_the_play_page_on_a_phone_has_no_serious_violation(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, \
            browser_page(width=740, height=360, **PHONE) as page:
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        await wait_for_text(page, "Handle:")
        found = await audit(page)
        await page.set_viewport_size({"width": 360, "height": 740})
        found += await audit(page)
        assert not found, "\n".join(found)
