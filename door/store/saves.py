"""Unfinished games: one resume slot per player and game, and the games a player saved
under a name.

A visit that starts or resumes a game *claims* the slot with a new owner id; its saves are
written only while the slot is still its own and only when newer than the slot's version,
so a forgotten process (a hang-up the BBS never noticed) cannot overwrite a newer game.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, func, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .core import Repository, unit
from .errors import SaveRefused
from .models import NamedSaveRow, NodeRow, PlayerRow, ResumeRow
from .online import ALIVE_WINDOW_S
from .records import NamedSave, SlotSave
from .text import clean_line

_SLOTS = ResumeRow.metadata.tables[ResumeRow.__tablename__]
OWNERS = select(_SLOTS.c.player_id, _SLOTS.c.game, _SLOTS.c.owner).where(
    tuple_(_SLOTS.c.player_id, _SLOTS.c.game).in_(bindparam("b_slots", expanding=True)))
"""The owners of the slots ``b_slots`` (``(player_id, game)`` pairs), read back after a
batch of saves.  Made once: a statement made per batch left its tuple and parameters in
reference cycles for the server's full collection (door/serve/collector.py)."""


def new_claim() -> int:
    """A fresh owner id for a resume slot or a who's-online row (62 random bits: never 0,
    the value of rows written before owners existed)."""
    return secrets.randbits(62) | 1


async def clear_slot(conn: AsyncConnection, player_id: int, game: str,
                     owner: int | None) -> bool:
    """Empty the slot in ``conn``'s transaction (only if ``owner`` holds it, when given)."""
    query = delete(ResumeRow).where(ResumeRow.player_id == player_id, ResumeRow.game == game)
    if owner is not None:
        query = query.where(ResumeRow.owner == owner)
    return (await conn.execute(query)).rowcount > 0


async def taken_over(conn: AsyncConnection, player_id: int, call: str,
                     alive_since: datetime) -> bool:
    """In ``conn``'s transaction: is ``call`` no longer listed in who's online while another
    live call of the player is?  (A call whose row was never written -- the database was
    away at its log-in -- is not taken over, nor one beside a crashed server's leftover
    row.)  On PostgreSQL the call's row is held until the transaction ends, so that a
    takeover removing it waits for this claim."""
    token = call[:32]
    mine = await conn.execute(select(NodeRow.token).where(NodeRow.token == token)
                              .with_for_update(read=True))
    if mine.first() is not None:
        return False
    others = await conn.execute(select(NodeRow.token).where(
        NodeRow.player_id == player_id, NodeRow.token != token,
        NodeRow.alive >= alive_since).limit(1))
    return others.first() is not None


