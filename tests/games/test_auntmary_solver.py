"""Aunt Mary solver: winning lines replay to a win through the engine, and every verdict agrees
with an exhaustive search (through the engine itself on small positions, and with the solver's
own search stripped of every shortcut on larger ones)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from door.games.auntmary import AuntMary, Position
from door.games.auntmary_deadlock import cannot_win
from door.games.auntmary_solver import (
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    _column_hash,
    _OutOfBudget,
    _Search,
    solve,
    talon_state,
)
from door.games.base import Status
from door.games.cards import SUITS, Card


def replay_wins(pos: Position, moves: list[str]) -> bool:
    game = AuntMary(1, pos)
    for move in moves:
        game.play(move)
    return game.status is Status.WON


def brute_winnable(pos: Position, limit: int = 20_000) -> bool | None:
    """Every position reachable through the engine's own legal moves (the order of the
    columns ignored); None past ``limit`` positions."""
    def canon(p: Position) -> tuple:
        return (tuple(sorted(zip(p.columns, p.down, strict=True))), p.stock, p.waste,
                p.foundations, p.redeals)

    seen = {canon(pos)}
    todo = [pos]
    while todo:
        p = todo.pop()
        game = AuntMary(1, p)
        for move in game.legal_moves():
            after = AuntMary(1, p)
            after.play(move)
            if after.status is Status.WON:
                return True
            key = canon(after.position)
            if key not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(key)
                todo.append(after.position)
    return False


def in_play(rng: random.Random, low: int, high: int) -> tuple[list[int], list[Card]]:
    """Foundation tops with ``low``-``high`` cards (the highest of their suits) taken off,
    and those cards shuffled."""
    found = [13] * 4
    for _ in range(rng.randint(low, high)):
        suit = rng.choice([s for s in range(4) if found[s]])
        found[suit] -= 1
    play = [Card(r, SUITS[s]) for s in range(4) for r in range(found[s] + 1, 14)]
    rng.shuffle(play)
    return found, play


def position(rng: random.Random, free: tuple[int, int], runs: bool) -> Position:
    """A random position with a few cards in play (the highest of each suit): spread over
    some columns (built into runs when ``runs``), face-down cards under them, the stock and
    the waste."""
    found, play = in_play(rng, *free)
    if runs:
        play.sort(key=lambda c: -c.rank + rng.random() * 3)
    used = rng.randint(2, 6)
    talon = rng.random() * 0.6
    cols: list[list[Card]] = [[] for _ in range(6)]
    stock: list[Card] = []
    waste: list[Card] = []
    for card in play:
        roll = rng.random()
        if roll < talon * 0.7:
            stock.append(card)
        elif roll < talon:
            waste.append(card)
        else:
            fits = [c for c in cols[:used] if c and c[-1].rank == card.rank + 1
                    and c[-1].is_red != card.is_red]
            if runs and fits and rng.random() < 0.8:
                rng.choice(fits).append(card)
            else:
                cols[rng.randrange(used)].append(card)
    rng.shuffle(cols)
    down = [rng.randrange(len(c)) if len(c) > 1 else 0 for c in cols]
    return Position(tuple(map(tuple, cols)), tuple(down), tuple(stock), tuple(waste),
                    tuple(found), rng.randrange(3))


def exhaustive(pos: Position) -> bool | None:
    """The solver's search with no move made at once and no move left out."""
    search = _Search(pos, 300_000, None)
    search.exhaustive = True
    try:
        return search.run()
    except _OutOfBudget:
        return None


# -- deals -----------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("number", [3, 7, 38, 54])
def test_winning_lines_of_deals_replay_to_a_win(number: int) -> None:
    result = solve(number)
    assert result.verdict == WINNABLE and result.winnable
    assert replay_wins(AuntMary.new(number).position, result.moves)


@pytest.mark.slow
def test_unwinnable_deals() -> None:
    for number in (2, 4, 5, 6):
        result = solve(number)
        assert result.verdict == UNWINNABLE and result.winnable is False and result.moves is None


@pytest.mark.slow
def test_budget_gives_unknown_and_the_search_is_deterministic() -> None:
    result = solve(1, node_limit=500)
    assert result.verdict == UNKNOWN and result.winnable is None and result.moves is None
    first, second = solve(7), solve(7)
    assert first.nodes == second.nodes and first.moves == second.moves
    assert solve(7, node_limit=first.nodes + 1).verdict == WINNABLE
    assert solve(1, seconds=0.0).verdict == UNKNOWN


