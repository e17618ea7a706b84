"""The web caller's comforts, over the page's own protocol (aiohttp's WebSocket client, the
screen in pyte): the side messages that title the page and fill its key bar, the cursor
hidden where the door hides it, a dropped line called again without the password and back
in the saved game, Esc at "Handle:" going back, not away."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

from serverhelp import open_game, running, signup, to_menu
from waiting import WAIT
from webhelp import WebCaller

from door.games.montecarlo import MonteCarlo, position_name
from door.ui.visits.login import ESC_AGAIN
from door.web.resume import ResumeTokens

NUMBER = 11982


async def web_call(port: int, token: str = "") -> WebCaller:
    """A call to the play page; with ``token``, as the page calls again after a drop."""
    caller = await WebCaller.connect(port, query="&resume=1" if token else "")
    if token:
        await caller.ws.send_str(json.dumps({"resume": token}))
    return caller


async def playing(caller: WebCaller) -> int:
    """Into Monte Carlo #NUMBER and one pair off: the score shown."""
    await open_game(caller, "c", NUMBER)
    game = MonteCarlo.new(NUMBER)
    p, q = game.pairs()[0]
    move = position_name(p) + position_name(q)
    caller.send(move)
    game.play(move)
    await caller.wait_for(f"Score {game.score}", WAIT)
    return game.score


async def test_the_page_hears_each_screen_and_gets_a_token(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web)
        try:
            await caller.wait_for("Handle:", WAIT)
            assert not caller.side  # nobody yet: nothing to say
            await signup(caller, "Ada", "ada-secret", WAIT)
            await to_menu(caller, WAIT)
            assert await caller.wait_side("doing", "main menu") == {
                "doing": "main menu", "caller": "Ada"}
            token = (await caller.wait_side("resume"))["resume"]
            assert len(token) >= 40
            await open_game(caller, "c", NUMBER)
            await caller.wait_side("doing", "Playing Monte Carlo")
        finally:
            await caller.close()


async def test_the_cursor_shows_only_where_the_door_has_one(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web)
        try:
            await caller.wait_for("Handle:", WAIT)  # a field: the cursor in it
            await signup(caller, "Cursa", "cursa-pw", WAIT)
            await to_menu(caller, WAIT)  # the menu's "Your choice": a cursor
            assert b"\x1b[?25l" not in caller.term.raw
            await open_game(caller, "c", NUMBER)  # a game's board: no cursor
            await caller.settle()
            assert b"\x1b[?25l" in caller.term.raw
            hidden = len(caller.term.raw)
            await caller.leave_game()
            await caller.settle()
            assert b"\x1b[?25h" in caller.term.raw[hidden:]  # back with the menu's
        finally:
            await caller.close()


async def test_a_dropped_line_comes_back_in_its_game_without_a_password(
        door_home: Path, caplog) -> None:
    caplog.set_level(logging.INFO)
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web)
        await caller.wait_for("Handle:", WAIT)
        await signup(caller, "Dora", "dora-secret", WAIT)
        await to_menu(caller, WAIT)
        score = await playing(caller)
        token = (await caller.wait_side("resume"))["resume"]
        await caller.drop()
        await until(lambda: "node 1: disconnect" in caplog.text, "the door saw the drop")

        again = await web_call(ports.web, token)
        try:
            await again.wait_for(f"Resume your Monte Carlo game #{NUMBER}?", WAIT)
            assert "Handle:" not in again.term.text
            again.send("y")
            await again.wait_for(f"Score {score}", WAIT)
            assert (await again.wait_side("doing", "Playing Monte Carlo"))["caller"] == "Dora"
            fresh = (await again.wait_side("resume"))["resume"]
            assert fresh != token
        finally:
            await again.close()
        assert "login Dora from 127.0.0.1" in caplog.text and "(resumed)" in caplog.text

        # A token is good once.
        third = await web_call(ports.web, token)
        try:
            await third.wait_for("Handle:", WAIT)
        finally:
            await third.close()


async def test_a_call_the_door_ended_takes_its_token_with_it(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web)
        await caller.wait_for("Handle:", WAIT)
        await signup(caller, "Quinn", "quinn-pw", WAIT)
        await to_menu(caller, WAIT)
        token = (await caller.wait_side("resume"))["resume"]
        await caller.log_off("Farewell")
        await caller.close()
        again = await web_call(ports.web, token)
        try:
            await again.wait_for("Handle:", WAIT)
        finally:
            await again.close()


async def test_esc_at_handle_goes_back_and_a_second_esc_hangs_up(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await web_call(ports.web)
        try:
            await caller.wait_for("Handle:", WAIT)
            caller.send("\x1b")
            await caller.wait_for(ESC_AGAIN, WAIT)
            caller.send("Ann")  # and typing carries on as before
            await caller.wait_for("Handle:   Ann", WAIT)
            caller.send("\x7f\x7f\x7f\x1b")
            await caller.wait_for(ESC_AGAIN, WAIT)
            caller.send("\x1b")
            await caller.wait_closed()
        finally:
            await caller.close()


async def until(check, what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)


def test_tokens_are_single_use_and_kept_a_while_after_a_drop() -> None:
    now = [0.0]
    tokens = ResumeTokens(keep_s=60, most=3, clock=lambda: now[0])
    a = tokens.issue("Ada")
    tokens.note(a, "Playing Aunt Mary")
    now[0] = 10_000.0  # a call lasts as long as it likes
    tokens.dropped(a)
    now[0] += 59
    assert tokens.take(a) == ("Ada", "Playing Aunt Mary")
    assert tokens.take(a) is None
    b = tokens.issue("Bob")
    tokens.dropped(b)
    now[0] += 61
    assert tokens.take(b) is None
    c = tokens.issue("Cy")
    tokens.revoke(c)
    assert tokens.take(c) is None
    many = [tokens.issue(f"P{i}") for i in range(5)]
    assert len(tokens) == 3 and tokens.take(many[0]) is None
    assert tokens.take("") is None and tokens.take("x" * 100) is None


