"""ENiGMA½ launches the door and the bridge for real, on loopback, set up as
docs/sysop-bbs-setup.md says: the guide's own menu entries (read from the page, its paths
replaced by this test's) in the doors menu file it names, and the ``submit`` command that
leads to each.  The door runs in the launch modes the guide offers: its entry as written
(``io: socket``, DOOR32.SYS), with ``dropFileType: DOOR`` ("works the same way"), and on
standard I/O with DOOR.SYS as its stdio paragraph says (no ``--port``, ``io: stdio``,
``encoding: cp437``, ``--charset cp437``); each is played, hung up on mid-game (the game
saved), called again (the game resumed), and left with Q (back at ENiGMA½'s doors menu,
exit code 0).  The hub is reached through ``reussite bridge``, the guide's
``doorReussiteHub`` entry and its socket alternative, with the same checks on the hub's
side.

These tests run only where $REUSSITE_ENIGMA names an ENiGMA½ installed from its source
outside this repository (tests/enigmahelp.py says what it must hold).  Anywhere else they
are skipped with that reason, and that includes CI whether or not $CI is set: CI cannot
build ENiGMA½, and nothing in this repository builds it or holds any of it.

No timing is asserted: each step polls to tests/waiting.py's deadline.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from enigmahelp import GUIDE_PATHS, SKIP_REASON, Enigma, at_menu, enigma_tree, guide_entries
from homehelp import configure, door_log, hub_home
from pyteterm import TelnetCaller
from serverhelp import running, to_menu
from waiting import until

TREE = enigma_tree()
pytestmark = pytest.mark.skipif(TREE is None, reason=SKIP_REASON)

ALIAS, PASSWORD = "Pat", "patpass9"
HUB_SECRET = "9f2c61d07b3e4a58"
REUSSITE = Path(sys.executable).parent / "reussite"
"""The installed ``reussite`` of this interpreter, in the place of the guide's
/opt/reussite/venv/bin/reussite."""


def replace(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced once: the guide must still say ``old``."""
    assert text.count(old) == 1, f"the guide's entry no longer has {old!r}:\n{text}"
    return text.replace(old, new)


def door_entry(home: Path, mode: str) -> str:
    """The guide's ``doorReussite`` entry for ``mode``, its paths this test's."""
    entry = guide_entries()["doorReussite"]
    command, door_home, _ = GUIDE_PATHS
    entry = entry.replace(command, str(REUSSITE)).replace(door_home, str(home))
    if mode in ("socket-DOOR", "stdio-DOOR"):  # "dropFileType: DOOR works the same way"
        entry = replace(entry, "dropFileType: DOOR32", "dropFileType: DOOR")
    if mode == "stdio-DOOR":  # "drop --port and {srvPort}, set io: stdio and encoding:
        # cp437, and add "--charset", "cp437""
        entry = replace(entry, '"--port", "{srvPort}", ', "")
        entry = replace(entry, "io: socket", "io: stdio\n                encoding: cp437")
        entry = replace(entry, '"--time-left", "60",', '"--time-left", "60", '
                        '"--charset", "cp437",')
    return entry


@pytest.fixture
def bbs(tmp_path: Path) -> Iterator[Enigma]:
    assert TREE is not None
    bbs = Enigma(TREE, tmp_path / "enigma")
    yield bbs
    bbs.stop()


async def started(bbs: Enigma, entry: str, command: str, menu: str) -> None:
    """``entry`` and its ``command`` in the doors menu, ENiGMA½ (re)started, its user."""
    bbs.add_menu(entry)
    bbs.add_command(replace(replace(guide_entries()["submit"], '"RE"', f'"{command}"'),
                            "@menu:doorReussite", f"@menu:{menu}"))
    bbs.start()
    await bbs.apply(ALIAS, PASSWORD)


async def launch(bbs: Enigma, command: str, greeting: str) -> TelnetCaller:
    """Log in, open the doors menu, type ``command``: the door's title, then its menu."""
    caller = await bbs.to_doors(ALIAS, PASSWORD)
    caller.send(f"{command}\r")
    await caller.wait_for(greeting)
    await to_menu(caller)
    return caller


async def play_42(caller: TelnetCaller) -> None:
    """Monte Carlo deal #42, and its pair b1-c1 (6 points) taken."""
    caller.send("c")
    await caller.wait_for("Game number")
    caller.send("42\r")
    await caller.wait_for("Deal #42")
    caller.send("b1c1")
    await caller.wait_match(r"Score +6 ", "a score of 6")


