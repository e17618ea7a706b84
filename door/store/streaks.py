"""Daily-challenge streaks: days in a row a player played a challenge, and won one.

A streak is alive while it reaches today or yesterday (today's challenge may still be
played); it counts UTC days, like the challenges themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True)
class Streak:
    player_id: int
    alias: str
    played_now: int
    """Days in a row with a counted attempt, up to today or yesterday (0: broken)."""
    played_best: int
    won_now: int
    """Days in a row with a won challenge, up to today or yesterday."""
    won_best: int


def _runs(days: list[date], today: date) -> tuple[int, int]:
    """(the run alive today, the longest run) of consecutive dates in sorted ``days``."""
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best, previous = max(best, run), day
    alive = previous is not None and today - previous <= timedelta(days=1)
    return (run if alive else 0), best


def streaks(days: Iterable[tuple[int, str, date, bool]], today: date) -> list[Streak]:
    """Every player's streaks from (player id, alias, day, won any) rows, the longest
    current played-streak first (then the longest ever, then the alias)."""
    played: dict[int, list[date]] = {}
    won: dict[int, list[date]] = {}
    names: dict[int, str] = {}
    for player_id, alias, day, any_won in days:
        if day > today:
            continue
        names[player_id] = alias
        played.setdefault(player_id, []).append(day)
        if any_won:
            won.setdefault(player_id, []).append(day)
    out = []
    for player_id, alias in names.items():
        played_now, played_best = _runs(sorted(set(played[player_id])), today)
        won_now, won_best = _runs(sorted(set(won.get(player_id, []))), today)
        out.append(Streak(player_id, alias, played_now, played_best, won_now, won_best))
    out.sort(key=lambda s: (-s.played_now, -s.played_best, -s.won_now, s.alias.lower()))
    return out
