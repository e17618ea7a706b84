"""What the rest of the door needs to know about the daily challenge without the board
(door/ui/menus/daily.py): the clock the challenges' days are read from, the menu's line, and
whether a caller's attempt counts.  Kept apart so that the menu and the game screens can ask
without importing the board (which imports them)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, date, datetime

from ...session import Session
from ...store import DailyEntry, StoreError
from ..shared.widgets import plural

log = logging.getLogger(__name__)

CLOCK: Callable[[], datetime] = lambda: datetime.now(UTC)  # noqa: E731
"""Now, in UTC (tests replace it: no test depends on the real date)."""


def today() -> date:
    return CLOCK().astimezone(UTC).date()


async def players_today(session: Session, key: str) -> str:
    """``Today's challenges (D): 6 attempts so far · resets at 00:00 UTC``: the menu's line
    (the board has them game by game, with the best scores)."""
    total = 0
    if session.store is not None:
        try:
            total = sum((await session.store.daily.players(today())).values())
        except StoreError as exc:
            log.warning("daily players: %s", exc)
    return (f"Today's challenges ({key}): {plural(total, 'attempt')} so far · resets at "
            "00:00 UTC")


def attempt_note(day: date, before: DailyEntry | None, *, finished: bool = False) -> str:
    """Whether this challenge game counts: said when it starts and, in the past tense, in
    the end box (at most 74 characters)."""
    if before is not None:
        return f"Not counted: your first attempt at this challenge scored {before.score}."
    if finished:
        return f"Daily challenge of {day:%Y-%m-%d}: this attempt counts."
    return f"Daily challenge of {day:%Y-%m-%d}: your first finished attempt counts."


async def daily_attempt(session: Session, game: str, day: date) -> DailyEntry | None:
    """The caller's counted attempt at ``game``'s challenge of ``day`` (None: none yet, or
    the store cannot say: logged)."""
    store, player = session.store, session.player
    if store is None or player is None:
        return None
    try:
        return await store.daily.entry(player.id, game, day)
    except StoreError as exc:
        log.warning("daily attempt unavailable: %s", exc)
        return None
