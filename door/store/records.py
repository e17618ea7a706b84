"""What the store's callers get back: plain frozen records, never live ORM objects (a record
outlives its connection, and no caller can write to the database through one)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..games import GameRecord


@dataclass(frozen=True)
class Player:
    id: int
    source: str
    user_id: str
    alias: str
    charset: str | None = None
    color: bool | None = None
    rows: int | None = None
    expert: bool = False
    games_played: int = 0
    created: datetime | None = None
    last_seen: datetime | None = None
    watchable: bool = True
    """Other callers may watch this player's games (a Terminal Settings choice)."""
    mouse: bool | None = None
    """The mouse on (True) or off (False) whatever the terminal; None: by the terminal's
    type (a Terminal Settings choice)."""


@dataclass(frozen=True)
class ScoreEntry:
    """One line of a hall of fame: the rank, who, the score, which deal, when."""

    rank: int
    game_id: int
    player_id: int
    alias: str
    score: int
    number: int
    status: str
    ended: datetime
    source: str = ""  # the player's: "direct", "bbs", "board:TAG"
    still_asks: int = 0  # "still winnable?" asked / player's hints shown (marked in the hall)


@dataclass(frozen=True)
class DailyEntry:
    """A counted attempt at a day's challenge (a player's first finished game on its deal)."""

    rank: int
    game_id: int
    player_id: int
    alias: str
    score: int
    won: bool
    number: int
    ended: datetime
    source: str = ""


@dataclass(frozen=True)
class DailyStanding:
    """One player's month of one game's challenges: days played, days won, best score."""

    rank: int
    player_id: int
    alias: str
    played: int
    won: int
    best: int
    source: str = ""


@dataclass(frozen=True)
class PastGame:
    """One finished game of a player (their own history): which deal, when, the score, and
    its marks."""

    game_id: int
    record: GameRecord
    """Game, number, options and every action: what a replay plays."""
    score: int
    status: str
    ended: datetime
    undos: int
    """Undos in the record (hints leave no trace in a record: they are not counted)."""
    cheater: bool
    """Flagged by the game's own rules (an undo past a turned card, say)."""
    still_asks: int = 0
    """How often "still winnable?" was asked during the game (marked as in the hall)."""


@dataclass(frozen=True)
class SourceActivity:
    """For one ``players.source``: its players, their games since a time, who is on now."""

    players: int = 0
    games: int = 0
    online: int = 0


@dataclass(frozen=True)
class NamedSave:
    name: str
    saved: datetime


@dataclass(frozen=True)
class Message:
    id: int
    sender_id: int | None
    sender: str
    subject: str
    body: str
    sent: datetime
    read_at: datetime | None

    @property
    def unread(self) -> bool:
        return self.read_at is None


@dataclass(frozen=True)
class OnlineNode:
    host: str
    node: int
    player_id: int | None
    alias: str | None
    activity: str
    since: datetime
    heartbeat: datetime
    token: str = ""


@dataclass(frozen=True)
class SlotSave:
    """One owner's newest state of an unfinished game, for
    :meth:`door.store.saves.Saves.keep_resumes`."""

    player_id: int
    game: str
    owner: int
    version: int
    state: dict[str, Any]


@dataclass(frozen=True)
class Limits:
    """Caps on what one caller can put in the database."""

    alias: int = 40
    subject: int = 60
    body: int = 2000
    messages_per_hour: int = 10
    named_saves: int = 50
    save_name: int = 30
    inbox: int = 200
    activity: int = 40


def player_of(row: Any) -> Player:
    return Player(row.id, row.source, row.user_id, row.alias, row.charset, row.color, row.rows,
                  bool(row.expert), row.games_played, row.created, row.last_seen,
                  bool(row.watchable), row.mouse)


def online_of(row: Any) -> OnlineNode:
    return OnlineNode(row.host, row.node, row.player_id, row.alias, row.activity, row.since,
                      row.heartbeat, row.token)


def entry_of(rank: int, row: Any) -> ScoreEntry:
    return ScoreEntry(rank, row.id, row.player_id, row.alias, row.score, row.number, row.status,
                      row.ended, row.source, int(getattr(row, "still_asks", 0) or 0))


def daily_of(rank: int, row: Any) -> DailyEntry:
    return DailyEntry(rank, row.game_id, row.player_id, row.alias, row.score, bool(row.won),
                      row.number, row.ended, row.source)