class Saves(Repository):
    # -- resume slots ------------------------------------------------------------------------
    @unit
    async def claim_resume(self, player_id: int, game: str, state: dict[str, Any],
                           version: int = 0, *, background: bool = True,
                           call: str | None = None) -> int | None:
        """Make ``state`` the slot's game, owned from now on by the returned owner id
        (``background``: a write nobody waits for on a screen, door/store/turns.py).

        ``call``: the token of the call claiming (its who's-online row).  The claim is
        refused (None) when another call of the player is listed and this one no longer
        is: it was taken over, and its claim, late (its process hung while it waited for
        its turn), must not replace the newer call's game."""
        owner, now = new_claim(), self._core.now()
        async with self._core.write(background=background) as conn:
            alive_since = now - timedelta(seconds=ALIVE_WINDOW_S)
            if call is not None and await taken_over(conn, player_id, call, alive_since):
                return None
            ins = self._core.insert(conn, ResumeRow).values(
                player_id=player_id, game=game, state=state, saved=now, owner=owner,
                version=version)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=["player_id", "game"],
                set_={"state": state, "saved": now, "owner": owner, "version": version}))
        return owner

    @unit
    async def keep_resumes(self, saves: list[SlotSave], *, background: bool = True
                           ) -> list[SlotSave]:
        """Write many owners' newest states in one transaction; return the saves refused
        because their slot has another owner now (or is gone: the game finished).

        Two statements whatever the batch's size (one executemany, one read-back): on a busy
        server each round trip waits for the event loop, and the connection is held until
        the last one."""
        if not saves:
            return []
        now = self._core.now()
        # The Core table, not the ORM class: an ORM update() with a list of parameters is a
        # bulk update by primary key, and this one matches on the owner and version too.
        slots = ResumeRow.metadata.tables[ResumeRow.__tablename__]
        write = (update(slots)
                 .where(slots.c.player_id == bindparam("b_player"),
                        slots.c.game == bindparam("b_game"),
                        slots.c.owner == bindparam("b_owner"),
                        slots.c.version < bindparam("b_version"))
                 .values(state=bindparam("b_state"), saved=now, version=bindparam("b_version")))
        async with self._core.write(self._core.saves_engine, background=background) as conn:
            await conn.execute(write, [
                {"b_player": s.player_id, "b_game": s.game, "b_owner": s.owner,
                 "b_version": s.version, "b_state": s.state} for s in saves])
            owners = {(row.player_id, row.game): row.owner for row in await conn.execute(
                OWNERS, {"b_slots": sorted({(s.player_id, s.game) for s in saves})})}
        # A slot still this save's owner's holds it (or a newer state of it): kept.
        return [s for s in saves if owners.get((s.player_id, s.game)) != s.owner]

    @unit
    async def load_resume(self, player_id: int, game: str) -> dict[str, Any] | None:
        async with self._core.read() as conn:
            return (await conn.execute(select(ResumeRow.state).where(
                ResumeRow.player_id == player_id, ResumeRow.game == game))).scalar()

    @unit
    async def clear_resume(self, player_id: int, game: str, owner: int | None = None) -> bool:
        """Empty the slot (only if ``owner`` still holds it, when given)."""
        async with self._core.write() as conn:
            return await clear_slot(conn, player_id, game, owner)

    @unit
    async def resumable(self, player_id: int) -> list[str]:
        """Games with a resume slot, most recently saved first."""
        async with self._core.read() as conn:
            return list((await conn.execute(
                select(ResumeRow.game).where(ResumeRow.player_id == player_id)
                .order_by(ResumeRow.saved.desc(), ResumeRow.game))).scalars())

    # -- named saves -------------------------------------------------------------------------
    @unit
    async def save_named(self, player_id: int, game: str, name: str,
                         state: dict[str, Any]) -> str:
        """Save under ``name`` (replacing a save of the same name, whatever its case); return
        the name as stored.  SaveRefused for an empty name or one save too many."""
        name = clean_line(name, self._core.limits.save_name)
        if not name:
            raise SaveRefused("a save needs a name")
        now = self._core.now()
        async with self._core.write() as conn:
            # Lock the player row: two concurrent saves cannot both squeeze under the cap.
            # FOR NO KEY UPDATE, not FOR UPDATE: it does not block the KEY SHARE lock that
            # another transaction's foreign-key check takes (which would risk deadlocks).
            await conn.execute(select(PlayerRow.id).where(PlayerRow.id == player_id)
                               .with_for_update(key_share=True))
            others = (await conn.execute(select(func.count()).where(
                NamedSaveRow.player_id == player_id, NamedSaveRow.game == game,
                NamedSaveRow.name_key != name.lower()))).scalar_one()
            if others >= self._core.limits.named_saves:
                raise SaveRefused(f"you have {others} saved games already: delete one first")
            ins = self._core.insert(conn, NamedSaveRow).values(
                player_id=player_id, game=game, name=name, name_key=name.lower(),
                state=state, saved=now)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=["player_id", "game", "name_key"],
                set_={"name": name, "state": state, "saved": now}))
        return name

    @unit
    async def list_named(self, player_id: int, game: str) -> list[NamedSave]:
        async with self._core.read() as conn:
            rows = (await conn.execute(
                select(NamedSaveRow.name, NamedSaveRow.saved)
                .where(NamedSaveRow.player_id == player_id, NamedSaveRow.game == game)
                .order_by(NamedSaveRow.saved.desc(), NamedSaveRow.name_key))).all()
        return [NamedSave(r.name, r.saved) for r in rows]

    @unit
    async def load_named(self, player_id: int, game: str, name: str) -> dict[str, Any] | None:
        async with self._core.read() as conn:
            return (await conn.execute(select(NamedSaveRow.state).where(
                *self._save_key(player_id, game, name)))).scalar()

    @unit
    async def delete_named(self, player_id: int, game: str, name: str) -> bool:
        async with self._core.write() as conn:
            result = await conn.execute(delete(NamedSaveRow).where(
                *self._save_key(player_id, game, name)))
        return result.rowcount > 0

    def _save_key(self, player_id: int, game: str, name: str) -> tuple[Any, ...]:
        key = clean_line(name, self._core.limits.save_name).lower()
        return (NamedSaveRow.player_id == player_id, NamedSaveRow.game == game,
                NamedSaveRow.name_key == key)
