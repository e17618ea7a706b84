"""Monte Carlo engine and solver: docs/rules.md worked examples, properties, solver checks."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from door.catalog.registry import engine
from door.games.base import GameRecord, IllegalMove, Status
from door.games.cards import Card, new_deck
from door.games.montecarlo import (
    ADJACENT_PAIRS,
    CLEAR_BONUS,
    MonteCarlo,
    adjacent,
    parse_position,
    position_name,
)
from door.games.montecarlo_solver import UNKNOWN, UNWINNABLE, WINNABLE, solve
from door.games.numbers import shuffled

DECK = [str(c) for c in new_deck(1)]
NUMBERS = st.integers(1, 2**31 - 1)
MODES = st.sampled_from(["strict", "relaxed"])


def position(cells: dict[str, str], stock: tuple[str, ...] | list[str] = (), mode: str = "strict",
             fill: bool = False) -> MonteCarlo:
    """A constructed position.  ``fill``: the other cards of the deck (deck order) fill the
    empty cells in reading order, then the stock, nothing removed.  Otherwise the cards not
    named are already removed."""
    grid: list[str | None] = [None] * 25
    for name, card in cells.items():
        grid[parse_position(name)] = card
    used = set(cells.values()) | set(stock)
    rest = [c for c in DECK if c not in used]
    stock = list(stock)
    if fill:
        for p in range(25):
            if grid[p] is None:
                grid[p] = rest.pop(0)
        stock, rest = stock + rest, []
    return MonteCarlo.from_json({"number": 1, "options": {"mode": mode}, "grid": grid,
                                 "stock": stock, "removed": rest})


def cells_of(game: MonteCarlo) -> dict[str, str]:
    return {position_name(p): str(c) for p, c in enumerate(game.grid) if c is not None}


def state(game: MonteCarlo) -> dict:
    """Everything but the action list (which records undo as an action)."""
    data = game.to_json()
    del data["actions"]
    return data


def brute_winnable(game: MonteCarlo) -> bool:
    """Naive exhaustive search through the engine itself, no memo (small positions only)."""
    if game.status is Status.WON:
        return True
    for move in game.legal_moves():
        child = game.copy()
        child.play(move)
        if brute_winnable(child):
            return True
    return False


# -- deal, notation, registry ---------------------------------------------------------------

def test_registry_and_name() -> None:
    assert engine("montecarlo") is MonteCarlo
    assert MonteCarlo.name == "montecarlo"


@pytest.mark.parametrize(("number", "first"), [
    (1, ["TH", "7S", "7D", "JH", "JD", "3D", "TS", "8H"]),
    (2, ["4C", "KD", "7H", "4S", "KH", "QC", "4D", "6H"]),
    (617, ["2H", "TC", "KC", "3C", "8C", "4C", "8H", "2C"]),
])
def test_pinned_deals(number: int, first: list[str]) -> None:
    game = MonteCarlo.new(number)
    assert [str(c) for c in game.grid[:8]] == first


@given(NUMBERS)
@settings(max_examples=30, deadline=None)
def test_deal_is_shuffle_grid_then_stock(number: int) -> None:
    deck = shuffled(new_deck(1), number)
    game = MonteCarlo.new(number)
    assert game.grid == deck[:25]
    assert game.stock == deck[25:]
    assert game.removed == [] and game.score == 0


def test_bad_mode_number_and_option() -> None:
    with pytest.raises(ValueError):
        MonteCarlo.new(1, mode="lenient")
    with pytest.raises(ValueError):
        MonteCarlo.new(0)
    with pytest.raises(ValueError):
        MonteCarlo.new(1, colour="red")


def test_position_names() -> None:
    assert [position_name(p) for p in (0, 4, 5, 6, 24)] == ["a1", "e1", "a2", "b2", "e5"]
    assert all(parse_position(position_name(p)) == p for p in range(25))
    with pytest.raises(ValueError):
        parse_position("f1")


def test_canonical_orders_positions() -> None:
    game = MonteCarlo.new(1)
    assert game.canonical("c1B1") == "b1c1"
    assert game.canonical(" b1 - c1 ") == "b1c1"
    assert game.canonical("C") == "c"
    game.play("C1b1")
    assert game.actions == ["b1c1"]


# -- adjacency ------------------------------------------------------------------------------

def test_adjacency_examples_no_wrap() -> None:
    assert adjacent(0, 1) and adjacent(0, 5) and adjacent(0, 6) and adjacent(4, 8)
    assert not adjacent(4, 5)      # e1 / a2: end of a row does not touch the next row's start
    assert not adjacent(9, 10)     # e2 / a3
    assert not adjacent(0, 2) and not adjacent(0, 10) and not adjacent(3, 3)
    assert len(ADJACENT_PAIRS) == 72


@given(st.integers(0, 24), st.integers(0, 24))
def test_adjacency_is_geometric(p: int, q: int) -> None:
    expected = p != q and abs(p // 5 - q // 5) <= 1 and abs(p % 5 - q % 5) <= 1
    assert adjacent(p, q) == expected


def test_row_end_pair_does_not_wrap() -> None:
    game = position({"e1": "5S", "a2": "5H", "a1": "KS", "b1": "KH"}, fill=True)
    with pytest.raises(IllegalMove, match="not adjacent"):
        game.play("e1a2")


def test_gap_does_not_join_cards() -> None:
    # 9S b1 / 9H b2 leave a gap at b1 between 5S (a1) and 5H (c1); QS/QH keep a pair on
    # the grid so nothing consolidates.
    game = position({"a1": "5S", "b1": "9S", "c1": "5H", "b2": "9H", "d3": "QS", "e3": "QH"})
    game.play("b1b2")
    assert game.grid[1] is None
    assert "a1c1" not in game.legal_moves()
    with pytest.raises(IllegalMove, match="not adjacent"):
        game.play("a1c1")


# -- scoring (RULES §2.4 worked example) ----------------------------------------------------

def test_scoring_worked_example() -> None:
    game = position({"a1": "KS", "b1": "KH", "c1": "AS", "d1": "AH", "e1": "TS", "e2": "TH",
                     "b2": "7S", "c2": "7H"}, fill=True)
    assert game.score == 0
    scores = []
    for move in ["a1b1", "c1d1", "e1e2", "b2c2"]:
        game.play(move)
        scores.append(game.score)
    assert scores == [26, 28, 48, 62]


def test_whole_deck_and_clearing_bonus() -> None:
    assert sum(Card.parse(c).pips for c in DECK) == 364
    game = position({"a1": "KS", "b1": "KH"})
    assert game.score == 364 - 26
    game.play("a1b1")
    assert game.status is Status.WON
    assert game.score == 364 + CLEAR_BONUS
    assert game.legal_moves() == [] and game.hints() == []


def test_illegal_pairs_have_reasons() -> None:
    game = position({"a1": "KS", "b1": "QH", "a2": "KH", "c3": "QS", "d5": "9S", "e5": "9H"},
                    fill=True)
    with pytest.raises(IllegalMove, match="same rank"):
        game.play("a1b1")
    with pytest.raises(IllegalMove, match="not a move"):
        game.play("a1")
    with pytest.raises(IllegalMove, match="same"):
        game.play("a1a1")
    game.play("a1a2")
    with pytest.raises(IllegalMove, match="no card at a1"):
        game.play("a1b1")


# -- consolidation --------------------------------------------------------------------------

def test_consolidation_keeps_reading_order_then_deals() -> None:
    # After 8S d1 / 8H e2 go, no pair is left: the engine consolidates.  Cards slide into
    # reading order (the row below feeds the row above from its left end), stock fills the end.
    cells = {"a1": "2S", "b1": "3S", "c1": "4S", "d1": "8S", "e1": "5S",
             "a2": "6S", "b2": "9S", "c2": "JS", "d2": "QS", "e2": "8H"}
    game = position(cells, stock=["AH", "2H", "3H", "4H"])
    game.play("d1e2")
    assert cells_of(game) == {"a1": "2S", "b1": "3S", "c1": "4S", "d1": "5S", "e1": "6S",
                              "a2": "9S", "b2": "JS", "c2": "QS",
                              "d2": "AH", "e2": "2H", "a3": "3H", "b3": "4H"}
    event = game.last_consolidation
    assert event is not None and event.auto
    assert [(position_name(a), position_name(b)) for a, b in event.moves] == [
        ("e1", "d1"), ("a2", "e1"), ("b2", "a2"), ("c2", "b2"), ("d2", "c2")]
    assert [(position_name(p), str(c)) for p, c in event.dealt] == [
        ("d2", "AH"), ("e2", "2H"), ("a3", "3H"), ("b3", "4H")]
    assert game.stock == []


def test_consolidation_fills_to_25_and_stops() -> None:
    game = position({"a1": "KS", "b1": "KH"}, fill=True)
    stock_before = list(game.stock)
    game.play("a1b1")           # the filler leaves no pair: consolidation deals 2 cards
    assert [c for c in game.grid if c is None] == []
    assert game.grid[23:] == stock_before[:2] and game.stock == stock_before[2:]


def test_strict_refuses_consolidation_while_a_pair_exists() -> None:
    cells = {"a1": "KS", "b1": "KH", "c1": "5S", "e1": "9S", "d3": "QS", "e3": "QH"}
    strict = position(cells, stock=["2S", "2H"])
    strict.play("a1b1")          # QS/QH still a pair: no automatic consolidation
    assert strict.grid[0] is None and strict.consolidations == []
    assert "c" not in strict.legal_moves()
    before = state(strict)
    with pytest.raises(IllegalMove, match="pair"):
        strict.play("c")
    assert state(strict) == before


def test_relaxed_allows_consolidation_any_time_it_changes() -> None:
    cells = {"a1": "KS", "b1": "KH", "c1": "5S", "e1": "9S", "d3": "QS", "e3": "QH"}
    relaxed = position(cells, stock=["2S", "2H"], mode="relaxed")
    assert "c" in relaxed.legal_moves()       # the gap at d1 is followed by a card
    relaxed.play("c")
    assert relaxed.last_consolidation is not None and not relaxed.last_consolidation.auto
    assert cells_of(relaxed) == {"a1": "KS", "b1": "KH", "c1": "5S", "d1": "9S", "e1": "QS",
                                 "a2": "QH", "b2": "2S", "c2": "2H"}
    with pytest.raises(IllegalMove, match="undo past"):
        relaxed.undo()                        # it dealt from the stock
    full = position({"a1": "KS", "b1": "KH"}, fill=True, mode="relaxed")
    with pytest.raises(IllegalMove, match="change nothing"):
        full.play("c")


def test_both_modes_consolidate_automatically_when_no_pair_is_left() -> None:
    for mode in ("strict", "relaxed"):
        game = position({"a1": "KS", "b1": "KH", "c1": "5S"}, stock=["5H"], mode=mode)
        game.play("a1b1")
        assert cells_of(game) == {"a1": "5S", "b1": "5H"}
        game.play("a1b1")
        assert game.status is Status.WON


def test_loss_when_nothing_can_change() -> None:
    game = position({"a1": "4S", "b1": "6S", "c1": "4H", "d1": "6H"})
    assert game.status is Status.LOST
    assert game.legal_moves() == [] and game.hints() == []
    with pytest.raises(IllegalMove, match="over"):
        game.play("c")


# -- hints ----------------------------------------------------------------------------------

def test_hint_order_follows_aisleriot() -> None:
    cells = {"a1": "7S", "b2": "7H",          # "\" diagonal
             "d1": "9S", "c2": "9H",          # "/" diagonal
             "a3": "5S", "a4": "5H",          # vertical
             "d5": "KS", "e5": "KH"}          # horizontal
    game = position(cells)
    assert game.hints() == ["d5e5", "a3a4", "a1b2", "d1c2"]


def test_hint_says_consolidate_when_no_pair() -> None:
    game = position({"a1": "4S", "c1": "6S", "e1": "4H", "e2": "6H"}, mode="relaxed")
    assert game.pairs() == []
    assert game.hints() == ["c"]
    game.play("c")
    assert game.status is Status.LOST


# -- undo -----------------------------------------------------------------------------------

def test_undo_pairs_back_to_the_last_dealing_consolidation() -> None:
    game = position({"a1": "KS", "b1": "KH", "c1": "QS", "d1": "QH", "a2": "2S", "b2": "2H",
                     "c2": "5S"}, stock=["5H", "9S", "9H"])
    start = state(game)
    game.play("a1b1")
    game.play("c1d1")
    assert game.score == start["score"] + 26 + 24
    game.undo()
    game.undo()
    assert state(game) == start
    with pytest.raises(IllegalMove, match="nothing to undo"):
        game.undo()
    game.play("a1b1")
    game.play("c1d1")
    game.play("a2b2")            # no pair left: consolidation deals 5H 9S 9H
    assert cells_of(game) == {"a1": "5S", "b1": "5H", "c1": "9S", "d1": "9H"}
    before = state(game)
    with pytest.raises(IllegalMove, match="dealt cards"):
        game.undo()
    assert state(game) == before
    game.play("a1b1")
    game.undo()                  # pairs after the deal can be undone again
    assert state(game) == before


def test_undo_of_a_shift_only_consolidation() -> None:
    # Stock empty: consolidation only slides cards, so it can be taken back with its pair.
    game = position({"a1": "KS", "b1": "KH", "c1": "5S", "e1": "9S", "a2": "5H", "b2": "9H"})
    before = state(game)
    game.play("a1b1")
    assert cells_of(game) == {"a1": "5S", "b1": "9S", "c1": "5H", "d1": "9H"}
    assert game.last_consolidation is not None and not game.last_consolidation.dealt
    game.undo()
    assert state(game) == before


def test_no_redo_and_no_undo_after_a_win() -> None:
    game = position({"a1": "KS", "b1": "KH"})
    game.play("a1b1")
    with pytest.raises(IllegalMove):
        game.undo()
    with pytest.raises(IllegalMove):
        game.redo()


# -- JSON -----------------------------------------------------------------------------------

def test_from_json_checks_card_conservation() -> None:
    data = MonteCarlo.new(5).to_json()
    bad = dict(data, stock=data["stock"][1:])
    with pytest.raises(ValueError, match="conserved"):
        MonteCarlo.from_json(bad)
    dup = dict(data, stock=[data["grid"][0], *data["stock"][1:]])
    with pytest.raises(ValueError, match="conserved"):
        MonteCarlo.from_json(dup)
    with pytest.raises(ValueError):
        MonteCarlo.from_json(dict(data, grid=data["grid"][:24]))
    with pytest.raises(ValueError):
        MonteCarlo.from_json(dict(data, options={"mode": "sloppy"}))
    with pytest.raises(ValueError):
        MonteCarlo.from_json(dict(data, score=1))
    with pytest.raises(ValueError):
        MonteCarlo.from_json({"number": 1})


def test_from_json_checks_undo_history() -> None:
    game = MonteCarlo.new(1)
    game.play("b1c1")
    data = game.to_json()
    assert MonteCarlo.from_json(data).undo_refusal() is None
    data["undo"] = [{"move": "d1e1", "shift": None}]   # d1 and e1 still hold cards
    with pytest.raises(ValueError, match="does not fit"):
        MonteCarlo.from_json(data)
    data["undo"] = [{"move": "c", "shift": None}]
    with pytest.raises(ValueError):
        MonteCarlo.from_json(data)


# -- properties over random games -----------------------------------------------------------

def expected_pairs(game: MonteCarlo) -> set[str]:
    """Independent statement of the rule: same rank, neighbours on the 5x5 grid."""
    out = set()
    for p in range(25):
        for q in range(p + 1, 25):
            a, b = game.grid[p], game.grid[q]
            if (a and b and a.rank == b.rank and abs(p // 5 - q // 5) <= 1
                    and abs(p % 5 - q % 5) <= 1):
                out.add(position_name(p) + position_name(q))
    return out


def check_conserved(game: MonteCarlo) -> None:
    cards = [c for c in game.grid if c is not None] + game.stock + game.removed
    assert len(cards) == 52 and set(cards) == set(new_deck(1))


@pytest.mark.slow
@given(NUMBERS, MODES, st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_properties(number: int, mode: str, data: st.DataObject) -> None:
    game = MonteCarlo.new(number, mode=mode)
    for _ in range(40):
        legal = game.legal_moves()
        pairs = {m for m in legal if m != "c"}
        if game.status is Status.PLAYING:
            assert pairs == expected_pairs(game)
        else:
            assert legal == []
        # refused moves change nothing
        p, q = data.draw(st.integers(0, 24)), data.draw(st.integers(0, 24))
        attempt = data.draw(st.sampled_from(
            [position_name(p) + position_name(q), "c", "x9", "undo me"]))
        if attempt not in legal and game.canonical(attempt) not in legal:
            before = state(game)
            with pytest.raises(IllegalMove):
                game.play(attempt)
            assert state(game) == before
        if not legal:
            break
        for move in legal:                    # every legal move is accepted
            game.copy().play(move)
        before = state(game)
        move = data.draw(st.sampled_from(legal))
        game.play(move)
        check_conserved(game)
        assert game.score == sum(c.rank for c in game.removed) + (
            CLEAR_BONUS if game.status is Status.WON else 0)
        if data.draw(st.booleans()):
            if game.undo_refusal() is None:
                game.undo()
                assert state(game) == before
            else:
                after = state(game)
                with pytest.raises(IllegalMove):
                    game.undo()
                assert state(game) == after
        # JSON round trip (through text)
        again = MonteCarlo.from_json(json.loads(json.dumps(game.to_json())))
        assert again.to_json() == game.to_json()
    replayed = MonteCarlo.replay(GameRecord.from_json(game.record().to_json()))
    assert replayed.to_json() == game.to_json()
    assert replayed.score == game.score


@given(NUMBERS, MODES)
@settings(max_examples=25, deadline=None)
def test_playout_by_first_hint_ends_and_conserves(number: int, mode: str) -> None:
    game = MonteCarlo.new(number, mode=mode)
    while game.status is Status.PLAYING:
        game.play(game.hints()[0])
        check_conserved(game)
    assert len(game.removed) + sum(c is not None for c in game.grid) + len(game.stock) == 52
    assert (game.status is Status.WON) == (len(game.removed) == 52)


# -- solver ---------------------------------------------------------------------------------

@given(NUMBERS, MODES)
@settings(max_examples=40, deadline=None)
def test_solver_solution_replays_to_a_win(number: int, mode: str) -> None:
    result = solve(number, mode)
    assert result.verdict in (WINNABLE, UNWINNABLE)
    if result.winnable:
        game = MonteCarlo.new(number, mode=mode)
        for move in result.moves:
            game.play(move)
        assert game.status is Status.WON and game.score == 364 + CLEAR_BONUS


def test_solver_reports_constructed_unwinnable_position() -> None:
    # After the 9s go, 4 6 4 6 sits alone in row 1: nothing can ever make the 4s touch.
    game = position({"a1": "4S", "b1": "6S", "c1": "4H", "d1": "6H", "a2": "9S", "b2": "9H"})
    assert game.status is Status.PLAYING
    for mode in ("strict", "relaxed"):
        assert solve(game, mode).verdict == UNWINNABLE
    # An odd number of kings can never all go.
    kings = position({"a1": "KS", "b1": "KH", "c1": "KD", "a2": "QS"}, stock=["QH", "QD"])
    assert solve(kings).verdict == UNWINNABLE


def test_relaxed_wins_where_strict_loses() -> None:
    # Strict must take 4S/4C first; after the deal the aces pair up wrongly and it ends
    # A 4 A 4.  Relaxed consolidates first and gets four disjoint vertical/row pairs.
    cells = {"b1": "4S", "a2": "AH", "b2": "4C", "c2": "AC"}
    stock = ["AS", "4H", "AD", "4D"]
    strict = position(cells, stock)
    relaxed = position(cells, stock, mode="relaxed")
    assert not brute_winnable(strict) and brute_winnable(relaxed)
    assert solve(strict).verdict == UNWINNABLE
    result = solve(relaxed)
    assert result.verdict == WINNABLE and result.moves[0] == "c"
    for move in result.moves:
        relaxed.play(move)
    assert relaxed.status is Status.WON


@pytest.mark.parametrize("number", [550, 1146])
def test_solver_restarts_keep_solutions_valid(number: int) -> None:
    # These deals need more than the first restart's node budget in relaxed mode.
    result = solve(number, "relaxed")
    assert result.nodes > 20_000
    assert result.winnable
    game = MonteCarlo.new(number, mode="relaxed")
    for move in result.moves:
        game.play(move)
    assert game.status is Status.WON
    assert solve(number, "relaxed", node_limit=result.nodes + 1).verdict == WINNABLE


def test_solver_node_limit_gives_unknown() -> None:
    result = solve(1, "relaxed", node_limit=1)
    assert result.verdict == UNKNOWN and result.winnable is None and result.moves is None


def test_solver_accepts_json_and_keeps_the_game_untouched() -> None:
    game = MonteCarlo.new(3)
    before = game.to_json()
    assert solve(before).verdict == solve(game).verdict == solve(3).verdict
    assert game.to_json() == before


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[dict[str, str], list[str]]:
    """Two or three ranks' worth of cards, some on the top rows, the rest in the stock."""
    ranks = draw(st.lists(st.sampled_from("A2345"), min_size=2, max_size=3, unique=True))
    cards = draw(st.permutations([r + s for r in ranks for s in "SHDC"]))
    on_grid = draw(st.integers(2, min(10, len(cards))))
    cells = draw(st.lists(st.integers(0, 9), min_size=on_grid, max_size=on_grid, unique=True))
    return ({position_name(p): c for p, c in zip(cells, cards, strict=False)},
            list(cards[on_grid:]))


@given(small_positions(), MODES)
@settings(max_examples=80, deadline=None)
def test_solver_agrees_with_brute_force(pos: tuple[dict[str, str], list[str]],
                                        mode: str) -> None:
    game = position(*pos, mode=mode)
    result = solve(game)
    assert result.winnable == brute_winnable(game)
    if result.winnable:
        for move in result.moves:
            game.play(move)
        assert game.status is Status.WON
