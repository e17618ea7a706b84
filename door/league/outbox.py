"""This board's own results: every counted daily attempt of its callers, signed once.

The store already keeps each caller's counted attempt (``daily_entries``, written when the
game finished and its record replayed); the league signs the ones it has not signed yet
and stores them beside the results of other boards, linked to their local game so that
each is signed exactly once, even after a crash between two steps.  Nothing here runs on
a caller's keystroke: the league node calls it on its own clock, and the export command
before it writes a packet.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from ..store import Store
from .keys import BoardKey
from .results import LeagueResult

BATCH = 500


async def sign_new(store: Store, key: BoardKey, board: str, since: date) -> int:
    """Sign and store this board's counted attempts since ``since`` not signed yet; return
    how many.  The finish time is kept in whole seconds, as signed: every board then
    breaks a tie on the ladder the same way."""
    signed = 0
    while True:
        attempts = await store.league.unsigned(since, BATCH)
        if not attempts:
            return signed
        results, game_ids = [], {}
        for attempt in attempts:
            result = LeagueResult(board, attempt.handle[:40], attempt.day, attempt.game,
                                  attempt.number, attempt.options, attempt.moves,
                                  attempt.score, attempt.won,
                                  attempt.finished.replace(microsecond=0)).with_id()
            result = replace(result, signature=key.sign(result.signed_bytes()))
            results.append((result, attempt.cheater))
            game_ids[result.rid] = attempt.game_id
        await store.league.add(results, game_ids)
        signed += len(results)
        if len(attempts) < BATCH:
            return signed
