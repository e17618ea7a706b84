"""The store the session and the screens call: one :class:`Store` made of small repositories,
one per concern, all on the same core (core.py: units of work, the SQLite writer lock, the
bounded pools, failures and reconnection):

========================  ================================================================
players.py                players, their settings, the sysop's lookups and removals
scores.py                 finished games (replayed before they count) and halls of fame
daily.py                  the daily challenge's boards: a day's attempts, a month, streaks
league.py                 the InterBBS league: its boards, signed results, ladders
saves.py                  resume slots of unfinished games and named saves
messages.py               messages between players
online.py                 who is online, and the orders that end a player's older call
live.py                   games in progress watched from other processes (door/watch_link.py)
backup.py                 the sysop's backups
========================  ================================================================

Callers hold one Store and call ``store.x(...)``: which repository answers is the store's
business.  A new call goes in the repository of its concern (or a new one listed here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .backup import Backups
from .daily import Daily
from .failures import PoolTimeout
from .failures import reason_key as _reason_key  # noqa: F401 (tests/store's import path)
from .league import League
from .live import LiveGames
from .messages import Messages
from .online import Online
from .players import Players
from .records import Limits
from .saves import Saves
from .scores import Scores, verify_record

if TYPE_CHECKING:
    from ..config import Settings


class Store(Players, Scores, Daily, League, Saves, Messages, Online, LiveGames, Backups):
    """The door's database.  Build with :meth:`from_settings`, call :meth:`start` once (it
    applies the migrations), :meth:`close` at the end."""

    @classmethod
    def from_settings(cls, settings: Settings, **kw: Any) -> Store:
        kw.setdefault("online_window_s", settings.limits.idle_timeout + 120)
        kw.setdefault("limits", Limits(body=settings.limits.message_length,
                                       messages_per_hour=settings.limits.messages_per_hour))
        return cls(settings.database_url, **kw)


__all__ = ["PoolTimeout", "Store", "verify_record"]
