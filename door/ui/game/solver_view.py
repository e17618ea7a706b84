"""What the solvers tell a card game's caller: could this deal be won (its winning line is
shown by the replay viewer, ``door/ui/game/replay.py``), and winnable deals to play ("Winnable
deals only").

The answers come from the solver pool (``door.solvers.pool``): asked in the background, shown
when ready, never holding up a key.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ...catalog import registry as gamelist
from ...games.numbers import random_number
from ...games.solvers import NOT_WINNABLE, WINNABLE, Verdict
from ...session import Session
from .view import PlayedScreen
from .visit_choice import VisitChoice

log = logging.getLogger(__name__)


ON_DEMAND_TRIES = 8
"""Random deals solved, one after the other, to find a winnable one where no list is
shipped for the options (the game's record names none); then the caller is told none was
found."""

_winnable_only = VisitChoice("winnable_only")
"""The caller's "Winnable deals only" choice per game, for the rest of the visit."""


def winnable_only(session: Session, game_name: str) -> bool:
    """Is "Winnable deals only" on for this caller and game?  Default: sysop.ini's
    ``[game] winnable_only``."""
    return _winnable_only.on(session, game_name)


def toggle_winnable_only(session: Session, game_name: str) -> bool:
    """Switch the choice; return it."""
    return _winnable_only.toggle(session, game_name)


def winnable_only_label(on: bool) -> str:
    return f"W  Winnable deals only: {'ON ' if on else 'off'}"


async def pick_winnable(session: Session, game_name: str, options: dict[str, Any],
                        numbers: range) -> int | None:
    """A deal number the solver proved winnable: from the shipped list (``games.winnable``),
    else solved on demand in the pool; None when none was found."""
    listed = gamelist.game(game_name).pick_listed(options)
    if listed is not None and listed in numbers:
        return listed
    for _ in range(ON_DEMAND_TRIES):
        number = random_number(numbers)
        verdict = await ask(session, game_name, number, options, urgent=True)
        if verdict is not None and verdict.verdict == WINNABLE:
            return number
    return None


def deal_verdict_line(game_name: str, number: int, verdict: Verdict | None, won: bool,
                      budget: float) -> str:
    """The end box's sentence on the deal (at most 74 characters)."""
    if won:
        return f"You won deal #{number}: it could be won, and you did."
    if verdict is None:
        return "Could this deal be won? The solver is still at work..."
    if verdict.verdict == WINNABLE:
        return "This deal could be won: W shows a winning line."
    if verdict.verdict == NOT_WINNABLE:
        return f"Nobody could win deal #{number}."
    solver = gamelist.game(game_name).solver
    if solver is not None and solver.best_first:   # its search proves no loss
        return f"The solver found no win for deal #{number} in {budget:g} s (it may exist)."
    return f"Could deal #{number} be won? The solver could not tell in {budget:g} s."


async def ask(session: Session, game_name: str, number: int, options: dict[str, Any],
              position: dict[str, Any] | None = None, urgent: bool = False
              ) -> Verdict | None:
    """A verdict from the pool, or None when the solver could not be asked (logged).
    ``urgent``: the caller is waiting for it (it goes before the background verdicts)."""
    try:
        return await session.solvers.solve(game_name, number, options, position=position,
                                           urgent=urgent)
    except (OSError, ValueError, ConnectionError, RuntimeError) as exc:
        log.warning("solver unavailable: %s", exc)
        return None


def has_deal_verdict(screen: PlayedScreen) -> bool:
    """Does the screen's deal get a verdict (a card game with a solver, dealt from its
    number)?"""
    return screen.solvable and not screen.game.options.get("random")


def start_deal_verdict(screen: PlayedScreen) -> asyncio.Task[Verdict | None] | None:
    """Ask, in the background, whether the screen's deal could be won (from its start)."""
    game = screen.game
    if not has_deal_verdict(screen):
        return None
    task = asyncio.ensure_future(ask(screen.session, screen.name, game.number,
                                     dict(game.options)))
    task.add_done_callback(lambda _: screen.wakeup.set())   # the screen shows the answer
    return task
