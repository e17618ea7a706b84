"""Mouse and touch on the play page, in Debian's headless Chromium: the door asks xterm.js
to report the mouse, a tap or a click on a card is a report, and the door plays it.  A
game of Monte Carlo is played to its end by taps alone on a phone held sideways (menu
entries, the status line's keys, the cards, the end box), and a game of Aunt Mary by mouse
clicks on a desktop (its number typed), to its end by resigning (the key line's X, the
question's Y), where the live region says each move in words as the engine has it."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browserhelp import (
    PHONE,
    browser_page,
    chromium_path,
    screen_text,
    sign_up,
    tap_key,
    type_keys,
)
from browserhelp import wait_for_text as wait_for
from programs import missing
from serverhelp import running
from waiting import WAIT

from door.games import Status
from door.games.auntmary import AuntMary
from door.games.montecarlo import MonteCarlo, pair_name
from door.ui.auntmary.screen import SLOT_COL, STOCK_ROW, UP_TOP, pile_left
from door.ui.auntmary.words import column_words, stock_words
from door.ui.montecarlo.screen import cell_origin

AUNT_MARY = 16
"""Its first twelve moves by the test's rule move runs of 2, 3 and 5 cards, the waste's
card, and turn the stock."""

if chromium_path() is None:
    pytest.skip(missing("chromium", "apt-get install chromium"), allow_module_level=True)


async def cell_point(page: Any, row: int, col: int) -> tuple[float, float]:
    """The page coordinates of the middle of the door's cell (row, col)."""
    rect = await page.eval_on_selector(
        "#terminal .xterm-screen",
        "e => { const r = e.getBoundingClientRect(); "
        "return {left: r.left, top: r.top, width: r.width, height: r.height}; }")
    rows = await page.evaluate("window.reussite.term.rows")
    return (rect["left"] + (col + 0.5) * rect["width"] / 80,
            rect["top"] + (row + 0.5) * rect["height"] / rows)


def find(text: str, needle: str) -> tuple[int, int]:
    """(row, column) of ``needle`` on the screen's text."""
    for row, line in enumerate(text.splitlines()):
        col = line.find(needle)
        if col >= 0:
            return row, col
    raise AssertionError(f"{needle!r} is not on the screen:\n{text}")


async def touch(page: Any, row: int, col: int, tap: bool) -> None:
    """A finger's tap (``tap``) or the mouse's click on the door's cell (row, col)."""
    x, y = await cell_point(page, row, col)
    if tap:
        await page.touchscreen.tap(x, y)
    else:
        await page.mouse.click(x, y)


async def wait_for_any(page: Any, *needles: str) -> str:
    """The screen's text once one of ``needles`` is on it."""
    deadline = time.monotonic() + WAIT
    while True:
        text = await screen_text(page)
        if any(needle in text for needle in needles):
            return text
        assert time.monotonic() < deadline, f"none of {needles!r} came; screen:\n{text}"
        await asyncio.sleep(0.05)


async def touch_text(page: Any, needle: str, tap: bool, offset: int = 0) -> None:
    """Tap or click the screen's text ``needle`` (its first cell, plus ``offset``)."""
    row, col = find(await screen_text(page), needle)
    await touch(page, row, col + offset, tap)


async def test_a_phone_plays_monte_carlo_to_its_end_by_taps_alone(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, \
            browser_page(width=740, height=360, **PHONE) as page:
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        await wait_for(page, "Handle:")
        inputmode = "document.querySelector('.xterm-helper-textarea').getAttribute('inputmode')"
        assert await page.evaluate(inputmode) == "none"  # a tap plays: no keyboard pops up
        await tap_key(page, "⌨")  # the handle is the phone keyboard's; the rest is taps
        assert await page.evaluate(inputmode) == "text"
        await sign_up(page, "Fingers", "fingers-pw")
        await touch_text(page, "[C]", tap=True)  # the main menu's entry
        assert await page.evaluate(inputmode) == "none"  # the tap put the keyboard away
        await wait_for(page, "Game number:")
        await touch_text(page, "Enter: random deal", tap=True)  # the status line's key
        text = await wait_for(page, "Monte Carlo #")
        number = int(re.search(r"Monte Carlo #(\d+)", text).group(1))  # type: ignore[union-attr]
        game = MonteCarlo.new(number)
        while game.status is Status.PLAYING and game.pairs():
            p, q = game.pairs()[0]
            for place in (p, q):
                row, col = cell_origin(place)
                await touch(page, row, col + 2, tap=True)
            asks = game.deals_after(pair_name(p, q))  # it may ask before it deals
            game.play(pair_name(p, q))
            scored = f"Score {game.score:<3}"
            if asks and "(y/N)" in await wait_for_any(page, "(y/N)", scored):
                await touch_text(page, "(y/N)", tap=True, offset=1)
            await wait_for(page, scored)
        if "[E] or Enter" in await wait_for_any(page, "[E] or Enter", "Final score"):
            await touch_text(page, "[E]", tap=True)  # the end offer (a move to take back)
        await wait_for(page, f"Final score: {game.score}")
        await touch_text(page, "[M]", tap=True)  # the end box's "main menu"
        await wait_for(page, "Your choice")
        assert not errors, errors


async def test_a_desktop_plays_aunt_mary_by_mouse_clicks(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, browser_page() as page:
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        await sign_up(page, "Clicker", "clicker-pw")
        await page.click("#help")
        await page.check("#reader")  # the live region says each move
        await page.click("#help")
        await touch_text(page, "Aunt Mary", tap=False)  # the label beside [A] is the key too
        await wait_for(page, "Game number:")
        await type_keys(page, f"{AUNT_MARY}\r")  # a deal whose first moves move runs
        await wait_for(page, f"Aunt Mary #{AUNT_MARY}")
        game = AuntMary.new(AUNT_MARY)
        stock = (STOCK_ROW, SLOT_COL["s"] + 2)
        for _ in range(12):  # a few moves: a card onto a column when one fits, else the stock
            moves = [m for m in game.legal_moves() if ">" in m and not m.endswith("f")]
            move = moves[0] if moves and moves[0][0] in "w123456" else game.deal_move() or "r"
            if move[0].isdigit():  # the card clicked, with those on it, then the column
                src, dst = int(move[0]) - 1, int(move.split(">")[1]) - 1
                count = int(move.split(":")[1].split(">")[0]) if ":" in move else 1
                up = len(game.columns[src]) - game.face_down[src]
                await touch(page, UP_TOP + up - count, pile_left(src) + 2, tap=False)
                await touch(page, UP_TOP, pile_left(dst) + 2, tap=False)
            elif move[0] == "w":  # the waste's card, then the column
                await touch(page, STOCK_ROW, SLOT_COL["w"] + 2, tap=False)
                await touch(page, UP_TOP, pile_left(int(move[2]) - 1) + 2, tap=False)
            else:
                await touch(page, *stock, tap=False)
            game.play(move)
            # The live region says what changed, in words, as the engine has it now.
            news = (column_words(game, int(move.split(">")[1]) - 1) if ">" in move
                    else stock_words(game))
            await page.wait_for_function(
                "(want) => window.reussite.said.textContent.includes(want)", arg=news)
            assert "»" not in await screen_text(page)  # nothing left picked up
            await wait_for(page, f"Home {game.score} of 52")
        await touch_text(page, "X resign", tap=False)  # the key line
        await wait_for(page, "Resign?")
        await touch_text(page, "(y/N)", tap=False, offset=1)  # the question's Y
        await wait_for(page, "You resigned")
        await touch_text(page, "[M]", tap=False)
        await wait_for(page, "Your choice")
