"""The tables, as SQLAlchemy 2 declarative models.  The migrations in ``door/migrations``
create exactly these; a test compares the two so they cannot drift apart.

Times are stored in UTC and always come back timezone-aware, on SQLite as on PostgreSQL.
``games.rank_key`` orders the hall of fame the same way for every game: lower is better
(``-score`` where the highest score wins, ``score`` for a hall where the
fewest points win), ties by earlier ``ended``, then by ``id``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite only auto-numbers an INTEGER PRIMARY KEY; PostgreSQL gets a 64-bit identity.
BIG_ID = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC; naive values are taken as UTC, results are always aware."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(), dict[str, Any]: JSON(), list[str]: JSON()}


class PlayerRow(Base):
    """A caller: from a BBS (``source`` = the BBS's name, ``user_id`` = its user record) or a
    direct-dial account (``source`` = ``"direct"``).  ``alias_key`` is the lower-cased alias,
    for finding a player by name whatever the case."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("source", "user_id"),)

    id: Mapped[int] = mapped_column(BIG_ID, primary_key=True)
    source: Mapped[str] = mapped_column(String(40))
    user_id: Mapped[str] = mapped_column(String(64))
    alias: Mapped[str] = mapped_column(String(40))
    alias_key: Mapped[str] = mapped_column(String(40), index=True)
    charset: Mapped[str | None] = mapped_column(String(8))
    color: Mapped[bool | None] = mapped_column(Boolean)
    rows: Mapped[int | None] = mapped_column(Integer)
    expert: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    watchable: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """False: the player refuses to be watched (Terminal Settings)."""
    mouse: Mapped[bool | None] = mapped_column(Boolean)
    """The mouse asked for (True) or not (False) whatever the terminal; None: as the
    terminal's type says (Terminal Settings)."""
    games_played: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created: Mapped[datetime]
    last_seen: Mapped[datetime]


class GameRow(Base):
    """One finished game, with its full record (``options`` + ``moves`` replay it)."""

    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_hof", "game", "hof", "rank_key", "ended", "id"),
        Index("ix_games_number", "game", "number", "hof", "rank_key", "ended", "id"),
        Index("ix_games_player", "player_id", "game", "hof", "rank_key", "ended", "id"),
    )

    id: Mapped[int] = mapped_column(BIG_ID, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]]
    moves: Mapped[list[str]]
    score: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    cheater: Mapped[bool] = mapped_column(Boolean)
    hof: Mapped[bool] = mapped_column(Boolean)
    rank_key: Mapped[int] = mapped_column(Integer)
    started: Mapped[datetime]
    ended: Mapped[datetime]
    duration_s: Mapped[int] = mapped_column(Integer)
    still_asks: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many times the caller asked "still winnable?", or was shown a search player's hint: the
    solver's help (the hall of fame marks the game)."""


class DailyEntryRow(Base):
    """A caller's counted attempt at one day's challenge of one game: the FIRST game they
    finished on that day's deal (``door.daily``); later plays are stored as ordinary games
    only.  ``day`` is the UTC date the deal belongs to."""

    __tablename__ = "daily_entries"
    __table_args__ = (
        Index("ix_daily_entries_board", "game", "day", "rank_key", "ended"),
        Index("ix_daily_entries_player", "player_id", "day"),
    )

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(BigInteger)
    score: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    rank_key: Mapped[int] = mapped_column(Integer)
    ended: Mapped[datetime]


class ResumeRow(Base):
    """The automatic save of an unfinished game: one per player and game.

    ``owner`` is the claim of the visit playing it (a random id, new for every game started
    or resumed): saves from any other visit are refused, so a forgotten process can never
    write over a newer game.  ``version`` grows with every save of that owner."""

    __tablename__ = "resume_slots"

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    state: Mapped[dict[str, Any]]
    saved: Mapped[datetime]
    owner: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class NamedSaveRow(Base):
    """A game saved under a name the caller chose (many per player, where its screen
    offers it)."""

    __tablename__ = "named_saves"
    __table_args__ = (UniqueConstraint("player_id", "game", "name_key"),)

    id: Mapped[int] = mapped_column(BIG_ID, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(30))
    name_key: Mapped[str] = mapped_column(String(30))
    state: Mapped[dict[str, Any]]
    saved: Mapped[datetime]


class MessageRow(Base):
    """A message between players.  ``sender_name`` keeps the signature if the sender goes."""

    __tablename__ = "messages"
    __table_args__ = (
        Index("ix_messages_recipient", "recipient_id", "read_at"),
        Index("ix_messages_sender", "sender_id", "sent"),
        Index("ix_messages_sent", "sent"),
    )

    id: Mapped[int] = mapped_column(BIG_ID, primary_key=True)
    sender_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="SET NULL"))
    sender_name: Mapped[str] = mapped_column(String(40))
    recipient_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    subject: Mapped[str] = mapped_column(String(60))
    body: Mapped[str] = mapped_column(Text)
    sent: Mapped[datetime]
    read_at: Mapped[datetime | None]


