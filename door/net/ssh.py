"""SSH callers through asyncssh: a PTY, window changes, bytes both ways, logins at the SSH layer.

The ssh user name is the caller's handle when that account exists: the SSH layer then asks
for its password (keyboard-interactive or password auth).  Any other user name gets in
without SSH auth and meets the door's own login / new-user screen.  The channel carries
bytes (``encoding=None``): the session owns the charset, UTF-8 by default over SSH, CP437
when the terminal type says so (SyncTERM, ansi-bbs) or the caller saved that choice.

Before authentication a connection is in the login pool (door/gate/pool.py), like a telnet one:
capped per address and overall, hung up when it sends nothing or takes too long.  Each wrong
password is followed by a pause; the ``login_attempts``-th on one connection, or one that
locks the handle from this address (door/gate/guard.py), ends the connection.  One session
(shell) per connection, and the connection ends with it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from ..config import ConfigError
from ..gate.guard import FAILED_LOGIN_PAUSE_S, address_of
from ..gate.hash_budget import HashRefused
from ..gate.pool import Refused
from .terminal import Terminal

if TYPE_CHECKING:
    from ..gate.guard import LoginLimiter
    from ..gate.pool import LoginPool, Ticket
    from ..store.accounts import Account, Accounts

log = logging.getLogger(__name__)

HOST_KEY_NAME = "ssh_host_ed25519_key"
KEEPALIVE_S = 30  # a dead SSH client is noticed within about three of these
TOO_MANY_TRIES = "Too many failed logins: please call again later."

SessionRunner = Callable[[Terminal], Awaitable[None]]


def load_host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The server's ed25519 key in ``data_dir``, made on first start (mode 0600) and reused."""
    path = data_dir / HOST_KEY_NAME
    if path.exists():
        try:
            return asyncssh.read_private_key(str(path))
        except (asyncssh.KeyImportError, OSError, ValueError) as exc:
            raise ConfigError(f"{path}: not a usable SSH host key ({exc}); move it away and "
                              "a new one is made at the next start") from None
    data_dir.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="reussite host key")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    key.write_public_key(str(path) + ".pub")
    log.info("ssh: new host key %s (%s)", path, key.get_fingerprint())
    return key


class SSHTerminal(Terminal):
    kind = "ssh"

    def __init__(self, process: asyncssh.SSHServerProcess[bytes], account: Account | None) -> None:
        cols, rows, _, _ = process.term_size
        peer = process.get_extra_info("peername")
        super().__init__(cols=cols or 80, rows=rows or 24,
                         term_type=process.term_type or "",
                         peer=f"{peer[0]}:{peer[1]}" if peer else "")
        self.process = process
        self.account = account
        """The account the SSH layer authenticated, or None (the door's login screen)."""
        self.lang = str(process.env.get("LANG", "")) if process.env else ""

    async def read(self) -> bytes:
        if self.gone or self.process.stdout.channel.is_closing():  # buffered keys dropped
            return b""
        early = self.take_pushback()
        if early:
            return early
        try:
            data = await self.process.stdin.read(4096)
        except asyncssh.TerminalSizeChanged as exc:
            self.resized(exc.width, exc.height)
            return b"\0"
        except (asyncssh.BreakReceived, asyncssh.SignalReceived):
            return b"\0"
        except (asyncssh.Error, ConnectionError, OSError):
            return b""
        return data if isinstance(data, bytes) else data.encode("utf-8", "replace")

    def _line_ended(self) -> bool:
        """The channel is closing (the client closed it, or the connection is gone):
        asyncssh reads the socket whatever the session takes, so it knows at once."""
        return self.process.stdout.channel.is_closing()

    wakeable = True

    def wake(self) -> None:
        """A NUL fed into the channel's input as if the caller had sent it: a pending read
        returns it at once, one not yet begun finds it, with no task of its own to wake
        (the read is the session's own task: a task and two waits per key were a large
        share of an SSH key's CPU).  Nothing is lost: bytes the caller sent stay queued in
        the channel, in order."""
        stdin = self.process.stdin
        if not self.process.stdout.channel.is_closing() and not stdin.at_eof():
            stdin.feed_data(b"\0")

    def write(self, data: bytes) -> None:
        if not self.process.stdout.channel.is_closing():
            self.process.stdout.write(data)

    async def drain(self) -> None:
        if self.process.stdout.channel.is_closing():
            raise ConnectionError("ssh channel closed")
        await self.process.stdout.drain()

    async def close(self) -> None:
        if not self.process.stdout.channel.is_closing():
            self.process.exit(0)


