"""The login and new-user screens for direct callers (telnet, and SSH users without an account).

A caller types a handle and a password, NEW to sign up (handle, password twice), or GUEST when
the sysop allows it.  Failed logins count as door/gate/guard.py says: the handle from this address
locks after ``login_attempts``, as does this line (it is then dropped); a handle failing from
everywhere is checked ever more slowly, but never locked against its owner.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from ...gate.guard import FAILED_LOGIN_PAUSE_S, LoginLimiter
from ...gate.hash_budget import HashRefused
from ...session import Session
from ...store import Player, StoreError
from ...store.accounts import (
    HANDLE_MAX,
    HANDLE_MIN,
    PASSWORD_MAX,
    PASSWORD_MIN,
    Account,
    AccountError,
    Accounts,
    handle_problem,
    password_problem,
)
from ...store.fair import Abandoned
from ..shared import theme
from ..shared.widgets import header, message, read_line

LOCKED_ADDRESS = "Too many failed logins from your address: please call again later."
LOCKED_HANDLE = ("Too many failed logins on that handle from your address: please call "
                 "again later.")
ESC_AGAIN = "Esc again hangs up.  Or type your handle, or NEW to sign up."
"""Esc at "Handle:" goes back to the login screen and says this: a second Esc in a row
hangs up (a caller who pressed it to back out of a field is not dropped)."""
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
        self.failures = 0  # on this line: at login_attempts, the line is dropped
        self.checks = 0  # passwords sent to be checked on this line: the first goes first

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
        escaped = False
        while True:
            if self.limiter.address_locked(self.address):
                await self._locked_out(LOCKED_ADDRESS)
                return None
            _draw(self.session, "Log in", self._intro(), note)
            note = ""
            handle = await read_line(self.session, 8, 2, "Handle:   ", HANDLE_MAX)
            if handle is None:
                if escaped:
                    return None
                escaped, note = True, ESC_AGAIN
                continue
            escaped = False
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
            if self.limiter.locked(handle, self.address):
                note = LOCKED_HANDLE
                continue
            password = await read_secret(self.session, 10, 2, "Password: ")
            if password is None:
                continue
            try:
                account = await self._check(handle, password)
            except (StoreError, HashRefused) as exc:  # refused: not a failed login
                note = str(exc)
                continue
            if account is not None:
                self.limiter.succeeded(handle, self.address)
                return LoggedIn(account.handle, account.player)
            self.limiter.failed(handle, self.address)
            self.failures += 1
            if self.limiter.locked(handle, self.address):
                await self._locked_out(LOCKED_ADDRESS if self.limiter.address_locked(
                    self.address) else LOCKED_HANDLE)
                return None
            if self.failures >= self.limiter.attempts:
                await self._locked_out("Too many failed logins on this line: goodbye.")
                return None
            note = "Wrong handle or password."
            await asyncio.sleep(FAILED_LOGIN_PAUSE_S)

    async def _check(self, handle: str, password: str) -> Account | None:
        """The account if the password is right; waits first while the handle is backed off
        (many failed logins on it lately, from anywhere)."""
        wait = self.limiter.backoff(handle)
        if wait:
            message(self.session, f"Many failed logins on that handle lately: checking in "
                                  f"{wait:.0f} s.", theme.WARNING)
            await self.session.show()
            await asyncio.sleep(wait)
        try:
            self.checks += 1
            with self.session.server_working():   # the hash's time is not the caller's
                return await self.accounts.login(handle, password, self.address,
                                                 wanted=self.session.on_the_line,
                                                 first=self.checks == 1)
        except Abandoned:  # hung up while the hash waited: not a failed login
            raise self.session.carrier_lost() from None

    async def _guest_player(self) -> Player | None:
        try:
            return await self.accounts.guest()
        except StoreError:
            return None

    async def _locked_out(self, why: str) -> None:
        """Say why the caller is locked out (the caller hangs up on them next)."""
        self.session.drop_typeahead()  # the line is dropped next: this must show
        _draw(self.session, "Log in", self._intro(), why)
        await self.session.show()

    async def signup(self) -> LoggedIn | None:
        """New user: a handle (checked at once), then the password twice; a password that
        breaks the rule, or a second one that differs, asks for the password again."""
        note = ""
        lines = ["New account.", "",
                 f"Pick a handle: {HANDLE_MIN} to {HANDLE_MAX} characters, any case;",
                 f"then a password: {PASSWORD_MIN} to {PASSWORD_MAX} characters.  Esc goes "
                 "back."]
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
            password, note = await self._new_password(lines, handle)
            if password is None:
                continue
            self.checks += 1
            try:
                with self.session.server_working():   # the hash's time is not the caller's
                    account = await self.accounts.signup(handle, password, self.address,
                                                         wanted=self.session.on_the_line,
                                                         first=self.checks == 1)
            except Abandoned:
                raise self.session.carrier_lost() from None
            except (AccountError, StoreError, HashRefused) as exc:
                note = str(exc)
                continue
            return LoggedIn(account.handle, account.player)

    async def _new_password(self, lines: list[str], handle: str) -> tuple[str | None, str]:
        """The password, typed twice alike and within the rule; (None, "") on Esc (back to
        the handle)."""
        note = ""
        while True:
            _draw(self.session, "New user", lines, note)
            self.session.screen.put(8, 2, f"Handle:   {handle}", theme.BRIGHT)
            first = await read_secret(self.session, 10, 2, "Password: ")
            if first is None:
                return None, ""
            note = password_problem(first) or ""
            if note:
                continue
            again = await read_secret(self.session, 11, 2, "Again:    ")
            if again is None:
                return None, ""
            if first == again:
                return first, ""
            note = "The two passwords differ: type the password again."


async def login(session: Session, accounts: Accounts, limiter: LoginLimiter, address: str,
                guest: bool = False) -> LoggedIn | None:
    return await LoginScreen(session, accounts, limiter, address, guest).run()