class NodeRow(Base):
    """Who is online: one row per busy node of each door server (``host``).

    ``token`` names the call that owns the row (a BBS may give the node to a new caller
    while a forgotten door process still runs); ``hangup`` is set by a later call of the
    same player that takes over: the owner saves its game and hangs up.  ``alive`` is
    refreshed while the owner's process runs."""

    __tablename__ = "nodes"

    host: Mapped[str] = mapped_column(String(64), primary_key=True)
    node: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    activity: Mapped[str] = mapped_column(String(40))
    since: Mapped[datetime]
    heartbeat: Mapped[datetime]
    token: Mapped[str] = mapped_column(String(32), default="", server_default="")
    hangup: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    alive: Mapped[datetime | None]
    """Refreshed every few seconds while the call's process runs (``heartbeat`` is the
    caller's last key): a takeover only asks calls that are really there."""


class AccountRow(Base):
    """A direct caller's login (``reussite serve``): the password hash of a ``direct`` player.
    Never the password itself: ``password`` is ``scrypt$n$r$p$salt$hash`` (base64)."""

    __tablename__ = "accounts"

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    password: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime]
    last_login: Mapped[datetime | None]


class LiveGameRow(Base):
    """A game in progress offered to watchers on every server sharing the database: one row
    per game, written by the process where it is played (``host``, as in who's online).

    The listing columns (``moves``, ``last_move``) and ``alive`` are refreshed every few
    seconds; ``state`` (the engine's JSON form), ``note`` and ``version`` are written only
    while ``watchers`` (callers of other processes watching it, counted by their processes)
    is above zero: nobody watching costs no write per move (door/watching/link.py)."""

    __tablename__ = "live_games"

    id: Mapped[int] = mapped_column(BIG_ID, primary_key=True)
    host: Mapped[str] = mapped_column(String(64), index=True)
    alias: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(40))
    deal: Mapped[str] = mapped_column(String(40))
    watchable: Mapped[bool] = mapped_column(Boolean)
    moves: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_move: Mapped[datetime]
    alive: Mapped[datetime]
    watchers: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    shown: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many watch in all (this host's watchers too), as the player's status line says."""
    state: Mapped[dict[str, Any] | None]
    note: Mapped[str] = mapped_column(String(200), default="", server_default="")
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    over: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class LeagueBoardRow(Base):
    """A board of the InterBBS league this board is in (docs/league.md): its name and public
    key, and how this board reaches it.  ``role``: ``self`` (this board), ``peer`` (added by
    the sysop, peer to peer), ``hub`` (the league hub this board joined), ``member`` (a board
    that joined this board as its hub), ``listed`` (named by the hub's signed roster).
    ``pulled_after`` and ``pushed_after`` are the sync cursors: the peer's last result
    sequence number read, and this board's last one sent."""

    __tablename__ = "league_boards"

    name: Mapped[str] = mapped_column(String(30), primary_key=True)
    public_key: Mapped[str] = mapped_column(String(44))
    url: Mapped[str] = mapped_column(String(200), default="", server_default="")
    role: Mapped[str] = mapped_column(String(8))
    added: Mapped[datetime]
    pulled_after: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    pushed_after: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_try: Mapped[datetime | None]
    last_ok: Mapped[datetime | None]
    last_error: Mapped[str] = mapped_column(String(200), default="", server_default="")


class LeagueResultRow(Base):
    """A league result: a counted daily-challenge attempt signed by its board and, when it
    came from another board, verified here by replaying its moves.  ``rid`` is the hash of
    its signed bytes (the same result twice is stored once); ``seq`` orders results as this
    board received them (what peers pull after); ``game_id`` is the local game a result of
    this board's own callers was signed from."""

    __tablename__ = "league_results"
    __table_args__ = (
        Index("ix_league_results_ladder", "game", "day", "rank_key", "finished"),
        Index("ix_league_results_day", "day", "board"),
    )

    seq: Mapped[int] = mapped_column(BIG_ID, primary_key=True)
    rid: Mapped[str] = mapped_column(String(32), unique=True)
    board: Mapped[str] = mapped_column(String(30), index=True)
    handle: Mapped[str] = mapped_column(String(40))
    day: Mapped[date] = mapped_column(Date)
    game: Mapped[str] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]]
    moves: Mapped[list[str]]
    score: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    cheater: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    rank_key: Mapped[int] = mapped_column(Integer)
    finished: Mapped[datetime]
    signature: Mapped[str] = mapped_column(String(100))
    received: Mapped[datetime]
    game_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("games.id", ondelete="SET NULL"), unique=True)


__all__ = ["BIG_ID", "AccountRow", "Base", "DailyEntryRow", "GameRow", "LeagueBoardRow",
           "LeagueResultRow", "LiveGameRow", "MessageRow", "NamedSaveRow", "NodeRow",
           "PlayerRow", "ResumeRow", "UTCDateTime"]
