"""bench/saturation.py's lean closed loops (keyloop.c, and the plain-Python epoll loop) over
real loopback sockets: each socket gets its keys in order, one at a time, the answers are
counted, a line that closes is counted as failed, not as keys, and the loop reports its
own CPU.

The server is a blocking echo in threads that writes down what it received.  No check here
depends on how fast anything runs: the loop's process is started and says "ready" before
its window opens (the start time is sent then, not at launch), the window's test checks
only that what was counted agrees with what was sent, and the exact counts come from a run
that ends because every line closed (its window is only a deadline)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from waiting import WAIT

pytestmark = pytest.mark.slow  # compiles and runs the load loops as processes

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
FIRST = (b"\x1b[B", b"\x1b[B")
LOOP = (b"\x1b[C", b"h", b"\r", b"u")
CALLERS = 5


class EchoServer:
    """Accepts ``CALLERS`` connections and echoes each key back.  ``close_after``: each line
    is closed when its caller sends a key past that many (the first line past 3), unanswered."""

    def __init__(self, close_after: int | None = None) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.received: list[bytearray] = []
        self.close_after = close_after
        self.threads: list[threading.Thread] = []

    def connect(self) -> list[socket.socket]:
        clients = []
        for i in range(CALLERS):
            clients.append(socket.create_connection(self.listener.getsockname()))
            conn, _ = self.listener.accept()
            self.received.append(bytearray())
            limit = None if self.close_after is None else 3 if i == 0 else self.close_after
            thread = threading.Thread(target=self.echo, args=(conn, self.received[i], limit),
                                      daemon=True)
            thread.start()
            self.threads.append(thread)
        return clients

    def echo(self, conn: socket.socket, got: bytearray, limit: int | None) -> None:
        """Echo a client's keys until it leaves (closing, or resetting as the C loop does
        when its window ends: either is the end of its run, not an error)."""
        with conn, contextlib.suppress(ConnectionResetError, BrokenPipeError):
            keys = 0
            while data := conn.recv(4096):
                got += data
                keys += 1
                if limit is not None and keys > limit:
                    return
                conn.sendall(data)


def keys_in(got: bytes) -> int | None:
    """How many of a caller's keys ``got`` is, in their order (None: not that)."""
    offset = i = 0
    while offset < len(got):
        key = FIRST[i] if i < len(FIRST) else LOOP[(i - len(FIRST)) % len(LOOP)]
        if got[offset:offset + len(key)] != key:
            return None
        offset, i = offset + len(key), i + 1
    return i


def run_loop(command: list[str], clients: list[socket.socket]) -> tuple[dict, float]:
    """Run a loop on the clients' sockets: started, then told to start once it says it is
    ready, so its window never holds its own start-up.  Its JSON line, and the CPU seconds
    the kernel counted for its whole life."""
    fds = [c.fileno() for c in clients]
    proc = subprocess.Popen([*command, *map(str, fds)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, pass_fds=fds)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        assert proc.stdout.readline() == "ready\n"
        proc.stdin.write(f"{time.time()}\n")
        proc.stdin.close()
        out = proc.stdout.read()  # to its end: the loop has exited
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if proc.returncode is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    return json.loads(out.splitlines()[-1]), usage.ru_utime + usage.ru_stime


def keyloop(tmp_path: Path, seconds: float) -> list[str]:
    binary = tmp_path / "keyloop"
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", str(binary),
                    str(BENCH / "keyloop.c")], check=True)
    return [str(binary), str(seconds), "0", ",".join(k.hex() for k in FIRST),
            ",".join(k.hex() for k in LOOP)]


def epoll_loop(seconds: float) -> list[str]:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import saturation; "
            "fds = [int(fd) for fd in sys.argv[2:]]; "
            f"saturation.epoll_loop(fds, 0, {seconds}, ({FIRST!r}, {LOOP!r}))")
    return [sys.executable, "-c", code, str(BENCH)]


needs_cc = pytest.mark.skipif(shutil.which("cc") is None,
                              reason="no C compiler: saturation.py runs the epoll loop instead")


WINDOW_S = 0.5
"""The window of the run that counts what it can (after the loop is ready)."""
CLOSE_AFTER = 12
"""Keys each line answers in the run that ends when every line has closed."""


def sent_keys(server: EchoServer) -> int:
    """Every key the callers sent, checked to be whole keys in their order (a closed loop:
    one at a time)."""
    for thread in server.threads:
        thread.join(WAIT)
    sent = 0
    for i, got in enumerate(server.received):
        count = keys_in(bytes(got))
        assert count is not None, (i, bytes(got)[:40])
        sent += count
    return sent


def check_report(result: dict, own_cpu: float) -> None:
    """What the loop says of itself agrees with what it counted and with the kernel."""
    assert len(result["latencies"]) <= result["keys"] // 10 + CALLERS
    assert all(x > 0 for x in result["latencies"])
    user, system = result["cpu"]  # its own CPU over its window: a part of its life's
    assert user >= 0 and system >= 0 and user + system <= own_cpu + 0.02  # (clock-tick rounding)


def run_window(command: list[str]) -> None:
    """A window of WINDOW_S after the loop is ready: whatever it counted, every answered
    key was sent and at most one a caller was sent and never counted."""
    server = EchoServer()
    clients = server.connect()
    result, own_cpu = run_loop(command, clients)
    for c in clients:
        c.close()
    sent = sent_keys(server)
    assert result["failed"] == 0
    assert sent - CALLERS <= result["keys"] <= sent
    check_report(result, own_cpu)


def run_until_every_line_closes(command: list[str]) -> None:
    """Every line answers CLOSE_AFTER keys (the first 3) and closes on the next: the loop
    counts each answer, each closed line as failed, and ends when all are closed."""
    server = EchoServer(close_after=CLOSE_AFTER)
    clients = server.connect()
    result, own_cpu = run_loop(command, clients)
    for c in clients:
        c.close()
    sent = sent_keys(server)
    assert sent == 3 + 1 + (CLOSE_AFTER + 1) * (CALLERS - 1)
    assert result["failed"] == CALLERS
    assert result["keys"] == sent - CALLERS  # the key each line closed on is no answer
    check_report(result, own_cpu)


@needs_cc
def test_keyloop_c_counts_within_its_window(tmp_path: Path) -> None:
    run_window(keyloop(tmp_path, WINDOW_S))


@needs_cc
def test_keyloop_c_counts_every_answer_and_every_closed_line(tmp_path: Path) -> None:
    run_until_every_line_closes(keyloop(tmp_path, WAIT))


def test_epoll_loop_counts_within_its_window() -> None:
    run_window(epoll_loop(WINDOW_S))


def test_epoll_loop_counts_every_answer_and_every_closed_line() -> None:
    run_until_every_line_closes(epoll_loop(WAIT))
