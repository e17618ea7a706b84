"""``reussite sysop bulletin daily``: the daily challenge as a bulletin file -- the day's four
challenges with their best first attempts, the month's standings and the streaks -- in the
same formats as a game's hall of fame (``bulletin.py``: ansi, text, ascii, json).  A day
before today says what was played that day, not "today".
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from .bulletin import WIDTH, board_of, encode, format_name

if TYPE_CHECKING:
    from ..store.streaks import Streak
    from ..ui.menus.daily import GameDay

STREAK_LINES = 5


def _lines(door: str, day: date, games: list[GameDay], runs: list[Streak],
           now: datetime) -> list[tuple[str, str]]:
    out = [("title", f"  {door} · Daily challenge, {day:%A} {day.day} {day:%B %Y}"),
           ("rule", "  one deal per game, the same on every board; the first finished "
                    "attempt counts;"),
           ("rule", "  resets at 00:00 UTC")]
    nobody = nobody_line(day, now.date())
    for g in games:
        out += [("line", ""), ("head", f"  {g.title} #{g.number}: "
                                       f"{g.players} player{'s' if g.players != 1 else ''}")]
        if not g.today:
            out.append(("line", f"        {nobody}"))
        for e in g.today:
            out.append(("first" if e.rank == 1 else "line",
                        f"  {e.rank:>3}.  {e.alias[:34]:<34} {e.score:>7}  "
                        f"{'won' if e.won else 'not won'}"))
        if g.month:
            best = " · ".join(f"{s.alias[:20]} {s.won}/{s.played}" for s in g.month)
            out.append(("rule", f"        {day:%B}, won/played: {best}"))
    out += [("line", ""), ("head", "  Streaks: days in a row played (best) / won (best)")]
    if not runs:
        out.append(("line", "        No streaks yet."))
    for i, s in enumerate(runs[:STREAK_LINES], 1):
        out.append(("line", f"  {i:>3}.  {s.alias[:34]:<34} {s.played_now:>3} ({s.played_best})"
                            f" / {s.won_now} ({s.won_best})"))
    out += [("line", ""), ("foot", f"  Updated {now:%Y-%m-%d %H:%M} UTC")]
    return [(style, text[:WIDTH]) for style, text in out]


def nobody_line(day: date, today: date) -> str:
    """What a challenge nobody played says, for ``day`` seen on ``today`` (UTC)."""
    if day < today:
        return "Nobody played it that day."
    if day > today:
        return "Not open yet: nobody can play it before that day."
    return "Nobody has played it yet today."


def render_daily(fmt: str, door: str, day: date, games: list[GameDay], runs: list[Streak],
                 now: datetime | None = None) -> bytes:
    now = now or datetime.now(UTC)
    if format_name(fmt) == "json":
        return (json.dumps(daily_json(door, day, games, runs, now), ensure_ascii=False,
                           indent=2) + "\n").encode("utf-8")
    return encode(fmt, _lines(door, day, games, runs, now))


def daily_json(door: str, day: date, games: list[GameDay], runs: list[Streak],
               now: datetime) -> dict[str, Any]:
    from ..ui.menus.daily import standing_json  # local: the web's /api/daily says the month alike

    return {
        "door": door, "date": day.isoformat(), "resets": "00:00 UTC",
        "updated": now.isoformat(timespec="seconds"),
        "games": [{"game": g.game, "title": g.title, "deal": g.number, "players": g.players,
                   "today": [{"rank": e.rank, "player": e.alias, "board": board_of(e.source),
                              "score": e.score, "won": e.won} for e in g.today],
                   "month": [standing_json(s) for s in g.month]}
                  for g in games],
        "streaks": [{"player": s.alias, "played": s.played_now, "played_best": s.played_best,
                     "won": s.won_now, "won_best": s.won_best} for s in runs[:STREAK_LINES]],
    }
