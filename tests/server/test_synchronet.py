"""Synchronet 3.22 launches the door for real, on loopback: as a native program on standard
I/O with the 52-line DOOR.SYS and on a socket with DOOR32.SYS, the command line of
docs/sysop-bbs-setup.md (no --home: the Start-up Directory is the door home); a game played,
Q back to the BBS, a hang-up mid-game that saves it, two nodes at once; and the hub reached
from Synchronet both ways the guide gives, its own ``rlogin.js`` and ``reussite bridge``.

These tests run only where $REUSSITE_SYNCHRONET names a Synchronet built from its source
outside this repository (tests/synchronethelp.py says what it must hold).  Anywhere else
they are skipped with that reason, and that includes CI whether or not $CI is set: CI
cannot build Synchronet, and nothing in this repository builds it or holds any of it.

No timing is asserted: each step polls to tests/waiting.py's deadline.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from homehelp import configure, door_log, hub_home
from serverhelp import RLoginCaller, running, to_menu
from synchronethelp import SKIP_REASON, Synchronet, synchronet_tree
from waiting import until

TREE = synchronet_tree()
pytestmark = pytest.mark.skipif(TREE is None, reason=SKIP_REASON)

DOOR = f"{sys.executable} -m door door %f --node %#"
"""The guide's command line, with this interpreter for the installed ``reussite``."""
HUB_SECRET = "s3cret-for-xa"


@pytest.fixture
def bbs(tmp_path: Path, door_home: Path) -> Iterator[Synchronet]:
    assert TREE is not None
    bbs = Synchronet(TREE, tmp_path / "sbbs")
    bbs.add_user("Pat", "patpass")
    bbs.add_user("Lou", "loupass")
    bbs.add_program("REUSSITE", DOOR, startup_dir=door_home, dropfile="DOOR.SYS", io="stdio")
    bbs.add_program("REUSS32", DOOR, startup_dir=door_home, dropfile="DOOR32.SYS",
                    io="socket")
    yield bbs
    bbs.stop()


async def call(bbs: Synchronet, alias: str, code: str) -> RLoginCaller:
    """An RLogin caller logged straight into program ``code``."""
    password = {"Pat": "patpass", "Lou": "loupass"}[alias]
    return await RLoginCaller.connect(bbs.rlogin_port, password, alias,
                                      term=f"xtrn={code}/38400")


async def to_game_42(caller: RLoginCaller) -> None:
    """Title, menu, Monte Carlo deal #42, and its pair b1-c1 (6 points) taken."""
    await to_menu(caller)
    caller.send("c")
    await caller.wait_for("Game number")
    caller.send("42\r")
    await caller.wait_for("Deal #42")
    caller.send("b1c1")
    await caller.wait_match(r"Score +6 ", "a score of 6")


@pytest.mark.parametrize("code", ["REUSSITE", "REUSS32"])
async def test_a_hang_up_mid_game_saves_it_and_the_next_call_resumes(
        bbs: Synchronet, door_home: Path, code: str) -> None:
    bbs.start()
    pat = await call(bbs, "Pat", code)
    await to_game_42(pat)
    pat.close()  # the caller drops
    await until(lambda: "exit code 3" in door_log(door_home), "the door's exit, code 3")
    log = door_log(door_home)
    # Standard I/O doors get SIGHUP; socket doors no signal, only the end of their input.
    assert ("SIGHUP from the BBS" in log) == (code == "REUSSITE")
    again = await call(bbs, "Pat", code)
    await to_menu(again)
    again.send("c")
    await again.wait_for("Resume your Monte Carlo game #42?")
    again.send("y")
    await again.wait_match(r"Score +6 ", "the saved game, score 6")
    again.close()


async def test_q_goes_back_to_the_bbs_with_exit_code_0(bbs: Synchronet,
                                                        door_home: Path) -> None:
    bbs.start()
    pat = await call(bbs, "Pat", "REUSSITE")
    await pat.wait_for("Welcome, Pat!")
    await to_menu(pat)
    pat.send("q")
    await pat.wait_for("Quit to the BBS? (Y/n)")
    pat.send("y")
    await pat.wait_for("Thanks for playing")
    pat.send(" ")
    await pat.wait_closed()  # xtrn= logons end with the program
    assert "back to the BBS, exit code 0" in door_log(door_home)


async def test_two_nodes_play_at_once(bbs: Synchronet, door_home: Path) -> None:
    bbs.start()
    pat = await call(bbs, "Pat", "REUSSITE")
    lou = await call(bbs, "Lou", "REUSS32")
    for caller in (pat, lou):
        await to_menu(caller)
    lou.send("w")
    await lou.wait_for("Who's Online")
    await lou.wait_for("Pat")
    assert re.search(r"\b1 +Pat\b", lou.term.text) and re.search(r"\b2 +Lou\b", lou.term.text)
    pat.close()
    lou.close()


@pytest.fixture
def hub(tmp_path: Path) -> Path:
    """The hub's door home: board XA calls from 127.0.0.1."""
    return hub_home(tmp_path, HUB_SECRET)


@pytest.mark.parametrize("way", ["rlogin.js", "bridge"])
async def test_synchronet_reaches_the_hub(bbs: Synchronet, hub: Path, tmp_path: Path,
                                          caplog: pytest.LogCaptureFixture,
                                          way: str) -> None:
    caplog.set_level(logging.INFO)
    async with running(hub, ssh=False, rlogin=True) as ports:
        if way == "rlogin.js":
            bbs.add_program("REUHUB", f"?rlogin 127.0.0.1:{ports.rlogin} -s {HUB_SECRET} "
                            "-t xtrn=montecarlo -q -P", dropfile="none", io="js")
        else:
            board = tmp_path / "board"
            (board / "data").mkdir(parents=True)
            (board / "sysop.ini").write_bytes((hub / "sysop.ini").read_bytes())
            configure(board, "bridge", host="127.0.0.1", port=ports.rlogin, board="XA",
                      secret=HUB_SECRET, game="montecarlo")
            bbs.add_program("REUHUB", f"{sys.executable} -m door bridge %f --node %#",
                            startup_dir=board, dropfile="DOOR.SYS", io="stdio")
        bbs.start()
        pat = await call(bbs, "Pat", "REUHUB")
        await pat.wait_for("Game number")
        await until(lambda: "login Pat@XA from 127.0.0.1" in caplog.text,
                    "the hub's login of Pat@XA")
        pat.close()
        await until(lambda: "disconnect" in caplog.text, "the hub's end of the call")
