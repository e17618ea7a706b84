"""The shipped "winnable deals" lists: each number is a deal the solver wins, the line
replaying to a win through the engine (a sample of each list: the whole lists were checked
when they were made, bench/winnable_lists.py)."""

from __future__ import annotations

import pytest

from door.catalog.registry import engine, solve
from door.catalog.registry import game as record
from door.games import Status
from door.games.solvers import WINNABLE

SHIPPED = [("montecarlo", {"mode": "strict"}, 15), ("montecarlo", {"mode": "relaxed"}, 15),
           ("auntmary", {}, 8), ("mariant", {"fd": 2, "fu": 1}, 3)]
"""Game, options, and how many of the list's numbers to solve again here."""


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "sample"), SHIPPED)
def test_listed_deals_are_won_by_their_line(game: str, options: dict, sample: int) -> None:
    numbers = record(game).winnable_numbers(options)
    assert len(numbers) > 50 and len(set(numbers)) == len(numbers)
    for number in numbers[:: max(1, len(numbers) // sample)][:sample]:
        verdict = solve(game, number, options, seconds=60)
        assert verdict.verdict == WINNABLE, number
        played = engine(game).new(number, **options)
        for move in verdict.line or []:
            played.play(move)
        assert played.status is Status.WON


def test_a_setup_with_no_list_has_none() -> None:
    mariant, montecarlo = record("mariant"), record("montecarlo")
    assert mariant.winnable_list({"fd": 3, "fu": 2}) == "mariant-3+2"
    assert mariant.winnable_numbers({"fd": 3, "fu": 2}) == ()
    assert mariant.pick_listed({"fd": 3, "fu": 2}) is None
    assert montecarlo.pick_listed({"mode": "strict"}) in montecarlo.winnable_numbers(
        {"mode": "strict"})
    assert record("anciento").winnable_numbers({}) == ()       # no list at all
