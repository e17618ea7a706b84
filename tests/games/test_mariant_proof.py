"""Mariant prover: its successors are exactly the engine's legal actions, its "no win" is
what an exhaustive search through the engine itself finds, and a win it finds replays."""

from __future__ import annotations

import random
from collections import Counter, deque

import pytest
from test_mariant import ALL, mixed_columns, position, suit

from door.games.mariant import Mariant
from door.games.mariant_ids import encode
from door.games.mariant_proof import NO_WIN, UNDECIDED, WON, exhaust, finished, successors
from door.games.mariant_solver import _notation


def outcomes(game: Mariant) -> set[tuple[tuple[bytes, ...], bytes]]:
    """Every position one engine action (but Auto Ending) leads to, encoded."""
    out = set()
    for move in game.legal_moves():
        if move == "auto":
            continue
        after = game.copy()
        after.play(move)
        out.add(encode(after))
    return out


def prover_outcomes(game: Mariant) -> set[tuple[tuple[bytes, ...], bytes]]:
    cols, stock = encode(game)
    return {(child[0], stock[child[1]:]) for _, child in successors((cols, 0), stock)}


def played_positions(count: int, seed: int) -> list[Mariant]:
    """Positions along random games (random moves, a deal now and then)."""
    rng = random.Random(seed)
    games = []
    for number in range(1, count + 1):
        game = Mariant.new(number, fd=rng.choice((2, 3)), fu=rng.choice((1, 2)))
        for _ in range(rng.randrange(0, 150)):
            moves = [m for m in game.legal_moves() if m != "auto"]
            if not moves or game.won:
                break
            others = [m for m in moves if m != "d"]
            game.play(rng.choice(others) if others and rng.random() < 0.8 else rng.choice(moves))
        games.append(game)
    return games


def locked_position(seed: int) -> Mariant:
    """Seven Kings alone on face-down piles and three columns of a few loose cards over a
    face-down Ace, a few cards in the stock: no column can ever empty, so the game graph is
    small -- and never won (most cards stay face down)."""
    rng = random.Random(seed)
    loose = rng.sample([c for c in sorted(ALL) if c[0] not in "KA2"], rng.randrange(4, 13))
    stock = rng.sample([c for c in sorted(ALL) if c[0] not in "KA2" and c not in loose],
                       rng.randrange(0, 4))
    aces = ["AS", "AH", "AD"]
    kings = ["KS", "KS", "KH", "KH", "KD", "KC", "KC"]
    rest = sorted((ALL - Counter(loose + stock + aces + kings)).elements())
    rng.shuffle(rest)
    columns = [f"{rest.pop()} | {king}" for king in kings]
    columns[0] = " ".join(rest) + " " + columns[0]
    for i, ace in enumerate(aces):
        columns.append(f"{ace} | " + " ".join(loose[i::3]))
    return position(columns, stock=stock)


def near_won_position(seed: int) -> Mariant:
    """The eight K..A groups of an Auto Ending with the last cards of two of them moved
    into the two empty columns: won by a few moves, among a few thousand positions."""
    rng = random.Random(seed)
    cols = [col.split() for col in mixed_columns()]
    tails = []
    for a in rng.sample(range(8), 2):
        k = rng.randrange(1, 4)
        tails.append(cols[a][-k:])
        del cols[a][-k:]
    return position([" ".join(col) for col in cols + tails], stock=[])


def engine_search(game: Mariant, cap: int) -> str:
    """Breadth-first through the engine itself: WON, NO_WIN or UNDECIDED."""
    def key(g: Mariant) -> str:
        data = g.to_json()
        return repr((data["columns"], data["stock"]))
    seen = {key(game)}
    queue = deque([game])
    while queue:
        if len(seen) > cap:
            return UNDECIDED
        g = queue.popleft()
        if g.won or g.auto_ending_available:
            return WON
        for move in g.legal_moves():
            after = g.copy()
            after.play(move)
            k = key(after)
            if k not in seen:
                seen.add(k)
                queue.append(after)
    return NO_WIN


def test_successors_are_the_engines_legal_actions() -> None:
    games = played_positions(40, seed=1)
    games += [locked_position(seed) for seed in range(10)]
    games += [near_won_position(seed) for seed in range(10)]
    games.append(position(mixed_columns(), stock=[]))
    games.append(position(["AD 3C | 7H " + suit("S"), suit("H"), "| 2C", "| 8S", "", "| 5D"]))
    assert any(any(m.startswith("r") for m in g.legal_moves()) for g in games)
    assert any(not all(g.columns) and g.stock_count for g in games)
    for game in games:
        assert prover_outcomes(game) == outcomes(game), game.to_json()


def test_finished_is_the_engines_won_or_auto_ending() -> None:
    games = [near_won_position(seed) for seed in range(10)]
    games += [position(mixed_columns(), stock=[]),
              position([suit("S") + " " + suit("S"), suit("H"), suit("H")], stock=[],
                       removed="DDCC"),
              position([suit("S") + " " + suit("H"), suit("S"), suit("H")], stock=[],
                       removed="DDCC")]
    games += [g for g in played_positions(20, seed=2) if not g.stock_count]
    for game in games:
        cols, stock = encode(game)
        assert not stock
        assert finished(cols) == (game.won or game.auto_ending_available)
    assert sum(finished(encode(g)[0]) for g in games) == 3


@pytest.mark.parametrize("seed", range(12))
def test_verdicts_agree_with_a_search_through_the_engine(seed: int) -> None:
    for game in (locked_position(seed), near_won_position(seed)):
        expected = engine_search(game, 20_000)
        assert expected != UNDECIDED        # the positions are chosen small enough
        proof = exhaust(*encode(game), 200_000)
        assert proof.outcome == expected
        if proof.outcome == WON:
            assert proof.line is not None
            after = game.copy()
            for step in proof.line:
                after.play(_notation(step))
            if not after.won:
                after.play("auto")
            assert after.won


def test_the_cap_gives_unknown() -> None:
    assert exhaust(*encode(Mariant.new(1)), 50).outcome == UNDECIDED
