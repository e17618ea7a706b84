"""SSH callers end to end: asyncssh's client and OpenSSH's ``ssh`` under a pty."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import termios
import time
from pathlib import Path

import asyncssh
import pytest
from programs import need
from pyteterm import PyteTerminal
from serverhelp import (
    OTHER_ADDRESS,
    TWO_ADDRESSES,
    SSHCaller,
    configure,
    open_game,
    running,
    signup,
    to_menu,
)
from waiting import WAIT

from door.config import load_settings
from door.games.montecarlo import MonteCarlo, position_name
from door.net.ssh import HOST_KEY_NAME
from door.store import Store
from door.ui.game.still_winnable import CANNOT
from door.ui.montecarlo.screen import cell_origin

NUMBER = 11982


async def make_account(home: Path, handle: str, password: str) -> None:
    store = Store(load_settings(home).database_url)
    try:
        assert await store.start()
        await store.accounts.signup(handle, password)
    finally:
        await store.close()


async def test_new_user_signs_up_inside_the_door_then_logs_in_at_the_ssh_layer(
        door_home: Path) -> None:
    async with running(door_home) as ports:
        new = await SSHCaller.connect(ports.ssh, "carol")  # no such account: no SSH auth
        await new.wait_for("Handle:")
        await signup(new, "Carol", "c4r0l-pw")
        await to_menu(new)
        assert "♠" in new.term.text or "Carol" in new.term.text  # UTF-8 by default
        await new.close()

        with pytest.raises(asyncssh.PermissionDenied):
            await SSHCaller.connect(ports.ssh, "carol", password="not it")
        back = await SSHCaller.connect(ports.ssh, "CAROL", password="c4r0l-pw")
        await back.wait_for("Press any key")  # straight to the title: no login screen
        assert "Handle:" not in back.term.text
        await to_menu(back)
        back.resize(80, 30)  # the status line moves to the new last row
        await back.wait_until(lambda: "min left" in back.term.lines[29], "the status line on "
                              "row 30")
        await open_game(back, "c", NUMBER)
        p, q = MonteCarlo.new(NUMBER).pairs()[0]
        row, col = cell_origin(p)
        before = back.term.lines[row][col:col + 6]
        back.send(position_name(p) + position_name(q))
        await back.wait_until(lambda: back.term.lines[row][col:col + 6] != before,
                              "the pair left the grid")
        await back.close()

    key = door_home / "data" / HOST_KEY_NAME
    assert key.stat().st_mode & 0o777 == 0o600
    first = key.read_bytes()
    async with running(door_home):
        pass
    assert key.read_bytes() == first  # reused, not made again


async def test_cp437_when_the_terminal_type_asks(door_home: Path) -> None:
    await make_account(door_home, "Dora", "d0ra-pw")
    async with running(door_home) as ports:
        caller = await SSHCaller.connect(ports.ssh, "dora", password="d0ra-pw",
                                         term_type="syncterm", charset="cp437")
        await caller.wait_for("Press any key")
        raw = bytes(caller.term.raw)
        assert "╔".encode("cp437") in raw and "╔".encode() not in raw
        await caller.close()


async def test_cp437_when_the_caller_saved_it(door_home: Path) -> None:
    await make_account(door_home, "Olga", "olga-pw")
    store = Store(load_settings(door_home).database_url)
    try:
        (player,) = await store.players.find("Olga")
        await store.players.update_settings(player.id, charset="cp437+g")
    finally:
        await store.close()
    async with running(door_home) as ports:
        caller = await SSHCaller.connect(ports.ssh, "olga", password="olga-pw",
                                         charset="cp437")
        await caller.wait_for("Press any key")  # the title already in the saved charset
        raw = bytes(caller.term.raw)
        assert "╔".encode("cp437") in raw and "╔".encode() not in raw
        assert b"\x06" in raw  # ♠ as the BBS glyph at 0x06: the "+g" of the saved choice
        await caller.close()


async def test_failed_ssh_passwords_lock_the_address(door_home: Path) -> None:
    configure(door_home, login_attempts=2)
    await make_account(door_home, "Eve", "eve-pw-1")
    async with running(door_home) as ports:
        for _ in range(2):
            with pytest.raises(asyncssh.PermissionDenied):
                await SSHCaller.connect(ports.ssh, "eve", password="guess")
        with pytest.raises(asyncssh.PermissionDenied):  # even the right one, for a while
            await SSHCaller.connect(ports.ssh, "eve", password="eve-pw-1")


class PtyProcess:
    """A program on the slave side of a pty (its controlling terminal); we hold the master."""

    def __init__(self, argv: list[str], cols: int, rows: int) -> None:
        self.master, slave = os.openpty()
        self.set_size(cols, rows, fd=slave)
        env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8"}

        def controlling_tty() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        import subprocess
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     preexec_fn=controlling_tty, close_fds=True)
        os.close(slave)
        os.set_blocking(self.master, False)
        self.term = PyteTerminal(cols, rows, "utf8")

    def set_size(self, cols: int, rows: int, fd: int | None = None) -> None:
        fcntl.ioctl(self.master if fd is None else fd, termios.TIOCSWINSZ,
                    struct.pack("HHHH", rows, cols, 0, 0))

    def resize(self, cols: int, rows: int) -> None:
        self.term.screen.resize(rows, cols)
        self.set_size(cols, rows)  # the kernel sends SIGWINCH to ssh

    async def wait_for(self, needle: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.term.text:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; screen:\n{self.term.text}")
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                await asyncio.sleep(0.02)
                continue
            except OSError:  # EIO: the program has gone
                if needle in self.term.text:
                    return
                raise AssertionError(f"ended before {needle!r}:\n{self.term.text}") from None
            self.term.feed(data)

    def send(self, data: str) -> None:
        os.write(self.master, data.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(Exception):
                self.proc.wait(5)
        os.close(self.master)


async def test_openssh_client_under_a_pty(door_home: Path) -> None:
    need("ssh", "apt-get install openssh-client")
    await make_account(door_home, "Fred", "fr3d-pw")
    async with running(door_home) as ports:
        ssh = PtyProcess(["ssh", "-tt", "-p", str(ports.ssh), "-o", "StrictHostKeyChecking=no",
                          "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
                          "-o", "PubkeyAuthentication=no", "-F", "/dev/null",
                          "fred@127.0.0.1"], 80, 24)
        try:
            await ssh.wait_for("assword")
            ssh.send("fr3d-pw\r")
            await ssh.wait_for("Press any key")
            ssh.send(" ")
            await ssh.wait_for("Your choice")
            ssh.resize(80, 28)
            await ssh.wait_for("min left")
            deadline = time.monotonic() + WAIT
            while "min left" not in ssh.term.lines[27] and time.monotonic() < deadline:
                await ssh.wait_for("Your choice")
                await asyncio.sleep(0.05)
                with contextlib.suppress(BlockingIOError):
                    ssh.term.feed(os.read(ssh.master, 65536))
            assert "min left" in ssh.term.lines[27]
            ssh.send("qy")
            await ssh.wait_for("Farewell, Fred")
            deadline = time.monotonic() + WAIT
            while ssh.proc.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert ssh.proc.poll() is not None, "ssh should end when the door hangs up"
        finally:
            ssh.close()


class PasswordLoop(asyncssh.SSHClient):
    """A client that answers every password prompt with the next guess, on one connection;
    with ``stall`` it never answers (a connection parked at the password prompt)."""

    def __init__(self, guesses: list[str], stall: asyncio.Event | None = None) -> None:
        self.guesses, self.asked, self.stall = list(guesses), 0, stall

    async def password_auth_requested(self) -> str | None:
        self.asked += 1
        if self.stall is not None:
            await self.stall.wait()
        return self.guesses.pop(0) if self.guesses else None


async def ssh_with(port: int, user: str, client: PasswordLoop,
                   host: str = "127.0.0.1") -> asyncssh.SSHClientConnection:
    conn, _ = await asyncssh.create_connection(
        lambda: client, host, port, username=user, known_hosts=None, client_keys=None,
        agent_path=None, preferred_auth="password")
    return conn


async def test_someone_elses_failures_do_not_lock_the_owner_out(door_home: Path) -> None:
    """Five wrong passwords for alice from one address; alice, from another, gets in."""
    await make_account(door_home, "Alice", "alice-pw")
    async with running(door_home, bind=TWO_ADDRESSES) as ports:
        for n in range(5):
            with pytest.raises(asyncssh.PermissionDenied):
                await SSHCaller.connect(ports.ssh, "alice", password=f"guess-{n}",
                                        host=OTHER_ADDRESS)
        with pytest.raises(asyncssh.PermissionDenied):  # the guesser is locked out of alice
            await SSHCaller.connect(ports.ssh, "alice", password="alice-pw",
                                    host=OTHER_ADDRESS)
        owner = await SSHCaller.connect(ports.ssh, "alice", password="alice-pw")
        await owner.wait_for("Press any key", WAIT)
        await owner.close()


async def test_a_password_loop_on_one_connection_ends_it(door_home: Path) -> None:
    configure(door_home, login_attempts=3)
    await make_account(door_home, "Bo", "bo-pw")
    async with running(door_home) as ports:
        client = PasswordLoop([f"guess-{n}" for n in range(50)])
        with pytest.raises(asyncssh.PermissionDenied, match="Too many failed logins"):
            await ssh_with(ports.ssh, "bo", client)
        assert client.asked == 3  # three tries, then the connection was closed
    log = (door_home / "data" / "reussite.log").read_text(encoding="utf-8")
    assert log.count("ssh: failed login for 'bo'") <= 3


async def poll_closed(readers: list[asyncio.StreamReader], wanted: int) -> int:
    """Read the connections until ``wanted`` of them are closed by the server (or WAIT)."""
    closed: set[int] = set()
    deadline = time.monotonic() + WAIT
    while len(closed) < wanted and time.monotonic() < deadline:
        for i, reader in enumerate(readers):
            if i in closed:
                continue
            try:
                data = await asyncio.wait_for(reader.read(4096), 0.01)
            except TimeoutError:
                continue
            except ConnectionError:
                data = b""
            if not data:
                closed.add(i)
    return len(closed)


async def test_ssh_connections_are_capped_before_authentication(door_home: Path) -> None:
    """Silent SSH connections from one address: only login_per_address stay; three parked
    at the password prompt fill that address's share; another address still gets in."""
    configure(door_home, login_per_address=3)
    await make_account(door_home, "Cleo", "cleo-pw")
    async with running(door_home, bind=TWO_ADDRESSES) as ports:
        silent = [await asyncio.open_connection(OTHER_ADDRESS, ports.ssh) for _ in range(40)]
        assert await poll_closed([r for r, _ in silent], 37) == 37
        for _, writer in silent:
            writer.close()
        stall = asyncio.Event()
        clients = [PasswordLoop(["x"], stall) for _ in range(3)]
        tasks = [asyncio.ensure_future(ssh_with(ports.ssh, "cleo", client, host=OTHER_ADDRESS))
                 for client in clients]
        deadline = time.monotonic() + WAIT
        while not all(client.asked for client in clients):  # parked at the prompt
            assert time.monotonic() < deadline, "the parked clients never got a prompt"
            await asyncio.sleep(0.05)
        fourth, _ = await asyncio.open_connection(OTHER_ADDRESS, ports.ssh)
        assert await poll_closed([fourth], 1) == 1  # that address's share is full
        owner = await SSHCaller.connect(ports.ssh, "cleo", password="cleo-pw")
        await owner.wait_for("Press any key", WAIT)
        await owner.close()
        stall.set()
        for task in tasks:
            with contextlib.suppress(asyncssh.Error, OSError):
                await task


