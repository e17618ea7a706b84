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
from .store import (
    HALL_SIZE,
    Limits,
    Message,
    NamedSave,
    OnlineNode,
    Player,
    ScoreEntry,
    SlotSave,
    SourceActivity,
    Store,
    StoredGame,
    verify_record,
)

__all__ = [
    "HALL_SIZE",
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
