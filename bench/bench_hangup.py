"""How fast ``reussite door`` leaves when the BBS hangs up, in both I/O modes, and what it
leaves behind: milliseconds from the hang-up to the process's exit, the exit code, and
whether its Who's Online row is gone.  The setup guide promises an exit within 2 s.

Each case launches the door the way a BBS does (stdio: on a fresh pty; socket: connecting
back to a listener, as ENiGMA½ ``io: socket`` runs it), reaches the main menu (or a Monte
Carlo game with one move made) with the database open, then hangs up:

* ``SIGHUP``: the signal only (ENiGMA½ stdio, Synchronet: the line may still be open);
* ``line closed``: the pty master or the socket closed, no signal;
* ``closed + SIGHUP``: both at once (ENiGMA½ socket doors);
* ``quit``: the caller presses Q; timed from Q to the exit, the goodbye pause included
  (``+ key``: a key right after the goodbye skips the pause);
* ``BBS killed``: the door runs under a small BBS process on the pty, which is SIGKILLed
  while the pty stays open (the test holds it): no signal, no hang-up, only the BBS's end.

    python bench/bench_hangup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchkit import REPO, make_door_home

sys.path.insert(0, str(REPO / "tests"))
from doorproc import PtyDoor, connect_back_door, door_command

PROMISE_MS = 2000.0


def online_rows(home: Path) -> int:
    with sqlite3.connect(home / "data" / "reussite.db") as conn:
        try:
            return conn.execute("SELECT count(*) FROM nodes").fetchone()[0]
        except sqlite3.OperationalError:
            return 0


def wait(check: Callable[[], bool], what: str, pump: Callable[[], object]) -> None:
    end = time.monotonic() + 20
    while not check():
        if time.monotonic() > end:
            raise RuntimeError(f"{what} never happened")
        pump()


class Stdio:
    """The door on a pty: ``screen`` text, ``send`` keys, ``close_line`` hangs the pty up."""

    def __init__(self, home: Path) -> None:
        self.door = PtyDoor(door_command(home, home / "DOOR.SYS"), home)
        self.proc = self.door.proc

    def text(self) -> str:
        return self.door.term.text

    def pump(self) -> None:
        self.door.pump(0.02)

    def send(self, data: bytes) -> None:
        self.door.send(data)

    def close_line(self) -> None:
        os.close(self.door.master)
        self.door.master = os.open(os.devnull, os.O_RDONLY)  # close() closes something

    def close(self) -> None:
        self.door.close()


BBS = "import subprocess, sys; subprocess.Popen(sys.argv[1:]).wait()"
"""A BBS in miniature: starts the door on its own pty, and waits."""


class Launched(Stdio):
    """The door on a pty under a BBS process: ``kill_bbs`` SIGKILLs the BBS, the pty left
    open; ``proc.poll()`` asks about the door itself (an orphan then, not our child)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.door = PtyDoor([sys.executable, "-c", BBS, *door_command(home, home / "DOOR.SYS")],
                            home)
        self.bbs = self.door.proc
        self.proc = self  # one_run polls the door through it
        self.returncode: int | None = None
        self._door_pid: int | None = None

    def door_pid(self) -> int:
        while self._door_pid is None:
            for child in Path(f"/proc/{self.bbs.pid}/task").glob("*/children"):
                pids = child.read_text().split()
                if pids:
                    self._door_pid = int(pids[0])
        return self._door_pid

    def kill_bbs(self) -> None:
        self.door_pid()
        self.bbs.send_signal(signal.SIGKILL)
        self.bbs.wait()

    def poll(self) -> int | None:
        """None while the door runs; its exit code (from its log) once it has gone."""
        try:
            stat = Path(f"/proc/{self.door_pid()}/stat").read_text()
        except OSError:
            stat = ") Z"
        if stat.rpartition(")")[2].split()[0] != "Z":
            return None
        log = (self.home / "data" / "door.log").read_text(encoding="utf-8")
        found = re.findall(r"exit code (\d+)", log)
        self.returncode = int(found[-1]) if found else -1
        return self.returncode

    def close(self) -> None:
        if self._door_pid is not None and self.poll() is None:
            os.kill(self._door_pid, signal.SIGKILL)
        self.door.close()