class DoorSSHServer(asyncssh.SSHServer):
    """One SSH connection: its place in the login pool, and password auth for existing
    handles only."""

    def __init__(self, accounts: Accounts | None, limiter: LoginLimiter,
                 pool: LoginPool | None = None) -> None:
        self.accounts, self.limiter, self.pool = accounts, limiter, pool
        self.address = ""
        self.account: Account | None = None
        self.ticket: Ticket | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.terminal: SSHTerminal | None = None
        self._tries = 0  # passwords tried on this connection
        self._next_try = 0.0  # monotonic time before which no password is checked

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = address_of(f"{peer[0]}:{peer[1]}") if peer else ""
        if self.pool is None:
            return
        label = f"ssh {peer[0]}:{peer[1]}" if peer else "ssh"
        try:
            self.ticket = self.pool.admit(self.address, label, self.hang_up)
        except Refused:  # the pool logs it
            conn.abort()  # before the version exchange: nothing can be said

    def connection_lost(self, exc: Exception | None) -> None:
        if self.ticket is not None:
            self.ticket.close()
        if self.terminal is not None:  # a paced read, or one under way, ends now
            self.terminal.dropped()

    def hang_up(self, reason: str) -> None:
        """The pool's hang-up: say why on the screen if there is one, and disconnect."""
        if self.terminal is not None:
            self.terminal.write(b"\r\n" + reason.encode("ascii", "replace") + b"\r\n")
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, reason)

    async def begin_auth(self, username: str) -> bool:
        if self.ticket is not None:
            self.ticket.heard()  # a real client: past the version and key exchange
        if self.accounts is None:
            return False
        try:
            return await self.accounts.exists(username)
        except Exception:  # database down: let them in to the door's own screens
            log.warning("ssh: could not look up %r; no SSH auth", username, exc_info=True)
            return False

    def password_auth_supported(self) -> bool:
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str,
                             submethods: str) -> tuple[str, str, str, list[tuple[str, bool]]]:
        return "", "", "", [("Password: ", False)]

    async def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        return len(responses) == 1 and await self.validate_password(username, responses[0])

    async def validate_password(self, username: str, password: str) -> bool:
        """Check a password, at the pace door/gate/guard.py sets; the connection ends (with
        PermissionDenied) once it has used its tries or the handle is locked from here.

        A client that sends its next try without waiting for the answer cancels this one
        (asyncssh does): it is counted all the same, and checked no sooner."""
        self._tries += 1
        if self.ticket is not None:
            self.ticket.typed()  # a password: never dropped for room
        limiter = self.limiter
        if (self.accounts is None or self._tries > limiter.attempts
                or limiter.locked(username, self.address)):
            raise asyncssh.PermissionDenied(TOO_MANY_TRIES)
        wait = max(limiter.backoff(username), self._next_try - time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
        try:
            account = await self.accounts.login(username, password, self.address,
                                                first=self._tries == 1)
        except HashRefused as exc:  # nothing checked: not a failed login, but a pause
            log.info("ssh: login for %r from %s not checked: %s", username[:40],
                     self.address, exc)
            self._next_try = time.monotonic() + FAILED_LOGIN_PAUSE_S
            return False
        if account is None:
            limiter.failed(username, self.address)
            self._next_try = time.monotonic() + FAILED_LOGIN_PAUSE_S
            log.info("ssh: failed login for %r from %s", username[:40], self.address)
            if self._tries >= limiter.attempts or limiter.locked(username, self.address):
                raise asyncssh.PermissionDenied(TOO_MANY_TRIES)
            await asyncio.sleep(FAILED_LOGIN_PAUSE_S)
            return False
        limiter.succeeded(username, self.address)
        self.account = account
        return True


async def start_ssh(host: str, port: int, data_dir: Path, run_session: SessionRunner,
                    accounts: Accounts | None, limiter: LoginLimiter,
                    login_timeout: float = 120,
                    pool: LoginPool | None = None) -> asyncssh.SSHAcceptor:
    """Listen for SSH callers; each PTY session gets ``run_session(terminal)``.  With a
    ``pool``, connections are admitted and timed by it before authentication."""
    key = load_host_key(data_dir)

    async def process(proc: asyncssh.SSHServerProcess[bytes]) -> None:
        conn = proc.channel.get_connection()
        owner = conn.get_owner()
        terminal = SSHTerminal(proc, getattr(owner, "account", None))
        terminal.ticket = getattr(owner, "ticket", None)
        if terminal.ticket is not None:
            terminal.ticket.typed()  # past key exchange, authentication and a PTY: a caller
        if isinstance(owner, DoorSSHServer):
            owner.terminal = terminal
        try:
            await run_session(terminal)
        except (ConnectionError, asyncssh.Error):
            pass
        except Exception:
            log.exception("ssh session on %s ended by an error", terminal.peer)
        finally:
            await terminal.close()
            conn.close()  # one session per connection: nothing is left to wait for

    return await asyncssh.create_server(
        lambda: DoorSSHServer(accounts, limiter, pool), host, port, server_host_keys=[key],
        process_factory=process, encoding=None, line_editor=False,
        login_timeout=login_timeout, keepalive_interval=KEEPALIVE_S, keepalive_count_max=3)
