"""Results arriving from anywhere — a peer's push, a pull, a packet file — take this one
path: bounded parsing, results already stored skipped (no second replay), the signature and
the replay checked (:mod:`door.league.verify`), then stored once.

Refusals are counted by reason and logged as one line per batch and reason, with the
source escaped: a peer that sends 10,000 forgeries costs ten log lines, not 10,000.  The
work yields to the event loop between results, so a big batch never holds up a caller's
keystroke for more than one replay.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..logs.printable import printable
from ..store import Store
from .results import LeagueResult, Refused, parse_result
from .verify import verify_result

log = logging.getLogger(__name__)

MAX_BATCH = 1000
"""Results taken from one push, pull page or packet file at a time."""


@dataclass
class IntakeReport:
    """What became of a batch: new results stored, ones already known, refusals by reason."""

    added: int = 0
    known: int = 0
    refused: Counter[str] = field(default_factory=Counter)

    @property
    def refused_count(self) -> int:
        return sum(self.refused.values())

    def to_json(self) -> dict[str, Any]:
        return {"added": self.added, "known": self.known,
                "refused": [{"reason": reason, "count": count}
                            for reason, count in self.refused.most_common(20)]}


def utc_now() -> datetime:
    return datetime.now(UTC)


class Intake:
    """Takes results into ``store``, checked against the league's boards as stored."""

    def __init__(self, store: Store, accept_days: int,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.store, self.accept_days, self.clock = store, accept_days, clock

    async def take(self, items: Sequence[Any], source: str) -> IntakeReport:
        """Verify and store ``items`` (JSON objects).  ``source``: who sent them, for the
        log ("peer Xanadu", "packet file x.json")."""
        report = IntakeReport()
        if len(items) > MAX_BATCH:
            report.refused[f"more than {MAX_BATCH} results at once"] += len(items) - MAX_BATCH
            items = items[:MAX_BATCH]
        parsed: list[LeagueResult] = []
        for item in items:
            try:
                parsed.append(parse_result(item))
            except Refused as exc:
                report.refused[str(exc)] += 1
        known = await self.store.league.known(r.rid for r in parsed)
        keys = {board.name: board.public_key for board in await self.store.league.boards()}
        now = self.clock()
        good: list[tuple[LeagueResult, bool]] = []
        seen: set[str] = set()
        for result in parsed:
            if result.rid in known or result.rid in seen:
                report.known += 1
                continue
            try:
                cheater = verify_result(result, keys.get, now, self.accept_days)
            except Refused as exc:
                report.refused[str(exc)] += 1
            else:
                good.append((result, cheater))
                seen.add(result.rid)
            await asyncio.sleep(0)  # one replay at a time between callers' keys
        if good:
            report.added = await self.store.league.add(good)
            report.known += len(good) - report.added  # stored meanwhile by another path
        for reason, count in report.refused.items():
            log.warning("league: %s: refused %d result%s: %s", printable(source[:200]), count,
                        "" if count == 1 else "s", printable(reason[:200]))
        return report