def test_accepts_a_game_its_json_and_a_number_and_changes_nothing() -> None:
    game = AuntMary.new(3)
    for move in ["s", "s", "s"]:
        game.play(move)
    before = game.to_json()
    from_game, from_json = solve(game), solve(before)
    assert from_game.verdict == from_json.verdict == WINNABLE
    assert game.to_json() == before
    assert replay_wins(game.position, from_game.moves)
    resigned = AuntMary.new(3)
    resigned.play("resign")
    assert solve(resigned).verdict == UNWINNABLE


# -- constructed positions ---------------------------------------------------------------------

def make(columns: list[tuple[list[str], list[str]]], found: dict[str, int],
         stock: list[str] = (), waste: list[str] = (), redeals: int = 0) -> Position:
    cols = [[Card.parse(c) for c in down + up] for down, up in columns]
    cols += [[] for _ in range(6 - len(cols))]
    downs = [len(down) for down, _ in columns] + [0] * (6 - len(columns))
    return Position(tuple(map(tuple, cols)), tuple(downs),
                    tuple(Card.parse(c) for c in stock), tuple(Card.parse(c) for c in waste),
                    tuple(found[s] for s in SUITS), redeals)


def test_a_queen_over_its_jack_needs_a_king_back_from_a_foundation() -> None:
    # QS lies on the face-down JS, KS sits alone, hearts diamonds clubs are home: the only
    # way is to bring a red King down into an empty column and put QS on it.
    pos = make([(["JS"], ["QS"]), ([], ["KS"])], {"S": 10, "H": 13, "D": 13, "C": 13})
    assert brute_winnable(pos) is True
    result = solve(pos)
    assert result.verdict == WINNABLE and replay_wins(pos, result.moves)
    assert any(move.startswith(("fH", "fD")) for move in result.moves)


def test_queens_over_the_kings_they_need_are_lost() -> None:
    # Each Queen lies on the face-down King and Jack of its suit, so it cannot go home and
    # needs a King of the other colour, which lie under the other Queens.  Only Kings go
    # into the two empty columns.
    pos = make([(["J" + s, "K" + s], ["Q" + s]) for s in SUITS],
               {"S": 10, "H": 10, "D": 10, "C": 10})
    assert brute_winnable(pos) is False
    assert solve(pos).verdict == UNWINNABLE


def tight_position(rng: random.Random) -> Position:
    """A few high cards in play, piled face down in one or two columns, the rest of them in
    the talon on its last pass: small enough for the engine to explore, and often lost."""
    found, play = in_play(rng, 5, 10)
    used = rng.randint(1, 2)
    cols: list[list[Card]] = [[] for _ in range(6)]
    stock: list[Card] = []
    waste: list[Card] = []
    for card in play:
        roll = rng.random()
        (stock if roll < 0.15 else waste if roll < 0.25 else cols[rng.randrange(used)]).append(card)
    rng.shuffle(cols)
    return Position(tuple(map(tuple, cols)), tuple(max(len(c) - 1, 0) for c in cols),
                    tuple(stock), tuple(waste), tuple(found), 2)


@pytest.mark.slow
def test_verdicts_agree_with_the_engine_explored_exhaustively() -> None:
    rng = random.Random(2)
    outcomes = []
    while len(outcomes) < 40:
        pos = tight_position(rng) if len(outcomes) % 2 else position(rng, (2, 6), runs=True)
        truth = brute_winnable(pos, limit=5_000)
        if truth is None:
            continue
        outcomes.append(truth)
        result = solve(pos)
        assert result.winnable is truth, pos
        if truth:
            assert replay_wins(pos, result.moves)
    assert set(outcomes) == {True, False}


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_verdicts_agree_with_the_search_stripped_of_its_shortcuts(seed: int) -> None:
    rng = random.Random(100 + seed)
    outcomes = set()
    for _ in range(60):
        pos = position(rng, (6, 18), runs=rng.random() < 0.6)
        truth = exhaustive(pos)
        if truth is None:
            continue
        result = solve(pos)
        assert result.winnable is truth, pos
        if truth:
            assert replay_wins(pos, result.moves)
        outcomes.add(truth)
    assert outcomes == {True, False}


