"""The daily challenge's deals: one per game per UTC day, the same on every board.

The rule (docs/daily.md says it in words, for other implementations):

1. ``seed = "reussite-daily-YYYY-MM-DD-<game>"`` (the UTC date; the game's registry name:
   ``mariant``, ``montecarlo``, ``auntmary``, ``anciento``), encoded as ASCII;
2. ``h`` = the first 8 bytes of SHA-256(seed), read as a big-endian unsigned integer;
3. for the three card games, the deal is ``winnable[h mod len(winnable)]``, where
   ``winnable`` is the game's shipped list of deals proven winnable
   (``door/games/winnable/<list>.txt``, numbers in file order) for the challenge's options;
   for Anciento (no solver) the deal is ``1 + h mod 32000`` (its numbered games).

The options are fixed, whatever the sysop's defaults: Mariant 2 down 1 up, Monte Carlo
strict, Aunt Mary as dealt, Anciento 8×12 without easy mode.  Boards running the same
version (the same lists) therefore deal the same challenges on the same day.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from typing import Any

from .anciento import SELECT_NUMBERS
from .winnable import winnable_numbers

OPTIONS: dict[str, dict[str, Any]] = {
    "mariant": {"fd": 2, "fu": 1},
    "montecarlo": {"mode": "strict"},
    "auntmary": {},
    "anciento": {"board": "8x12", "easy": False},
}
"""Each game's challenge options (fixed: the same challenge on every board)."""
GAMES = tuple(OPTIONS)


@dataclass(frozen=True)
class DailyDeal:
    """One game's challenge on one day."""

    day: date
    game: str
    number: int
    options: dict[str, Any]


def seed(day: date, game: str) -> str:
    return f"reussite-daily-{day.isoformat()}-{game}"


def seed_value(day: date, game: str) -> int:
    """The first 8 bytes of SHA-256 of the seed, big-endian."""
    return int.from_bytes(hashlib.sha256(seed(day, game).encode("ascii")).digest()[:8], "big")


def daily_deal(day: date, game: str) -> DailyDeal:
    """The challenge of ``game`` on ``day`` (ValueError for a game with no challenge, or a
    card game whose winnable list is missing)."""
    if game not in OPTIONS:
        raise ValueError(f"no daily challenge for {game!r}")
    options = dict(OPTIONS[game])
    value = seed_value(day, game)
    if game == "anciento":
        number = SELECT_NUMBERS.start + value % len(SELECT_NUMBERS)
    else:
        listed = winnable_numbers(game, options)
        if not listed:
            raise ValueError(f"no winnable list shipped for {game} {options}")
        number = listed[value % len(listed)]
    return DailyDeal(day, game, number, options)


def daily_deals(day: date) -> list[DailyDeal]:
    """Every game's challenge on ``day``, in menu order."""
    return [daily_deal(day, game) for game in GAMES]


def is_daily(game: str, number: int, options: dict[str, Any], day: date) -> bool:
    """Is this deal (with these options) ``game``'s challenge on ``day``?"""
    if game not in OPTIONS:
        return False
    deal = daily_deal(day, game)
    return number == deal.number and _same(options, deal.options)


def _same(options: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """The options a game records equal the challenge's (absent random: not random)."""
    return {k: v for k, v in options.items() if not (k == "random" and not v)} == wanted
