"""bench/saturation.py's lean closed loops (keyloop.c, and the plain-Python epoll loop) over
real loopback sockets: each socket gets its keys in order, one at a time, the answers are
counted, a line that closes is counted as failed, not as keys, and the loop reports its
own CPU.

The server is a blocking echo in threads that writes down what it received."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from waiting import WAIT

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
FIRST = (b"\x1b[B", b"\x1b[B")
LOOP = (b"\x1b[C", b"h", b"\r", b"u")
CALLERS = 5


class EchoServer:
    """Accepts ``CALLERS`` connections and echoes each key back; ``hang_up`` closes the
    first line after its third key."""

    def __init__(self, hang_up: bool = False) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.received: list[bytearray] = []
        self.hang_up = hang_up
        self.threads: list[threading.Thread] = []

    def connect(self) -> list[socket.socket]:
        clients = []
        for i in range(CALLERS):
            clients.append(socket.create_connection(self.listener.getsockname()))
            conn, _ = self.listener.accept()
            self.received.append(bytearray())
            thread = threading.Thread(target=self.echo, args=(conn, self.received[i], i == 0),
                                      daemon=True)
            thread.start()
            self.threads.append(thread)
        return clients

    def echo(self, conn: socket.socket, got: bytearray, first: bool) -> None:
        with conn:
            keys = 0
            while data := conn.recv(4096):
                got += data
                keys += 1
                if first and self.hang_up and keys == 3:
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


def run_loop(command: list[str], clients: list[socket.socket]) -> dict:
    fds = [c.fileno() for c in clients]
    proc = subprocess.run([*command, *map(str, fds)], input=f"{time.time()}\n", text=True,
                          capture_output=True, pass_fds=fds, timeout=WAIT, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


def keyloop(tmp_path: Path) -> list[str]:
    binary = tmp_path / "keyloop"
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", str(binary),
                    str(BENCH / "keyloop.c")], check=True)
    return [str(binary), "0.5", "0", ",".join(k.hex() for k in FIRST),
            ",".join(k.hex() for k in LOOP)]


def epoll_loop() -> list[str]:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import saturation; "
            "fds = [int(fd) for fd in sys.argv[2:]]; "
            f"saturation.epoll_loop(fds, 0, 0.5, ({FIRST!r}, {LOOP!r}))")
    return [sys.executable, "-c", code, str(BENCH)]


needs_cc = pytest.mark.skipif(shutil.which("cc") is None,
                              reason="no C compiler: saturation.py runs the epoll loop instead")


def check_counted(result: dict, server: EchoServer, lost_line: bool) -> None:
    for thread in server.threads:
        thread.join(WAIT)
    sent = 0
    for i, got in enumerate(server.received):
        # whole keys in the callers' order, one at a time (a closed loop)
        count = keys_in(bytes(got))
        assert count is not None, (i, bytes(got)[:40])
        sent += count
    assert result["failed"] == (1 if lost_line else 0)
    assert result["keys"] > 10 * CALLERS
    # every answered key was sent; at most one a caller was sent and never counted
    assert sent - CALLERS <= result["keys"] <= sent
    assert 0 < len(result["latencies"]) <= result["keys"] // 10 + CALLERS
    assert all(0 < x < WAIT for x in result["latencies"])
    user, system = result["cpu"]  # its own CPU over the 0.5 s it ran the loop
    assert user >= 0 and system >= 0 and 0 < user + system <= 1.0


@needs_cc
@pytest.mark.parametrize("hang_up", [False, True])
def test_keyloop_c(tmp_path: Path, hang_up: bool) -> None:
    server = EchoServer(hang_up)
    clients = server.connect()
    result = run_loop(keyloop(tmp_path), clients)
    for c in clients:
        c.close()
    check_counted(result, server, hang_up)


@pytest.mark.parametrize("hang_up", [False, True])
def test_epoll_loop(hang_up: bool) -> None:
    server = EchoServer(hang_up)
    clients = server.connect()
    result = run_loop(epoll_loop(), clients)
    for c in clients:
        c.close()
    check_counted(result, server, hang_up)
