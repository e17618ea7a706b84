"""The play page on phones and tablets, in Debian's headless Chromium with touch: it fits a
360×740 phone held sideways with cells at least 9 px wide, says how to play held upright,
and plays a game to its end by taps on its key bar; a dropped line is called again and the
game comes back where it was; the title, the screen-reader switch, copy and paste."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from browserhelp import (
    PHONE,
    LineProxy,
    browser_page,
    chromium_path,
    screen_text,
    sign_up,
    tap_key,
    type_keys,
    wait_for_text,
)
from programs import missing
from serverhelp import running
from waiting import WAIT

from door.games.montecarlo import MonteCarlo

NUMBER = 11982

if chromium_path() is None:
    pytest.skip(missing("chromium", "apt-get install chromium"), allow_module_level=True)


async def box(page, selector: str) -> dict[str, float]:
    return await page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); "
                  "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }")


async def test_a_phone_held_sideways_plays_aunt_mary_to_its_end_by_taps(door_home: Path
                                                                       ) -> None:
    async with running(door_home, ssh=False, web=True) as ports, \
            browser_page(width=740, height=360, **PHONE) as page:
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        await wait_for_text(page, "Handle:")
        # It fits: 80 columns of cells 9 px wide or more, the key bar under them.
        assert await page.evaluate("window.reussite.term.cols") == 80
        assert await page.evaluate("window.reussite.term.rows") >= 24
        assert await page.evaluate("window.reussite.cellWidth()") >= 9
        screen = await box(page, "#terminal .xterm-screen")
        bar = await box(page, "#keybar")
        assert screen["right"] <= 740 and screen["bottom"] <= bar["top"] + 0.5, (screen, bar)
        assert bar["bottom"] <= 360 and await page.is_visible("#keybar")
        assert not await page.is_visible("#turn")
        # Typing a handle is the phone's keyboard's job (⌨ opens it); then taps only.
        await tap_key(page, "⌨")
        await sign_up(page, "Tapper", "tapper-pw")
        await wait_for_text(page, "Your choice")
        assert await page.title() == "main menu · Tapper · Réussite"
        await tap_key(page, "A")  # the main menu's keys are on the bar
        await wait_for_text(page, "Game number:")
        await tap_key(page, "Enter")  # a random deal
        await wait_for_text(page, "Aunt Mary #")
        assert await page.title() == "Playing Aunt Mary · Tapper · Réussite"
        labels = await page.locator("#keybar button").all_inner_texts()
        assert {"Esc", "←", "↑", "↓", "→", "Enter", "Space", "1", "S", "X", "Y"} <= set(labels)
        await tap_key(page, "S")  # a card from the stock, so the game has a move
        await tap_key(page, "X")
        await wait_for_text(page, "Resign?")
        await tap_key(page, "Y")
        await wait_for_text(page, "You resigned")
        await tap_key(page, "Enter")
        await wait_for_text(page, "Your choice")
        assert not errors, errors


async def test_a_phone_held_upright_is_told_to_turn(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, \
            browser_page(width=360, height=740, **PHONE) as page:
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        await wait_for_text(page, "Handle:")
        assert await page.is_visible("#turn")
        assert "Turn your phone sideways" in await page.inner_text("#turn")
        assert await page.is_visible("#keybar")
        header = await box(page, "header")
        assert header["bottom"] - header["top"] < 40  # one line: it does not wrap
        await page.set_viewport_size({"width": 740, "height": 360})  # turned
        await page.wait_for_function("!document.querySelector('#turn').offsetParent")
        deadline = time.monotonic() + WAIT
        while await page.evaluate("window.reussite.cellWidth()") < 9:
            assert time.monotonic() < deadline, "the cells never widened"
            await page.wait_for_timeout(100)


async def test_a_dropped_line_is_called_again_and_the_game_comes_back(door_home: Path
                                                                     ) -> None:
    async with running(door_home, ssh=False, web=True) as ports, \
            LineProxy(ports.web) as line, browser_page() as page:
        await page.goto(f"http://127.0.0.1:{line.port}/")
        await sign_up(page, "Rhoda", "rhoda-pw")
        await type_keys(page, "c")
        await wait_for_text(page, "Game number:")
        await type_keys(page, f"{NUMBER}\r")
        game = MonteCarlo.new(NUMBER)
        for _ in range(2):
            move = game.legal_moves()[0]
            await type_keys(page, move)
            game.play(move)
            await wait_for_text(page, f"Score {game.score}")
        before = await screen_text(page)
        line.cut()  # the line drops
        await page.wait_for_function(
            "document.getElementById('status').textContent.includes('dropped')"
            " || document.getElementById('status').textContent.includes('again')")
        await wait_for_text(page, f"Resume your Monte Carlo game #{NUMBER}?")
        await type_keys(page, "y")
        after = await wait_for_text(page, f"Score {game.score}")
        board = [row for row in before.splitlines()[2:14]]
        assert [row for row in after.splitlines()[2:14]] == board  # the same position
        assert await page.title() == "Playing Monte Carlo · Rhoda · Réussite"


async def test_the_screen_reader_switch_is_remembered(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, browser_page() as page:
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        await wait_for_text(page, "Handle:")
        assert not await page.evaluate("window.reussite.term.options.screenReaderMode")
        await page.click("#help")
        assert "Ctrl+Shift+V" in await page.inner_text("#panel")
        assert "Tab" in await page.inner_text("#panel")
        await page.check("#reader")
        assert await page.evaluate("window.reussite.term.options.screenReaderMode")
        await page.reload()
        await wait_for_text(page, "Handle:")
        assert await page.is_checked("#reader")
        assert await page.evaluate("window.reussite.term.options.screenReaderMode")
        assert await page.locator(".xterm-accessibility-tree").count() == 1


async def test_pasting_with_ctrl_shift_v_types_into_the_door(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, browser_page() as page:
        url = f"http://127.0.0.1:{ports.web}"
        await page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        await page.goto(url + "/")
        await wait_for_text(page, "Handle:")
        await page.evaluate("navigator.clipboard.writeText('Pasted')")
        await page.keyboard.press("Control+Shift+V")
        await wait_for_text(page, "Handle:   Pasted")
        await page.keyboard.press("Control+V")
        await wait_for_text(page, "Handle:   PastedPasted")


async def test_copying_a_selection_with_ctrl_c(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, browser_page() as page:
        url = f"http://127.0.0.1:{ports.web}"
        await page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        await page.goto(url + "/")
        await wait_for_text(page, "Handle:")
        row = next(i for i, line in enumerate((await screen_text(page)).splitlines())
                   if "Welcome to" in line)
        await page.evaluate(f"window.reussite.term.selectLines({row}, {row})")
        await page.keyboard.press("Control+C")
        assert "Welcome to Réussite." in await page.evaluate("navigator.clipboard.readText()")
        await page.evaluate("window.reussite.term.clearSelection()")
        await page.keyboard.press("Control+C")  # nothing selected: the door's Ctrl-C
        assert "Welcome to" in await screen_text(page)  # still there, nothing broke


async def test_a_long_handle_is_cut_in_the_header_not_wrapped(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports, \
            browser_page(width=420, height=700) as page:
        await page.goto(f"http://127.0.0.1:{ports.web}/")
        handle = "Maximilienne-Ottilie"  # 20 characters, the most a handle has
        await sign_up(page, handle, "long-handle-pw")
        await type_keys(page, "c")
        await wait_for_text(page, "Game number:")
        await type_keys(page, f"{NUMBER}\r")
        await wait_for_text(page, f"Monte Carlo #{NUMBER}")
        await page.wait_for_function("document.title.startsWith('Playing Monte Carlo')")
        assert await page.title() == f"Playing Monte Carlo · {handle} · Réussite"
        header = await box(page, "header")
        assert header["bottom"] - header["top"] < 40
        status = await page.eval_on_selector(
            "#status", "e => ({title: e.title, cut: e.scrollWidth > e.clientWidth})")
        assert status == {"title": f"{handle} · Playing Monte Carlo", "cut": True}
        assert await page.is_visible("#help")  # what follows the status is not pushed out
        icon = await page.get_attribute("link[rel=icon]", "href")
        assert icon and icon.endswith(".svg")
