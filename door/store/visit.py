"""Glue between a visit and the store: open it at start-up, find the caller's player record.

Both never raise for a database problem: the door must answer callers even when the
database is down, so a failure is logged and the visit goes on without scores.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

from .errors import StoreError
from .records import Player
from .store import Store

if TYPE_CHECKING:
    from ..config import Settings

log = logging.getLogger(__name__)


async def open_store(settings: Settings, **kw: Any) -> Store:
    """The store for ``settings``, migrated to this version's schema when possible."""
    store = Store.from_settings(settings, **kw)
    if await store.start():
        log.info("database %s ready", store.core.describe())
    else:
        log.error("database %s unavailable: the door plays on without scores",
                  store.core.describe())
    return store


async def identify(store: Store | None, caller: Any) -> Player | None:
    """The caller's player record: ``caller.source`` (BBS name, "" for direct) and
    ``caller.user_id`` (their record there; the alias for direct callers)."""
    if store is None:
        return None
    source = getattr(caller, "source", "") or "direct"
    user_id = getattr(caller, "user_id", "") or caller.alias.lower()
    try:
        return await store.players.player(source, user_id, caller.alias)
    except StoreError as exc:
        log.warning("node %s: %s: playing without scores", caller.node, exc)
        return None


class OnNode(Protocol):
    """A call as who's online knows it: its node and the token naming this call."""

    node: int
    token: str


async def node_seen(store: Store | None, call: OnNode, player: Player | None,
                    activity: str) -> None:
    """Who's online: this call's node is busy with ``player`` doing ``activity``, written
    before this returns (at log-in: the player's next log-in must see this call)."""
    _tell(call, activity)
    if store is None:
        return
    try:
        await store.online.heartbeat(call.node, player.id if player else None, activity,
                                     call.token)
    except StoreError as exc:
        log.debug("node %s: heartbeat not stored: %s", call.node, exc)


def node_doing(store: Store | None, call: OnNode, player: Player | None, activity: str) -> None:
    """Who's online: this call's caller went to ``activity`` (a screen of the door).  Written
    in the background: changing screens never waits for the database."""
    _tell(call, activity)
    if store is not None:
        store.online.activity(call.node, player.id if player else None, activity, call.token)


async def node_gone(store: Store | None, call: OnNode) -> None:
    """This call leaves who's online (its row only: the node may be someone else's now)."""
    if store is None:
        return
    try:
        await store.online.leave(call.node, call.token)
    except StoreError as exc:
        log.debug("node %s: leave not stored: %s", call.node, exc)


def _tell(call: OnNode, activity: str) -> None:
    """The caller's own terminal hears the activity too (``Caller.on_doing``)."""
    tell = getattr(call, "on_doing", None)
    if tell is not None:
        tell(call, activity)
