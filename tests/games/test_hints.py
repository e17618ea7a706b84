"""Hints' lines (door/games/hints.py) and the solvers' answers for a hint (solvers.hint):
cycles and detours are cleaned away, a hint never undoes the last action, and with no win
left the line goes to the best score."""

from __future__ import annotations

import pytest
from test_auntmary import make
from test_mariant import stuck_position

from door.catalog.registry import hint, solve
from door.games import solvers
from door.games.auntmary import AuntMary
from door.games.auntmary_solver import best_line as am_best
from door.games.hints import (
    BEST,
    WIN,
    Line,
    Lines,
    is_detour,
    position_key,
    previous_position,
    simplify,
    undoes,
)
from door.games.mariant import Mariant
from door.games.montecarlo import MonteCarlo
from door.games.montecarlo_solver import best_line as mc_best
from door.games.montecarlo_solver import solve as mc_solve
from door.games.solvers import hint_line


def club_six() -> AuntMary:
    """6♣ on 7♥ in column 1 (it may go home: ♣ holds A-5), 7♦ alone in column 2."""
    return make([("", "7H 6C"), ("", "7D")], found={"C": 5})


# -- positions ------------------------------------------------------------------------------

def test_position_keys_ignore_the_way_there_and_the_score() -> None:
    game = club_six()
    direct, detour = game.copy(), game.copy()
    direct.play("1>2")
    detour.play("1>f")
    detour.play("fC>2")
    assert position_key(direct) == position_key(detour)
    assert direct.actions != detour.actions
    assert position_key(game) != position_key(direct)
    mc = MonteCarlo.new(11)
    again = MonteCarlo.new(11)
    assert position_key(mc) == position_key(again)
    mc.play(mc.hints()[0])
    assert position_key(mc) != position_key(again)
    mar = Mariant.new(3)
    moved = mar.copy()
    moved.play(moved.hints()[0])
    moved.undo()                                  # 2 points more, the same position
    assert moved.score != mar.score and position_key(moved) == position_key(mar)


def test_previous_position_takes_back_the_last_action_moves_undos_and_redos() -> None:
    game = club_six()
    assert previous_position(game) is None
    start = position_key(game)
    game.play("1>f")
    after = position_key(game)
    before = previous_position(game)
    assert before is not None and position_key(before) == start
    game.undo()
    before = previous_position(game)                 # before the undo: after the move
    assert before is not None and position_key(before) == after
    game.redo()
    before = previous_position(game)
    assert before is not None and position_key(before) == start
    mar = Mariant.new(3)                             # no redo: replayed from the deal
    mar.play(mar.hints()[0])
    moved = position_key(mar)
    mar.undo()
    before = previous_position(mar)
    assert before is not None and position_key(before) == moved


# -- detours and the last action ------------------------------------------------------------

def test_home_and_back_onto_another_host_is_a_detour_and_a_hint_never_does_it() -> None:
    game = club_six()
    assert is_detour(game, "1>f", "fC>2")             # the reported 6♣ home and back
    line = simplify(game, ["1>f", "fC>2"])           # one move: 6♣ from 7♥ to 7♦
    direct = game.copy()
    direct.play("1>2")
    after = game.copy()
    for move in line:
        after.play(move)
    assert len(line) == 1 and position_key(after) == position_key(direct)
    assert simplify(game, ["1>2", "2>1"]) == []      # a cycle: cut
    game.play("1>f")
    assert undoes(game, "fC>2")                       # 6♣ straight back down: no hint
    assert undoes(game, "fC>1")                       # where it came from: the same
    game.undo()
    assert undoes(game, "1>f")                        # after an undo, not the move again


def off_the_line_of_deal_3() -> AuntMary:
    """Deal 3 after its line's first move (♣A home) and the caller's own move bringing it
    back down: the solver's line from there starts by sending it home again."""
    game = AuntMary.new(3)
    game.play(simplify(game, solve("auntmary", 3).line or [])[0])
    game.play("fC>4")
    found = solve("auntmary", 3, position=game.to_json(), seconds=10).line or []
    assert undoes(game, simplify(game, found)[0])
    return game


