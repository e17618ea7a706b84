"""Messages between players: sent by name (with near names when it matches nobody), capped
per hour and in length, stripped of anything a terminal acts on."""

from __future__ import annotations

import difflib
from datetime import timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .core import Repository, unit
from .errors import MessageRefused, UnknownPlayer
from .models import MessageRow, PlayerRow
from .records import Message
from .text import clean_line, clean_text


class Messages(Repository):
    @unit
    async def send(self, from_id: int, to_name: str, subject: str, body: str) -> int:
        """Send a message to the player called ``to_name`` (any case; ``alias@source`` picks
        one of several players of that name).  Control and escape sequences are stripped
        first.  Raises UnknownPlayer (with near names) or MessageRefused (a limit, or a
        message to oneself)."""
        subject = clean_line(subject, 10 * self._core.limits.subject) or "(no subject)"
        body = clean_text(body, 10 * self._core.limits.body)
        if not body.strip():
            raise MessageRefused("the message is empty")
        if len(subject) > self._core.limits.subject:
            raise MessageRefused(f"the subject is {len(subject)} characters long; "
                                 f"the most is {self._core.limits.subject}")
        if len(body) > self._core.limits.body:
            raise MessageRefused(f"the message is {len(body)} characters long; "
                                 f"the most is {self._core.limits.body}")
        now = self._core.now()
        async with self._core.write() as conn:
            # Lock the sender (NO KEY: see Saves.save_named) so the hourly count is exact.
            sender = (await conn.execute(select(PlayerRow.alias).where(PlayerRow.id == from_id)
                                         .with_for_update(key_share=True))).scalar()
            if sender is None:
                raise UnknownPlayer(f"no player #{from_id}")
            recipient = await self._recipient(conn, to_name)
            if recipient == from_id:
                raise MessageRefused("a message to yourself stays unsent: write to another "
                                     "player")
            recent = (await conn.execute(select(func.count()).where(
                MessageRow.sender_id == from_id,
                MessageRow.sent > now - timedelta(hours=1)))).scalar_one()
            if recent >= self._core.limits.messages_per_hour:
                raise MessageRefused(f"you have sent {recent} messages in the last hour, the "
                                     "most allowed: please try again later")
            return int((await conn.execute(
                self._core.insert(conn, MessageRow).values(
                    sender_id=from_id, sender_name=sender, recipient_id=recipient,
                    subject=subject, body=body, sent=now, read_at=None)
                .returning(MessageRow.id))).scalar_one())

    @unit
    async def recipient(self, to_name: str) -> int:
        """The id of the one player a message to ``to_name`` would reach; UnknownPlayer
        (with near names) otherwise.  Lets the UI check the name before the text is typed."""
        async with self._core.read() as conn:
            return await self._recipient(conn, to_name)

    async def _recipient(self, conn: AsyncConnection, to_name: str) -> int:
        name = clean_line(to_name, 2 * self._core.limits.alias + 1)
        if not name:
            raise UnknownPlayer("whom to? type a player's name")
        rows = (await conn.execute(select(PlayerRow.id, PlayerRow.alias, PlayerRow.source)
                                   .where(PlayerRow.alias_key == name.lower()))).all()
        if not rows and "@" in name:
            alias, source = name.rsplit("@", 1)
            rows = (await conn.execute(select(PlayerRow.id, PlayerRow.alias, PlayerRow.source)
                                       .where(PlayerRow.alias_key == alias.strip().lower(),
                                              func.lower(PlayerRow.source)
                                              == source.strip().lower()))).all()
        if len(rows) == 1:
            return int(rows[0].id)
        if rows:
            names = [f"{r.alias}@{r.source}" for r in rows]
            raise UnknownPlayer(f"several players are called {name}: write to one of "
                                f"{', '.join(names)}", names)
        near = await self._near_names(conn, name)
        hint = f"; did you mean {' or '.join(near)}?" if near else ""
        raise UnknownPlayer(f"no player called {name}{hint}", near)

    async def _near_names(self, conn: AsyncConnection, name: str) -> list[str]:
        aliases = (await conn.execute(select(PlayerRow.alias)
                                      .order_by(PlayerRow.last_seen.desc())
                                      .limit(5000))).scalars().all()
        by_key = {a.lower(): a for a in reversed(aliases)}
        key = name.lower()
        close = difflib.get_close_matches(key, by_key, n=3, cutoff=0.6)
        starts = [k for k in by_key if k.startswith(key) and k not in close][:3 - len(close)]
        return [by_key[k] for k in (*close, *starts)]

    @unit
    async def inbox(self, player_id: int, unread_only: bool = False) -> list[Message]:
        """The player's messages, newest first."""
        query = select(MessageRow).where(MessageRow.recipient_id == player_id)
        if unread_only:
            query = query.where(MessageRow.read_at.is_(None))
        async with self._core.read() as conn:
            rows = (await conn.execute(query.order_by(MessageRow.sent.desc(),
                                                      MessageRow.id.desc())
                                       .limit(self._core.limits.inbox))).all()
        return [Message(r.id, r.sender_id, r.sender_name, r.subject, r.body, r.sent, r.read_at)
                for r in rows]

    @unit
    async def mark_read(self, player_id: int, message_id: int) -> bool:
        async with self._core.write() as conn:
            result = await conn.execute(
                update(MessageRow).where(MessageRow.id == message_id,
                                         MessageRow.recipient_id == player_id,
                                         MessageRow.read_at.is_(None))
                .values(read_at=self._core.now()))
        return result.rowcount > 0

    @unit
    async def delete(self, player_id: int, message_id: int) -> bool:
        """Delete one of the player's own received messages."""
        async with self._core.write() as conn:
            result = await conn.execute(delete(MessageRow).where(
                MessageRow.id == message_id, MessageRow.recipient_id == player_id))
        return result.rowcount > 0

    @unit
    async def unread_count(self, player_id: int) -> int:
        async with self._core.read() as conn:
            return (await conn.execute(select(func.count()).where(
                MessageRow.recipient_id == player_id,
                MessageRow.read_at.is_(None)))).scalar_one()

    @unit
    async def purge(self, older_than: timedelta) -> int:
        async with self._core.write() as conn:
            result = await conn.execute(delete(MessageRow).where(
                MessageRow.sent < self._core.now() - older_than))
        return result.rowcount
