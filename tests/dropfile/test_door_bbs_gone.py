"""The BBS dies while something else still holds the door's pty open (a helper process of the
BBS; here the test itself, which keeps the pty's master): no SIGHUP comes and the pty does
not hang up.  The door sees its BBS end, saves the game and exits with code 3, the log
saying why; before, it stayed until the idle limit.

The BBS is a small launcher process that starts the door and waits for it, the way a BBS
runs a door; it is SIGKILLed.  Through a door script's shell too: the shell stays (it waits
for the door), the BBS above it goes."""

from __future__ import annotations

import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from doorproc import PtyDoor, door_command
from homehelp import configure
from waiting import WAIT

from door.commands.door_visit import EXIT_CARRIER, EXIT_OK, how_it_ended
from door.games.montecarlo import MonteCarlo
from door.session import IdleTimeout

NUMBER = 31
BBS = textwrap.dedent("""
    import subprocess, sys
    door = subprocess.Popen(sys.argv[2:])
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(door.pid))
    import os
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
    door.wait()
""")
"""A BBS in miniature: starts the door on its own pty (inherited), writes the door's
process number where the test finds it, waits."""


def running(pid: int) -> bool:
    """The process is there and not a zombie (an orphan's reaper may be slow to reap)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def kept(home: Path) -> list[str] | None:
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        row = conn.execute("SELECT state FROM resume_slots WHERE game = 'montecarlo'"
                           ).fetchone()
    return json.loads(row[0])["actions"] if row else None


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("through_shell", [False, True])
def test_the_door_leaves_when_its_bbs_dies_and_the_pty_stays_open(
        door_home: Path, door_sys: Path, tmp_path: Path, through_shell: bool) -> None:
    configure(door_home, idle_timeout=3600)  # only the BBS's end can end this visit
    door_args = door_command(door_home, door_sys)
    if through_shell:  # "; exit $?": the shell waits for the door instead of becoming it
        door_args = ["/bin/sh", "-c", '"$@"; exit $?', "door.sh", *door_args]
    pid_file = tmp_path / "door.pid"
    bbs = PtyDoor([sys.executable, "-c", BBS, str(pid_file), *door_args], door_home)
    door_pid = 0
    try:
        bbs.to_menu()
        door_pid = int(pid_file.read_text())
        if through_shell:  # the door's parent is the shell, which outlives the BBS
            assert Path(f"/proc/{door_pid}/stat").read_text().split(") ")[0].endswith("(sh")
        bbs.send(b"c")
        bbs.wait_for("Game number")
        bbs.send(f"{NUMBER}\r".encode())
        bbs.wait_for(f"Monte Carlo #{NUMBER}")
        game = MonteCarlo.new(NUMBER)
        move = game.legal_moves()[0]
        game.play(move)
        bbs.send(move.encode())
        bbs.wait_for(f"Score {game.score}")
        bbs.proc.send_signal(signal.SIGKILL)  # no SIGHUP, and the test keeps the pty open
        bbs.proc.wait()
        bbs.wait_until(lambda: not running(door_pid), "the door's exit")
    finally:
        if door_pid and running(door_pid):
            os.kill(door_pid, signal.SIGKILL)
        bbs.close()
    assert kept(door_home) == game.actions
    log = (door_home / "data" / "door.log").read_text(encoding="utf-8")
    assert "the BBS has gone (process " in log and " ended): the caller is gone" in log
    assert f"back to the BBS, exit code {EXIT_CARRIER}: the BBS has gone (process " in log


WATCHER = textwrap.dedent("""
    import asyncio, os
    from door.commands import bbs_watch

    def no_pidfd(pid):
        raise OSError("no pidfd_open here")

    os.pidfd_open = no_pidfd  # as on Linux before 5.3, or another system

    async def main():
        loop = asyncio.get_running_loop()
        gone = loop.create_future()
        bbs_watch.BBSWatch().start(loop, gone.set_result)
        print("watching", flush=True)
        print(await gone, flush=True)

    asyncio.run(main())
""")


@pytest.mark.slow
def test_without_pidfd_the_parent_is_asked_for(tmp_path: Path) -> None:
    """The fallback: os.getppid() asked every second sees the parent go."""
    parent = subprocess.Popen([sys.executable, "-c", BBS, str(tmp_path / "pid"),
                               sys.executable, "-c", WATCHER], stdout=subprocess.PIPE)
    try:
        assert parent.stdout is not None
        lines = LineReader(parent.stdout)
        assert lines.next() == "watching"
        parent.kill()
        gone = lines.next()
        assert gone.startswith(f"the door's parent, process {parent.pid} (python"), gone
        assert gone.endswith("), ended"), gone
    finally:
        parent.kill()
        parent.wait()
        watcher = tmp_path / "pid"
        if watcher.exists() and running(int(watcher.read_text())):
            os.kill(int(watcher.read_text()), signal.SIGKILL)


class LineReader:
    """Lines from a pipe, each waited for to a deadline."""

    def __init__(self, pipe) -> None:
        self.pipe, self.buf = pipe, b""

    def next(self) -> str:
        end = time.monotonic() + WAIT
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.pipe], [], [], left)[0]:
                raise AssertionError(f"no line came; so far {self.buf!r}")
            data = os.read(self.pipe.fileno(), 4096)
            if not data:
                raise AssertionError(f"the pipe closed; so far {self.buf!r}")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()


class _Session:
    """What how_it_ended reads of a visit."""

    def __init__(self, ended_by: object, line_dropped: bool = False) -> None:
        self.ended_by = ended_by
        self.terminal = self
        self._dropped = line_dropped

    def hung_up(self) -> bool:
        return self._dropped


class _GoneBBS:
    def gone(self) -> str:
        return "process 4242 (sbbs) ended"


def test_an_idle_time_out_after_a_missed_hang_up_is_no_plain_exit_0() -> None:
    idle = IdleTimeout("idle")
    assert how_it_ended(_Session(idle), EXIT_OK, [], None) == (EXIT_OK, "idle time-out")
    code, how = how_it_ended(_Session(idle), EXIT_OK, [], _GoneBBS())
    assert code == EXIT_CARRIER and "process 4242 (sbbs) ended" in how
    code, how = how_it_ended(_Session(idle, line_dropped=True), EXIT_OK, [], None)
    assert code == EXIT_CARRIER and "the line had dropped" in how
