"""A league day as callers see it — on the telnet board, the web page and the bulletin: each
game's challenge with its ladder across every board, board against board totals, and the
league's streaks.  One gathering, three renderings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from ..catalog import registry as gamelist
from ..store import Store
from ..store.league import BoardTotal, LadderEntry
from ..store.streaks import Streak, streaks

STREAK_DAYS = 400
"""Streaks are counted over this many days back (longer runs show as this long)."""


@dataclass(frozen=True)
class GameLadder:
    game: str
    title: str
    number: int
    entries: list[LadderEntry]


@dataclass(frozen=True)
class LeagueStreak:
    board: str
    handle: str
    streak: Streak


@dataclass(frozen=True)
class LeagueDay:
    day: date
    board: str
    """This board's name in the league (its own lines are marked)."""
    ladders: list[GameLadder]
    totals: list[BoardTotal]
    streaks: list[LeagueStreak]


async def league_day(store: Store, day: date, board: str, limit: int = 10,
                     streak_lines: int = 5, today: date | None = None) -> LeagueDay:
    ladders = []
    for game in gamelist.daily_games():
        entries = await store.league.ladder(game, day, limit)
        ladders.append(GameLadder(game, gamelist.title(game), gamelist.daily_deal(day, game).number,
                                  entries))
    totals = await store.league.totals(day)
    today = today or day
    rows = await store.league.days(today - timedelta(days=STREAK_DAYS))
    ids: dict[tuple[str, str], int] = {}
    for b, handle, _, _ in rows:
        ids.setdefault((b, handle), len(ids))
    names = {i: key for key, i in ids.items()}
    runs = streaks(((ids[(b, h)], f"{h}@{b}", d, w) for b, h, d, w in rows), today)
    top = [LeagueStreak(*names[s.player_id], s) for s in runs
           if s.played_now or s.won_now][:streak_lines]
    return LeagueDay(day, board, ladders, totals, top)


def league_json(day: LeagueDay) -> dict[str, object]:
    """The league day as data: the web's /api/league, the bulletin's json format."""
    return {
        "date": day.day.isoformat(), "board": day.board,
        "games": [{"game": g.game, "game_name": g.title, "deal": g.number,
                   "entries": [{"rank": e.rank, "player": e.handle, "board": e.board,
                                "score": e.score, "won": e.won,
                                "finished": e.finished.isoformat(), "result": e.seq}
                               for e in g.entries]} for g in day.ladders],
        "boards": [{"rank": t.rank, "board": t.board, "points": t.points, "wins": t.wins,
                    "played": t.attempts, "callers": t.players} for t in day.totals],
        "streaks": [{"player": s.handle, "board": s.board, "played": s.streak.played_now,
                     "played_best": s.streak.played_best, "won": s.streak.won_now,
                     "won_best": s.streak.won_best} for s in day.streaks]}
