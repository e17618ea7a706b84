"""Hints from the solvers on the card game screens (door/ui/game/solver_hint.py), in-process
screens (pyte) with the real solver pool: following them wins, each is counted as the
solver's help, a slow one says "thinking" while keys work, and a move drops it."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from pyteterm import ScreenCaller
from waiting import until

from door.catalog.registry import solve
from door.config import Settings
from door.games.auntmary import AuntMary
from door.games.montecarlo import MonteCarlo
from door.solvers.pool import solver_pool
from door.ui.auntmary.screen import AuntMaryScreen
from door.ui.game.solver_hint import THINKING
from door.ui.montecarlo.screen import MonteCarloScreen

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

HARD = 55
"""An Aunt Mary deal that keeps the solver busy for minutes (as in tests/test_solving.py)."""


class MonteCarloCaller(ScreenCaller):
    screen_class = MonteCarloScreen


class AuntMaryCaller(ScreenCaller):
    screen_class = AuntMaryScreen


def hint_jobs(settings: Settings) -> list[object]:
    return [job for job in solver_pool(settings)._jobs.values()
            if job.spec.get("kind") == "hint"]


async def test_following_the_hints_wins_and_each_counts_as_help(settings: Settings,
                                                                monkeypatch) -> None:
    number = next(n for n in range(1, 60) if solve("montecarlo", n).winnable)
    MonteCarloCaller.dealing(monkeypatch, MonteCarlo.new(number))
    caller = MonteCarloCaller(settings, charset="utf8")
    await caller.wait_for(f"Monte Carlo #{number}")
    hints = 0
    while "Final score" not in caller.text:
        caller.send("p")
        await caller.wait_until(lambda: re.search(r"Hint: ([a-e][1-5]){2},", caller.text)
                                is not None or "Final score" in caller.text, "a hint",
                                timeout=60)
        found = re.search(r"Hint: ((?:[a-e][1-5]){2}),", caller.text)
        assert found is not None
        hints += 1
        caller.send(found.group(1))                 # the hinted pair, typed
        await caller.wait_until(lambda: "Hint:" not in caller.text or "(y/N)" in caller.text,
                                "the pair played")
        if "(y/N)" in caller.text:                  # it makes the door deal: asked first
            caller.send("y")
            await caller.wait_until(lambda: "(y/N)" not in caller.text and "Hint:" not in
                                    caller.text, "the pair played")
    assert "You won!" in caller.text
    assert f"The solver helped {hints} times" in caller.text
    assert hints == 26                                # every pair of the deck, one a hint
    await caller.close()


async def test_a_slow_hint_says_thinking_and_a_move_drops_it(settings: Settings,
                                                            monkeypatch) -> None:
    settings = replace(settings, solver=replace(settings.solver, hint_budget=60, workers=2))
    AuntMaryCaller.dealing(monkeypatch, AuntMary.new(HARD))
    caller = AuntMaryCaller(settings)
    await caller.wait_for(f"Aunt Mary #{HARD}")
    caller.send("p")
    await caller.wait_for(THINKING)
    await until(lambda: len(hint_jobs(settings)) == 1, "the hint's job in the pool")
    game = AuntMary.new(HARD)
    game.play("s")
    caller.send("s")                                  # keys work meanwhile: a move
    await caller.wait_for(f"Stock {len(game.stock)} ")
    await until(lambda: not hint_jobs(settings), "the hint's job dropped")
    await caller.close()
