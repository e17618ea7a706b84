"""One call per player, across nodes, processes and door servers.

A player's saved games are one per game, so a handle (or a BBS user) is in the door on one
line at a time.  A later call may take over: the earlier one is asked to save its game and
hang up, as if its line had dropped.  Inside one ``reussite serve`` that is immediate; a
call in another process (a BBS door process whose hang-up the BBS never noticed, or another
server sharing PostgreSQL) is told through the store: its row in who's online gets a
hang-up order, which that process reads within :data:`WATCH_S` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..session import Session
from ..store import OnlineNode, Store
from ..store.accounts import GUEST_ID
from ..store.errors import StoreError
from ..ui.shared.widgets import message
from ..ui.visits.takeover import ask_to_take_over, say_declined

log = logging.getLogger(__name__)

WATCH_S = 5.0
"""How often a process says its calls are alive and reads their hang-up orders (one short
write for all its calls; :data:`door.store.online.ALIVE_WINDOW_S` is three of these)."""
TAKEOVER_WAIT_S = 8.0
"""How long a takeover waits for the other call to save and leave before it goes on (that
call's process may be gone without a trace: a crash, kill -9)."""
NUDGE_S = 0.1
"""How often a worker of ``serve --workers`` looks whether another asked it to read its
hang-up orders (a look at shared memory, no system call)."""


@dataclass(frozen=True)
class OtherCall:
    """Another live call of the same player, and how to end it."""

    where: str
    end: Callable[[], Awaitable[None]]
    """Ask it to save and hang up, and wait (a bounded time) until it has."""


async def one_call_per_player(session: Session, others: list[OtherCall]) -> bool:
    """Let the caller in when no other call of theirs is live, or after they chose to hang
    the others up; False when they chose to leave instead (told so)."""

    if not others:
        return True
    node, alias = session.caller.node, session.caller.alias
    if not await ask_to_take_over(session, others[0].where):
        await say_declined(session)
        return False
    log.info("node %s: %s takes over from %s", node, alias,
             ", ".join(o.where for o in others))
    message(session, f"Asking {others[0].where} to save its game and hang up...")
    await session.show()
    await asyncio.gather(*(o.end() for o in others))
    message(session, "")
    return True


async def calls_elsewhere(store: Store | None, session: Session,
                          skip_host: str | None = None,
                          nudge: Callable[[], None] | None = None) -> list[OtherCall]:
    """The player's live calls known to the store (except this one, and except those of
    ``skip_host``: a server knows its own calls better than its rows).  ``nudge`` tells
    the other workers of this server to read their orders now (door/serve/workers.py)."""
    player = session.player
    if store is None or player is None or player.user_id == GUEST_ID:
        return []
    try:
        rows = await store.online.other_calls(player.id, session.caller.token)
    except StoreError as exc:
        log.warning("node %s: other calls of %s unknown: %s", session.caller.node,
                    session.caller.alias, exc)
        return []
    return [OtherCall(_where(store, row), _ender(store, row, nudge)) for row in rows
            if row.host != skip_host]


def _where(store: Store, row: OnlineNode) -> str:
    """``node 3``, or ``node 3 of machine:port`` for another server's (a worker of this
    server is this server: node numbers are shared by its workers)."""
    if row.host == store.core.host or _server_of(row.host) == _server_of(store.core.host):
        return f"node {row.node}"
    return f"node {row.node} of {_server_of(row.host)}"


def _server_of(host: str) -> str:
    """The server a who's-online host belongs to (``machine:port/2`` → ``machine:port``)."""
    return host.rsplit("/", 1)[0]


def _ender(store: Store, row: OnlineNode,
           nudge: Callable[[], None] | None = None) -> Callable[[], Awaitable[None]]:
    async def end() -> None:
        with contextlib.suppress(StoreError):
            if not await store.online.ask_to_hang_up(row.host, row.node, row.token):
                return
        if nudge is not None:
            nudge()
        deadline = time.monotonic() + TAKEOVER_WAIT_S
        while time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            with contextlib.suppress(StoreError):
                others = await store.online.other_calls(row.player_id or 0, "")
                if not any(o.token == row.token for o in others):
                    return
        # Its process is gone (or stuck): its row goes, its saves are refused from now on.
        log.warning("node %s of %s did not hang up within %.0f s: its row is removed",
                    row.node, row.host, TAKEOVER_WAIT_S)
        with contextlib.suppress(StoreError):
            await store.online.leave(row.node, row.token, row.host)
    return end


async def watch_hang_up_orders(store: Store, calls: Callable[[], dict[int, str]],
                               hang_up: Callable[[int], None],
                               every_s: float = WATCH_S,
                               nudged: Callable[[], bool] | None = None) -> None:
    """Forever: every ``every_s`` seconds, this process's calls (node → token from
    ``calls()``) are said alive and their orders read; ``hang_up(node)`` for each call
    told to go, if it is still on its node: on a busy store the read takes seconds, and a
    node freed meanwhile has a new call, whose token is in the row and not in the list read
    with (that read as "the row belongs to another call", and the new caller was hung up:
    bench/soak.py lost games this way, a dozen callers at one read).  ``nudged()`` (the
    workers of one server) is looked at every :data:`NUDGE_S`: True reads the orders at
    once."""
    while True:
        if nudged is None:
            await asyncio.sleep(every_s)
        else:
            waited = 0.0
            while waited < every_s and not nudged():
                await asyncio.sleep(NUDGE_S)
                waited += NUDGE_S
        live = calls()
        if not live:
            continue
        try:
            ordered = await store.online.hang_up_orders(live)
        except StoreError as exc:
            log.debug("hang-up orders not read: %s", exc)
            continue
        now = calls()
        for node in ordered:
            if now.get(node) != live[node]:
                continue  # that call has gone, and the node has a new one
            log.info("node %s: asked to hang up (the same player called again elsewhere)",
                     node)
            hang_up(node)
