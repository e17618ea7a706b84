"""Following the hints from random reachable positions, in each card game (property tests).

A position is a quick deal with a few random legal moves played.  From it the hints are
followed as the door gives them (``door.games.solvers.follow_hints``: the next move of a
line kept, else the solver's answer within the hint budget).  The properties:

* no position comes twice (a hint never undoes the last one, and no line has a cycle);
* when the solver proved the position winnable within the budget, following the hints wins
  -- and so never lost the winnability it proved on the way (every position of a won game
  can be won).

The searches are deterministic for the same position, so the hint finds the line the proof
found; positions the solver cannot decide within ``QUICK_S`` of CPU are left out, and the
hints get a budget far above it (a busy machine slows a search down, never changes it).
Few examples and quick deals: this runs in the suite.  bench/hints.py has the figures over
300 deals a game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from door.catalog import registry as gamelist
from door.catalog.registry import engine, solve
from door.games import Game, Status
from door.games.hints import position_key
from door.games.solvers import follow_hints

BUDGET = 30.0
"""The hint budget here: generous, so that a slow machine never cuts a search short."""
QUICK_S = 2.0
"""Positions not decided within this are left out (see the module docstring)."""
QUICK_DEALS = {
    "montecarlo": list(range(1, 41)),
    "auntmary": [3, 38, 54, 62, 77, 82, 88, 89, 2, 4, 9],   # winnable, then lost, < 0.2 s
    "mariant": [3, 4, 6, 10],                                # won in < 0.3 s
}
HYPOTHESIS = settings(max_examples=6, deadline=None, derandomize=True,
                      suppress_health_check=[HealthCheck.too_slow,
                                             HealthCheck.filter_too_much])


def reached(name: str, number: int, options: dict[str, object], moves: int,
            seed: int) -> Game:
    """Deal ``number`` with ``moves`` random legal moves played (fewer if it ends)."""
    game = engine(name).new(number, **options)
    pick = random.Random(seed)
    for _ in range(moves):
        legal = [m for m in game.legal_moves() if m != "auto"]
        if game.status is not Status.PLAYING or not legal:
            break
        game.play(pick.choice(legal))
    return game


def check_following(game: Game) -> None:
    verdict = solve(game.name, game.number, dict(game.options), position=game.to_json(),
                    seconds=QUICK_S)
    assume(verdict.verdict != "unknown")
    run = follow_hints(game, seconds=BUDGET, solver=gamelist.game(game.name).solver)
    assert run.repeated is None, f"position reached twice: {run.repeated}"
    event(f"verdict {verdict.verdict}")
    if verdict.verdict == "winnable":
        assert run.won, f"hints from a winnable position did not win: {run.moves}"
        assert not run.take_back or run.moves[0] == "undo"
    if run.take_back:
        event("the last random move lost the win: taken back")


@HYPOTHESIS
@given(number=st.sampled_from(QUICK_DEALS["montecarlo"]),
       mode=st.sampled_from(["strict", "relaxed"]),
       moves=st.integers(0, 6), seed=st.integers(0, 2**16))
def test_monte_carlo_hints(number: int, mode: str, moves: int, seed: int) -> None:
    check_following(reached("montecarlo", number, {"mode": mode}, moves, seed))


@pytest.mark.slow
@HYPOTHESIS
@given(number=st.sampled_from(QUICK_DEALS["auntmary"]), moves=st.integers(0, 12),
       seed=st.integers(0, 2**16))
def test_aunt_mary_hints(number: int, moves: int, seed: int) -> None:
    check_following(reached("auntmary", number, {}, moves, seed))


@pytest.mark.slow
@settings(HYPOTHESIS, max_examples=4)
@given(number=st.sampled_from(QUICK_DEALS["mariant"]), moves=st.integers(0, 10),
       seed=st.integers(0, 2**16))
def test_mariant_hints(number: int, moves: int, seed: int) -> None:
    check_following(reached("mariant", number, {"fd": 2, "fu": 1}, moves, seed))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "number"), [("auntmary", 115), ("montecarlo", 18),
                                             ("montecarlo", 35)])
def test_the_issues_deals_first_hint_keeps_the_win(name: str, number: int) -> None:
    """The issue's deals: their old first hints (the engines' orders) lost the win."""
    game = engine(name).new(number)
    assert solve(name, number, seconds=BUDGET).winnable
    run = follow_hints(game, seconds=BUDGET, limit=1, solver=gamelist.game(game.name).solver)
    after = engine(name).new(number)
    after.play(run.moves[0])
    assert solve(name, number, position=after.to_json(), seconds=BUDGET).winnable
    assert position_key(after) != position_key(game)
    assert run.moves[0] != game.hints()[0]           # not the old hint, which lost
