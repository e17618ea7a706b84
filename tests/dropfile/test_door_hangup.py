"""The BBS hangs up as the door leaves: ENiGMA½ closes a socket door's connection and sends
SIGHUP the moment the door says goodbye.  The door's own bookkeeping (its Who's Online row)
must be done whatever comes, and the exit code must say how the visit ended: 0 after the
caller quit, 3 when the line dropped first."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import struct
import time
from pathlib import Path

import pytest
from doorproc import WAIT, PtyDoor, SocketCaller, connect_back_door, door_command
from homehelp import configure

from door.commands.door_visit import EXIT_CARRIER
from door.commands.hangup import HangupSignals
from door.games.montecarlo import MonteCarlo


def online_rows(home: Path) -> int:
    """Who's Online rows in the door's real SQLite file."""
    database = home / "data" / "reussite.db"
    if not database.exists():
        return 0
    with sqlite3.connect(database) as conn:
        try:
            return conn.execute("SELECT count(*) FROM nodes").fetchone()[0]
        except sqlite3.OperationalError:  # the door has not made its tables yet
            return 0


def wait_until(check, what: str) -> None:
    end = time.monotonic() + WAIT
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"{what} never happened")
        time.sleep(0.05)


def to_menu_with_row(caller: SocketCaller, home: Path) -> None:
    caller.wait_for("Press any key")
    caller.sock.sendall(b" ")
    caller.wait_for("Your choice")
    wait_until(lambda: online_rows(home) == 1, "the door's Who's Online row")


@pytest.mark.slow
def test_socket_bbs_closes_and_sighups_right_after_the_goodbye(door_home: Path,
                                                               door_sys: Path) -> None:
    with connect_back_door(door_home, door_sys) as (proc, caller):
        to_menu_with_row(caller, door_home)
        caller.sock.sendall(b"qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        caller.wait_for("Farewell, dexter.")
        caller.sock.close()  # the BBS drops the line and signals at once, as ENiGMA½ does
        proc.send_signal(signal.SIGHUP)
        assert proc.wait(timeout=WAIT) == 0
    assert online_rows(door_home) == 0
    log = (door_home / "data" / "door.log").read_text(encoding="utf-8")
    assert "SIGHUP from the BBS while the door was leaving: already handled" in log
    assert "back to the BBS, exit code 0" in log


@pytest.mark.slow
def test_socket_line_dropped_mid_visit_then_sighup(door_home: Path, door_sys: Path) -> None:
    with connect_back_door(door_home, door_sys) as (proc, caller):
        to_menu_with_row(caller, door_home)
        caller.sock.close()
        proc.send_signal(signal.SIGHUP)
        assert proc.wait(timeout=WAIT) == 3
    assert online_rows(door_home) == 0
    assert "exit code 3" in (door_home / "data" / "door.log").read_text(encoding="utf-8")


@pytest.mark.slow
def test_pty_sighup_during_the_goodbye_is_a_normal_quit(door_home: Path,
                                                        door_sys: Path) -> None:
    configure(door_home, goodbye_pause=60)  # without the signal, the door would linger
    door = PtyDoor(door_command(door_home, door_sys), door_home)
    try:
        door.to_menu()
        wait_until(lambda: online_rows(door_home) == 1, "the door's Who's Online row")
        door.send(b"qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        door.wait_for("Farewell, dexter.")
        door.proc.send_signal(signal.SIGHUP)
        assert door.finish() == 0
    finally:
        door.close()
    assert online_rows(door_home) == 0


@pytest.mark.slow
def test_goodbye_pause_is_skipped_by_any_key(door_home: Path, door_sys: Path) -> None:
    configure(door_home, goodbye_pause=60)
    door = PtyDoor(door_command(door_home, door_sys), door_home)
    try:
        door.to_menu()
        door.send(b"qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        door.wait_for("Farewell, dexter.")
        assert door.proc.poll() is None  # the goodbye stays up: 60 s unless a key comes
        door.send(b"x")
        assert door.finish() == 0  # well within WAIT, so the key ended the pause
    finally:
        door.close()


async def test_a_signal_before_the_loop_runs_is_kept_for_the_visit() -> None:
    """A BBS may hang up while the door is still starting: the signal waits for the loop."""
    before = signal.getsignal(signal.SIGHUP)  # SIG_IGN when the suite runs under nohup
    signals = HangupSignals()
    signals.install()
    try:
        os.kill(os.getpid(), signal.SIGHUP)  # no loop attached yet: kept, and nobody dies
        heard: list[str] = []
        got = asyncio.Event()

        def on_signal(name: str) -> None:
            heard.append(name)
            got.set()
        signals.attach(asyncio.get_running_loop(), on_signal)
        await asyncio.wait_for(got.wait(), WAIT)
        got.clear()
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(got.wait(), WAIT)
        assert heard == ["SIGHUP", "SIGTERM"]
    finally:
        signals.restore()
    assert signal.getsignal(signal.SIGHUP) == before


PASTE = b"\x1b[C" * (96 * 1024 // 3)
"""More keys than the door holds waiting (64 KiB): nothing a game records."""
NUMBER = 31


def kept(home: Path) -> list[str] | None:
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        row = conn.execute("SELECT state FROM resume_slots WHERE game = 'montecarlo'"
                           ).fetchone()
    return json.loads(row[0])["actions"] if row else None


def one_move(send, wait_for) -> list[str]:
    """From the main menu: Monte Carlo #NUMBER and its first move; the moves made."""
    send(b"c")
    wait_for("Game number")
    send(f"{NUMBER}\r".encode())
    wait_for(f"Monte Carlo #{NUMBER}")
    game = MonteCarlo.new(NUMBER)
    move = game.legal_moves()[0]
    game.play(move)
    send(move.encode())
    wait_for(f"Score {game.score}")
    return game.actions


@pytest.mark.slow
def test_pty_paste_then_the_line_closed(door_home: Path, door_sys: Path) -> None:
    door = PtyDoor(door_command(door_home, door_sys), door_home)
    try:
        door.to_menu()
        actions = one_move(door.send, door.wait_for)
        os.set_blocking(door.master, False)
        rest = PASTE
        end = time.monotonic() + WAIT
        while rest and time.monotonic() < end:  # as fast as the pty takes it
            with contextlib.suppress(BlockingIOError):
                rest = rest[os.write(door.master, rest):]
            door.pump(0.001)
        os.close(door.master)  # the BBS hangs up
        door.master = os.open(os.devnull, os.O_RDONLY)  # for close() to close
        assert door.proc.wait(timeout=WAIT) == EXIT_CARRIER
    finally:
        door.close()
    assert kept(door_home) == actions
    assert online_rows(door_home) == 0


@pytest.mark.slow
@pytest.mark.parametrize("how", ["close", "reset"])
def test_socket_paste_then_the_line_dropped(door_home: Path, door_sys: Path,
                                            how: str) -> None:
    with connect_back_door(door_home, door_sys) as (proc, caller):
        caller.wait_for("Press any key")
        caller.sock.sendall(b" ")
        caller.wait_for("Your choice")
        actions = one_move(caller.sock.sendall, caller.wait_for)
        caller.sock.settimeout(WAIT)
        caller.sock.sendall(PASTE)
        if how == "reset":
            caller.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                   struct.pack("ii", 1, 0))
        caller.sock.close()
        assert proc.wait(timeout=WAIT) == EXIT_CARRIER
    assert kept(door_home) == actions
    assert online_rows(door_home) == 0