def test_incremental_hash_matches_a_fresh_one() -> None:
    rng = random.Random(5)
    for number in range(1, 6):
        search = _Search(AuntMary.new(number).position, None, None)
        done = []
        for _ in range(200):
            moves = search.moves()
            if done and (not moves or rng.random() < 0.25):
                move, undo = done.pop()
                search.revert(move, undo)
                continue
            if not moves:
                break
            move = rng.choice(moves)
            child = search.child_key(move)
            done.append((move, search.apply(move)))
            fresh = 0
            for col in search.cols:
                fresh ^= _column_hash(col)
            assert fresh == search.tab
            if child is not None:
                assert child == (search.key(), talon_state(search.q, search.redeals))
            waste = search.present & ((1 << search.q) - 1)
            assert search.waste_top() == waste.bit_length() - 1   # the pointer's invariant


def test_moves_made_at_once_found_where_the_last_move_changed_something() -> None:
    """From a position with no move left to make at once, a tableau move or a talon card put
    on a column is followed by a look at the columns it touched (and the waste) only: the
    position reached must be the one a look at every column reaches."""
    rng = random.Random(11)
    made = 0
    for number in range(1, 40):
        search = _Search(AuntMary.new(number).position, None, None)
        search._autoplay()
        for _ in range(80):
            moves = [m for m in search.moves() if m[0] == "T" or (m[0] == "W" and m[2] >= 0)]
            if not moves:
                break
            move = rng.choice(moves)
            search.apply(move)
            focused = search._autoplay(move)
            reached = (search.key(), search.q, list(search.found))
            search._unplay(focused)
            everywhere = search._autoplay()
            assert (search.key(), search.q, list(search.found)) == reached
            assert len(everywhere) == len(focused)
            made += len(focused)
    assert made > 50    # the walk did make moves at once


# -- the quick "cannot be won" proof (auntmary_deadlock) ---------------------------------------

def proved_lost(pos: Position) -> bool:
    search = _Search(pos, None, None)
    return cannot_win(search.cols, search.found, search.talon, search.present)


def test_a_king_on_the_ace_it_needs_with_no_column_to_empty_is_proved_lost_at_once() -> None:
    # KH lies on the face-down AH; every other column holds hearts that can go nowhere but
    # home (their hosts are black cards under the black Kings on the foundations), so no
    # column can ever be emptied for KH.
    pos = make([(["AH"], ["KH"]), ([], ["2H", "3H"]), ([], ["4H", "5H"]), ([], ["6H", "7H"]),
                ([], ["8H", "9H", "TH"]), ([], ["JH", "QH"])], {"S": 13, "H": 0, "D": 13, "C": 13})
    assert brute_winnable(pos) is False
    assert proved_lost(pos)
    result = solve(pos)
    assert result.verdict == UNWINNABLE and result.nodes == 1
    # with one column free the King moves there and the hearts go home: not a proof
    free = make([(["AH"], ["KH"]), ([], ["2H", "3H", "4H", "5H"]), ([], ["6H", "7H"]),
                 ([], ["8H", "9H", "TH"]), ([], ["JH", "QH"])], {"S": 13, "H": 0, "D": 13, "C": 13})
    assert not proved_lost(free) and solve(free).verdict == WINNABLE


def test_deals_proved_lost_before_any_search() -> None:
    # Deal 8: KH over AC and KC over 2D, 2S, and no column can be emptied.  The full search
    # needed 727,156 nodes (5 CPU s) to say the same.
    result = solve(8)
    assert result.verdict == UNWINNABLE and result.nodes == 1


def locked_position(rng: random.Random) -> Position:
    """14-24 high cards in play, all six columns used, each column roughly in rising rank
    (high cards over low ones of their suit: often locked), a few cards in the talon."""
    found, play = in_play(rng, 14, 24)
    cols: list[list[Card]] = [[] for _ in range(6)]
    talon: list[Card] = []
    for card in play:
        (talon if rng.random() < 0.2 else cols[rng.randrange(6)]).append(card)
    for col in cols:
        col.sort(key=lambda card: card.rank + rng.random() * 6)
    k = rng.randrange(len(talon) + 1)
    down = [rng.randrange(len(c)) if len(c) > 1 else 0 for c in cols]
    return Position(tuple(map(tuple, cols)), tuple(down), tuple(talon[:k]), tuple(talon[k:]),
                    tuple(found), rng.randrange(3))


