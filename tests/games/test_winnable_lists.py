"""The shipped "winnable deals" lists: each number is a deal the solver wins, the line
replaying to a win through the engine (a sample of each list: the whole lists were checked
when they were made, bench/winnable_lists.py)."""

from __future__ import annotations

import pytest

from door.games import Status, engine
from door.games.solvers import WINNABLE, solve
from door.games.winnable import list_name, pick_listed, winnable_numbers

SHIPPED = [("montecarlo", {"mode": "strict"}, 15), ("montecarlo", {"mode": "relaxed"}, 15),
           ("auntmary", {}, 8), ("mariant", {"fd": 2, "fu": 1}, 3)]
"""Game, options, and how many of the list's numbers to solve again here."""


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "sample"), SHIPPED)
def test_listed_deals_are_won_by_their_line(game: str, options: dict, sample: int) -> None:
    numbers = winnable_numbers(game, options)
    assert len(numbers) > 50 and len(set(numbers)) == len(numbers)
    for number in numbers[:: max(1, len(numbers) // sample)][:sample]:
        verdict = solve(game, number, options, seconds=60)
        assert verdict.verdict == WINNABLE, number
        played = engine(game).new(number, **options)
        for move in verdict.line or []:
            played.play(move)
        assert played.status is Status.WON


def test_a_setup_with_no_list_has_none() -> None:
    assert list_name("mariant", {"fd": 3, "fu": 2}) == "mariant-3+2"
    assert winnable_numbers("mariant", {"fd": 3, "fu": 2}) == ()
    assert pick_listed("mariant", {"fd": 3, "fu": 2}) is None
    assert pick_listed("montecarlo", {"mode": "strict"}) in winnable_numbers(
        "montecarlo", {"mode": "strict"})