async def test_a_silent_shell_is_bound_by_the_login_timeout(door_home: Path) -> None:
    """A shell at the door's login screen that types nothing is a silent telnet line's like:
    dropped at the login timeout, and its place in the pool is free again."""
    configure(door_home, login_timeout=2, login_per_address=1)
    async with running(door_home) as ports:
        silent = await SSHCaller.connect(ports.ssh, "nobody")
        await silent.wait_for("Login timed out.", WAIT)
        await silent.wait_closed(WAIT)
        await silent.close()
        again = await SSHCaller.connect(ports.ssh, "nobody")  # the place came back: it is
        await again.wait_until(lambda: "Handle:" in again.term.text  # admitted (and on a
                               or "Login timed out." in again.term.text,  # busy machine may
                               "the login screen")  # time out before it draws)
        assert "Too many" not in again.term.text
        await again.close()



async def test_a_solver_answer_wakes_an_ssh_callers_wait_for_a_key(door_home: Path) -> None:
    """"Still winnable?" is worked out in the solver pool while the session waits for the
    caller's next key: the answer wakes that wait (``SSHTerminal.wake`` feeds a NUL into
    the channel) and is drawn with no further key typed; keys typed afterwards still
    arrive."""
    async with running(door_home) as ports:
        caller = await SSHCaller.connect(ports.ssh, "vera")
        await caller.wait_for("Handle:")
        await signup(caller, "Vera", "still-pw")
        await to_menu(caller)
        await open_game(caller, "a", 2, "Aunt Mary")     # a deal nobody can win
        caller.send("v")                                 # then nothing: only the wake-up
        await caller.wait_for(CANNOT, 2 * WAIT)                # can draw the answer (and the
        caller.send("x")                                 # end offer, which X takes): the
        await caller.wait_for("[A] again with game #2")  # read goes on after the wake
        await caller.close()
