"""The door's database: SQLAlchemy 2 (asyncio), SQLite in ``data/`` by default, PostgreSQL by
URL.  Import :class:`Store` and the errors from here; see ``docs/storage.md``."""

from .errors import (
    MessageRefused,
    RecordRejected,
    SaveRefused,
    StoreError,
    StoreUnavailable,
    UnknownPlayer,
)
from .records import (
    DailyEntry,
    DailyStanding,
    Limits,
    Message,
    NamedSave,
    OnlineNode,
    Player,
    ScoreEntry,
    SlotSave,
    SourceActivity,
)
from .scores import HALL_SIZE, StoredGame, verify_record
from .store import Store

__all__ = [
    "HALL_SIZE",
    "DailyEntry",
    "DailyStanding",
    "Limits",
    "Message",
    "MessageRefused",
    "NamedSave",
    "OnlineNode",
    "Player",
    "RecordRejected",
    "SaveRefused",
    "ScoreEntry",
    "SlotSave",
    "SourceActivity",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoredGame",
    "UnknownPlayer",
    "verify_record",
]