def test_a_hint_finds_another_first_move_when_the_solvers_undoes_the_last_action() -> None:
    game = off_the_line_of_deal_3()
    answer = hint("auntmary", 3, position=game.to_json(), seconds=10)
    assert answer.winnable and answer.line and not answer.take_back
    assert not undoes(game, answer.line[0])
    after = game.copy()
    for move in answer.line:
        after.play(move)
    assert after.status.value == "won"


def test_with_no_other_first_move_found_the_hint_says_take_it_back(monkeypatch) -> None:
    monkeypatch.setattr(solvers, "_other_first_move", lambda *args: None)
    game = off_the_line_of_deal_3()
    answer = hint("auntmary", 3, position=game.to_json(), seconds=10)
    assert answer.take_back and answer.line and undoes(game, answer.line[0])


# -- lines kept ----------------------------------------------------------------------------

def test_lines_give_the_next_move_along_them_and_after_coming_back_onto_them() -> None:
    game = MonteCarlo.new(11)
    verdict = mc_solve(game)
    assert verdict.winnable and verdict.moves
    book = Lines()
    book.learn(game, verdict.moves, WIN)
    assert book.advice(game) == (WIN, verdict.moves[0])
    game.play(verdict.moves[0])
    assert book.advice(game) == (WIN, verdict.moves[1])
    other = next(m for m in game.legal_moves() if m != verdict.moves[1])
    game.play(other)
    assert book.advice(game) is None                  # off the line
    game.undo()
    assert book.advice(game) == (WIN, verdict.moves[1])


def test_a_line_stops_at_a_refused_move() -> None:
    game = MonteCarlo.new(11)
    line = Line.through(game, [game.hints()[0], "a1a2a3"], WIN)
    assert line.moves == [game.hints()[0]] and len(line.keys) == 2
    assert line.step(line.keys[0]) == 0 and line.step(line.keys[1]) is None


# -- no win left: the best score -------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("mode", ["strict", "relaxed"])
def test_monte_carlo_best_line_scores_what_it_says_and_wins_a_winnable_deal(mode: str) -> None:
    lost = next(n for n in range(1, 60) if not mc_solve(n, mode).winnable
                and MonteCarlo.new(n, mode=mode).pairs())
    won = next(n for n in range(1, 60) if mc_solve(n, mode).winnable)
    for number, wins in ((lost, False), (won, True)):
        game = MonteCarlo.new(number, mode=mode)
        best = mc_best(game)
        assert best.complete and best.moves is not None
        for move in best.moves:
            game.play(move)
        assert game.score == best.points
        assert (game.status.value == "won") is wins
    verdict = hint("montecarlo", lost, {"mode": mode})
    assert verdict.verdict == "not winnable" and verdict.line is None and verdict.best
    assert hint_line(verdict) == (verdict.best, BEST)


def test_monte_carlo_best_line_is_the_best_of_every_first_move() -> None:
    number = next(n for n in range(1, 60) if not mc_solve(n).winnable
                  and len(MonteCarlo.new(n).pairs()) > 1)
    game = MonteCarlo.new(number)
    best = mc_best(game).points
    totals = []
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        totals.append(after.score - game.score + mc_best(after).points)
    assert max(totals) == best


@pytest.mark.slow
def test_aunt_mary_best_line_sends_home_what_it_says() -> None:
    game = AuntMary.new(2)                            # not winnable
    best = am_best(game, seconds=10)
    assert best.complete and best.home > 0
    after = game.copy()
    for move in best.moves:
        after.play(move)
    assert after.score == best.home
    verdict = hint("auntmary", 2, seconds=10)
    assert verdict.verdict == "not winnable" and verdict.best


def test_mariant_with_no_win_found_gives_the_furthest_line_that_plays() -> None:
    game = Mariant.new(1)
    verdict = hint("mariant", 1, {"fd": 2, "fu": 1}, seconds=0.05)
    if verdict.winnable:                              # a fast machine: the line then wins
        assert verdict.line
        return
    assert verdict.verdict == "unknown"
    assert verdict.best, "a line to the furthest position reached"
    after = game.copy()
    for move in verdict.best:
        after.play(move)


def test_mariant_stuck_has_no_hint() -> None:
    game = stuck_position()
    verdict = hint("mariant", game.number, position=game.to_json())
    assert verdict.verdict == "not winnable"
    assert verdict.line is None and not verdict.best and hint_line(verdict) is None
