"""``reussite sysop bulletin league``: today's InterBBS league as a bulletin file -- each
game's ladder across the boards, board against board, the league's streaks -- in the
formats of the other bulletins (``bulletin.py``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from .bulletin import WIDTH, encode, format_name

if TYPE_CHECKING:
    from ..league.ladder import LeagueDay


def _lines(door: str, day: LeagueDay, now: datetime) -> list[tuple[str, str]]:
    out = [("title", f"  {door} · League, {day.day:%A} {day.day.day} {day.day:%B %Y}"),
           ("rule", "  the daily challenge across the boards of the league; every result"),
           ("rule", "  signed by its board and replayed here before it counts")]
    for g in day.ladders:
        out += [("line", ""), ("head", f"  {g.title} #{g.number}")]
        if not g.entries:
            out.append(("line", "        No board has a result yet today."))
        for e in g.entries:
            out.append(("first" if e.rank == 1 else "line",
                        f"  {e.rank:>3}.  {e.handle[:24]:<24} {e.board[:22]:<22} {e.score:>7}  "
                        f"{'won' if e.won else 'not won'}"))
    out += [("line", ""), ("head", "  Board against board: points (10 for a 1st ... 1 for a "
                                   "10th), wins, played")]
    if not day.totals:
        out.append(("line", "        No results yet today."))
    for t in day.totals:
        out.append(("line", f"  {t.rank:>3}.  {t.board[:30]:<30} {t.points:>6} {t.wins:>5} "
                            f"{t.attempts:>6}"))
    if day.streaks:
        out += [("line", ""), ("head", "  League streaks: days in a row played / won")]
        for i, s in enumerate(day.streaks, 1):
            out.append(("line", f"  {i:>3}.  {s.handle[:24]:<24} {s.board[:22]:<22} "
                                f"{s.streak.played_now:>3} / {s.streak.won_now}"))
    out += [("line", ""), ("foot", f"  Updated {now:%Y-%m-%d %H:%M} UTC")]
    return [(style, text[:WIDTH]) for style, text in out]


def render_league(fmt: str, door: str, day: LeagueDay, now: datetime | None = None) -> bytes:
    from ..league.ladder import league_json  # local: when the command runs

    now = now or datetime.now(UTC)
    if format_name(fmt) == "json":
        data = {"door": door, "updated": now.isoformat(timespec="seconds"), **league_json(day)}
        return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    return encode(fmt, _lines(door, day, now))
