"""The daily challenge's deals: one per game per UTC day, the same on every board.

The rule (docs/daily.md says it in words, for other implementations):

1. ``seed = "reussite-daily-YYYY-MM-DD-<game>"`` (the UTC date; the game's registry name),
   encoded as ASCII;
2. ``h(k)`` = the first 8 bytes of SHA-256 of the seed (k = 0) or of ``seed + "#" + k``
   (k = 1, 2, ...), read as a big-endian unsigned integer;
3. for a game with a list of deals proven winnable, the deal is the first of the
   candidates ``1 + h(k) mod R`` (k = 0, 1, 2, ...) that the game's shipped list
   (``door/games/winnable/<list>.txt``) holds, ``R`` being the game's fixed range
   (:attr:`DailyRule.draw`, covered by the list) and that is not one of the deals the
   solver left undecided in that range when the rule was fixed
   (:attr:`DailyRule.undecided`, frozen); for a game without one the deal is
   ``first + h(0) mod len(numbers)`` (:attr:`DailyRule.numbers`, its numbered games).

Each game's rule is part of its record (door/catalog/registry.py, docs/daily.md gives the numbers).
The options are fixed, whatever the sysop's defaults.  The list only answers "is this deal
winnable", and the ranges never change: a later release whose lists cover more deals deals
the same challenges.  A stronger solver that proves a once-undecided deal of a range
winnable puts it on the list (for "winnable deals only") but never makes it a challenge:
the frozen ``undecided`` keeps it out, so every date keeps its deal across releases.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .winnable import winnable_numbers

if TYPE_CHECKING:  # the records hold DailyRule: start-up imports this module, not datetime
    from datetime import date

MAX_CANDIDATES = 100_000
"""Past this many draws without a winnable deal, a list is broken (ValueError)."""


@dataclass(frozen=True)
class DailyRule:
    """How a game deals its challenge (the module's docstring says the rule in full)."""

    options: Mapping[str, Any]
    """The challenge's options: fixed, the same challenge on every board."""
    draw: int = 0
    """R: candidates are drawn from 1..R and checked against the winnable list named by
    ``winnable`` (fixed forever: part of the rule).  0: no list, ``numbers`` instead."""
    winnable: str = ""
    """The shipped winnable list's stem (door/games/winnable/<stem>.txt)."""
    undecided: frozenset[int] = field(default_factory=frozenset)
    """The deals of 1..R the solver left "unknown" when the rule was fixed: never
    challenges, even once a later solver proves them winnable (frozen forever)."""
    numbers: range = range(1, 32001)
    """Without a list: the game's numbered deals, one picked by ``h(0)``."""


@dataclass(frozen=True)
class DailyDeal:
    """One game's challenge on one day."""

    day: date
    game: str
    number: int
    options: dict[str, Any]


def seed(day: date, game: str) -> str:
    return f"reussite-daily-{day.isoformat()}-{game}"


def seed_value(day: date, game: str, k: int = 0) -> int:
    """``h(k)``: the first 8 bytes of SHA-256 of the seed (``seed#k`` past the first draw),
    big-endian."""
    import hashlib  # local: start-up reads the records; a deal is drawn later

    text = seed(day, game) if k == 0 else f"{seed(day, game)}#{k}"
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def daily_deal(day: date, game: str, rule: DailyRule) -> DailyDeal:
    """The challenge of ``game`` (its registry name) on ``day`` by its ``rule``; ValueError
    when the game's winnable list is missing or holds no deal of the range."""
    options = dict(rule.options)
    if not rule.draw:
        number = rule.numbers.start + seed_value(day, game) % len(rule.numbers)
        return DailyDeal(day, game, number, options)
    listed = frozenset(winnable_numbers(rule.winnable)) - rule.undecided
    for k in range(MAX_CANDIDATES):
        number = 1 + seed_value(day, game, k) % rule.draw
        if number in listed:
            return DailyDeal(day, game, number, options)
    raise ValueError(f"no winnable deal of {game} {options} in 1-{rule.draw}")


def same_options(options: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    """The options a game records equal the challenge's (absent random: not random)."""
    return {k: v for k, v in options.items() if not (k == "random" and not v)} == dict(wanted)
