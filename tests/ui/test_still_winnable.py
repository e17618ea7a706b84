""""Still winnable?" (V) on Monte Carlo and Aunt Mary: asked in the solver pool about the
position as it stands, shown when it comes, keys answered meanwhile, stale answers marked.

In-process screens (pyte) here; tests/server/test_still_winnable_telnet.py goes through a
real telnet door with a store (recorded, resumed, marked in the hall of fame).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from pyteterm import ScreenCaller
from waiting import WAIT, until

from door.catalog.registry import solve
from door.config import Settings
from door.games.auntmary import AuntMary
from door.games.montecarlo import MonteCarlo
from door.solvers.pool import URGENT, solver_pool
from door.ui.auntmary.screen import AuntMaryScreen
from door.ui.game.screen import SOLVER_PROVED
from door.ui.game.still_winnable import CAN, CANNOT, THINKING
from door.ui.montecarlo.screen import MonteCarloScreen

PLAY_ON = "[Esc]  play on"
HARD = 55
"""An Aunt Mary deal that keeps the solver busy for minutes (as in tests/test_solving.py)."""


class MonteCarloCaller(ScreenCaller):
    screen_class = MonteCarloScreen


class AuntMaryCaller(ScreenCaller):
    screen_class = AuntMaryScreen


@pytest.mark.slow
async def test_a_won_position_and_a_lost_one_in_kpatience_words(settings: Settings,
                                                                 monkeypatch) -> None:
    number = next(n for n in range(1, 60) if solve("montecarlo", n).verdict == "winnable")
    MonteCarloCaller.dealing(monkeypatch, MonteCarlo.new(number))
    caller = MonteCarloCaller(settings, charset="utf8")
    await caller.wait_for(f"Monte Carlo #{number}")
    assert "V still winnable?" in caller.text               # the status line offers it
    caller.send("v")
    await caller.wait_for(CAN, timeout=2 * WAIT)
    await caller.close()

    assert solve("auntmary", 2).verdict == "not winnable"
    AuntMaryCaller.dealing(monkeypatch, AuntMary.new(2))
    caller = AuntMaryCaller(settings)
    await caller.wait_for("Aunt Mary #2")
    game = AuntMary.new(2)
    game.play("s")
    caller.send("s")                                         # the caller's move is applied
    await caller.wait_for(f"Stock {len(game.stock)} ")
    caller.send("V")
    await caller.wait_for(CANNOT, timeout=2 * WAIT)
    assert "Before your" not in caller.text
    # Proven: the end offer, the answer on the message line under it.
    assert SOLVER_PROVED in caller.text and PLAY_ON in caller.text
    caller.send("\x1b")
    await caller.wait_until(lambda: PLAY_ON not in caller.text, "the offer gone")
    caller.send("s")
    await caller.settle()
    assert PLAY_ON not in caller.text                       # turned down: not made again
    await caller.close()


async def test_keys_are_answered_while_the_question_is_solved(settings: Settings,
                                                              monkeypatch) -> None:
    """Deal 55 keeps a worker busy: the caller plays on, and leaving kills the job.  V
    before any move asks for the deal's verdict, already on its way: one job, not two."""
    settings = replace(settings, solver=replace(settings.solver, budget=120, workers=2))
    AuntMaryCaller.dealing(monkeypatch, AuntMary.new(HARD))
    caller = AuntMaryCaller(settings)
    await caller.wait_for(f"Aunt Mary #{HARD}")
    pool = solver_pool(settings)
    caller.send("v")
    await caller.wait_for(THINKING)
    await until(lambda: pool.running == 1 and len(pool._jobs) == 1
                and next(iter(pool._jobs.values())).priority == URGENT,
                "one job, the deal's verdict, made urgent by V")
    game = AuntMary.new(HARD)
    game.play("s")
    caller.send("s")                                         # a move, answered at once
    await caller.wait_for(f"Stock {len(game.stock)} ")
    assert pool.running == 1                                 # while the solver works on
    caller.send("?")
    await caller.wait_for("other keys: back")
    assert pool.running == 1
    caller.send(" ")
    await caller.wait_for(f"Stock {len(game.stock)} ")
    caller.send("q")
    await caller.wait_for("Leave this game?")
    caller.send("y")
    await asyncio.wait_for(caller.task, WAIT)
    await until(lambda: pool.running == 0, "the jobs killed when the caller left")


@pytest.mark.slow
async def test_an_answer_about_an_earlier_position_is_marked(settings: Settings,
                                                             monkeypatch) -> None:
    settings = replace(settings, solver=replace(settings.solver, budget=1, workers=2))
    AuntMaryCaller.dealing(monkeypatch, AuntMary.new(HARD))
    caller = AuntMaryCaller(settings)
    await caller.wait_for(f"Aunt Mary #{HARD}")
    caller.send("vs")                   # ask, then move before a 1 s solve can answer
    await caller.wait_for("Before your last move: Still winnable? Could not tell in 1 s.",
                          timeout=2 * WAIT)
    await caller.close()


@pytest.mark.slow
async def test_automatic_mode_asks_without_a_key(settings: Settings) -> None:
    caller = MonteCarloCaller(settings, charset="utf8")
    await caller.wait_for("Game number:")
    assert '"Still winnable?" after each move: off' in caller.text
    caller.send("a")
    await caller.wait_for('"Still winnable?" after each move: ON')
    number = next(n for n in range(1, 60) if solve("montecarlo", n).verdict == "winnable")
    caller.send(f"{number}\r")
    await caller.wait_for(f"Monte Carlo #{number}")
    await caller.wait_for(CAN, timeout=2 * WAIT)                   # asked without a key
    await caller.close()
