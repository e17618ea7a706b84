"""``reussite door`` launched for real, as a BBS does: on a pty, on an inherited socket, and
connecting back to a listener on 127.0.0.1; SIGHUP, time up, bad options."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import termios
from pathlib import Path

import pytest
from doorproc import WAIT, PtyDoor, SocketCaller, child_env, connect_back_door, door_command

SAMPLES = Path(__file__).parent / "samples"
CLEAN_EXIT = b"\x1b[0m\x1b7\x1b[r\x1b8\x1b[?25h"


@pytest.fixture
def door_sys(tmp_path: Path) -> Path:
    """A Mystic DOOR.SYS (alias ``dexter``) where a BBS would write it: node1/DOOR.SYS."""
    folder = tmp_path / "node1"
    folder.mkdir()
    path = folder / "DOOR.SYS"
    path.write_bytes((SAMPLES / "mystic_demoscene_DOOR.SYS").read_bytes())
    return path


@pytest.mark.slow
def test_pty_launch_greets_plays_quits_and_restores(door_home: Path, door_sys: Path) -> None:
    door = PtyDoor(door_command(door_home, door_sys.parent), door_home)
    try:
        door.wait_for("Press any key")
        assert "Welcome, dexter!" in door.term.text
        assert "Login" not in door.term.text and "password" not in door.term.text.lower()
        door.send(b" ")
        door.wait_for("Your choice")
        assert "dexter · 998 min left" in door.term.text
        assert "[Q]  Quit to the BBS" in door.term.text  # a BBS caller goes back to the BBS
        row, col = door.term.find("[A]")
        assert door.term.screen.buffer[row][col].bg != "cyan"
        door.send(b"\x1b[B\x1b[B")  # two arrows down: the bar moves to the third entry
        door.wait_until(lambda: door.term.screen.buffer[row][col].bg == "cyan",
                        "the selection bar on Aunt Mary")
        door.send(b"qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        door.wait_for("Farewell, dexter.")
        assert door.finish() == 0
        assert door.term.raw.endswith(CLEAN_EXIT + b"\r\n") or CLEAN_EXIT in door.term.raw[-40:]
        assert termios.tcgetattr(door.slave) == door.modes_before
        assert os.get_blocking(door.slave)
        log = (door_home / "data" / "door.log").read_text()
        assert "dropfile" in log and "dexter" in log
    finally:
        door.close()


@pytest.mark.slow
def test_sighup_mid_visit_ends_cleanly_with_carrier_code(door_home: Path,
                                                          door_sys: Path) -> None:
    door = PtyDoor(door_command(door_home, door_sys), door_home)
    try:
        door.wait_for("Press any key")
        door.send(b"x")
        door.wait_for("Your choice")
        door.proc.send_signal(signal.SIGHUP)
        assert door.finish() == 3
        assert termios.tcgetattr(door.slave) == door.modes_before
        assert "SIGHUP from the BBS" in (door_home / "data" / "door.log").read_text()
    finally:
        door.close()


@pytest.mark.slow
def test_sighup_mid_game_saves_it_for_the_next_launch(door_home: Path,
                                                        door_sys: Path) -> None:
    """Monte Carlo deal #42: b1 (3♠) and c1 (3♦) touch, a pair worth 6 points."""
    log = door_home / "data" / "door.log"
    door = PtyDoor(door_command(door_home, door_sys), door_home)
    try:
        door.to_menu()
        door.wait_until(lambda: log.exists() and "ready" in log.read_text(),
                        "the database opening")
        door.send(b"c")
        door.wait_for("Game number")
        door.send(b"42\r")
        door.wait_for("Deal #42")
        door.send(b"b1c1")
        door.wait_until(lambda: re.search(r"Score +6 ", door.term.text), "a score of 6")
        door.proc.send_signal(signal.SIGHUP)
        assert door.finish() == 3
    finally:
        door.close()
    again = PtyDoor(door_command(door_home, door_sys), door_home)
    try:
        again.to_menu()
        again.send(b"c")
        again.wait_for("Resume your Monte Carlo game #42?")
        again.send(b"y")
        again.wait_until(lambda: re.search(r"Score +6 ", again.term.text),
                         "the saved game, score 6")
        again.proc.send_signal(signal.SIGTERM)
        assert again.finish() == 3
    finally:
        again.close()


@pytest.mark.slow
def test_time_up_says_so_and_exits_0(door_home: Path, door_sys: Path) -> None:
    door = PtyDoor(door_command(door_home, door_sys, "--time-left", "0.05"), door_home)
    try:
        door.wait_for("You have 0 minutes")
        door.wait_for("Your time is up.")
        door.wait_for("Thanks for playing")
        assert door.finish() == 0
    finally:
        door.close()


