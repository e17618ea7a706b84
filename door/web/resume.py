"""Calling again after a dropped line without typing the password again.

Once a web caller has logged in with an account, the door gives the page a token (a side
message, ``{"resume": TOKEN}``), which the page keeps for its tab only (sessionStorage).
When the line drops -- the phone changed networks, the laptop slept -- the page calls
again (``/play?resume=1``, the token its first message: an address would land in a
proxy's access log) and is let in as that account with no login screen; the door opens the
game the call was playing, which offers the game saved when the line dropped.

A token is 32 random bytes, good once (the new call gets a new one), in this process's
memory only (a process restarted, or another worker answering, asks for the password:
nothing is lost but the shortcut), and only for :data:`KEEP_S` after its call ended by a
dropped line.  A call the door ended (Goodbye, an idle time-out, a takeover, a hang-up by
the sysop) takes its token with it: closing the tab or saying goodbye is a log-off.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable

KEEP_S = 15 * 60
"""How long after a dropped line the page may still call again with its token."""
MOST = 10_000
"""Tokens kept at once (oldest dropped first): a bound on memory, never reached by callers."""


class ResumeTokens:
    """The tokens of this process's web callers: token → (handle, good until, what the
    call was doing last)."""

    def __init__(self, keep_s: float = KEEP_S, most: int = MOST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.keep_s, self.most, self.clock = keep_s, most, clock
        self._tokens: dict[str, tuple[str, float, str]] = {}

    def __len__(self) -> int:
        return len(self._tokens)

    def issue(self, handle: str) -> str:
        """A token for ``handle``'s call, good while the call lasts (see :meth:`dropped`)."""
        self._forget_old()
        token = secrets.token_urlsafe(32)
        self._tokens[token] = (handle, math.inf, "")
        while len(self._tokens) > self.most:
            del self._tokens[next(iter(self._tokens))]
        return token

    def take(self, token: str) -> tuple[str, str] | None:
        """The handle a token was issued to and what its call was doing last, if the
        token is good (it is then used up)."""
        if not token or len(token) > 64:
            return None
        found = self._tokens.pop(token, None)
        if found is None or found[1] < self.clock():
            return None
        return found[0], found[2]

    def note(self, token: str, activity: str) -> None:
        """The token's call went to ``activity`` (the game to reopen after a drop)."""
        if token in self._tokens:
            handle, until, _ = self._tokens[token]
            self._tokens[token] = (handle, until, activity)

    def dropped(self, token: str) -> None:
        """The token's call ended by a dropped line: good for :data:`KEEP_S` more."""
        if token in self._tokens:
            handle, _, last = self._tokens[token]
            self._tokens[token] = (handle, self.clock() + self.keep_s, last)

    def revoke(self, token: str) -> None:
        """The door ended the token's call: it no longer lets anyone in."""
        self._tokens.pop(token, None)

    def _forget_old(self) -> None:
        now = self.clock()
        for token in [t for t, (_, until, _) in self._tokens.items() if until < now]:
            del self._tokens[token]
