"""Helpers for the league tests: real played daily-challenge games, signed as a board would
sign them, and door homes with [league] set."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from homehelp import configure

from door.catalog.registry import daily_deal, engine
from door.league.keys import BoardKey
from door.league.results import LeagueResult

DAY = date(2026, 12, 3)
NOON = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def daily_game(game: str, day: date = DAY, moves: int = 40, pick: int = 0) -> Any:
    """A real game of ``day``'s challenge: up to ``moves`` legal moves (choice ``pick``)."""
    deal = daily_deal(day, game)
    played = engine(game).new(deal.number, **deal.options)
    for i in range(moves):
        legal = played.legal_moves()
        if not legal:
            break
        played.play(legal[(pick + i) % len(legal)])
    return played


def signed(key: BoardKey, board: str, handle: str, game: Any, day: date = DAY,
           finished: datetime | None = None, **changes: Any) -> LeagueResult:
    """``game`` as ``board``'s league result, signed by ``key``; ``changes`` are made
    before signing (a board that signs a lie)."""
    result = LeagueResult(board, handle, day, game.name, game.number, dict(game.options),
                          list(game.actions), game.score, game.status == "won",
                          finished or datetime(day.year, day.month, day.day, 12, tzinfo=UTC))
    result = replace(result, **changes).with_id()
    return replace(result, signature=key.sign(result.signed_bytes()))


def league_home(home: Path, name: str, *, hub: bool = False, code: str = "",
                sync: float = 0.5) -> Path:
    """Turn [league] on in ``home``'s sysop.ini as board ``name`` (a hub with join ``code``)."""
    keys: dict[str, object] = {"enabled": "on", "name": name, "sync_seconds": sync,
                               "requests_per_minute": 100_000}  # every board on 127.0.0.1
    if hub:
        keys |= {"hub": "on", "join_code": code}
    configure(home, "league", **keys)
    return home


def days_ago(n: int, now: datetime = NOON) -> date:
    return (now - timedelta(days=n)).date()
