"""Mariant solver: its lines replay to a win through the engine with the penalty it reports;
it answers unknown (never a guess) when the budget runs out, and unwinnable only when no
action is left."""

from __future__ import annotations

import gc
from collections import Counter

import pytest
from test_mariant import ALL, mixed_columns, position, stuck_position, suit

from door.catalog.registry import hint
from door.compiled import SOLVER, runs_compiled
from door.games import mariant_solver
from door.games.base import Status
from door.games.hints import BEST
from door.games.mariant import COLUMNS, Mariant
from door.games.mariant_ids import encode
from door.games.mariant_solver import (
    ATTEMPTS,
    QUICK_PHASE_NODES,
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    _Line,
    _notation,
    _Search,
    best_line,
    solve,
)
from door.games.solvers import NOT_WINNABLE, hint_line

python_build_only = pytest.mark.skipif(
    runs_compiled(SOLVER), reason="swaps a function of the solver, which its mypyc build calls "
    "directly (an install with REUSSITE_COMPILE=1); tests/test_compiled.py checks that this "
    "build searches as the Python one does")


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
def test_when_the_quick_searches_stall_the_later_ones_win(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Quick searches cut to 300 positions each cannot reach the last deal: the later rounds
    # (the first wide search, the jittered ones) then win, their line replays, and the same
    # node limit gives the same answer twice.
    monkeypatch.setattr(mariant_solver, "QUICK_NODES", 300)
    first = solve(2, node_limit=300_000)
    assert first.verdict == WINNABLE and first.nodes > len(ATTEMPTS) * 300
    assert replayed(Mariant.new(2), first.moves).won
    second = solve(2, node_limit=300_000)
    assert (first.moves, first.penalty, first.nodes) == (second.moves, second.penalty,
                                                         second.nodes)


def test_the_jittered_searches_are_the_same_every_run_and_can_reach_the_last_deal() -> None:
    # After the fixed rounds come jittered quick searches (and a wide one after each batch):
    # drawn from a seeded generator, so a solve stays deterministic; each one's cap leaves
    # room for a phase per deal and the last phase.
    def later(stock: int) -> list[mariant_solver.Attempt]:
        rounds = mariant_solver._attempts(stock, list)     # a deal with no openings
        for _ in range(4):
            next(rounds)
        return [attempt for _ in range(3) for attempt in next(rounds)]
    first, again = later(74), later(74)
    assert first == again
    jittered = [a for a in first if a[0] != mariant_solver.PHASE_NODES]
    wide = [a for a in first if a[0] == mariant_solver.PHASE_NODES]
    assert len(jittered) == 3 * mariant_solver.JITTERED and len(wide) == 3
    assert len({a[2] for a in jittered}) == len(jittered)       # each its own weights
    for phase_nodes, cap, weights, opening in jittered:
        assert opening is None
        assert phase_nodes in mariant_solver.JITTER_PHASE_NODES
        assert cap >= phase_nodes * 8 + mariant_solver.FINAL_PHASE_NODES  # 74 cards: 8 deals
        assert len(weights) == len(ATTEMPTS[0])


def locked_position() -> Mariant:
    """Seven Kings alone on face-down cards, the 3H on the King of diamonds able to go onto
    4C or 4S and back, one 2S in the stock, no column that can empty: a few positions, none
    won."""
    kings = ["KS", "KS", "KH", "KH", "KD", "KC", "KC"]
    rest = sorted((ALL - Counter([*kings, "KD", "3H", "4C", "4S", "2S"])).elements())
    columns = [" ".join(rest[7:]) + " KD | 3H", "| 4C", "| 4S"]
    columns += [f"{rest[i]} | {king}" for i, king in enumerate(kings)]
    return position(columns, stock=["2S"])


def test_a_small_position_without_a_win_is_proved_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # One card left to deal: the prover tries the whole (small) game graph first.
    game = locked_position()
    assert game.status is Status.PLAYING
    result = solve(game, seconds=60)
    assert result.verdict == UNWINNABLE and result.winnable is False
    # ... and without the prover the searches can only say unknown
    monkeypatch.setattr(mariant_solver, "PROOF_STOCK", -1)
    assert solve(game, seconds=60).verdict == UNKNOWN


def test_a_solve_with_no_budget_ends_when_the_wide_searches_run_dry(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Every search runs dry at once, and a solve with no budget must still answer: unknown,
    # as the searches do not try everything.
    monkeypatch.setattr(mariant_solver, "JITTERED", 1)
    monkeypatch.setattr(mariant_solver, "PROOF_STOCK", -1)
    game = locked_position()
    result = solve(game)
    assert result.verdict == UNKNOWN and result.moves is None


@python_build_only
def test_the_provers_win_is_given_when_the_searches_find_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from test_mariant_proof import near_won_position
    monkeypatch.setattr(mariant_solver, "JITTERED", 1)
    monkeypatch.setattr(mariant_solver._Search, "run", lambda self: None)
    game = near_won_position(3)
    result = solve(game)
    assert result.verdict == WINNABLE and result.moves is not None
    after = replayed(game, result.moves)
    assert after.won and result.penalty == after.score


def test_a_proved_position_still_gets_the_furthest_line_for_hints() -> None:
    # "Cannot be won" with moves left: the hint says so and still offers a line that plays.
    game = locked_position()
    found = best_line(game, seconds=30)
    assert found.verdict == UNWINNABLE and found.moves
    after = replayed(game, found.moves)
    assert not after.won
    verdict = hint("mariant", game.number, position=game.to_json(), seconds=30)
    assert verdict.verdict == NOT_WINNABLE and verdict.line is None and verdict.best
    assert hint_line(verdict) == (verdict.best, BEST)


def engine_columns(game: Mariant) -> tuple[tuple[bytes, ...], int]:
    cols, stock = encode(game)
    return cols, len(stock)


def test_the_openings_of_a_locked_deal_are_what_their_lines_reach_in_the_engine() -> None:
    # Deal 18 at 2 down 2 up: 9 positions before the first deal, thousands before the
    # second; so its openings are the positions after the first deal, each reached by its
    # line played through the engine.
    game = Mariant.new(18, fd=2, fu=2)
    openings, positions = mariant_solver._openings(game)
    assert 1 <= len(openings) <= 9 < positions
    stock = len(game.stock)
    for (cols, dealt), line in openings:
        assert dealt == COLUMNS and ("d",) in line
        after = replayed(game, [_notation(a) for a in line])
        assert engine_columns(after) == (cols, stock - dealt)


def test_a_deal_that_is_not_locked_has_no_openings() -> None:
    # Deal 1 at 2 down 1 up: its first phase alone holds more than OPENING_POSITIONS.
    openings, positions = mariant_solver._openings(Mariant.new(1))
    assert openings == [] and positions > mariant_solver.OPENING_POSITIONS


def test_the_opening_searches_come_in_every_round_after_the_first_two() -> None:
    asked = []

    def openings() -> list[mariant_solver.Opening]:
        asked.append(1)
        return [(((b"",) * COLUMNS, 1), [("d",)]), (((b"",) * COLUMNS, 2), [("d",)])]
    rounds = mariant_solver._attempts(64, openings)
    first, second = next(rounds), next(rounds)
    assert not asked and all(a[3] is None for a in first + second)
    later = [next(rounds) for _ in range(3)]
    assert asked == [1]
    for round_ in later:
        starts = [a[3] for a in round_ if a[3] is not None]
        assert len(starts) == mariant_solver.OPENING_BATCH
        assert all(a[3] is not None for a in round_[:len(starts)])


@pytest.mark.slow
@python_build_only
def test_a_locked_deal_is_won_from_one_of_its_openings(monkeypatch: pytest.MonkeyPatch) -> None:
    # Deal 316 at 2 down 2 up: the searches from its start do not win it within 150,000
    # positions (nor 200,000); one from its openings does (at about 127,000), and its line
    # (through the opening) replays.
    game = Mariant.new(316, fd=2, fu=2)
    result = solve(game, node_limit=150_000)
    assert result.verdict == WINNABLE
    assert replayed(game, result.moves).won
    monkeypatch.setattr(mariant_solver, "_openings", lambda game: ([], 0))
    assert solve(game, node_limit=150_000).verdict == UNKNOWN


@python_build_only
def test_the_searches_after_the_first_quick_round_are_shaken_by_seeded_noise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The first round (the fixed quick searches, which win most deals) is as before; every
    # search after it adds noise to its children's scores, at one of the scales, from a
    # generator seeded by the positions expanded before it: the same draws on every run.
    monkeypatch.setattr(mariant_solver, "QUICK_NODES", 50)
    seen: list[tuple[float, float]] = []
    run = _Search.run

    def recording(search: _Search) -> int | None:
        seen.append((search.noise, search.rng.random()))
        return run(search)
    monkeypatch.setattr(_Search, "run", recording)
    game = Mariant.new(17, fd=2, fu=2)
    solve(game, node_limit=15_000)
    first = list(seen)
    fixed = len(ATTEMPTS)
    assert len(first) > 2 * fixed + 1
    assert all(noise == 0.0 for noise, _ in first[:fixed])
    scales = {noise / mariant_solver.NOISE for noise, _ in first[fixed:]}
    assert scales == set(mariant_solver.NOISE_SCALES) and mariant_solver.NOISE > 0
    assert len({draw for _, draw in first[fixed:]}) == len(first) - fixed  # each its own
    seen.clear()
    solve(game, node_limit=15_000)
    assert seen == first


@pytest.mark.slow
def test_a_deal_the_searches_left_unknown_is_won_with_the_noise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Deal 161 at 2 down 2 up: unknown at 10 s before the noise (won at 1.5 million
    # positions); with it won within 150,000, the same line twice, replaying to a win; and
    # without it not.
    game = Mariant.new(161, fd=2, fu=2)
    first = solve(game, node_limit=150_000)
    assert first.verdict == WINNABLE and first.moves is not None
    after = replayed(game, first.moves)
    assert after.won and first.penalty == after.score
    again = solve(game, node_limit=150_000)
    assert (again.moves, again.nodes) == (first.moves, first.nodes)
    monkeypatch.setattr(mariant_solver, "NOISE", 0.0)
    assert solve(game, node_limit=150_000).verdict == UNKNOWN


def test_moves_on_four_different_columns_commute_as_the_phase_search_assumes() -> None:
    # The phase search does not queue, after a move from column a0 onto b0, a move from a
    # column below a0 onto a card on two other columns (COMMUTE): the same position is
    # reached by that move first and a0's after it.  That holds only if such moves commute:
    # checked here for every such pair in positions along random games, through the engine.
    from test_mariant_proof import played_positions
    pairs = 0
    for game in played_positions(12, seed=38):
        search = _Search(game, None, None)
        state = (search.start, 0)
        onto_cards = [m for m in search.moves(state) if state[0][m[3]]]
        for first in onto_cards:
            _, a0, _, b0 = first
            after_first = search.apply(state, first)[0]
            later = search.moves(after_first)
            for second in onto_cards:
                _, a, _, b = second
                if a >= a0 or {a, b} & {a0, b0}:
                    continue
                pairs += 1
                assert second in later
                after_second = search.apply(state, second)[0]
                assert first in search.moves(after_second)
                both = search.apply(after_second, first)[0]
                assert both == search.apply(after_first, second)[0]
                engine = [replayed(game, [_notation(m) for m in order])
                          for order in ((first, second), (second, first))]
                assert engine[0].to_json()["columns"] == engine[1].to_json()["columns"]
                assert encode(engine[0])[0] == both[0]
    assert pairs > 50


def test_the_phase_search_leaves_out_only_moves_that_commute() -> None:
    # One phase searched to its end with and without the rule, on positions along random
    # games (no noise): the positions expanded are the same -- the rule only leaves out
    # other orders of the same moves (complete on these phases, 2-568 positions each).
    from test_mariant_proof import played_positions
    sizes = []
    for game in played_positions(5, seed=4):
        expanded = []
        for commute in (False, True):
            search = _Search(game, None, None, ATTEMPTS[0], 100_000)
            search.commute = commute
            root_state = (search.start, 0)
            search.tree.append((root_state, -1, []))
            search._new(root_state)
            _, seen = search._phase(0)
            expanded.append({search.tree[i][0] for _, i in seen})
        assert expanded[0] == expanded[1]
        sizes.append(len(expanded[0]))
    assert 100 < max(sizes) < 100_000       # each phase ran to its end
