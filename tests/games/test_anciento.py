"""Anciento engine: docs/rules.md worked examples, legality, scoring, undo/redo, JSON, records."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.catalog.registry import engine
from door.games.anciento import (
    RANDOM_NUMBERS,
    Anciento,
    Stone,
    deal,
    fits,
    geometry,
    new_stones,
    quatro_bonus,
    shuffled_stones,
    stones_left_bonus,
)
from door.games.anciento_demo import (
    RandomPlacer,
    choose_move,
    fast_move,
    greedy_move,
    play_out,
)
from door.games.anciento_player import search_move
from door.games.base import GameRecord, IllegalMove, Status
from door.games.numbers import shuffled

S = Stone.parse


# -- helpers ---------------------------------------------------------------------------------

def position(board: dict[str, str], first: list[str], *, fill: int = 0, size: str = "8x12",
             points: int = 0, quatros: int = 0, keep: tuple[str, ...] = ()) -> Anciento:
    """A game built through from_json: ``board`` stones fixed, the pouch starts with ``first``.

    The other stones (to make 72) go to the end of the pouch, except that ``fill`` of them
    are put on the board first, never on or next to a square named in ``keep``/``board``.
    """
    geo = geometry(size)
    counts = [2] * 36
    cells: list[str] = [".."] * geo.size
    for name, text in board.items():
        cells[geo.names.index(name)] = text
        counts[S(text).kind] -= 1
    for text in first:
        counts[S(text).kind] -= 1
    assert min(counts) >= 0, "test position uses a stone kind three times"
    rest = [str(Stone.of_kind(k)) for k in range(36) for _ in range(counts[k])]
    reserved = set()
    for name in (*board, *keep):
        sq = geo.names.index(name)
        reserved.add(sq)
        reserved.update(geo.neighbours[sq])
    free = [sq for sq in range(geo.size) if sq not in reserved]
    assert len(free) >= fill
    for sq in free[:fill]:
        cells[sq] = rest.pop()
    rows = [" ".join(cells[r * geo.cols:(r + 1) * geo.cols]) for r in range(geo.rows)]
    return Anciento.from_json({"game": "anciento", "number": 1,
                               "options": {"board": size, "easy": False},
                               "board": rows, "pouch": first + rest,
                               "points": points, "quatros": quatros})


def state(game: Anciento) -> dict:
    data = game.to_json()
    del data["actions"]
    return data


def play_demo(number: int, **options) -> Anciento:
    return play_out(Anciento.new(number, **options), fast_move)


# -- the worked example of docs/rules.md -----------------------------------------------------

# Columns a.. left to right, rows 1.. top to bottom: (row r, column c) is chr(97 + c) + str(r + 1).
EXAMPLE_FIXED = {"b2": "A6", "d2": "C3", "a1": "A5", "b3": "B1", "c4": "A4", "d5": "C2",
                 "i7": "E3", "i4": "E6", "h5": "B5", "j5": "F5"}
EXAMPLE_MOVES = [("d3", "C1", 1),   # interior, 1 neighbour
                 ("c2", "A3", 2),   # interior, 2 neighbours
                 ("b1", "A5", 0),   # edge, 2 neighbours (one is its twin)
                 ("c3", "A1", 8),   # Quatro, BONUS 1 -> 2 after
                 ("d4", "C4", 8),   # interior, 3 neighbours, x2
                 ("i6", "E2", 2),   # interior, 1 neighbour, x2
                 ("i5", "E5", 16),  # Quatro, x2, BONUS -> 4 after
                 ("j4", "F6", 8)]   # interior, 2 neighbours, x4


def example_game() -> Anciento:
    # 10 fixed + 8 placed + 1 left in the pouch: 53 more stones fill the far squares.
    return position(EXAMPLE_FIXED, [stone for _, stone, _ in EXAMPLE_MOVES], fill=53,
                    keep=tuple(square for square, _, _ in EXAMPLE_MOVES))


def test_worked_example_scoring_sequence():
    game = example_game()
    gained = []
    for square, stone, _ in EXAMPLE_MOVES:
        assert str(game.current) == stone
        before = game.points
        game.play(square)
        gained.append(game.points - before)
    assert gained == [points for _, _, points in EXAMPLE_MOVES] == [1, 2, 0, 8, 8, 2, 16, 8]
    assert game.points == 45 and game.quatros == 2 and game.bonus == 4
    assert game.stones_left == 1
    game.end()
    assert game.score == 45 + 500 + 50 == 595
    assert game.status is Status.LOST


def test_bonus_doubles_after_the_quatro_not_during():
    game = example_game()
    for square, _, _ in EXAMPLE_MOVES[:3]:
        game.play(square)
    assert game.bonus == 1
    assert game.check() and ("c3", 8) in game.check()
    game.play("c3")
    assert game.points == 1 + 2 + 0 + 8
    assert game.bonus == 2 and game.quatros == 1


def test_check_reports_the_points_each_square_would_score():
    game = example_game()
    for square, _, points in EXAMPLE_MOVES:
        assert (square, points) in game.check()
        game.play(square)


# -- legality (R-ANC-2) -----------------------------------------------------------------------

@pytest.mark.parametrize(("near", "legal"), [
    (["A2"], True), (["B1"], True), (["A1"], True), (["B2"], False),
    # two neighbours: one shape match and one pattern match needed
    (["A2", "B1"], True), (["A2", "A3"], False), (["B1", "C1"], False), (["A2", "B2"], False),
    (["A1", "A2"], True), (["A1", "B1"], True),          # the twin counts for both
    # three neighbours
    (["A2", "A3", "B1"], True), (["A2", "B1", "C1"], True), (["A2", "A3", "A4"], False),
    (["B1", "C1", "D1"], False), (["A2", "B1", "C3"], False),
    (["A1", "A2", "A3"], True), (["A1", "B1", "C1"], True), (["A1", "A2", "B1"], True),
    # four neighbours: at least two and two
    (["A2", "A3", "B1", "C1"], True), (["A2", "A3", "A4", "B1"], False),
    (["A2", "B1", "C1", "D1"], False), (["A2", "A3", "B1", "C2"], False),
    (["A1", "A2", "A3", "B1"], True), (["A1", "B1", "C1", "A2"], True),
    (["A1", "A2", "A3", "A4"], False), (["A1", "B1", "C1", "D1"], False),
    (["A1", "A2", "B1", "C1"], True),
])
def test_fits_rule(near, legal):
    assert fits(S("A1"), [S(t) for t in near]) is legal


def test_isolated_placement_is_illegal():
    assert fits(S("A1"), []) is False


@pytest.mark.parametrize(("sides", "stones", "legal"), [
    (["c2", "b3"], ["A1", "A2"], True),                    # twin on 2 sides
    (["c2", "b3", "d3"], ["A1", "B1", "C1"], True),        # twin on 3 sides
    (["c2", "b3", "d3", "c4"], ["A1", "A2", "A3", "B1"], True),   # twin on 4 sides
    (["c2", "b3", "d3", "c4"], ["A1", "A2", "A3", "A4"], False),
])
def test_twin_on_the_board(sides, stones, legal):
    game = position(dict(zip(sides, stones, strict=True)), ["A1"])
    assert game.can_place(game.parse_square("c3")) is legal
    assert ("c3" in game.legal_moves()) is legal
    if legal:
        game.play("c3")
        assert game.points == [0, 1, 2, 4, 8][len(sides)]
    else:
        with pytest.raises(IllegalMove, match="does not match"):
            game.play("c3")


def test_diagonals_never_count():
    game = position({"b2": "A2"}, ["A1"])
    assert not game.can_place(game.parse_square("c3"))
    with pytest.raises(IllegalMove, match="touch no stone"):
        game.play("c3")
    assert "c2" in game.legal_moves()


@pytest.mark.parametrize(("board", "square", "stone"), [
    ({"a2": "A2"}, "a1", "A1"),                            # corner, 1 neighbour
    ({"c1": "A2", "b2": "B1"}, "b1", "A1"),                # top edge, 2 neighbours
    ({"c1": "A2", "a1": "A3", "b2": "B1"}, "b1", "A1"),    # top edge, 3 neighbours
    ({"l3": "A2", "l5": "B1", "k4": "C1"}, "l4", "A1"),    # right edge, 3 neighbours
    ({"c8": "A2"}, "d8", "A1"),                            # bottom edge
])
def test_edge_squares_score_nothing(board, square, stone):
    game = position(board, [stone])
    game.play(square)
    assert game.points == 0 and game.placed == len(board) + 1


def test_interior_points_by_neighbours():
    game = position({"c2": "A2", "b3": "B1", "d3": "A3", "e4": "C6"}, ["A1", "C1", "D6"])
    assert dict(game.check())["c3"] == 4
    game.play("c3")
    assert game.points == 4


# -- end of game ------------------------------------------------------------------------------

@pytest.mark.parametrize(("left", "bonus"), [(0, 1000), (1, 500), (2, 100), (3, 0), (10, 0)])
def test_stones_left_bonus(left, bonus):
    assert stones_left_bonus(left) == bonus
    game = position({}, [], fill=72 - left, points=7)
    assert game.stones_left == left
    game.end()
    assert game.score == 7 + bonus
    assert game.status is (Status.WON if left == 0 else Status.LOST)


@pytest.mark.parametrize(("quatros", "bonus"), [(0, 0), (1, 25), (2, 50), (3, 100), (4, 200),
                                                (10, 12800)])
def test_quatro_bonus(quatros, bonus):
    assert quatro_bonus(quatros) == bonus
    game = position({}, [], fill=60, quatros=quatros)
    game.end()
    assert game.score == bonus


def test_over_state_waits_for_end():
    game = position({}, [], fill=72)
    assert game.current is None and game.is_over
    assert game.status is Status.PLAYING and game.score == 0
    assert game.legal_moves() == ["end"] and game.hints() == ["end"]
    game.play("END")
    assert game.status is Status.WON and game.score == 1000
    assert game.actions == ["end"]


def test_stuck_stone_can_be_taken_back():
    # A3 goes above the A2; then B4 matches no stone on the board: no square is left.
    game = position({"a1": "A1", "c4": "A2"}, ["A3", "B4"])
    game.play("c3")
    assert game.current == S("B4")
    assert game.is_over and game.legal_squares() == []
    assert game.status is Status.PLAYING
    game.undo()
    assert not game.is_over and game.current == S("A3")


def test_end_is_allowed_any_time_and_freezes_the_game():
    game = Anciento.new(17)
    game.play(game.legal_moves()[0])
    game.end()
    assert game.ended and game.legal_moves() == [] and game.hints() == []
    for action in (game.undo, game.redo, game.end):
        with pytest.raises(IllegalMove, match="ended"):
            action()
    with pytest.raises(IllegalMove, match="ended"):
        game.play("a2")


# -- start position and game numbers ---------------------------------------------------------

def test_start_invariants_over_many_numbers():
    for size in ("8x12", "8x8"):
        geo = geometry(size)
        numbers = range(1, 1001) if size == "8x12" else range(1, 101)
        for number in numbers:
            game = Anciento.new(number, board=size)
            occupied = [sq for sq, s in enumerate(game.board) if s is not None]
            assert sorted(occupied) == sorted(geo.start)
            start = [game.board[sq] for sq in geo.start]
            assert sorted(s.shape for s in start) == list(range(6))
            assert sorted(s.pattern for s in start) == list(range(6))
            assert len(game.pouch) == 66 and game.stones_left == 66
            everything = sorted(start + game.pouch)
            assert everything == sorted(new_stones())


def test_start_squares():
    assert [geometry("8x12").names[sq] for sq in geometry("8x12").start] == [
        "a1", "l1", "a8", "l8", "f4", "g5"]
    assert [geometry("8x8").names[sq] for sq in geometry("8x8").start] == [
        "a1", "h1", "a8", "h8", "d4", "e5"]


def test_deal_is_the_greedy_walk_over_the_documented_shuffle():
    for number in (1, 2, 505, 31999):
        stones = shuffled(new_stones(), number)
        assert stones == shuffled_stones(number)
        start, pouch = deal(number)
        picked: list[Stone] = []
        rest = list(stones)
        for stone in stones:
            if len(picked) < 6 and all(stone.shape != p.shape and stone.pattern != p.pattern
                                       for p in picked):
                picked.append(stone)
                rest.remove(stone)
        assert start == picked and pouch == rest


def test_pinned_deals():
    """The same number always gives the same start stones and pouch order, forever."""
    pins = {
        1: ("C2 D5 E3 A1 F4 B6", "C4 C3 C5 D2 E2 D5 B5 C4"),
        505: ("A5 D2 C6 B4 E3 F1", "D1 C3 C2 E2 A3 A5 B5 F4"),
        32000: ("D1 B4 A3 E5 F2 C6", "E1 B6 A2 D2 A4 A3 E4 B2"),
    }
    for number, (start, pouch) in pins.items():
        game = Anciento.new(number)
        assert " ".join(str(game.board[sq]) for sq in game.geo.start) == start
        assert " ".join(str(s) for s in game.pouch[:8]) == pouch
        assert state(Anciento.new(number)) == state(game)


@pytest.mark.parametrize("number", [0, 32001, -5, 2**31, "7", 1.0, True])
def test_bad_numbers_are_refused(number):
    with pytest.raises(ValueError, match="game number"):
        Anciento.new(number)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="board"):
        Anciento.new(1, board="9x9")
    with pytest.raises(ValueError):
        Anciento.new(1, easy="yes")


def test_random_games_use_their_own_range_and_replay():
    game = Anciento.random_game()
    assert game.number in RANDOM_NUMBERS and game.options["random"] is True
    with pytest.raises(ValueError):
        Anciento.new(game.number)
    with pytest.raises(ValueError):
        Anciento.new(5, random=True)
    game.play(fast_move(game))
    again = Anciento.replay(GameRecord.from_json(game.record().to_json()))
    assert state(again) == state(game)


def test_registry_finds_the_engine():
    assert engine("anciento") is Anciento


# -- notation --------------------------------------------------------------------------------

def test_notation():
    game = Anciento.new(1)
    assert game.square_name(0) == "a1" and game.square_name(11) == "l1"
    assert game.square_name(95) == "l8" and game.parse_square(" E4 ") == 3 * 12 + 4
    assert game.canonical(" E4 ") == "e4"
    for bad in ("m1", "a9", "a0", "", "e44", "4e"):
        with pytest.raises(IllegalMove, match="not a square"):
            game.play(bad)
    with pytest.raises(IllegalMove, match="taken"):
        game.play("a1")
    move = game.legal_moves()[0].upper()
    game.play(move)
    assert game.actions == [move.lower()]


def test_stone_text():
    assert [str(s) for s in new_stones()[:7]] == ["A1", "A2", "A3", "A4", "A5", "A6", "B1"]
    assert S(" f6 ") == Stone(5, 5) and str(Stone(2, 3)) == "C4"
    assert Stone.of_kind(S("D3").kind) == S("D3")
    for bad in ("G1", "A7", "A", "A10", "11"):
        with pytest.raises(ValueError, match="not a stone"):
            S(bad)


# -- Check and legal moves --------------------------------------------------------------------

def test_check_is_row_major_and_complete():
    for number in (3, 44, 505):
        game = Anciento.new(number)
        for _ in range(25):
            squares = [game.parse_square(name) for name, _ in game.check()]
            assert squares == sorted(squares)
            brute = [sq for sq in range(game.geo.size)
                     if game.board[sq] is None and game.neighbours(sq)
                     and fits(game.current, game.neighbours(sq))]
            assert squares == brute
            assert game.legal_moves() == [game.square_name(sq) for sq in squares] + ["end"]
            for name, points in game.check():
                sq = game.parse_square(name)
                expected = 0 if game.geo.edge[sq] else [0, 1, 2, 4, 8][
                    len(game.neighbours(sq))] * game.bonus
                assert points == expected
            if game.is_over:
                break
            game.play(fast_move(game))


def test_easy_mode_can_be_toggled_without_changing_the_game():
    game = Anciento.new(9)
    before = state(game)
    game.easy = True
    assert game.easy and game.options["easy"] is True
    after = state(game)
    assert after.pop("options") != before.pop("options") and after == before
    game.play(fast_move(game))
    assert Anciento.replay(game.record()).easy


def test_easy_mode_shows_the_next_four():
    game = Anciento.new(9, easy=True)
    assert game.easy and game.next_stones() == game.pouch[1:5]
    assert game.next_stones(4) == deal(9)[1][1:5]
    game.play(fast_move(game))
    assert game.current == deal(9)[1][1]
    assert game.next_stones() == deal(9)[1][2:6]


# -- take back / put back (R-ANC-5) ----------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(number=st.integers(1, 32000), moves=st.integers(0, 66),
       odd=st.dictionaries(st.integers(0, 65), st.integers(0, 10**6)), back=st.integers(0, 66))
def test_take_back_then_put_back_is_exact(number, moves, odd, back):
    game = Anciento.new(number)
    snapshots = [state(game)]
    for step in range(moves):
        squares = game.legal_squares()
        if not squares:
            break
        # the demo player's square (it makes Quatros), except at the ``odd`` steps
        move = game.square_name(squares[odd[step] % len(squares)]) if step in odd else (
            fast_move(game))
        game.play(move)
        snapshots.append(state(game))
    back = min(back, len(snapshots) - 1)
    for k in range(1, back + 1):
        game.undo()
        expected = dict(snapshots[-1 - k])
        expected["redo"] = state(game)["redo"]
        assert state(game) == expected
    assert len(state(game)["redo"]) == back
    for _ in range(back):
        game.redo()
    assert state(game) == snapshots[-1]
    assert not game.can_redo


def test_start_stones_cannot_be_taken_back():
    game = Anciento.new(5)
    with pytest.raises(IllegalMove, match="nothing to take back"):
        game.undo()
    with pytest.raises(IllegalMove, match="nothing to put back"):
        game.redo()
    game.play(fast_move(game))
    game.undo()
    with pytest.raises(IllegalMove):
        game.undo()
    assert state(game)["board"] == state(Anciento.new(5))["board"]


def test_a_new_placement_clears_put_back():
    game = Anciento.new(8)
    game.play(game.legal_moves()[0])
    game.play(game.legal_moves()[0])
    game.undo()
    assert game.can_redo
    game.play(game.legal_moves()[-2])
    assert not game.can_redo
    with pytest.raises(IllegalMove):
        game.redo()


def test_undo_restores_bonus_and_quatros():
    game = example_game()
    for square, _, _ in EXAMPLE_MOVES:
        game.play(square)
    for _ in range(4):
        game.undo()
    assert (game.points, game.quatros, game.bonus) == (11, 1, 2)
    game.undo()
    assert (game.points, game.quatros, game.bonus) == (3, 0, 1)
    game.redo()
    game.redo()
    assert (game.points, game.quatros, game.bonus) == (19, 1, 2)


# -- JSON ------------------------------------------------------------------------------------

@pytest.mark.slow
def test_json_round_trip_at_every_stage():
    game = Anciento.new(321, easy=True)
    for step in range(70):
        data = game.to_json()
        again = Anciento.from_json(data)
        assert again.to_json() == data
        if step % 7 == 3 and game.can_undo:
            game.undo()
        elif game.is_over:
            break
        else:
            game.play(fast_move(game))
    game.undo()
    game.undo()
    data = game.to_json()
    assert len(data["redo"]) == 2
    again = Anciento.from_json(data)
    again.redo()
    game.redo()
    assert state(again) == state(game)
    game.end()
    assert Anciento.from_json(game.to_json()).to_json() == game.to_json()


def test_json_round_trip_8x8():
    game = play_demo(77, board="8x8")
    assert Anciento.from_json(game.to_json()).to_json() == game.to_json()
    assert game.stones_left >= 8


def _broken(change):
    game = Anciento.new(12)
    for _ in range(5):
        game.play(fast_move(game))
    data = game.to_json()
    change(data)
    return data


@pytest.mark.parametrize("change", [
    lambda d: d["pouch"].__setitem__(0, d["pouch"][1] if d["pouch"][1] != d["pouch"][0]
                                     else d["pouch"][2]),                 # a kind 3 times
    lambda d: d["pouch"].pop(),                                          # 71 stones
    lambda d: d["pouch"].append("A1"),                                   # 73 stones
    lambda d: d["pouch"].__setitem__(0, "Z9"),
    lambda d: d["board"].pop(),
    lambda d: d["board"].__setitem__(0, d["board"][0] + " .."),
    lambda d: d["history"].append("z1"),
    lambda d: d["history"].append(d["history"][0]),
    lambda d: d["history"].append("b2"),                                 # empty square
    lambda d: d.__setitem__("points", -1),
    lambda d: d.__setitem__("quatros", -1),
    lambda d: d.__setitem__("points", "7"),
    lambda d: d.__setitem__("number", 0),
    lambda d: d.__setitem__("number", 40000),
    lambda d: d["options"].__setitem__("board", "9x9"),
    lambda d: d.__setitem__("game", "montecarlo"),
    lambda d: d.__setitem__("redo", ["a1"]),
    lambda d: d.__delitem__("pouch"),
    lambda d: d.__setitem__("ended", "no"),
    lambda d: d["options"].__setitem__("easy", "yes"),
])
def test_from_json_refuses_inconsistent_positions(change):
    data = _broken(change)
    with pytest.raises(ValueError):
        Anciento.from_json(data)


def test_from_json_validates_redo_legality():
    game = Anciento.new(12)
    game.play(fast_move(game))
    game.undo()
    data = game.to_json()
    data["redo"] = [game.square_name(sq) for sq in range(96)
                    if game.board[sq] is None and not game.can_place(sq)][:1]
    with pytest.raises(ValueError):
        Anciento.from_json(data)


# -- records and players ---------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize(("number", "options"), [(1, {}), (505, {"easy": True}),
                                                 (9000, {"board": "8x8"})])
def test_record_replays_to_the_same_score(number, options):
    game = Anciento.new(number, **options)
    for i in range(200):
        if game.is_over:
            break
        game.play(fast_move(game))
        if i % 9 == 4:
            game.undo()
            game.undo()
            game.redo()
    game.end()
    record = GameRecord.from_json(game.record().to_json())
    again = Anciento.replay(record)
    assert again.score == game.score and state(again) == state(game)


def test_documented_record_example():
    record = GameRecord.from_json({"game": "anciento", "number": 505,
                                   "options": {"board": "8x12", "easy": False},
                                   "actions": ["h5", "f3", "f2", "undo", "e3", "end"]})
    game = Anciento.replay(record)
    assert game.ended and game.history == ["h5", "f3", "e3"]
    assert game.score == 3 and game.stones_left == 63 and game.status is Status.LOST
    assert game.record() == record


@pytest.mark.slow
@pytest.mark.parametrize("player", [choose_move, fast_move, greedy_move, RandomPlacer(3),
                                    search_move])
def test_players_play_whole_legal_games(player):
    for number in (2, 3) if player is not search_move else (2,):
        game = play_out(Anciento.new(number), player)
        assert game.ended and game.stones_left == 72 - game.placed
        assert Anciento.replay(game.record()).score == game.score


@pytest.mark.slow
@pytest.mark.parametrize("player", [choose_move, search_move])
def test_players_do_not_read_the_hidden_pouch_order(player):
    """Two games with the same board and current stone but shuffled later stones play alike."""
    for number in (44, 45):
        game = Anciento.new(number)
        for _ in range(10):
            game.play(player(game))
        data = game.to_json()
        data["pouch"] = data["pouch"][:1] + list(reversed(data["pouch"][1:]))
        other = Anciento.from_json(data)
        assert player(other) == player(game)
        assert other.hints() == game.hints()
        # Easy mode: the next four stones are shown, the rest of the order is still hidden
        easy = Anciento.new(number, easy=True)
        data = easy.to_json()
        data["pouch"] = data["pouch"][:5] + list(reversed(data["pouch"][5:]))
        assert player(Anciento.from_json(data)) == player(easy)


def test_greedy_takes_the_most_points():
    game = example_game()
    for square, _, _ in EXAMPLE_MOVES[:3]:
        game.play(square)
    assert greedy_move(game) == "c3"


@pytest.mark.slow
def test_hints_are_legal_squares():
    game = Anciento.new(600)
    assert sorted(game.hints()) == sorted(game.legal_moves()[:-1])
    assert game.hints()[0] == search_move(game)


@pytest.mark.slow
def test_search_player_uses_the_shown_stones_in_easy_mode():
    """Easy mode shows the next stones: the search follows those, not the averages, so a
    game whose next stones differ (same board, same current stone) can be played otherwise."""
    differs = 0
    for number in range(50, 60):
        easy = Anciento.new(number, easy=True)
        normal = Anciento.new(number)
        differs += search_move(easy) != search_move(normal)
    assert differs
