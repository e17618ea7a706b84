"""Mariant solver: its lines replay to a win through the engine with the penalty it reports;
it answers unknown (never a guess) when the budget runs out, and unwinnable only when no
action is left."""

from __future__ import annotations

import gc

import pytest
from test_mariant import mixed_columns, position, stuck_position, suit

from door.games import mariant_solver
from door.games.base import Status
from door.games.mariant import Mariant
from door.games.mariant_solver import (
    ATTEMPTS,
    QUICK_PHASE_NODES,
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    _Line,
    _notation,
    _Search,
    solve,
)


def replayed(game: Mariant, moves: list[str]) -> Mariant:
    copy = game.copy()
    for move in moves:
        copy.play(move)
    return copy


@pytest.mark.slow
@pytest.mark.parametrize("number", [1, 4, 5])
def test_lines_of_deals_replay_to_a_win_with_the_penalty_given(number: int) -> None:
    game = Mariant.new(number)
    result = solve(game, seconds=60)
    assert result.verdict == WINNABLE and result.winnable
    after = replayed(game, result.moves)
    assert after.won and after.status is Status.WON
    assert result.penalty == after.score > 0
    assert game.to_json() == Mariant.new(number).to_json()    # the game was not touched


@pytest.mark.slow
def test_other_setups_and_json_positions() -> None:
    game = Mariant.new(1, fd=3, fu=2)
    for move in game.hints()[:1]:
        game.play(move)
    result = solve(game.to_json(), seconds=60)
    assert result.verdict == WINNABLE
    after = replayed(game, result.moves)
    assert after.won and result.penalty == after.score
    assert solve(2, fd=3, fu=2, seconds=60).verdict == WINNABLE


def test_budget_gives_unknown_and_runs_repeat() -> None:
    assert solve(1, node_limit=100).verdict == UNKNOWN
    assert gc.isenabled()       # paused during the search only
    assert solve(1, seconds=0.0).verdict == UNKNOWN
    first, second = solve(4, seconds=60), solve(4, seconds=60)
    assert (first.moves, first.penalty, first.nodes) == (second.moves, second.penalty,
                                                         second.nodes)


def test_won_auto_ending_and_stuck_positions() -> None:
    won = position([suit("S"), suit("S"), suit("H")], stock=[], removed="HDDCC")
    assert won.won
    assert solve(won).moves == [] and solve(won).verdict == WINNABLE
    mixed = position(mixed_columns(), stock=[])
    result = solve(mixed, seconds=60)
    assert result.verdict == WINNABLE and result.moves == ["auto"]
    assert replayed(mixed, result.moves).won
    stuck = stuck_position()
    assert solve(stuck).verdict == UNWINNABLE and solve(stuck).winnable is False


def test_an_ending_that_needs_sorting() -> None:
    # Two suits to finish: the hearts run K..2 lies on the Ace of spades' column, and the
    # stock still deals the last two Aces: a few moves and two removals win.
    cols = [suit("S")[:-3] + " AH", suit("H")[:-3], "AS"]
    game = position(cols, stock=[], removed="SHDDCC")
    result = solve(game, seconds=60)
    assert result.verdict == WINNABLE
    assert replayed(game, result.moves).won


@pytest.mark.slow
@pytest.mark.parametrize("number", [2, 7])
def test_the_line_is_counted_as_the_engine_counts_it_and_shortening_never_costs(
        number: int) -> None:
    # The line's points are counted on the solver's own states (that is what makes dropping
    # moves cheap to try): they must be the engine's raw points, and the shortened line must
    # still win with no more points than the line the search found.
    game = Mariant.new(number)
    search = _Search(game, None, None, ATTEMPTS[0], QUICK_PHASE_NODES[0])
    found = search.run()
    assert found is not None
    line = _Line(search, search.line(found))
    for actions in (line.actions(line.steps), line.shortened(None)):
        steps = [a for a in actions if a[0] != "r"]
        after = replayed(game, [_notation(a) for a in actions])
        if not after.won:
            after.play("auto")
        assert after.won
        assert line.points(0, steps) == after.raw_points
    assert len(line.shortened(None)) <= len(line.actions(line.steps))


@pytest.mark.slow
def test_when_the_quick_searches_stall_the_wide_ones_win(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Quick searches cut to 300 positions each cannot reach the last deal: the wide rounds
    # then win, their line replays, and the same node limit gives the same answer twice.
    monkeypatch.setattr(mariant_solver, "QUICK_NODES", 300)
    first = solve(2, node_limit=300_000)
    assert first.verdict == WINNABLE and first.nodes > len(ATTEMPTS) * 300
    assert replayed(Mariant.new(2), first.moves).won
    second = solve(2, node_limit=300_000)
    assert (first.moves, first.penalty, first.nodes) == (second.moves, second.penalty,
                                                         second.nodes)
