"""A caller who pastes far more than the door plays at once, then hangs up, frees their node
at once, on every transport of ``reussite serve``, and their game is saved as on any
hang-up.  The door paces a flood to 512 bytes a second: before, the node stayed taken until
the paste had been read at that pace (96 KiB: about three minutes), far past these tests'
deadline.

Each caller signs up, opens Monte Carlo #31, makes one move, pastes 96 KiB of cursor keys
(nothing a game records) and drops the line: a plain close, or a reset (SO_LINGER 0)."""

from __future__ import annotations

import json
import socket
import sqlite3
import struct
from pathlib import Path

import pytest
from homehelp import boards
from pyteterm import TelnetCaller
from serverhelp import (
    RLoginCaller,
    SSHCaller,
    new_member,
    open_game,
    running,
    signup,
    to_menu,
)
from waiting import until
from webhelp import WebCaller

from door.games.montecarlo import MonteCarlo

NUMBER = 31
XA = "s3cret-for-xa"
PASTE = b"\x1b[C" * (96 * 1024 // 3)
"""More than the door keeps waiting (64 KiB), minutes of keys at the flood pace."""


def online_rows(home: Path) -> int:
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        return conn.execute("SELECT count(*) FROM nodes").fetchone()[0]


def saved_actions(home: Path, alias: str) -> list[str] | None:
    """The moves in the caller's Monte Carlo resume slot (None: no slot)."""
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        row = conn.execute(
            "SELECT state FROM resume_slots JOIN players ON players.id = player_id "
            "WHERE players.alias = ? AND game = 'montecarlo'", (alias,)).fetchone()
    return json.loads(row[0])["actions"] if row else None


async def one_move(caller) -> list[str]:
    """From the main menu: Monte Carlo #NUMBER and its first legal move; the moves made."""
    await open_game(caller, "c", NUMBER)
    game = MonteCarlo.new(NUMBER)
    move = game.legal_moves()[0]
    caller.send(move)
    game.play(move)
    await caller.wait_for(f"Score {game.score}")
    return game.actions


def reset(sock: socket.socket) -> None:
    """The next close sends a reset, not a FIN (what a crashed client or a NAT drop does)."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


async def paste_and_drop(caller: TelnetCaller | RLoginCaller, how: str) -> None:
    """Paste, and drop the line at once: ``close`` (a FIN) or ``reset``."""
    caller.send(PASTE)
    await caller.writer.drain()
    if how == "reset":
        reset(caller.writer.get_extra_info("socket"))
        caller.writer.transport.abort()
    else:
        caller.close()


async def freed_and_saved(home: Path, alias: str, actions: list[str]) -> None:
    await until(lambda: online_rows(home) == 0, "the node freed")
    assert saved_actions(home, alias) == actions


@pytest.mark.parametrize("how", ["close", "reset"])
async def test_telnet(door_home: Path, how: str) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Paster", "p4ste-pw")
        actions = await one_move(caller)
        await paste_and_drop(caller, how)
        await freed_and_saved(door_home, "Paster", actions)


@pytest.mark.parametrize("how", ["channel", "reset"])
async def test_ssh(door_home: Path, how: str) -> None:
    async with running(door_home) as ports:
        caller = await SSHCaller.connect(ports.ssh, "paster")
        await signup(caller, "Paster", "p4ste-pw")
        await to_menu(caller)
        actions = await one_move(caller)
        caller.process.stdin.write(PASTE)
        await caller.process.stdin.drain()
        if how == "reset":
            reset(caller.conn.get_extra_info("socket"))
            caller.conn.abort()
        else:
            caller.process.channel.close()  # the session's channel; the connection stays
        await freed_and_saved(door_home, "Paster", actions)
        caller.conn.close()


@pytest.mark.parametrize("how", ["close", "reset"])
async def test_rlogin(door_home: Path, how: str) -> None:
    boards(door_home, f"XA = {XA} | 127.0.0.1 | Xanadu BBS")
    async with running(door_home, ssh=False, rlogin=True) as ports:
        caller = await RLoginCaller.connect(ports.rlogin, "Pat", XA)
        await to_menu(caller)
        actions = await one_move(caller)
        await paste_and_drop(caller, how)
        await freed_and_saved(door_home, "Pat@XA", actions)


@pytest.mark.parametrize("how", ["close", "reset"])
async def test_web(door_home: Path, how: str) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        caller = await WebCaller.connect(ports.web)
        try:
            await caller.wait_for("Handle:")
            await signup(caller, "Paster", "p4ste-pw")
            await to_menu(caller)
            actions = await one_move(caller)
            await caller.ws.send_bytes(PASTE)
            if how == "reset":
                reset(caller.ws.get_extra_info("socket"))
                # aiohttp gives its client's transport no public name; abort() is the reset.
                caller.ws._response.connection.transport.abort()
            else:
                await caller.ws.close()  # the close handshake, as a browser's tab closing
            await freed_and_saved(door_home, "Paster", actions)
        finally:
            await caller.http.close()
