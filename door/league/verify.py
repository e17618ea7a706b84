"""What a receiving board checks before it believes a result another board signed.

In this order, cheapest first, so a flood of garbage costs little:

1. the board is one this board knows (a peer, a hub member the hub vouched for, or itself),
   and the result is signed by that board's key;
2. the day is not in the future and not older than ``accept_days`` (a board offline for a
   while still catches up; a result from last year is not news), and the game finished on
   or after its day began;
3. the deal and options are that day's challenge (:func:`door.catalog.registry.is_daily`);
4. the moves, replayed through *this* board's engine, give the score and the win claimed
   (:func:`door.store.verify_record`, the check every local game passes too).

A refusal raises :class:`~door.league.results.Refused` with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any

from ..catalog import registry as gamelist
from ..games import GameRecord
from ..games.daily import same_options
from ..store.errors import RecordRejected
from ..store.scores import verify_record
from .keys import signature_valid
from .results import LeagueResult, Refused

CLOCK_SKEW = timedelta(minutes=10)
"""A result may say it finished this far in the future of the receiving board's clock."""


@lru_cache(maxsize=256)
def _challenge_number(game: str, day: date) -> int:
    """A day's deal number (kept: every result of the day asks, and finding it reads the
    game's list of thousands of winnable deals)."""
    return gamelist.daily_deal(day, game).number


def _is_challenge(game: str, number: int, options: dict[str, Any], day: date) -> bool:
    """:func:`door.catalog.registry.is_daily`, with the day's number kept."""
    if game not in gamelist.daily_games():
        return False
    wanted = gamelist.game(game).daily
    return (wanted is not None and number == _challenge_number(game, day)
            and same_options(options, wanted.options))


def verify_result(result: LeagueResult, key_of: Callable[[str], str | None],
                  now: datetime, accept_days: int) -> bool:
    """Check ``result``; return the replay's cheater flag (the hall rule's, kept on the
    ladder as on a board's own daily board).  ``key_of(board)``: that board's public key, or
    None for a board this one does not know."""
    public = key_of(result.board)
    if public is None:
        raise Refused(f"board {result.board!r} is not in this league")
    if not result.signature or not signature_valid(public, result.signed_bytes(),
                                                   result.signature):
        raise Refused(f"the signature is not that of board {result.board!r}")
    today = now.astimezone(UTC).date()
    if result.day > today or result.finished > now + CLOCK_SKEW:
        raise Refused(f"{result.day.isoformat()} is in the future")
    if result.day < today - timedelta(days=accept_days):
        raise Refused(f"{result.day.isoformat()} is older than {accept_days} days")
    day_began = datetime(result.day.year, result.day.month, result.day.day, tzinfo=UTC)
    if result.finished < day_began:
        raise Refused("it finished before its day began")
    if not _is_challenge(result.game, result.number, result.options, result.day):
        raise Refused(f"{result.game} #{result.number} is not the challenge of "
                      f"{result.day.isoformat()}")
    record = GameRecord(result.game, result.number, dict(result.options), list(result.moves))
    try:
        return verify_record(record, result.score, "won" if result.won else "lost")
    except RecordRejected as exc:
        raise Refused(str(exc)) from None