def never_condemns_a_win(positions: Iterator[Position]) -> tuple[int, int]:
    """Check the quick proof against the exhaustive search on each position it decides;
    (positions that can be won, proofs of lost ones)."""
    won = proofs = 0
    for pos in positions:
        truth = exhaustive(pos)
        if truth is None:
            continue
        claimed = proved_lost(pos)
        assert not (claimed and truth), pos
        won += truth
        proofs += claimed
    return won, proofs


@pytest.mark.slow
def test_the_quick_proof_never_condemns_a_position_that_can_be_won() -> None:
    rng = random.Random(11)
    _won, proofs = never_condemns_a_win(locked_position(rng) for _ in range(100))
    assert proofs >= 2     # it does fire


def stacked_twins(rng: random.Random) -> Position:
    """High cards in play; one column holds a card over one of its two hosts (face down)
    with its twin (same rank and colour) further up: the pattern of the twin rule."""
    rank = rng.randint(9, 12)
    suit = rng.randrange(4)
    twin_suit = {0: 3, 3: 0, 1: 2, 2: 1}[suit]
    host_suit = rng.choice([1, 2] if suit in (0, 3) else [0, 3])
    found = [rng.randint(rank - 3, rank - 1) if s in (suit, twin_suit)
             else rng.randint(rank - 1, rank) for s in range(4)]
    play = [Card(r, SUITS[s]) for s in range(4) for r in range(found[s] + 1, 14)]
    low, high, host = Card(rank, SUITS[suit]), Card(rank, SUITS[twin_suit]), Card(
        rank + 1, SUITS[host_suit])
    rest = [c for c in play if c not in (low, high, host)]
    rng.shuffle(rest)
    # often the next card of a twin's suit lies under them: they cannot go home first
    under = [c for c in rest if c.rank == found[SUITS.index(c.suit)] + 1
             and c.suit in (SUITS[suit], SUITS[twin_suit]) and rng.random() < 0.7]
    rest = [c for c in rest if c not in under]
    between = [rest.pop() for _ in range(rng.randint(0, 1))]
    cols: list[list[Card]] = [[*under, host, low, *between, high]] + [[] for _ in range(5)]
    talon: list[Card] = []
    for card in rest:
        (talon if rng.random() < 0.3 else cols[rng.randrange(1, 6)]).append(card)
    down = [len(under) + 1] + [rng.randrange(len(c)) if len(c) > 1 else 0 for c in cols[1:]]
    k = rng.randrange(len(talon) + 1)
    return Position(tuple(map(tuple, cols)), tuple(down), tuple(talon[:k]), tuple(talon[k:]),
                    tuple(found), rng.randrange(3))


@pytest.mark.slow
def test_the_twin_rule_proves_a_clash_of_hosts() -> None:
    # JD lies on JH, which lies on the face-down QS: JD can only go onto QC (TD is buried
    # under them), and then JH has no free host and cannot go home (TH buried too).  The
    # relaxed game alone, hosts shared, let both Jacks onto QC.
    pos = make([(["TD", "TH", "QS"], ["JH", "JD"]), ([], ["QC"])],
               {"S": 11, "H": 9, "D": 9, "C": 11}, stock=["QH", "QD", "KS", "KH", "KD", "KC"])
    assert brute_winnable(pos, limit=200_000) is False
    assert proved_lost(pos)
    # with QS in the stock instead, JH has a host of its own: not a proof, and it is won
    free = make([(["TD", "TH"], ["JH", "JD"]), ([], ["QC"])],
                {"S": 11, "H": 9, "D": 9, "C": 11},
                stock=["QS", "QH", "QD", "KS", "KH", "KD", "KC"])
    assert not proved_lost(free) and solve(free).verdict == WINNABLE


@pytest.mark.slow
def test_the_twin_rule_never_condemns_a_position_that_can_be_won() -> None:
    rng = random.Random(17)
    won, proofs = never_condemns_a_win(stacked_twins(rng) for _ in range(150))
    assert won >= 10 and proofs >= 5, (won, proofs)

