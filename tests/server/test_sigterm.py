"""SIGTERM to a real ``reussite serve``: callers are told, the game in progress is saved to
the resume slot, the process ends (door/serve/server.py bounds that by SHUTDOWN_S; how long it
takes is not asserted here: a busy machine decides), and the log file has the visit's
lines."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path

from serverhelp import call, mid_game
from waiting import WAIT

from door.config import load_settings
from door.store import Store

NUMBER = 11982


async def test_sigterm_saves_the_game_and_stops(door_home: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "door", "--home", str(door_home), "--log-level", "info",
        "serve", "--telnet-port", "0", "--ssh-port", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), WAIT)).decode()
        port = int(re.search(r"telnet on \S+ port (\d+)", line).group(1))
        caller = await call(port)
        await mid_game(caller, "Pia", "pia-pass", NUMBER)

        proc.send_signal(signal.SIGTERM)
        await caller.wait_for("closing for maintenance")
        row, _ = caller.term.find("closing for maintenance")
        assert "call again soon." in caller.term.lines[row]  # one line: it fits 80 columns
        await caller.wait_closed()
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()

    store = Store(load_settings(door_home).database_url)
    try:
        (player,) = await store.players.find("Pia")
        state = await store.saves.load_resume(player.id, "montecarlo")
        assert state is not None, "the game in progress must be in the resume slot"
        assert await store.online.nodes() == []  # every node left the who's-online table
    finally:
        await store.close()
    log = (door_home / "data" / "reussite.log").read_text(encoding="utf-8")
    for what in ("telnet connect from 127.0.0.1", "node 1: login Pia",
                 "node 1: disconnect 127.0.0.1", "shutdown: 1 callers told and closed",
                 ": stopped"):
        assert what in log, f"{what!r} not in the log:\n{log}"
