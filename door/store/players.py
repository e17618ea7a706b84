"""Players: one row per caller per source (a BBS's name, ``direct``, ``board:TAG``), their
settings, and the sysop's lookups and removals."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, update

from .core import Repository, unit
from .errors import UnknownPlayer
from .models import (
    DailyEntryRow,
    GameRow,
    MessageRow,
    NamedSaveRow,
    NodeRow,
    PlayerRow,
    ResumeRow,
)
from .records import Player, player_of
from .text import clean_line

PLAYER_SETTINGS = {"charset": (str, type(None)), "color": (bool, type(None)),
                   "rows": (int, type(None)), "expert": (bool,), "watchable": (bool,),
                   "mouse": (bool, type(None))}


class Players(Repository):
    @unit
    async def player(self, source: str, user_id: str, alias: str) -> Player:
        """The player known to ``source`` (a BBS's name, or ``"direct"``) as ``user_id``,
        created on first call; the alias is refreshed from what the BBS says today."""
        source = clean_line(source, 40) or "direct"
        user_id = clean_line(str(user_id), 64)
        alias = clean_line(alias, self._core.limits.alias)
        if not user_id or not alias:
            raise UnknownPlayer("a player needs a user id and an alias")
        now = self._core.now()
        async with self._core.write() as conn:
            ins = self._core.insert(conn, PlayerRow).values(
                source=source, user_id=user_id, alias=alias, alias_key=alias.lower(),
                created=now, last_seen=now)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=["source", "user_id"],
                set_={"alias": alias, "alias_key": alias.lower(), "last_seen": now}))
            row = (await conn.execute(select(PlayerRow).where(
                PlayerRow.source == source, PlayerRow.user_id == user_id))).one()
        return player_of(row)

    @unit
    async def by_id(self, player_id: int) -> Player | None:
        async with self._core.read() as conn:
            row = (await conn.execute(select(PlayerRow).where(PlayerRow.id == player_id))).first()
        return player_of(row) if row else None

    @unit
    async def update_settings(self, /, player_id: int, **changes: Any) -> None:
        """Per-player settings: ``charset``, ``color``, ``rows``, ``expert``, ``watchable``,
        ``mouse``."""
        for key, value in changes.items():
            if key not in PLAYER_SETTINGS or not isinstance(value, PLAYER_SETTINGS[key]):
                raise ValueError(f"not a player setting: {key}={value!r}")
        if not changes:
            return
        async with self._core.write() as conn:
            await conn.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                               .values(**changes))

    @unit
    async def find(self, name: str) -> list[Player]:
        """Players whose alias is ``name`` whatever the case (several BBSes may share one)."""
        key = clean_line(name, self._core.limits.alias).lower()
        async with self._core.read() as conn:
            rows = (await conn.execute(select(PlayerRow).where(PlayerRow.alias_key == key)
                                       .order_by(PlayerRow.id))).all()
        return [player_of(r) for r in rows]

    @unit
    async def all(self) -> list[Player]:
        async with self._core.read() as conn:
            rows = (await conn.execute(select(PlayerRow)
                                       .order_by(PlayerRow.alias_key, PlayerRow.id))).all()
        return [player_of(r) for r in rows]

    @unit
    async def delete(self, player_id: int) -> bool:
        """Remove a player with their games, saves, resume slots and received messages;
        messages they sent keep their signature."""
        async with self._core.write() as conn:
            # Explicit deletes: correct even where the foreign keys' ON DELETE is not enforced.
            for table in (DailyEntryRow, GameRow, ResumeRow, NamedSaveRow, NodeRow):
                await conn.execute(delete(table).where(table.player_id == player_id))
            await conn.execute(delete(MessageRow).where(MessageRow.recipient_id == player_id))
            await conn.execute(update(MessageRow).where(MessageRow.sender_id == player_id)
                               .values(sender_id=None))
            result = await conn.execute(delete(PlayerRow).where(PlayerRow.id == player_id))
        return result.rowcount > 0