class Socket:
    """The door connected back to our listener (ENiGMA½ ``io: socket``)."""

    def __init__(self, home: Path) -> None:
        self._stack = contextlib.ExitStack()
        self.proc, self.caller = self._stack.enter_context(
            connect_back_door(home, home / "DOOR.SYS"))
        self.caller.sock.settimeout(0.02)

    def text(self) -> str:
        return self.caller.term.text

    def pump(self) -> None:
        self.caller.pump()

    def send(self, data: bytes) -> None:
        self.caller.sock.sendall(data)

    def close_line(self) -> None:
        self.caller.sock.close()

    def close(self) -> None:
        self._stack.close()
        self.caller.sock.close()


def one_run(home: Path, mode: type, how: str, in_game: bool) -> tuple[float, int, int]:
    """(ms from the hang-up to the exit, exit code, Who's Online rows left)."""
    door = mode(home)
    try:
        wait(lambda: "Press any key" in door.text(), "the title", door.pump)
        door.send(b" ")
        wait(lambda: "Your choice" in door.text(), "the menu", door.pump)
        wait(lambda: online_rows(home) == 1, "the Who's Online row", door.pump)
        if in_game:
            door.send(b"c")
            wait(lambda: "Game number" in door.text(), "the game number prompt", door.pump)
            door.send(b"42\r")
            wait(lambda: "Deal #42" in door.text(), "deal #42", door.pump)
            door.send(b"b1c1")
            wait(lambda: re.search(r"Score +6 ", door.text()) is not None, "a score of 6",
                 door.pump)
        if how.startswith("quit"):
            start = time.perf_counter()
            door.send(b"q")
            if how == "quit + key":
                wait(lambda: "Farewell" in door.text(), "the goodbye", door.pump)
                door.send(b"x")
        else:
            start = time.perf_counter()
            if how in ("line closed", "closed + SIGHUP"):
                door.close_line()
            if how in ("SIGHUP", "closed + SIGHUP"):
                door.proc.send_signal(signal.SIGHUP)
            if how == "BBS killed":
                door.kill_bbs()
        while door.proc.poll() is None:
            if how.startswith("quit") or how == "SIGHUP":
                door.pump()
            else:
                time.sleep(0.002)
        elapsed = (time.perf_counter() - start) * 1000
        return elapsed, door.proc.returncode, online_rows(home)
    finally:
        door.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    cases = [(mode, how, game) for mode in (Stdio, Socket)
             for how, game in (("SIGHUP", False), ("line closed", False),
                               ("closed + SIGHUP", False), ("SIGHUP", True),
                               ("closed + SIGHUP", True), ("quit", False),
                               ("quit + key", False))]
    if Path("/proc/self/task").exists():  # the BBS's children are found through /proc
        cases += [(Launched, "BBS killed", False), (Launched, "BBS killed", True)]
    print(f"Hang-up benchmark, {runs} runs per case, load {os.getloadavg()[0]:.2f} "
          f"{os.getloadavg()[1]:.2f} on {os.cpu_count()} cores")
    print(f"  {'mode':<7}{'hang-up':<18}{'where':<8}{'median ms':>10}{'max ms':>9}  "
          f"{'exit codes':<12}rows left")
    worst_hangup = 0.0
    for mode, how, game in cases:
        times, codes, rows = [], set(), 0
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as tmp:
                home = Path(tmp)
                make_door_home(home)
                ms, code, left = one_run(home, mode, how, game)
            times.append(ms)
            codes.add(code)
            rows += left
        if not how.startswith("quit"):
            worst_hangup = max(worst_hangup, max(times))
        print(f"  {mode.__name__.lower():<7}{how:<18}{'game' if game else 'menu':<8}"
              f"{statistics.median(times):>10.0f}{max(times):>9.0f}  "
              f"{','.join(map(str, sorted(codes))):<12}{rows}")
    verdict = "keeps" if worst_hangup <= PROMISE_MS else "breaks"
    print(f"  slowest exit after a hang-up {worst_hangup:.0f} ms: {verdict} the "
          f"{PROMISE_MS:.0f} ms promise")


if __name__ == "__main__":
    main()
