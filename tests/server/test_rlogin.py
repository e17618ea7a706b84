"""The game hub: member boards send their callers over RLogin, already logged in as
handle@TAG; ``xtrn=GAME`` goes straight into that game; strangers and wrong secrets get one
line and are dropped."""

from __future__ import annotations

import asyncio
import getpass
import os
from pathlib import Path

import pytest
from doorproc import PtyDoor
from homehelp import boards, configure
from programs import need
from serverhelp import RLoginCaller, running, to_menu
from waiting import WAIT

from door.config import load_settings
from door.store import Store

XA, YB = "s3cret-for-xa", "s3cret-for-yb"


@pytest.fixture
def hub(door_home: Path) -> Path:
    boards(door_home, f"XA = {XA} | 127.0.0.1 | Xanadu BBS", f"YB = {YB} | 127.0.0.0/8")
    return door_home


async def players(home: Path) -> list:
    store = Store.from_settings(load_settings(home))
    try:
        return await store.players.all()
    finally:
        await store.close()


async def test_a_member_boards_caller_is_in_as_handle_at_tag(hub: Path) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        pat = await RLoginCaller.connect(ports.rlogin, "Pat", XA)
        await to_menu(pat)
        assert "Pat@XA" in pat.term.text and "Quit to the BBS" in pat.term.text
        assert "Login" not in pat.term.text
        pat.send("w")
        await pat.wait_for("Who's Online")
        await pat.wait_for("Pat@XA")
        pat.send(" ")
        await pat.wait_for("Your choice")
        pat.send("qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        await pat.wait_for("Farewell, Pat@XA.")
        pat.send(" ")  # the goodbye pause: any key ends it
        await pat.wait_closed()
    found = [p for p in await players(hub) if p.alias == "Pat@XA"]
    assert [(p.source, p.user_id) for p in found] == [("board:XA", "pat")]


async def test_a_second_boards_caller_of_the_same_handle_is_another_player(hub: Path) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        # ENiGMA½'s and Mystic's order: the secret first, the handle after its board tag.
        one = await RLoginCaller.connect(ports.rlogin, XA, "[XA]Pat")
        two = await RLoginCaller.connect(ports.rlogin, "Pat", YB)
        await to_menu(one)
        await to_menu(two)
        two.send("w")
        await two.wait_for("Pat@YB")
        await two.wait_for("Pat@XA")  # both in the door at once: two players
        one.close()
        two.close()
    by_alias = {p.alias: p for p in await players(hub)}
    assert by_alias["Pat@XA"].id != by_alias["Pat@YB"].id
    assert (by_alias["Pat@YB"].source, by_alias["Pat@YB"].user_id) == ("board:YB", "pat")


async def test_xtrn_goes_straight_into_the_game_and_leaving_it_hangs_up(hub: Path) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        pat = await RLoginCaller.connect(ports.rlogin, "Pat", XA, term="xtrn=montecarlo")
        await pat.wait_for("Game number:")
        assert "Press any key" not in pat.term.text and "Your choice" not in pat.term.text
        pat.send("42\r")
        await pat.wait_for("Monte Carlo #42")
        pat.send("q")
        await pat.wait_for("Leave this game?")
        pat.send("y")
        await pat.wait_for("Farewell, Pat@XA.")
        await pat.wait_closed(timeout=WAIT)  # the goodbye pause, then the line back to the BBS
        assert "Your choice" not in pat.term.text


async def test_the_end_box_of_an_xtrn_game_offers_what_m_does(hub: Path) -> None:
    """Sent straight to a game, the caller has no main menu: M at the game's end ends the
    call, and the box says so."""
    async with running(hub, ssh=False, rlogin=True) as ports:
        pat = await RLoginCaller.connect(ports.rlogin, "Pat", XA, term="xtrn=auntmary")
        await pat.wait_for("Game number:")
        pat.send("7\r")
        await pat.wait_for("Aunt Mary #7")
        pat.send("x")
        await pat.wait_for("Resign?")
        pat.send("y")
        await pat.wait_for("Final score: 0")
        assert "[M] back to your BBS" in pat.term.text
        assert "main menu" not in pat.term.text
        pat.send("m")
        await pat.wait_for("Farewell, Pat@XA.")
        await pat.wait_closed(timeout=WAIT)


async def test_an_unknown_xtrn_is_the_main_menu_with_a_word(hub: Path) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        pat = await RLoginCaller.connect(ports.rlogin, "Pat", XA, term="xtrn=tetris/38400")
        await pat.wait_for("No game 'tetris' here: pick one from the menu.")
        pat.send(" ")
        await pat.wait_for("Your choice")
        pat.close()


async def test_wrong_secret_gets_one_line_and_is_dropped(hub: Path) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        eve = await RLoginCaller.connect(ports.rlogin, "Eve", "not-the-secret")
        await eve.wait_closed()
        lines = [line.strip() for line in eve.term.text.splitlines() if line.strip()]
        assert lines == ["Your board is not let in here: its sysop should check the secret."]
    assert not [p for p in await players(hub) if p.alias.startswith("Eve")]
    log = (hub / "data" / "reussite.log").read_text(encoding="utf-8")
    assert "refused: wrong secret" in log and "not-the-secret" not in log


async def test_an_address_of_no_board_gets_one_line_and_is_dropped(door_home: Path) -> None:
    boards(door_home, f"XA = {XA} | 192.0.2.1")
    async with running(door_home, ssh=False, rlogin=True) as ports:
        eve = await RLoginCaller.connect(ports.rlogin, "Eve", XA)
        await eve.wait_closed()
        lines = [line.strip() for line in eve.term.text.splitlines() if line.strip()]
        assert lines == ["This door takes RLogin calls from its member boards only."]
    assert "not the address of a board in [boards]" in \
        (door_home / "data" / "reussite.log").read_text(encoding="utf-8")


async def test_a_boards_callers_are_not_held_to_the_per_address_cap(hub: Path) -> None:
    """All of a board's callers come from its one address: only the nodes limit them."""
    configure(hub, max_per_address=1)
    async with running(hub, ssh=False, rlogin=True) as ports:
        callers = [await RLoginCaller.connect(ports.rlogin, f"P{i}", XA) for i in range(3)]
        for caller in callers:
            await caller.wait_for("Press any key")
        for caller in callers:
            caller.close()


async def test_a_real_rlogin_client_with_its_window_size(hub: Path) -> None:
    """rsh-redone's rlogin: its local user name is the handle, ``-l`` carries the secret,
    TERM the terminal type; it answers the window-size request (100x30 here)."""
    need("rlogin", "apt-get install rsh-redone-client")
    user = getpass.getuser()
    async with running(hub, ssh=False, rlogin=True) as ports:
        client = PtyDoor(["rlogin", "-l", XA, "-p", str(ports.rlogin), "127.0.0.1"], hub,
                         rows=30, cols=100,
                         env={**os.environ, "TERM": "xtrn=montecarlo", "LANG": "C.UTF-8"})
        try:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, client.wait_for, "Game number:")
            client.send(b"42\r")
            await loop.run_in_executor(None, client.wait_for, "Monte Carlo #42")
            assert f"{user}@XA" in client.term.text
            status = client.term.lines[29]  # the status line on the client's 30th row
            assert f"{user}@XA" in status, client.term.text
            client.send(b"qy")
            await loop.run_in_executor(None, client.wait_for, f"Farewell, {user}@XA.")
            client.send(b" ")
            assert await loop.run_in_executor(None, client.finish) == 0
        finally:
            client.close()
