"""``reussite bridge``: a BBS's caller sent on to a real hub (``serve`` on loopback) over
RLogin.  The bridge runs as a BBS runs a door: a child process on a fresh pty (the test
holds the master, as Synchronet or ENiGMA½ ``io: stdio`` do) or connecting back to a
listener (ENiGMA½ ``io: socket``), with a real dropfile; its sysop.ini is its own door
home's, as on a board that is not the hub.

No timing is asserted: "ends within the deadline" polls to tests/waiting.py's deadline."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from bridgehelp import HANDLE, XA, bridge_command, make_board
from doorproc import PtyDoor, SocketCaller, child_env
from homehelp import configure
from serverhelp import running
from waiting import WAIT, until

from door.commands.bridge import EXIT_CARRIER, EXIT_ERROR, EXIT_OK

REFUSAL = "Your board is not let in here: its sysop should check the secret."


@pytest.fixture
def hub(door_home: Path) -> Path:
    """The hub's home: board XA may call from 127.0.0.1."""
    configure(door_home, "boards", XA=f"{XA} | 127.0.0.1 | Xanadu BBS")
    return door_home


@pytest.fixture
def board(tmp_path: Path) -> Path:
    return make_board(tmp_path)


def on_pty(board: Path, port: int, *options: str, rows: int = 24) -> PtyDoor:
    """The bridge on a pty, as a stdio BBS starts a door; the screen answers cursor
    probes (the hub's charset probe) as a caller's terminal does, in CP437."""
    door = PtyDoor(bridge_command(board, port, *options), cwd=board, rows=rows,
                   charset="cp437")
    door.term.screen.write_process_input = lambda reply: door.send(reply.encode("ascii"))
    return door


async def wait_for(door: PtyDoor, text: str) -> None:
    """The pty is read in a thread: the hub runs in this event loop."""
    await asyncio.to_thread(door.wait_for, text)


async def to_menu(door: PtyDoor) -> None:
    await asyncio.to_thread(door.to_menu)


async def finish(door: PtyDoor) -> int:
    return await asyncio.to_thread(door.finish)


def bridge_log(home: Path) -> str:
    return (home / "data" / "door.log").read_text(encoding="utf-8")


@pytest.fixture
def hub_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """The hub's log lines (it runs in this process), INFO included."""
    caplog.set_level(logging.INFO)
    return caplog


async def hub_call_ended(hub_log: pytest.LogCaptureFixture) -> None:
    await until(lambda: "node 1: disconnect" in hub_log.text, "the hub ended its call")


async def test_the_caller_arrives_as_handle_at_board_and_quits_back_to_the_bbs(
        hub: Path, board: Path,
        hub_log: pytest.LogCaptureFixture) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        door = on_pty(board, ports.rlogin, rows=30)
        try:
            await to_menu(door)
            # The pty's 30 rows reached the hub (RLogin's window message): its status
            # line is on the last of them.
            assert f"{HANDLE}@XA" in door.term.lines[29]
            door.send(b"w")
            await wait_for(door, "Who's Online")
            await wait_for(door, f"{HANDLE}@XA")
            door.send(b" ")
            await wait_for(door, "Your choice")
            door.send(b"q")
            await wait_for(door, "Quit to the BBS? (Y/n)")
            door.send(b"y")
            await wait_for(door, f"Farewell, {HANDLE}@XA.")
            door.send(b" ")  # ends the hub's goodbye pause: it hangs up, so does the bridge
            assert await finish(door) == EXIT_OK
        finally:
            door.close()
    assert f"login {HANDLE}@XA from 127.0.0.1" in hub_log.text
    assert "(rlogin, board XA)" in hub_log.text
    log = bridge_log(board)
    assert "the hub ended the call: back to the BBS, exit code 0" in log
    assert XA not in log  # the secret is never logged


async def test_a_window_change_on_the_bbs_side_reaches_the_hub(hub: Path,
                                                               board: Path) -> None:
    import fcntl
    import struct
    import termios

    async with running(hub, ssh=False, rlogin=True) as ports:
        door = on_pty(board, ports.rlogin, rows=24)
        try:
            await to_menu(door)
            assert f"{HANDLE}@XA" in door.term.lines[23]
            fcntl.ioctl(door.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))
            door.term.screen.resize(40, 80)
            os.kill(door.proc.pid, signal.SIGWINCH)  # what the pty's owner gets on a resize
            await asyncio.to_thread(door.wait_until,
                                    lambda: f"{HANDLE}@XA" in door.term.lines[39],
                                    "the hub's redraw at 40 rows")
        finally:
            door.close()


async def test_xtrn_from_the_bridge_opens_the_game_at_once(hub: Path, board: Path) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        door = on_pty(board, ports.rlogin, "--game", "montecarlo")
        try:
            await wait_for(door, "Game number:")
            assert "Your choice" not in door.term.text
        finally:
            door.close()


