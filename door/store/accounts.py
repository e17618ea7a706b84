"""Direct callers' accounts (``reussite serve``): a handle and a scrypt password hash.

An account is a ``direct`` player (``players.source = "direct"``, ``user_id`` = the handle
in lower case, so handles are unique ignoring case) plus one ``accounts`` row holding the
hash.  The password itself is never stored nor logged; hashing runs in a worker thread so
that a login never stalls the other callers' screens.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ctypes
import ctypes.util
import hashlib
import hmac
import logging
import os
import sys
import threading
import unicodedata
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import select, update

from ..gate.hash_budget import AGAIN, FIRST, HashBudget, Turn
from .core import Database, Repository
from .errors import StoreError
from .fair import FairTurns
from .models import AccountRow, PlayerRow
from .players import Players
from .records import Player, player_of

log = logging.getLogger(__name__)

SOURCE = "direct"
GUEST_ID = "guest"  # the shared guest player's user_id (a reserved word: never a handle)
HANDLE_MIN, HANDLE_MAX = 2, 20
PASSWORD_MIN, PASSWORD_MAX = 4, 64
RESERVED = frozenset({"new", "guest", "sysop", "all", "nobody"})
# scrypt cost: about 16 MiB and 40 ms per hash here (interactive logins, OWASP's minimum).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
_MAXMEM = 64 * 1024 * 1024
T = TypeVar("T")
M_MMAP_THRESHOLD, HASH_BUFFER_MMAP_FROM = -3, 1024 * 1024


def _give_hash_buffers_back() -> None:
    """Make glibc hand scrypt's 16 MiB buffer back to the system after every hash.

    glibc raises its mmap threshold to the largest block freed so far, so from the second
    hash on the buffer comes from the thread's heap and stays resident: 16 MiB per hashing
    thread for good (bench/load.py counted it as 17 KiB per caller at 1,000).  A fixed
    threshold keeps blocks of 1 MiB and more mmap'd, unmapped when freed.  Other C
    libraries (musl, macOS) do not keep such blocks, or have no ``mallopt``: nothing to do.
    """
    with contextlib.suppress(OSError, AttributeError, TypeError):
        ctypes.CDLL(ctypes.util.find_library("c")).mallopt(M_MMAP_THRESHOLD,
                                                           HASH_BUFFER_MMAP_FROM)


HASHING_NICE = 10
"""Added to a hashing thread's niceness, as to the solver workers' (door/solvers/worker.py)."""


def _yield_to_the_loop() -> None:
    """Let the event loop's thread have the core before this hashing thread (Linux, where
    niceness is a thread's own).  A burst of logins kept both threads busy for seconds,
    and the callers playing meanwhile waited for the scheduler behind them: bench/soak.py's
    control caller saw 131 ms at p99, half the server's samples being scrypt (py-spy)."""
    if not sys.platform.startswith("linux"):
        return  # elsewhere the call would lower the whole process
    with contextlib.suppress(OSError, AttributeError):
        tid = threading.get_native_id()
        now = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, now + HASHING_NICE))


def _hashing_thread() -> None:
    _give_hash_buffers_back()
    _yield_to_the_loop()


# Hashes run on two threads of their own, not asyncio's default pool (up to 6 here), so
# that a burst of logins cannot take every core: a line's first check on one at the loop's
# priority, the other checks on one at HASHING_NICE (the lanes: door/gate/hash_budget.py); in
# each, waiting hashes go one network at a time.
HASHING_THREADS = 1
"""Per lane."""
_LANES = {FIRST: ThreadPoolExecutor(max_workers=HASHING_THREADS, thread_name_prefix="scrypt-1",
                                    initializer=_give_hash_buffers_back),
          AGAIN: ThreadPoolExecutor(max_workers=HASHING_THREADS, thread_name_prefix="scrypt",
                                    initializer=_hashing_thread)}
_TURNS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, FairTurns]] = (
    weakref.WeakKeyDictionary())


def _turns() -> dict[str, FairTurns]:
    """This event loop's turns, by lane."""
    loop = asyncio.get_running_loop()
    turns = _TURNS.get(loop)
    if turns is None:
        turns = _TURNS[loop] = {lane: FairTurns(pool, HASHING_THREADS)
                                for lane, pool in _LANES.items()}
    return turns


async def _hashing(who: str, func: Callable[..., T], *args: Any,
                   wanted: Callable[[], bool] | None = None, lane: str = AGAIN) -> T:
    """``func(*args)`` on ``lane``'s thread, in the turn of ``who`` (a network)
    (:class:`~door.store.fair.Abandoned` if ``wanted()`` says no when the turn comes)."""
    return await _turns()[lane].run(who, func, *args, wanted=wanted)


class AccountError(StoreError):
    """A signup refused for a reason the caller can read (taken, invalid)."""


@dataclass(frozen=True)
class Account:
    player: Player

    @property
    def handle(self) -> str:
        return self.player.alias


def handle_problem(handle: str) -> str | None:
    """Why ``handle`` cannot be a handle, or None: 2–20 printable characters, no control or
    escape bytes, no leading/trailing space, no @, not a reserved word."""
    if not HANDLE_MIN <= len(handle) <= HANDLE_MAX:
        return f"A handle has {HANDLE_MIN} to {HANDLE_MAX} characters."
    if any(not ch.isprintable() or unicodedata.category(ch).startswith("C") for ch in handle):
        return "A handle has printable characters only."
    if handle != handle.strip() or "  " in handle:
        return "No spaces at the ends of a handle, nor two in a row."
    if handle.lower() in RESERVED:
        return f"{handle!r} is reserved: pick another handle."
    if "@" in handle:  # handle@TAG is a member board's caller (door/bbs/boards.py)
        return "A handle has no @ in it: that marks the players of other boards."
    return None


