"""The web door in a real headless Chromium: the play page's xterm.js, logged in as a new
user, a Monte Carlo game played to its end by keystrokes, the terminal read back through
xterm.js's own buffer, then the score found on the hall-of-fame page."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from browserhelp import (
    browser_page,
    chromium_path,
    screen_text,
    sign_up,
    type_keys,
    wait_for_text,
)
from montecarlohelp import end_keys, keys_for
from programs import missing
from serverhelp import running
from waiting import WAIT

from door.games.montecarlo import MonteCarlo

NUMBER = 11982

if chromium_path() is None:
    pytest.skip(missing("chromium", "apt-get install chromium"), allow_module_level=True)


async def test_a_browser_caller_plays_monte_carlo_and_finds_the_score(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        await sign_up(page, "Beatrix", "bea-secret", WAIT)
        await type_keys(page, "c")
        await wait_for_text(page, "Game number:", WAIT)
        await type_keys(page, f"{NUMBER}\r")
        screen = await wait_for_text(page, f"Monte Carlo #{NUMBER}", WAIT)
        assert "Score 0" in screen

        game = MonteCarlo.new(NUMBER)
        first = game.legal_moves()[0]
        await type_keys(page, keys_for(game, first))  # remove a pair
        game.play(first)
        screen = await wait_for_text(page, f"Score {game.score}", WAIT)
        assert game.score > 0 and "Score 0" not in screen
        while game.legal_moves():  # and on to the end of the deal
            move = game.legal_moves()[0]
            await type_keys(page, keys_for(game, move))
            game.play(move)
            await wait_for_text(page, f"Score {game.score}", WAIT)
        await type_keys(page, end_keys(game))
        await wait_for_text(page, f"Final score: {game.score}", WAIT)
        assert await page.evaluate("window.reussite.term.cols") == 80
        assert not errors, errors

        await page.goto(f"http://127.0.0.1:{ports.web}/halloffame/montecarlo")
        table = await page.inner_text("table")
        assert "Beatrix" in table and str(game.score) in table, table
        row = next(line for line in table.splitlines() if "Beatrix" in line)
        assert row.split("\t")[:3] == ["1.", "Beatrix", str(game.score)], row
        assert await page.evaluate("typeof window.reussite") == "undefined"  # no JS here


async def test_the_terminal_grows_with_the_browser_window(door_home: Path) -> None:
    """80 columns always; the rows the window has room for (25 to 60), which the door's
    screen then fills: its status line stays on the last row."""
    async with running(door_home, ssh=False, web=True) as ports, \
            browser_page(width=1000, height=700) as page:
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        screen = await sign_up(page, "Rowena", "row-secret", WAIT)
        rows = await page.evaluate("window.reussite.term.rows")
        assert rows >= 25 and "Hot key" in screen.splitlines()[rows - 1]
        await page.set_viewport_size({"width": 1000, "height": 1400})
        deadline = time.monotonic() + WAIT
        while True:
            grown = await page.evaluate("window.reussite.term.rows")
            lines = (await screen_text(page)).splitlines()
            if grown > rows and len(lines) == grown and "Hot key" in lines[grown - 1]:
                break
            assert time.monotonic() < deadline, f"{rows} -> {grown} rows:\n" + "\n".join(lines)
            await page.wait_for_timeout(100)
        assert await page.evaluate("window.reussite.term.cols") == 80