async def test_a_sighup_from_the_bbs_ends_the_bridge_and_the_hubs_call(
        hub: Path, board: Path,
        hub_log: pytest.LogCaptureFixture) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        door = on_pty(board, ports.rlogin)
        try:
            await to_menu(door)
            os.kill(door.proc.pid, signal.SIGHUP)  # the caller dropped: Synchronet, ENiGMA½
            assert await finish(door) == EXIT_CARRIER
            await hub_call_ended(hub_log)
        finally:
            door.close()
    assert "SIGHUP from the BBS: the caller is gone" in bridge_log(board)


async def test_a_socket_bbs_closing_the_line_ends_the_bridge_and_the_hubs_call(
        hub: Path, board: Path,
        hub_log: pytest.LogCaptureFixture) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        listener = socket.create_server(("127.0.0.1", 0))
        proc = subprocess.Popen(
            bridge_command(board, ports.rlogin, "--port", str(listener.getsockname()[1])),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            cwd=board, env=child_env())
        try:
            listener.settimeout(WAIT)
            conn, _ = await asyncio.to_thread(listener.accept)
            caller = SocketCaller(conn)
            await asyncio.to_thread(caller.wait_for, "Press any key")
            conn.sendall(b" ")
            await asyncio.to_thread(caller.wait_for, "Your choice")
            conn.close()  # the caller dropped: ENiGMA½ io: socket closes the connection
            assert await asyncio.to_thread(proc.wait, WAIT) == EXIT_CARRIER
            await hub_call_ended(hub_log)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            listener.close()


async def test_the_hub_shutting_down_ends_the_bridge(hub: Path, board: Path) -> None:
    door: PtyDoor | None = None
    try:
        async with running(hub, ssh=False, rlogin=True) as ports:
            door = on_pty(board, ports.rlogin)
            await to_menu(door)
        # The hub has told its callers and closed their lines.
        assert await finish(door) == EXIT_OK
        assert "closing for maintenance" in door.term.text
    finally:
        if door is not None:
            door.close()


async def test_a_wrong_secret_shows_the_hubs_refusal_in_one_line(hub: Path,
                                                                board: Path,
        hub_log: pytest.LogCaptureFixture) -> None:
    configure(board, "bridge", secret="not-the-secret")
    async with running(hub, ssh=False, rlogin=True) as ports:
        door = on_pty(board, ports.rlogin)
        try:
            assert await finish(door) == EXIT_ERROR
        finally:
            door.close()
    lines = [line.strip() for line in door.term.lines if line.strip()]
    assert lines == [REFUSAL]
    assert f"the hub turned the call away: {REFUSAL}" in bridge_log(board)
    assert "refused: wrong secret" in hub_log.text


async def test_a_hub_that_does_not_answer_gets_one_line(board: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port = closed.getsockname()[1]  # nothing listens there once this closes
    door = on_pty(board, port)
    try:
        assert await finish(door) == EXIT_ERROR
    finally:
        door.close()
    lines = [line.strip() for line in door.term.lines if line.strip()]
    assert lines == ["The game hub cannot be reached right now. Please try again later."]
    assert "the hub cannot be reached: 127.0.0.1:" in bridge_log(board)


async def test_the_bbs_time_running_out_ends_the_hubs_call(hub: Path, board: Path,
        hub_log: pytest.LogCaptureFixture) -> None:
    async with running(hub, ssh=False, rlogin=True) as ports:
        door = on_pty(board, ports.rlogin, "--time-left", "0.1")  # six seconds
        try:
            await wait_for(door, "Your time is up")
            assert await finish(door) == EXIT_OK
            await hub_call_ended(hub_log)
        finally:
            door.close()


def test_no_secret_in_sysop_ini_is_one_line_and_exit_2(tmp_path: Path) -> None:
    board = make_board(tmp_path, secret=None)
    done = subprocess.run(bridge_command(board, 2513), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=board, env=child_env(),
                          timeout=WAIT)
    assert done.returncode == 2
    assert done.stderr.startswith("reussite: no board secret: set [bridge] secret in ")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(("option", "address"), [
    (None, ("hub.example.org", 2513)),
    ("other.example.org", ("other.example.org", 2513)),
    ("10.0.0.7:513", ("10.0.0.7", 513)),
    ("[2001:db8::7]:2600", ("2001:db8::7", 2600)),
    ("2001:db8::7", ("2001:db8::7", 2513)),
])
def test_the_hub_comes_from_the_option_else_sysop_ini(board: Path, option: str | None,
                                                      address: tuple[str, int]) -> None:
    from door.commands.bridge import hub_address
    from door.config import load_settings

    configure(board, "bridge", host="hub.example.org", port=2513)
    assert hub_address(option, load_settings(board)) == address


@pytest.mark.parametrize("option", ["hub:0", "hub:http", "[::1]x", "hub:99999"])
def test_a_bad_hub_option_is_one_line(board: Path, option: str) -> None:
    from door.commands.bridge import hub_address
    from door.commands.common import CliError
    from door.config import load_settings

    with pytest.raises(CliError, match=r"^--hub "):
        hub_address(option, load_settings(board))
