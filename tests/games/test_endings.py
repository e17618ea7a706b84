"""How every engine says a game is over (door/games/base.py): finished, no move left, no win
possible, resigned, and what an ended game is stored as."""

from __future__ import annotations

from typing import Any

import pytest

from door.games import IllegalMove, Status
from door.games.anciento import END, Anciento
from door.games.auntmary import AuntMary
from door.games.base import RESIGN, GameRecord
from door.games.mariant import Mariant
from door.games.montecarlo import MonteCarlo

ENGINES = (Mariant, MonteCarlo, AuntMary)
"""The card games: each takes ``resign`` (Anciento's own end is ``end``)."""


def dead_mariant(history: list[dict[str, Any]] | None = None) -> Mariant:
    """Six suits removed; the 26 clubs left lie in ten columns whose face-up tops (K K J J
    9 9 7 7 5 5) take nothing from each other, nothing is left to deal: stuck."""
    tops = ["KC", "KC", "JC", "JC", "9C", "9C", "7C", "7C", "5C", "5C"]
    down = ["QC", "QC", "TC", "TC", "8C", "8C", "6C", "6C", "4C", "4C", "3C", "3C", "2C", "2C",
            "AC", "AC"]
    columns = [{"down": down[2 * i:2 * i + 2], "up": [top]} for i, top in enumerate(tops)]
    return Mariant.from_json({
        "game": "mariant", "number": 1, "options": {"fd": 2, "fu": 1}, "columns": columns,
        "stock": [], "removed": ["S", "S", "H", "H", "D", "D"],
        "history": history or [], "actions": []})


def test_a_stuck_mariant_game_has_no_move_left_but_may_take_one_back() -> None:
    game = dead_mariant()
    assert game.status is Status.STUCK and game.no_moves_left and not game.finished
    assert not game.can_undo and game.outcome is Status.LOST
    game = dead_mariant([{"action": "9:1>0", "flip": False}])   # the last 5C came from 9
    assert game.no_moves_left and game.can_undo
    game.undo()
    assert not game.no_moves_left and game.status is Status.PLAYING


@pytest.mark.parametrize("engine", ENGINES)
def test_resign_ends_a_card_game_for_good(engine: Any) -> None:
    game = engine.new(7)
    first = game.legal_moves()[0]
    game.play(first)
    game.play(" Resign ")
    assert game.status is Status.RESIGNED is game.outcome
    assert game.finished and not game.no_moves_left and not game.can_undo
    assert game.legal_moves() == []
    for action in (lambda: game.play(first), game.undo, lambda: game.play(RESIGN)):
        with pytest.raises(IllegalMove):
            action()
    assert game.record().actions[-1] == RESIGN
    again = engine.replay(game.record())
    assert again.status is Status.RESIGNED and again.score == game.score
    loaded = engine.from_json(game.to_json())
    assert loaded.status is Status.RESIGNED and loaded.finished


@pytest.mark.parametrize("engine", ENGINES)
def test_a_game_in_play_is_neither_finished_nor_dead(engine: Any) -> None:
    game = engine.new(7)
    assert game.status is Status.PLAYING and not game.finished
    assert not game.no_moves_left and not game.cannot_win


def test_monte_carlo_dead_end_can_be_taken_back() -> None:
    """Deal 18, first legal move each time: the fifteenth leaves no pair and nothing to
    consolidate (LOST by the rules), yet that pair comes back with an undo."""
    game = MonteCarlo.new(18)
    while game.status is Status.PLAYING:
        game.play(game.legal_moves()[0])
    assert len(game.actions) == 15 and game.status is Status.LOST
    assert game.no_moves_left and not game.finished and game.can_undo
    assert game.outcome is Status.LOST
    game.undo()
    assert game.status is Status.PLAYING and not game.no_moves_left


def test_monte_carlo_with_no_pair_dealt_is_over_with_nothing_to_undo() -> None:
    game = MonteCarlo.new(25)
    assert game.no_moves_left and not game.can_undo and not game.actions


def test_monte_carlo_says_which_move_deals_from_the_stock() -> None:
    """A pair that leaves no pair brings on a consolidation that deals (and can never be
    undone); any other pair does not.  Checked against what playing it does."""
    for number in range(1, 40):
        game = MonteCarlo.new(number)
        while game.status is Status.PLAYING:
            for move in game.legal_moves():
                trial = game.copy()
                stock = len(trial.stock)
                trial.play(move)
                assert game.deals_after(move) == stock - len(trial.stock), (number, move)
            game.play(game.legal_moves()[-1])
    assert MonteCarlo.new(1).deals_after("a1a1") == 0
    assert MonteCarlo.new(1).deals_after("nonsense") == 0


def test_monte_carlo_deals_after_changes_nothing() -> None:
    game = MonteCarlo.new(18)
    before = game.to_json()
    for move in game.legal_moves():
        game.deals_after(move)
    assert game.to_json() == before


def test_anciento_is_finished_only_by_its_end() -> None:
    game = Anciento.new(5)
    assert not game.finished and not game.no_moves_left
    game.play(END)
    assert game.finished and game.outcome is Status.LOST and not game.can_undo


def test_anciento_with_no_square_left_waits_for_its_end() -> None:
    """Place stones by the first legal square until none fits: the game is not finished
    yet (a take back is still allowed), and its end then finishes it."""
    game = Anciento.new(3)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert game.no_moves_left and not game.finished and game.can_undo
    game.play(END)
    assert game.finished and not game.no_moves_left


def test_a_game_ended_in_play_is_stored_as_lost() -> None:
    """``outcome`` of a game ended while moves remain (no win possible: the caller ended it
    at the end offer) is LOST: only a win or a resignation says otherwise."""
    game = AuntMary.replay(GameRecord("auntmary", 1, {}, ["s"]))
    assert game.status is Status.PLAYING and game.outcome is Status.LOST
