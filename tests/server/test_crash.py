"""kill -9 of a real ``reussite serve`` in the middle of a game: the moves were already in
the database (written as they were played, not at the end of the visit), the next call
resumes them, and resuming does not empty the slot (a crash right after "Resume?" loses
nothing either).  Files the server makes are private whatever the umask."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

from pyteterm import PyteCaller
from serverhelp import call, login, open_game, signup, to_menu
from waiting import WAIT

from door.config import load_settings
from door.games import GameRecord
from door.games.auntmary import AuntMary
from door.store import Store

NUMBER = 2024


async def start_server(home: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door", "--home", str(home), "serve", "--telnet-port", "0",
        "--ssh-port", "0", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        preexec_fn=lambda: os.umask(0o022), start_new_session=True)


async def port_of(proc: asyncio.subprocess.Process) -> int:
    line = (await asyncio.wait_for(proc.stdout.readline(), WAIT)).decode()
    return int(re.search(r"telnet on \S+ port (\d+)", line).group(1))


async def kill9(proc: asyncio.subprocess.Process) -> None:
    """kill -9 of the whole server: its supervisor and every worker (``--workers``)."""
    os.killpg(proc.pid, signal.SIGKILL)
    await proc.wait()


async def back_in(caller: PyteCaller) -> None:
    """Past the login to the main menu.  The killed server's call may still look alive
    for a few seconds: the door then offers to hang it up, and the caller says yes."""
    deadline = time.monotonic() + WAIT
    while "Press any key" not in caller.term.text:
        assert time.monotonic() < deadline, caller.term.text
        if "Hang up the call on" in caller.term.text:
            caller.send("y")
            await caller.wait_for("Press any key", timeout=WAIT)
            break
        await caller.settle()
    await to_menu(caller)


async def kept_actions(store: Store, handle: str) -> list[str] | None:
    found = await store.players.find(handle)
    if not found:
        return None
    state = await store.saves.load_resume(found[0].id, "auntmary")
    return None if state is None else state["actions"]


def same_game(actions: list[str] | None, game: AuntMary) -> bool:
    """The kept moves lead to the game's position (the screen may spell a move shorter)."""
    if actions is None or len(actions) != len(game.actions):
        return False
    kept = AuntMary.replay(GameRecord("auntmary", game.number, {}, actions))
    return kept.position == game.position


async def wait_kept(store: Store, handle: str, game: AuntMary) -> None:
    deadline = time.monotonic() + WAIT
    while not same_game(await kept_actions(store, handle), game):
        assert time.monotonic() < deadline, "the moves never reached the database"
        await asyncio.sleep(0.1)


def tip_keys(game: AuntMary) -> tuple[str, str]:
    """A tip without a foundation source, as hot keys (the screen's own spelling)."""
    for move in game.hints():
        if move in ("s", "r"):
            return move, "s"
        if not move.startswith("f"):
            src, dst = move.split(">")
            return move, src.split(":")[0] + ("f" if dst == "f" else dst)
    raise AssertionError("no tip to type")


async def test_kill_9_mid_game_then_resume_every_move(door_home: Path) -> None:
    store = Store(load_settings(door_home).database_url)
    proc = await start_server(door_home)
    try:
        caller = await call(await port_of(proc))
        await signup(caller, "Rex", "rex-pass")
        await to_menu(caller)
        await open_game(caller, "a", NUMBER, "Aunt Mary")
        game = AuntMary.new(NUMBER)
        for _ in range(3):
            move, keys = tip_keys(game)
            caller.send(keys)
            game.play(move)
            await caller.settle()
        await wait_kept(store, "Rex", game)  # no exit path has run
        await kill9(proc)
        caller.close()

        proc = await start_server(door_home)
        again = await call(await port_of(proc))
        await login(again, "Rex", "rex-pass")
        await back_in(again)
        again.send("a")
        await again.wait_for(f"Resume your Aunt Mary game #{NUMBER}?")
        again.send("y")
        await again.wait_for(f"Aunt Mary #{NUMBER}")
        await kill9(proc)  # right after resuming: the slot must still hold the game
        again.close()
        assert same_game(await kept_actions(store, "Rex"), game)

        proc = await start_server(door_home)
        third = await call(await port_of(proc))
        await login(third, "Rex", "rex-pass")
        await back_in(third)
        third.send("a")
        await third.wait_for(f"Resume your Aunt Mary game #{NUMBER}?")
        third.close()
    finally:
        if proc.returncode is None:
            await kill9(proc)
        await store.close()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_the_database_logs_and_backups_are_private_under_umask_022(tmp_path: Path
                                                                         ) -> None:
    home = tmp_path / "door"
    made = subprocess.run([sys.executable, "-m", "door", "init", str(home)],
                          capture_output=True, text=True, preexec_fn=lambda: os.umask(0o022))
    assert made.returncode == 0, made.stderr
    proc = await start_server(home)
    try:
        caller = await call(await port_of(proc))
        await signup(caller, "Una", "una-pass")
        await to_menu(caller)
        caller.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()
    data = home / "data"
    assert mode(data) == 0o700
    for name in ("reussite.db", "reussite.log", "ssh_host_ed25519_key"):
        assert mode(data / name) == 0o600, name
    backup = subprocess.run([sys.executable, "-m", "door", "--home", str(home), "sysop",
                             "backup"], capture_output=True, text=True,
                            preexec_fn=lambda: os.umask(0o022))
    assert backup.returncode == 0, backup.stderr
    (copy,) = (data / "backups").iterdir()
    assert mode(data / "backups") == 0o700 and mode(copy) == 0o600
    (data / "reussite.db").chmod(0o644)  # as an older version left it
    warned = subprocess.run([sys.executable, "-m", "door", "--home", str(home), "sysop",
                             "players"], capture_output=True, text=True)
    assert warned.returncode == 0
    assert "can be read by other users" in warned.stderr and "chmod 600" in warned.stderr