@pytest.mark.slow
def test_door32_handle_that_is_no_socket_falls_back_to_stdio(door_home: Path,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "door32.sys"
    path.write_bytes((SAMPLES / "ec2game_talisman_door32.sys").read_bytes())  # handle 8
    door = PtyDoor(door_command(door_home, path, "--node", "5"), door_home)
    try:
        door.wait_for("Welcome, Zzzzrrr!")
        door.send(b"\x03")  # Ctrl-C is a key in raw mode, not a signal
        door.wait_for("Your choice")
        door.send(b"qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        door.wait_for("Farewell, Zzzzrrr.")
        assert door.finish() == 0
        log = (door_home / "data" / "door.log").read_text()
        assert "handle 8 is not a socket" in log and "node 5" in log
    finally:
        door.close()


@pytest.mark.slow
def test_dorinfo_launch(door_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "DORINFO1.DEF"
    path.write_bytes((SAMPLES / "jezebel_DORINFO1.DEF").read_bytes())
    door = PtyDoor(door_command(door_home, tmp_path, "--charset", "cp437"), door_home,
                   charset="cp437")
    try:
        door.wait_for("Welcome, Jason Kessler! You have 60 minutes")
        assert "Ã" not in door.term.text  # CP437 on the wire, as asked
        door.send(b"\r")
        door.wait_for("Your choice")
        door.send(b"qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        door.wait_for("Farewell, Jason Kessler.")
        assert door.finish() == 0
    finally:
        door.close()


@pytest.mark.slow
def test_connect_back_to_the_bbs_listener(door_home: Path, door_sys: Path) -> None:
    with connect_back_door(door_home, door_sys) as (proc, caller):
        caller.wait_for("Welcome, dexter!")
        assert b"\xff" not in caller.term.raw  # no telnet announced to a bridging BBS
        caller.sock.sendall(b"\r")
        caller.wait_for("Your choice")
        caller.sock.sendall(b"Qy")  # Q, and yes to "Quit to the BBS? (Y/n)"
        caller.wait_for("Farewell, dexter.")
        caller.wait_closed()
        assert proc.wait(timeout=WAIT) == 0
        assert CLEAN_EXIT in caller.term.raw


@pytest.mark.slow
def test_inherited_raw_telnet_socket(door_home: Path, tmp_path: Path) -> None:
    ours, theirs = socket.socketpair()
    fd = theirs.fileno()
    path = tmp_path / "DOOR32.SYS"
    path.write_text(f"2\n{fd}\n38400\nTalisman v0.51\n12\nMason Green\nZzzzrrr\n100\n90\n1\n"
                    "2\n")
    proc = subprocess.Popen(door_command(door_home, path, "--telnet"),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=door_home, env=child_env(),
                            pass_fds=[fd])
    theirs.close()
    try:
        caller = SocketCaller(ours)
        caller.wait_for("Welcome, Zzzzrrr!")
        assert caller.term.raw.startswith(b"\xff\xfb")  # IAC WILL …: options announced
        # The client agrees to NAWS and reports 80x30, then a key with a doubled IAC in it.
        ours.sendall(b"\xff\xfb\x1f\xff\xfa\x1f\x00\x50\x00\x1e\xff\xf0 \xff\xff")
        caller.term.screen.resize(30, 80)  # the window the caller just reported
        caller.wait_for("Your choice")
        ours.sendall(b"\xff\xfd\x05qy")  # DO STATUS: refused; then Q, and yes
        caller.wait_for("Farewell, Zzzzrrr.")
        caller.wait_closed()
        assert proc.wait(timeout=WAIT) == 0
        assert b"\xff\xfc\x05" in caller.term.raw  # IAC WONT STATUS
        assert b"\xff\xfd\x1f" not in caller.term.raw.split(b"Welcome")[1]  # NAWS not re-asked
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        ours.close()


@pytest.mark.slow
@pytest.mark.parametrize("options,says", [
    (["--socket", "0"], "--socket 0: descriptor 0 is not a socket"),
    (["--port", "70000"], "--port 70000: expected a port number"),
    (["--time-left", "0"], "--time-left 0: expected minutes above 0"),
    (["--local", "--port", "9"], "--local is this console"),
])
def test_bad_options_one_line_exit_2(door_home: Path, door_sys: Path, options: list[str],
                                     says: str) -> None:
    result = subprocess.run(door_command(door_home, door_sys, *options),
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            cwd=door_home, env=child_env(), timeout=WAIT)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"reussite: {says}"] or (
        len(result.stderr.splitlines()) == 1 and says in result.stderr)


def test_unusable_dropfile_exit_2(door_home: Path) -> None:
    result = subprocess.run(door_command(door_home, SAMPLES /
                                         "MALFORMED_esterian_conquest_DOOR.SYS"),
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            cwd=door_home, env=child_env(), timeout=WAIT)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "does not follow the DOOR.SYS layout" in result.stderr


@pytest.mark.slow
def test_connect_back_refused_exit_2(door_home: Path, door_sys: Path) -> None:
    spare = socket.create_server(("127.0.0.1", 0))
    port = spare.getsockname()[1]
    spare.close()  # nobody listens there now
    result = subprocess.run(door_command(door_home, door_sys, "--port", str(port)),
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            cwd=door_home, env=child_env(), timeout=WAIT)
    assert result.returncode == 2
    assert f"cannot connect back to 127.0.0.1:{port}" in result.stderr


@pytest.mark.slow
def test_pipes_work_and_a_plain_file_is_refused(door_home: Path, door_sys: Path,
                                                tmp_path: Path) -> None:
    piped = subprocess.Popen(door_command(door_home, door_sys), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             cwd=door_home, env=child_env())
    out, _ = piped.communicate(b"", timeout=WAIT)  # the BBS closes the pipe: carrier lost
    assert piped.returncode == 3 and b"Press any key" in out
    with open(tmp_path / "screen.txt", "wb") as plain:
        result = subprocess.run(door_command(door_home, door_sys), input="",
                                stdout=plain, stderr=subprocess.PIPE, text=True,
                                cwd=door_home, env=child_env(), timeout=WAIT)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["reussite: standard output is a file: the caller "
                                          "must be on a terminal, a pipe or a socket "
                                          "(--socket FD, --port P)"]


@pytest.mark.slow
@pytest.mark.parametrize("into_folder", [True, False])
def test_keep_dropfile_and_the_parsed_dropfile_at_debug(door_home: Path, door_sys: Path,
                                                        tmp_path: Path,
                                                        into_folder: bool) -> None:
    """ENiGMA½ deletes drop/node<N>/ when the door exits: --keep-dropfile saves a copy first."""
    kept = tmp_path / "kept"
    kept.mkdir()
    target = kept if into_folder else kept / "last-door.sys"
    piped = subprocess.run(door_command(door_home, door_sys, "--keep-dropfile", str(target),
                                        "--log-level", "debug"),
                           input=b"", capture_output=True, cwd=door_home, env=child_env(),
                           timeout=WAIT)
    assert piped.returncode == 3  # the caller was gone at once: carrier lost
    copy = kept / "DOOR.SYS" if into_folder else target
    assert copy.read_bytes() == door_sys.read_bytes()
    log = (door_home / "data" / "door.log").read_text(encoding="utf-8")
    assert f"dropfile kept as {copy}" in log
    assert 'DEBUG door.door: dropfile as read: {"format": "DOOR.SYS", "user_name": ' \
           '"Dexter Cellfish", "alias": "dexter"' in log


@pytest.mark.slow
def test_keep_dropfile_that_cannot_be_written_is_logged(door_home: Path, door_sys: Path,
                                                         tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "DOOR.SYS"
    piped = subprocess.run(door_command(door_home, door_sys, "--keep-dropfile", str(target)),
                           input=b"", capture_output=True, cwd=door_home, env=child_env(),
                           timeout=WAIT)
    assert piped.returncode == 3 and b"Press any key" in piped.stdout  # the visit went on
    log = (door_home / "data" / "door.log").read_text(encoding="utf-8")
    assert f"--keep-dropfile {target}: cannot copy the dropfile there" in log


@pytest.mark.slow
@pytest.mark.parametrize(("stdin", "stdout", "closed", "said"), [
    ("devnull", "pipe", None, "standard input is a device that is no terminal"),
    ("pipe", "devnull", None, "standard output is a device that is no terminal"),
    ("pipe", "pipe", 0, "standard input is closed"),
    ("pipe", "pipe", 1, "standard output is closed"),
])
def test_unusable_stdio_exits_at_once_with_one_line_and_2(
        door_home: Path, door_sys: Path, stdin: str, stdout: str, closed: int | None,
        said: str) -> None:
    """/dev/null or a closed descriptor is no caller: one line, exit 2, no wait for SIGTERM."""
    ends = {"devnull": subprocess.DEVNULL, "pipe": subprocess.PIPE}

    def close_it() -> None:
        if closed is not None:
            os.close(closed)

    proc = subprocess.Popen(door_command(door_home, door_sys), stdin=ends[stdin],
                            stdout=ends[stdout], stderr=subprocess.PIPE, cwd=door_home,
                            env=child_env(), preexec_fn=close_it)
    try:
        _, err = proc.communicate(timeout=WAIT)  # a door that waited for /dev/null hangs
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines = err.decode().splitlines()
    assert proc.returncode == 2
    assert len(lines) == 1 and lines[0].startswith("reussite: " + said), lines
    log = door_home / "data" / "door.log"
    assert not log.exists() or "Traceback" not in log.read_text()
