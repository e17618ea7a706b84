"""The store the session and the screens call: one :class:`Store` holding small repositories,
one per concern, each built on the same core (core.py: units of work, the SQLite writer lock,
the bounded pools, failures and reconnection):

=================  ===========  ==========================================================
``store.``         module       what it keeps
=================  ===========  ==========================================================
``players``        players.py   players, their settings, the sysop's lookups and removals
``accounts``       accounts.py  direct callers' handles and password hashes
``scores``         scores.py    finished games (replayed before they count), halls of fame
``daily``          daily.py     the daily challenge's boards: a day, a month, streak days
``league``         league.py    the InterBBS league: its boards, signed results, ladders
``saves``          saves.py     resume slots of unfinished games and named saves
``messages``       messages.py  messages between players
``online``         online.py    who is online, and the orders ending a player's older call
``live``           live.py      games in progress watched from other processes
``backups``        backup.py    the sysop's backups
``core``           core.py      what is store-wide: the engine, the host's name, the limits,
                                the clock, the schema's migration and revision
=================  ===========  ==========================================================

Callers hold one Store and call ``store.<repository>.x(...)``.  A new call goes in the
repository of its concern (or a new one listed here); a repository that needs another gets
it at construction (accounts use players), never through the Store.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .accounts import Accounts
from .backup import Backups
from .core import Database, utc_now
from .daily import Daily
from .engine import BUSY_TIMEOUT_S
from .errors import StoreUnavailable
from .failures import PoolTimeout
from .failures import reason_key as _reason_key  # noqa: F401 (tests/store's import path)
from .league import League
from .live import LiveGames
from .messages import Messages
from .online import TOUCH_EVERY_S, Online
from .players import Players
from .records import Limits
from .saves import Saves
from .scores import Scores, verify_record

if TYPE_CHECKING:
    from ..config import Settings


class Store:
    """The door's database.  Build with :meth:`from_settings`, call :meth:`start` once (it
    applies the migrations), :meth:`close` at the end; between them, the repositories."""

    def __init__(self, url: str, *, host: str | None = None, limits: Limits | None = None,
                 online_window_s: int = 600, busy_timeout: float = BUSY_TIMEOUT_S,
                 pooled: bool = True, clock: Callable[[], datetime] = utc_now,
                 touch_every_s: float = TOUCH_EVERY_S) -> None:
        self.core = Database(url, host=host, limits=limits, busy_timeout=busy_timeout,
                             pooled=pooled, clock=clock)
        self.players = Players(self.core)
        self.accounts = Accounts(self.core, self.players)
        self.scores = Scores(self.core)
        self.daily = Daily(self.core)
        self.league = League(self.core)
        self.saves = Saves(self.core)
        self.messages = Messages(self.core)
        self.online = Online(self.core, window_s=online_window_s, touch_every_s=touch_every_s)
        self.live = LiveGames(self.core)
        self.backups = Backups(self.core)

    @classmethod
    def from_settings(cls, settings: Settings, **kw: Any) -> Store:
        kw.setdefault("online_window_s", settings.limits.idle_timeout + 120)
        kw.setdefault("limits", Limits(body=settings.limits.message_length,
                                       messages_per_hour=settings.limits.messages_per_hour))
        return cls(settings.database_url, **kw)

    async def start(self) -> bool:
        """Migrate at start-up.  On failure log it and carry on: the door still plays, and
        every store call says "scores are unavailable right now" until it is fixed."""
        try:
            await self.core.migrate()
        except StoreUnavailable:
            return False
        return True

    async def close(self, timeout: float = 5.0) -> None:
        """Finish the calls under way (at most ``timeout`` seconds), stop the background
        writers, then close every connection."""
        await self.core.close(timeout)


__all__ = ["PoolTimeout", "Store", "verify_record"]
