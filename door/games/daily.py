"""The daily challenge's deals: one per game per UTC day, the same on every board.

The rule (docs/daily.md says it in words, for other implementations):

1. ``seed = "reussite-daily-YYYY-MM-DD-<game>"`` (the UTC date; the game's registry name:
   ``mariant``, ``montecarlo``, ``auntmary``, ``anciento``), encoded as ASCII;
2. ``h(k)`` = the first 8 bytes of SHA-256 of the seed (k = 0) or of ``seed + "#" + k``
   (k = 1, 2, ...), read as a big-endian unsigned integer;
3. for the three card games, the deal is the first of the candidates ``1 + h(k) mod R``
   (k = 0, 1, 2, ...) that the game's shipped list of deals proven winnable
   (``door/games/winnable/<list>.txt``) holds, ``R`` being the game's fixed range
   (:data:`RANGES`: Mariant 300, Monte Carlo 10,000, Aunt Mary 600, all covered by the
   lists) and that is not one of the deals the solver left undecided in that range when the
   rule was fixed (:data:`UNDECIDED`, frozen); for Anciento (no solver) the deal is
   ``1 + h(0) mod 32000`` (its numbered games).

The options are fixed, whatever the sysop's defaults: Mariant 2 down 1 up, Monte Carlo
strict, Aunt Mary as dealt, Anciento 8×12 without easy mode.  The list only answers "is
this deal winnable", and the ranges never change: a later release whose lists cover more
deals deals the same challenges.  A stronger solver that proves a once-undecided deal of a
range winnable puts it on the list (for "winnable deals only") but never makes it a
challenge: :data:`UNDECIDED` keeps it out, so every date keeps its deal across releases.
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


RANGES = {"mariant": 300, "montecarlo": 10_000, "auntmary": 600}
"""Each card game's challenge numbers are drawn from 1..R: fixed forever (part of the rule),
and covered by the shipped lists (a test checks it)."""
UNDECIDED = {
    "mariant": frozenset({49, 90, 99, 102, 110, 127, 130, 158, 179, 194, 210, 220, 222, 253,
                          269, 274, 286, 288}),
    "montecarlo": frozenset(),
    "auntmary": frozenset({33, 55, 67, 99, 100, 142, 143, 146, 158, 165, 202, 223, 238, 242,
                           247, 261, 270, 271, 354, 360, 400, 437, 440, 501, 523}),
}
"""The deals of each range that the solver left "unknown" (10 CPU s) when the rule was fixed
(the lists of 2026-12-01): never challenges, even once a later solver proves them winnable
-- else the day whose first listed candidate one of them is would get another deal, and
two boards on two releases would disagree.  Frozen forever, like the ranges."""
MAX_CANDIDATES = 100_000
"""Past this many draws without a winnable deal, a list is broken (ValueError)."""


def seed_value(day: date, game: str, k: int = 0) -> int:
    """``h(k)``: the first 8 bytes of SHA-256 of the seed (``seed#k`` past the first draw),
    big-endian."""
    text = seed(day, game) if k == 0 else f"{seed(day, game)}#{k}"
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def daily_deal(day: date, game: str) -> DailyDeal:
    """The challenge of ``game`` on ``day`` (ValueError for a game with no challenge, or a
    card game whose winnable list is missing)."""
    if game not in OPTIONS:
        raise ValueError(f"no daily challenge for {game!r}")
    options = dict(OPTIONS[game])
    if game == "anciento":
        number = SELECT_NUMBERS.start + seed_value(day, game) % len(SELECT_NUMBERS)
        return DailyDeal(day, game, number, options)
    listed = frozenset(winnable_numbers(game, options)) - UNDECIDED[game]
    for k in range(MAX_CANDIDATES):
        number = 1 + seed_value(day, game, k) % RANGES[game]
        if number in listed:
            return DailyDeal(day, game, number, options)
    raise ValueError(f"no winnable deal of {game} {options} in 1-{RANGES[game]}")


def daily_deals(day: date) -> list[DailyDeal]:
    """Every game's challenge on ``day``, in menu order."""
    return [daily_deal(day, game) for game in GAMES]


def is_daily(game: str, number: int, options: dict[str, Any], day: date) -> bool:
    """Is this deal (with these options) ``game``'s challenge on ``day``?"""
    if game not in OPTIONS:
        return False
    deal = daily_deal(day, game)
    return number == deal.number and same_options(options, deal.options)


def same_options(options: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """The options a game records equal the challenge's (absent random: not random)."""
    return {k: v for k, v in options.items() if not (k == "random" and not v)} == wanted