async def resume_42(caller: TelnetCaller) -> None:
    caller.send("c")
    await caller.wait_for("Resume your Monte Carlo game #42?")
    caller.send("y")
    await caller.wait_match(r"Score +6 ", "the saved game, score 6")


async def quit_to_the_bbs(caller: TelnetCaller) -> None:
    """Leave the game, Q at the door's menu, its confirmation, the goodbye: back at
    ENiGMA½'s doors menu."""
    await caller.leave_game()
    caller.send("q")
    await caller.wait_for("Quit to the BBS? (Y/n)")
    caller.send("y")
    await caller.wait_for("Thanks for playing")
    caller.send(" ")
    await caller.wait_until(lambda: at_menu(caller, "Doors Menu"),
                            "back at ENiGMA½'s doors menu")


@pytest.mark.parametrize("mode", ["socket-DOOR32", "socket-DOOR", "stdio-DOOR"])
async def test_the_door_plays_saves_on_a_hang_up_resumes_and_quits_back(
        bbs: Enigma, door_home: Path, mode: str) -> None:
    await started(bbs, door_entry(door_home, mode), "RE", "doorReussite")
    pat = await launch(bbs, "RE", f"Welcome, {ALIAS}! You have 60 minutes")
    await play_42(pat)
    pat.close()  # the caller drops
    await until(lambda: "exit code 3" in door_log(door_home), "the door's exit, code 3")
    log = door_log(door_home)
    # ENiGMA½ kills the door's pty (SIGHUP) when its caller drops; on a socket the door
    # may see the socket close first.
    if mode.startswith("stdio"):
        assert "SIGHUP from the BBS: the caller is gone" in log
    kept = "door32.sys" if mode.endswith("DOOR32") else "DOOR.SYS"
    assert (door_home / "data" / kept).exists(), "--keep-dropfile kept no dropfile"

    again = await launch(bbs, "RE", f"Welcome, {ALIAS}!")
    await resume_42(again)
    await quit_to_the_bbs(again)
    await until(lambda: "back to the BBS, exit code 0" in door_log(door_home),
                "the door's exit, code 0")
    again.close()


@pytest.fixture
def hub(tmp_path: Path) -> Path:
    """The hub's door home: board XA calls from 127.0.0.1."""
    return hub_home(tmp_path, HUB_SECRET)


@pytest.mark.parametrize("io", ["stdio", "socket"])
async def test_the_hub_through_the_bridge(bbs: Enigma, hub: Path, door_home: Path,
                                          caplog: pytest.LogCaptureFixture, io: str) -> None:
    """The guide's doorReussiteHub entry (``reussite bridge`` on standard I/O, DOOR32.SYS),
    and its socket alternative ("use ``io: socket`` with ``"--port", "{srvPort}"`` added
    to ``args``"): the caller reaches the hub as Pat@XA, a hang-up mid-game is the hub's
    too (the game saved there), the next call resumes it, and Q comes back to the doors
    menu."""
    caplog.set_level(logging.INFO)
    bridge = door_home  # the bridge's home, as `reussite init` makes one
    command, _, bridge_home = GUIDE_PATHS
    entry = guide_entries()["doorReussiteHub"]
    entry = replace(entry, command, str(REUSSITE))
    entry = replace(entry, bridge_home, str(bridge))
    if io == "socket":
        entry = replace(entry, '"--node", "{node}",', '"--node", "{node}", '
                        '"--port", "{srvPort}",')
        entry = replace(entry, "io: stdio", "io: socket")
    async with running(hub, ssh=False, rlogin=True) as ports:
        configure(bridge, "bridge", host="127.0.0.1", port=ports.rlogin, board="XA",
                  secret=HUB_SECRET)
        await started(bbs, entry, "RH", "doorReussiteHub")
        pat = await launch(bbs, "RH", "R  É  U  S  S  I  T  E")
        await until(lambda: f"login {ALIAS}@XA from 127.0.0.1" in caplog.text,
                    "the hub's login of Pat@XA")
        await play_42(pat)
        pat.close()
        await until(lambda: "exit code 3" in door_log(bridge), "the bridge's exit, code 3")
        await until(lambda: f"{ALIAS}@XA left" in caplog.text, "the hub's end of the call")

        again = await launch(bbs, "RH", "R  É  U  S  S  I  T  E")
        await resume_42(again)
        await quit_to_the_bbs(again)
        await until(lambda: "exit code 0" in door_log(bridge), "the bridge's exit, code 0")
        again.close()
