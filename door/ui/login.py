"""The login and new-user screens for direct callers (telnet, and SSH users without an account).

A caller types a handle and a password, NEW to sign up (handle, password twice), or GUEST when
the sysop allows it.  Failed logins count against the caller's address and the handle typed;
past the limit the caller is told to come back later and the line is dropped.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from ..guard import LoginLimiter
from ..session import Session
from ..store import Player, StoreError
from ..store.accounts import HANDLE_MAX, PASSWORD_MAX, AccountError, Accounts, handle_problem
from . import theme
from .widgets import header, message, read_line

FAIL_PAUSE = 1.0  # seconds after a wrong password: slows guessing down on one connection


@dataclass(frozen=True)
class LoggedIn:
    alias: str
    player: Player | None


async def read_secret(session: Session, row: int, col: int, prompt: str,
                      width: int = 20) -> str | None:
    """Like ``read_line``, but shows a star per character; Esc cancels (None)."""
    return await read_line(session, row, col, prompt, width, mask="*", limit=PASSWORD_MAX)


def _draw(session: Session, title: str, lines: list[str], note: str) -> None:
    screen = session.screen
    screen.clear()
    header(session, title)
    for i, line in enumerate(lines):
        screen.put(3 + i, 2, line, theme.LABEL)
    message(session, note, theme.WARNING)


class LoginScreen:
    def __init__(self, session: Session, accounts: Accounts, limiter: LoginLimiter,
                 address: str, guest: bool) -> None:
        self.session, self.accounts, self.limiter = session, accounts, limiter
        self.address, self.guest = address, guest

    def _intro(self) -> list[str]:
        name = self.session.settings.door.name
        lines = [f"Welcome to {name}.", "",
                 "Type your handle and password, or NEW to sign up."]
        if self.guest:
            lines.append("GUEST looks around without an account.")
        return lines

    async def run(self) -> LoggedIn | None:
        """The caller's identity, or None when they leave or are locked out."""
        note = ""
        while True:
            if self.limiter.locked(self.address):
                return await self._locked_out()
            _draw(self.session, "Log in", self._intro(), note)
            note = ""
            handle = await read_line(self.session, 8, 2, "Handle:   ", HANDLE_MAX)
            if handle is None:
                return None
            handle = handle.strip()
            if not handle:
                continue
            if handle.lower() == "new":
                done = await self.signup()
                if done is not None:
                    return done
                continue
            if handle.lower() == "guest" and self.guest:
                return LoggedIn("Guest", await self._guest_player())
            if self.limiter.locked(handle.lower()):
                note = "Too many failed logins on that handle: try again later."
                continue
            password = await read_secret(self.session, 10, 2, "Password: ")
            if password is None:
                continue
            try:
                account = await self.accounts.login(handle, password)
            except StoreError as exc:
                note = str(exc)
                continue
            if account is not None:
                self.limiter.succeeded(handle.lower())
                return LoggedIn(account.handle, account.player)
            self.limiter.failed(self.address, handle.lower())
            note = "Wrong handle or password."
            await asyncio.sleep(FAIL_PAUSE)

    async def _guest_player(self) -> Player | None:
        try:
            return await self.accounts.guest()
        except StoreError:
            return None

    async def _locked_out(self) -> None:
        _draw(self.session, "Log in", self._intro(),
              "Too many failed logins from your address: please call again later.")
        await self.session.show()
        return None

    async def signup(self) -> LoggedIn | None:
        """New user: a handle (checked at once), then the password twice."""
        note = ""
        lines = ["New account.", "",
                 f"Pick a handle: 2 to {HANDLE_MAX} characters, any case.",
                 "Esc goes back."]
        while True:
            _draw(self.session, "New user", lines, note)
            note = ""
            handle = await read_line(self.session, 8, 2, "Handle:   ", HANDLE_MAX)
            if handle is None:
                return None
            handle = handle.strip()
            problem = handle_problem(handle)
            if problem is None:
                try:
                    if await self.accounts.exists(handle):
                        problem = f"{handle!r} is taken: pick another handle."
                except StoreError as exc:
                    problem = str(exc)
            if problem:
                note = problem
                continue
            first = await read_secret(self.session, 10, 2, "Password: ")
            if first is None:
                continue
            again = await read_secret(self.session, 11, 2, "Again:    ")
            if again is None:
                continue
            if first != again:
                note = "The two passwords differ: once more."
                continue
            try:
                account = await self.accounts.signup(handle, first)
            except (AccountError, StoreError) as exc:
                note = str(exc)
                continue
            return LoggedIn(account.handle, account.player)


async def login(session: Session, accounts: Accounts, limiter: LoginLimiter, address: str,
                guest: bool = False) -> LoggedIn | None:
    return await LoginScreen(session, accounts, limiter, address, guest).run()