PASSWORD_RULE = f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters."


def password_problem(password: str) -> str | None:
    """Why ``password`` cannot be one, or None (the rule new callers read before typing)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return PASSWORD_RULE
    return None


def hash_password(password: str, salt: bytes | None = None, n: int = SCRYPT_N,
                  r: int = SCRYPT_R, p: int = SCRYPT_P) -> str:
    salt = salt or os.urandom(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM,
                            dklen=32)
    b64 = base64.b64encode
    return f"scrypt${n}${r}${p}${b64(salt).decode()}${b64(digest).decode()}"


def check_password(password: str, stored: str) -> bool:
    """True when ``password`` matches ``stored`` (constant-time compare); False for a
    malformed hash rather than an error."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        want = base64.b64decode(digest)
        got = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt), n=int(n),
                             r=int(r), p=int(p), maxmem=_MAXMEM, dklen=len(want))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(want, got)


# A hash to check against when the handle is unknown: the answer takes as long either way.
_DUMMY = hash_password("not a password", salt=b"\0" * 16)


class Accounts(Repository):
    """Signup and login against the store's ``accounts`` table (the guest's player comes from
    the players repository handed in)."""

    def __init__(self, core: Database, players: Players,
                 budget: HashBudget | None = None) -> None:
        super().__init__(core)
        self._players = players
        self.budget = budget or HashBudget()
        """Which checks are hashed, and in which lane (door/gate/hash_budget.py); a server sets
        its own, from sysop.ini."""

    def _turn(self, address: str, first: bool) -> Turn:
        """The hash's lane and turn (:class:`~door.gate.hash_budget.HashRefused`: no hash)."""
        return self.budget.turn(address, first, sum(_turns()[FIRST].waiting.values()))

    async def exists(self, handle: str) -> bool:
        return await self._find(handle) is not None

    async def _find(self, handle: str) -> tuple[Player, str] | None:
        async with self._core.read() as conn:
            row = (await conn.execute(
                select(PlayerRow, AccountRow.password)
                .join(AccountRow, AccountRow.player_id == PlayerRow.id)
                .where(PlayerRow.source == SOURCE, PlayerRow.user_id == handle.lower()))).first()
        return (player_of(row), row.password) if row else None

    async def signup(self, handle: str, password: str, address: str = "",
                     wanted: Callable[[], bool] | None = None, first: bool = True) -> Account:
        """A new account; AccountError when the handle is invalid or taken (any case).
        ``address``: the caller's, whose network's turn the password's hash waits for;
        ``wanted``: asked when that turn comes, :class:`~door.store.fair.Abandoned` if it
        says no (the caller has hung up); ``first``: the line's first check (its lane);
        :class:`~door.gate.hash_budget.HashRefused` when the network has used its hashes."""
        problem = handle_problem(handle)
        if problem:
            raise AccountError(problem)
        problem = password_problem(password)
        if problem:
            raise AccountError(problem)
        turn = self._turn(address, first)
        hashed = await _hashing(turn.who, hash_password, password, wanted=wanted,
                                lane=turn.lane)
        now = self._core.now()
        async with self._core.write() as conn:
            ins = self._core.insert(conn, PlayerRow).values(
                source=SOURCE, user_id=handle.lower(), alias=handle, alias_key=handle.lower(),
                created=now, last_seen=now)
            await conn.execute(ins.on_conflict_do_nothing(index_elements=["source", "user_id"]))
            player_id = (await conn.execute(select(PlayerRow.id).where(
                PlayerRow.source == SOURCE, PlayerRow.user_id == handle.lower()))).scalar_one()
            acc = self._core.insert(conn, AccountRow).values(
                player_id=player_id, password=hashed, created=now, last_login=now)
            result = await conn.execute(acc.on_conflict_do_nothing(index_elements=["player_id"]))
            if result.rowcount != 1:
                raise AccountError(f"{handle!r} is taken: pick another handle.")
            await conn.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                               .values(alias=handle, alias_key=handle.lower()))
            row = (await conn.execute(select(PlayerRow).where(PlayerRow.id == player_id))).one()
        log.info("account %r created", handle)
        return Account(player_of(row))

    async def login(self, handle: str, password: str, address: str = "",
                    wanted: Callable[[], bool] | None = None,
                    first: bool = True) -> Account | None:
        """The account when the password matches, else None (unknown handle alike);
        ``address``, ``wanted`` and ``first`` as for :meth:`signup` (the budget is taken
        before the handle is looked up: known and unknown handles are refused alike)."""
        turn = self._turn(address, first)
        found = await self._find(handle) if 0 < len(handle) <= 64 else None
        stored = found[1] if found else _DUMMY
        ok = await _hashing(turn.who, check_password, password[:PASSWORD_MAX * 4], stored,
                            wanted=wanted, lane=turn.lane)
        if not ok or found is None:
            return None
        player = found[0]
        async with self._core.write() as conn:
            now = self._core.now()
            await conn.execute(update(AccountRow).where(AccountRow.player_id == player.id)
                               .values(last_login=now))
            await conn.execute(update(PlayerRow).where(PlayerRow.id == player.id)
                               .values(last_seen=now))
        return Account(player)

    async def guest(self) -> Player:
        """The shared guest player (no password; scores are kept under "Guest")."""
        return await self._players.player(SOURCE, GUEST_ID, "Guest")
