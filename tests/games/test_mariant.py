"""Mariant engine: docs/rules.md worked examples, notation, JSON, and property tests."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from door.catalog.registry import engine
from door.games.base import GameRecord, IllegalMove, Status
from door.games.cards import Card, new_deck
from door.games.mariant import (
    Mariant,
    auto_ending_plan,
    compatible,
    final_score,
    multiplier_tenths,
)
from door.games.numbers import shuffled

ALL = Counter(str(c) for c in new_deck(2))
SUIT_RANKS = "KQJT98765432A"


def suit(s: str) -> str:
    """A complete suit K..A of suit ``s`` as card text."""
    return " ".join(r + s for r in SUIT_RANKS)


def position(columns: list[str], stock: list[str] | None = None, removed: str = "",
             fd: int = 2, fu: int = 1, **extra: Any) -> Mariant:
    """Build a position: each column is ``"down cards | up cards"`` (or just up cards).

    Cards not placed go to the stock (in sorted order) unless ``stock`` is given.
    """
    cols = []
    used: Counter[str] = Counter()
    for text in columns + [""] * (10 - len(columns)):
        down, _, up = text.rpartition("|")
        col = {"down": down.split(), "up": up.split()}
        used.update(col["down"] + col["up"])
        cols.append(col)
    for s in removed:
        used.update(suit(s).split())
    left = ALL - used
    if stock is None:
        stock = sorted(left.elements())
    data = {"game": "mariant", "number": 1, "options": {"fd": fd, "fu": fu}, "columns": cols,
            "stock": stock, "removed": list(removed), **extra}
    return Mariant.from_json(data)


def card_counts(game: Mariant) -> Counter[str]:
    data = game.to_json()
    count: Counter[str] = Counter()
    for col in data["columns"]:
        count.update(col["down"] + col["up"])
    count.update(data["stock"])
    for s in data["removed"]:
        count.update(suit(s).split())
    return count


# -- setup and deal ---------------------------------------------------------------------------

def test_registry_and_name() -> None:
    assert engine("mariant") is Mariant
    assert Mariant.name == "mariant"


@pytest.mark.parametrize(("fd", "fu"), [(1, 1), (2, 0), (5, 3), (4, 4), (0, 7), (2.0, 1),
                                        (True, 1), ("2", 1)])
def test_bad_setups_are_refused(fd: Any, fu: Any) -> None:
    with pytest.raises(ValueError, match=r"f[du]"):
        Mariant.new(1, fd=fd, fu=fu)


def test_all_fifteen_setups_deal() -> None:
    setups = [(fd, fu) for fd in range(2, 8) for fu in range(1, 8) if fd + fu <= 7]
    assert len(setups) == 15
    for fd, fu in setups:
        game = Mariant.new(5, fd=fd, fu=fu)
        assert game.face_down == (fd,) * 10
        assert all(len(col) == fd + fu for col in game.columns)
        assert game.stock_count == 104 - 10 * (fd + fu)


def test_bad_number_and_unknown_option() -> None:
    with pytest.raises(ValueError, match="game number"):
        Mariant.new(0)
    with pytest.raises(ValueError, match="unknown"):
        Mariant.new(1, colour="red")


def test_deal_order_follows_the_generator() -> None:
    """R-MAR-2: deck[i] goes to column i % 10 in round i // 10; the stock is the rest."""
    fd, fu = 3, 2
    deck = shuffled(new_deck(2), 617)
    game = Mariant.new(617, fd=fd, fu=fu)
    for col, cards in enumerate(game.columns):
        assert list(cards) == deck[col:50:10]
    assert list(game.stock) == deck[50:]


@pytest.mark.parametrize(("number", "bottoms", "tops", "stock"), [
    (1, "AS 6H 5H 4S 2C 3D 5C KD 2S 3C", "9C 5S 7H 3D 9D 2S QH AD TS JC", "3S 6H JD AC 6S"),
    (2, "6D 4H 8S QS 3S JS KC JC 6H QC", "4D 5H 2D 2S 2C AS AC 8H 4C QD", "3C KH JH 4S 2H"),
    (617, "AH 6H 4D 5H 8H TS 5D AC KD JH", "JC 3H 5D 2H 3C 4H AS QD 7D QD", "7S 8C AH 6C 3D"),
    (2**31 - 1, "7H 8S 4C 6H QD 6C AH QC 2D 7S", "KH 3D TH QC JS KS 5H 3C TC 4D",
     "5C KC KC 2S JD"),
])
def test_pinned_deals(number: int, bottoms: str, tops: str, stock: str) -> None:
    """The default 2+1 deal of a few numbers, pinned forever."""
    game = Mariant.new(number)
    assert " ".join(str(c[0]) for c in game.columns) == bottoms
    assert " ".join(str(c[-1]) for c in game.columns) == tops
    assert " ".join(str(c) for c in game.stock[:5]) == stock
    assert game.visible()[0] == (2, (Card.parse(tops.split()[0]),))


# -- compatibility, groups ---------------------------------------------------------------------

def test_seed_compatibility_example() -> None:
    five = Card.parse("5S")
    assert [compatible(five, Card.parse(c)) for c in ("6S", "6H", "6D", "6C")] == [
        True, True, True, False]
    assert not compatible(five, Card.parse("7H"))
    assert not compatible(five, Card.parse("4H"))
    assert not compatible(Card.parse("KH"), Card.parse("AS"))


@pytest.mark.parametrize(("onto", "ok"), [("6S", True), ("6H", True), ("6D", True),
                                          ("6C", False)])
def test_five_of_spades_moves(onto: str, ok: bool) -> None:
    game = position(["5S", onto])
    if ok:
        game.play("1>2")
        assert [str(c) for c in game.columns[1]] == [onto, "5S"]
    else:
        before = game.to_json()
        with pytest.raises(IllegalMove, match="spades never go onto clubs"):
            game.play("1>2")
        assert game.to_json() == before


def test_topmost_group_and_subgroups() -> None:
    # 9H is face down; 8C 7S do not chain (partners); 7S 6D 5D 4C is the group.
    game = position(["9H | 8C 7S 6D 5D 4C", "8H", "7C", ""])
    assert game.group_length(0) == 4
    assert game.group_length(3) == 0
    moves = game.legal_moves()
    assert "1>2" in moves              # 7S onto 8H: whole group
    assert "1:3>3" in moves            # 6D onto 7C: subgroup of 3
    assert "1:2>3" not in moves        # 5D onto 7C: wrong rank
    with pytest.raises(IllegalMove, match="only 4 cards"):
        game.play("1:5>4")
    game.play("1:3>3")
    assert [str(c) for c in game.columns[2]] == ["7C", "6D", "5D", "4C"]
    assert game.raw_points == 1


def test_any_group_into_an_empty_column_king_only_there() -> None:
    game = position(["QS | KH QS", "KC", "", "5C 4H"])
    moves = game.legal_moves()
    assert "1>3" in moves and "1:1>3" in moves and "4:1>3" in moves
    assert not any(m.startswith("1") and m.endswith(">2") for m in moves)
    with pytest.raises(IllegalMove, match="King"):
        game.play("2>1")
    game.play("1>3")                   # KH QS into the empty column, QS turned
    assert game.face_down[0] == 0
    assert game.visible()[0] == (0, (Card.parse("QS"),))


def test_removal_is_free_single_suit_only_and_optional() -> None:
    mixed = "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H AS"
    game = position(["4D | " + suit("C"), mixed, "7D " + suit("H")])
    assert game.group_length(1) == 13
    moves = game.legal_moves()
    assert "r1" in moves and "r3" in moves and "r2" not in moves
    with pytest.raises(IllegalMove, match="complete suit"):
        game.play("r2")
    game.play("r1")
    assert game.raw_points == 0
    assert game.removed == ("C",)
    assert game.visible()[0] == (0, (Card.parse("4D"),))
    assert game.undo_flags_cheater          # the removal turned 4D
    game.play("r3")
    assert game.columns[2] == (Card.parse("7D"),)
    assert not game.undo_flags_cheater
    assert card_counts(game) == ALL


# -- DEAL --------------------------------------------------------------------------------------

def test_deal_to_non_empty_columns_with_penalty() -> None:
    """Two empty columns and a column that is not a single group: +5 x 2."""
    cols = ["3S | 9H", "9C 8H", "7C", "6C", "5C", "4C", "3C", "2C", "", ""]
    game = position(cols, stock=None)
    stock = game.stock[:8]
    game.play("d")
    assert game.raw_points == 10
    assert game.deal_penalty == 10
    for col in range(8):
        assert game.columns[col][-1] == stock[col]
    assert game.columns[8] == game.columns[9] == ()
    assert game.undo_flags_cheater


def test_deal_exception_single_groups() -> None:
    """Every non-empty column is one group with nothing face down: no penalty."""
    game = position(["9C 8H 7C", "KD", "5H", "", ""])
    game.play("d")
    assert game.raw_points == 0


def test_deal_exception_needs_no_face_down_cards() -> None:
    """A single face-up group on face-down cards is not a single-group column."""
    game = position(["2S | 9C 8H 7C", "KD", "", ""])
    game.play("d")
    assert game.raw_points == 5 * 8


def test_deal_without_empty_columns_is_free() -> None:
    game = Mariant.new(3)
    game.play("d")
    assert game.raw_points == 0
    assert game.stock_count == 64


def test_short_stock_deals_leftmost_first() -> None:
    """R-MAR-3: 3 cards left, 5 non-empty columns: columns 1, 3, 4 get them (2 is empty)."""
    stock = ["4H", "4D", "4S"]
    used = Counter(["KS", "KH", "KD", "KC", "QS", *stock])
    rest = " ".join(sorted((ALL - used).elements()))
    cols = ["KS", "", "KH", "KD", "KC", rest + " | QS"]   # the rest face down under QS
    game = position(cols, stock=stock)
    game.play("d")
    assert game.stock_count == 0
    assert [str(game.columns[c][-1]) for c in (0, 2, 3)] == stock
    assert str(game.columns[4][-1]) == "KC" and str(game.columns[5][-1]) == "QS"
    assert game.raw_points == 5 * 5                  # 5 empty columns, QS sits on cards
    game.undo()
    assert game.stock == tuple(Card.parse(c) for c in stock)


def test_all_columns_empty_deal_goes_to_column_one() -> None:
    """R-MAR-4: board empty, stock not: one card to column 1, no penalty (exception holds)."""
    game = position([])
    assert game.stock_count == 104
    first = game.stock[0]
    game.play("d")
    assert game.columns[0] == (first,)
    assert all(not col for col in game.columns[1:])
    assert game.raw_points == 0
    game.play("d")                      # now column 1 is the only non-empty one
    assert len(game.columns[0]) == 2 and game.raw_points == 0


# -- scoring -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("fd", "fu", "raw", "final"), [
    (3, 2, 56, 39), (6, 1, 57, 11), (2, 5, 55, 33), (2, 1, 17, 17), (3, 1, 5, 4),
    (2, 2, 5, 5), (6, 1, 2, 0), (6, 1, 3, 1),
])
def test_scoring_examples(fd: int, fu: int, raw: int, final: int) -> None:
    assert final_score(raw, fd, fu) == final


def test_seed_case_fd3_fu2_counters() -> None:
    """40 moves + 3 undos + a DEAL with 2 empty columns = 56 raw, 39 final (x 0.7)."""
    game = position([], fd=3, fu=2,
                    points={"moves": 40, "undos": 3, "deal_penalty": 10, "auto_moves": 0})
    assert multiplier_tenths(3, 2) == 7
    assert game.raw_points == 56
    assert game.score == 39


def test_seed_case_fd3_fu2_played() -> None:
    """The same 56 -> 39 example, played: 40 moves, 3 undos, a DEAL with 2 empty columns."""
    game = position(["7C 6H 5S", "7S 6D", "2C | 8H", "KS", "KH", "KD", "KC", "KS"], fd=3, fu=2)
    for i in range(40):
        game.play("1:1>2" if i % 2 == 0 else "2:1>1")
    for _ in range(3):
        game.undo()
    game.play("d")
    assert (game.moves, game.undos, game.deal_penalty) == (40, 3, 10)
    assert game.raw_points == 56
    assert game.score == 39
    assert not game.cheater
    assert game.actions.count("undo") == 3 and game.actions[-1] == "d"


def test_multiplier_range() -> None:
    assert multiplier_tenths(2, 1) == 10
    assert multiplier_tenths(6, 1) == 2
    assert multiplier_tenths(2, 5) == 6
    assert min(multiplier_tenths(fd, fu) for fd in range(2, 7) for fu in range(1, 6)
               if fd + fu <= 7) == 2


# -- undo ----------------------------------------------------------------------------------------

def test_undo_costs_two_and_never_refunds() -> None:
    game = position(["5S", "6H", "9C"])
    game.play("1>2")
    assert game.raw_points == 1
    assert not game.undo_flags_cheater
    game.undo()
    assert game.raw_points == 3
    assert not game.cheater
    assert game.columns[0] == (Card.parse("5S"),)
    with pytest.raises(IllegalMove, match="nothing to undo"):
        game.undo()
    with pytest.raises(IllegalMove, match="no redo"):
        game.redo()
    assert game.raw_points == 3
    assert game.actions == ["1>2", "undo"]


def test_undo_of_a_turning_move_flags_cheater() -> None:
    game = position(["8D | 5S", "6H"])
    game.play("1>2")
    assert game.face_down[0] == 0
    assert game.undo_flags_cheater
    game.undo()
    assert game.cheater
    assert game.face_down[0] == 1
    assert game.visible()[0] == (1, (Card.parse("5S"),))


def test_undo_of_a_deal_flags_cheater() -> None:
    game = Mariant.new(8)
    before = game.to_json()
    game.play("d")
    assert game.undo_flags_cheater
    game.undo()
    assert game.cheater
    after = game.to_json()
    assert after["columns"] == before["columns"] and after["stock"] == before["stock"]
    assert game.raw_points == 2


def test_undo_several_steps() -> None:
    game = position(["5S", "6H", "7C", "9D"])
    game.play("1>2")
    game.play("2>3")
    assert game.columns[2] == tuple(Card.parse(c) for c in ("7C", "6H", "5S"))
    game.undo()
    game.undo()
    assert game.raw_points == 2 + 4
    assert game.columns[0] == (Card.parse("5S"),)
    assert not game.cheater


# -- help ----------------------------------------------------------------------------------------

def test_help_markers_whole_groups_on_non_empty_columns() -> None:
    game = position([
        "2S | 9H 8S",           # 1: group 9H 8S -> onto 10C? 9H onto TC yes (col 4)
        "6D 5C",                # 2: group 6D 5C -> 6D onto 7S (col 3)
        "7C",                   # 3: 7C onto 8S? clubs never go onto spades
        "TC",                   # 4: TC onto a J? none
        "",                     # 5: empty: never counts as a destination
        "4H 3S",                # 6: 3S fits 4? subgroup only; 4H onto 5C (col 2) yes
    ])
    assert game.help_columns() == [0, 1, 5]
    hints = game.hints()
    assert set(hints) == {"1>4", "2>3", "6>2"}
    assert hints[0] == "1>4"            # turns a face-down card
    assert hints[1:] == ["2>3", "6>2"]  # both empty their column; column order


def test_help_ignores_subgroups() -> None:
    game = position(["9C 8H 7S 6H", "7D", "KS"])
    # 6H onto 7D: partners, no; the whole group 9C... has no 10 to go on.
    assert game.help_columns() == []
    game2 = position(["9C 8H 7S 6H", "7C", "KS"])
    assert "1:1>2" in game2.legal_moves()
    assert game2.help_columns() == []
    assert game2.hints() == []


# -- Auto Ending, win -----------------------------------------------------------------------------

def mixed_columns() -> list[str]:
    """Eight K..A groups alternating S/H and D/C: every rank has two of each suit."""
    def chain(a: str, b: str) -> str:
        return " ".join(r + (a if i % 2 == 0 else b) for i, r in enumerate(SUIT_RANKS))
    return [chain("S", "H"), chain("S", "H"), chain("H", "S"), chain("H", "S"),
            chain("D", "C"), chain("D", "C"), chain("C", "D"), chain("C", "D")]


def test_auto_ending_finishes_the_game() -> None:
    game = position(mixed_columns(), stock=[])
    assert game.auto_ending_available
    assert "auto" in game.legal_moves() and "d" not in game.legal_moves()
    assert not game.won
    game.auto_end()
    assert game.won and game.status is Status.WON
    assert game.raw_points == game.auto_moves > 0
    assert game.actions == ["auto"]
    for col in game.columns[:8]:
        assert len({c.suit for c in col}) == 1
    with pytest.raises(IllegalMove, match="won"):
        game.play("d")
    with pytest.raises(IllegalMove, match="won"):
        game.undo()
    assert game.legal_moves() == []
    replayed = Mariant.from_json(game.to_json())
    assert replayed.to_json() == game.to_json()


def test_auto_ending_by_deal_with_empty_stock_and_its_undo() -> None:
    game = position(mixed_columns(), stock=[])
    assert game.canonical("d") == "auto"
    snapshot = game.copy()
    game.play(" D ")
    assert game.actions == ["auto"]
    assert game.won
    # the same plan step by step through ordinary moves gives the same board
    for src, count, dst in auto_ending_plan([list(c) for c in snapshot.columns]):
        snapshot.play(f"{(src + 1) % 10}:{count}>{(dst + 1) % 10}")
    assert snapshot.columns == game.columns
    assert snapshot.raw_points == game.raw_points


def test_auto_ending_offered_first_time_only() -> None:
    cols = mixed_columns()
    # Column 1 misses its Ace, which sits alone in column 9.
    first, ace = cols[0].rsplit(" ", 1)
    game = position([first, *cols[1:], ace], stock=[])
    assert not game.auto_ending_available and not game.auto_ending_offered
    game.play("9>1")
    assert game.auto_ending_available and game.auto_ending_offer and game.auto_ending_offered
    game.play("1:1>9")               # declined: the player plays on
    assert not game.auto_ending_offer and game.auto_ending_offered
    game.play("9>1")
    assert game.auto_ending_available and not game.auto_ending_offer
    data = game.to_json()
    assert data["auto_ending_first"] == 1
    assert Mariant.from_json(data).auto_ending_offered


def test_auto_ending_refused_when_not_available() -> None:
    game = Mariant.new(4)
    with pytest.raises(IllegalMove, match="empty stock"):
        game.play("auto")
    game = stuck_position()
    before = game.to_json()
    assert "auto" not in game.legal_moves()
    with pytest.raises(IllegalMove, match="not available"):
        game.play("d")
    assert game.to_json() == before


def test_win_with_stacked_suits_without_removal() -> None:
    cols = [suit("S") + " " + suit("S"), suit("H"), suit("H"), suit("D"), suit("D"),
            suit("C"), suit("C")]
    game = position(cols, stock=[])
    assert game.won and game.status is Status.WON
    assert not game.auto_ending_available
    game2 = position([], stock=[], removed="SSHHDDCC")
    assert game2.won


def test_not_won_with_stock_or_mixed_suits() -> None:
    game = position([suit("S") + " " + suit("S"), suit("H"), suit("H"), suit("D"), suit("D"),
                     suit("C")])
    assert game.stock_count == 13 and not game.won
    game = position(mixed_columns(), stock=[])
    assert not game.won and game.status is Status.PLAYING


def stuck_position() -> Mariant:
    """Ten columns topped by the eight Kings and two Aces, the rest face down, stock empty."""
    tops = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "KC", "AS", "AH"]
    rest = sorted((ALL - Counter(tops)).elements())
    columns = [rest.pop() + " | " + top for top in tops]
    columns[0] = " ".join(rest) + " " + columns[0]
    return position(columns, stock=[])


def test_stuck_is_information_only() -> None:
    game = stuck_position()
    assert game.legal_moves() == []
    assert game.status is Status.STUCK
    assert game.stuck


# -- notation ------------------------------------------------------------------------------------

def test_notation_and_canonical_forms() -> None:
    game = position(["9C 8H 7S", "9D", "", "", "", "", "", "", "", "6D"])
    assert game.canonical("1:3>3") == "1>3"
    assert game.canonical(" 1 : 2 > 3 ") == "1:2>3"
    assert game.canonical("R0") == "r0"
    assert game.canonical("D") == "d"
    game.play("0>1")
    game.play("1:3 > 3")
    assert game.actions == ["0>1", "1:3>3"]
    assert [str(c) for c in game.columns[2]] == ["8H", "7S", "6D"]
    for bad in ("", "1>", "x", "1:0>3", "11>2", "u", "undo", "1>1"):
        before = game.to_json()
        with pytest.raises(IllegalMove):
            game.play(bad)
        assert game.to_json() == before


def test_legal_move_order_is_documented_order() -> None:
    game = position(["5S", "", "6H", "6D", "9C 8H 7S", "KS", "KH", "KD", "KC", "KS"])
    assert game.legal_moves() == [
        "1>2", "1>3", "1>4", "3>2", "3>5", "4>2", "4>5", "5>2", "5:2>2", "5:1>2",
        "6>2", "7>2", "8>2", "9>2", "0>2", "d"]


def test_record_replays_to_same_state() -> None:
    game = Mariant.new(31, fd=3, fu=2)
    for move in [*game.legal_moves()[:1], "d"]:
        game.play(move)
    game.undo()
    record = game.record()
    assert record.options == {"fd": 3, "fu": 2}
    again = Mariant.replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert again.to_json() == game.to_json()
    assert again.score == game.score


# -- JSON validation -------------------------------------------------------------------------------

def test_json_rejects_inconsistent_positions() -> None:
    good = Mariant.new(12).to_json()

    def broken(change: Any) -> dict[str, Any]:
        data = json.loads(json.dumps(good))
        change(data)
        return data

    cases = [
        lambda d: d["stock"].pop(),                                   # 103 cards
        lambda d: d["stock"].append("5S"),                            # a third 5S
        lambda d: d["stock"].__setitem__(0, "ZZ"),                    # not a card
        lambda d: d["columns"].pop(),                                 # 9 columns
        lambda d: d["columns"][0].__setitem__("up", []),              # face-down on top
        lambda d: d.__setitem__("game", "montecarlo"),
        lambda d: d["options"].__setitem__("fd", 1),
        lambda d: d.__setitem__("removed", ["S"]),                    # 13 extra spades
        lambda d: d.__setitem__("raw_points", 5),
        lambda d: d["points"].__setitem__("moves", -1),
        lambda d: d.__setitem__("history", [{"action": "1:5>2", "flip": False}]),
        lambda d: d.__setitem__("history", [{"action": "d", "to": [1, 1]}]),
        lambda d: d.__setitem__("history", [{"action": "d", "to": [11]}]),
        lambda d: d.__setitem__("history", [{"action": "1>2", "flip": False}]),
        lambda d: d.__setitem__("history", [{"action": "r1", "suit": "S", "flip": False}]),
        lambda d: d.__setitem__("columns", "nope"),
        lambda d: d.pop("stock"),
    ]
    for change in cases:
        with pytest.raises(ValueError):
            Mariant.from_json(broken(change))


def test_json_is_plain_and_documented_keys() -> None:
    game = Mariant.new(12)
    game.play("d")
    data = game.to_json()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"game", "format", "number", "options", "columns", "stock", "removed",
                         "points", "raw_points", "score", "cheater", "resigned",
                         "auto_ending_first", "history", "actions"}
    assert data["history"] == [{"action": "d", "to": list(range(1, 11))}]


# -- properties ----------------------------------------------------------------------------------

SETUPS = st.sampled_from([(fd, fu) for fd in range(2, 7) for fu in range(1, 6) if fd + fu <= 7])
NUMBERS = st.integers(min_value=1, max_value=2**31 - 1)
UNDO_RESTORES = ("columns", "stock", "removed", "history", "number", "options")


Walk = tuple[Mariant, list[dict[str, Any]], bool]


def walk(draw: st.DrawFn, game: Mariant, dealt: bool, max_steps: int = 120) -> Walk:
    """Random legal moves and undos from ``game``; returns it, the JSON after each step, and
    whether it started from a deal (only then does its record replay)."""
    states = [game.to_json()]
    for _ in range(draw(st.integers(0, max_steps))):
        if game.won:
            break
        if game.can_undo and draw(st.integers(0, 9)) == 0:
            game.undo()
        else:
            moves = game.legal_moves()
            if not moves:
                break
            # Deal only now and then, so the walks also reach empty columns and removals.
            others = [m for m in moves if m != "d"]
            if others and draw(st.integers(0, 3)):
                moves = others
            game.play(moves[draw(st.integers(0, len(moves) - 1))])
        states.append(game.to_json())
    return game, states, dealt


@st.composite
def dealt_games(draw: st.DrawFn) -> Walk:
    """A dealt game after a random sequence of legal moves and undos."""
    fd, fu = draw(SETUPS)
    return walk(draw, Mariant.new(draw(NUMBERS), fd=fd, fu=fu), True)


def chains(rnd: Any, suits: list[str]) -> list[list[str]]:
    """K..A valid groups, one per suit in ``suits``, each rank holding the same suit multiset.

    Rank by rank the suits are permuted at random among the chains, avoiding a card on its
    partner; half the time the permutation is kept, so same-suit runs are common.
    """
    partner = {"S": "C", "C": "S", "H": "D", "D": "H"}
    level = suits[:]
    rnd.shuffle(level)
    out = [[c] for c in level]
    for _ in range(12):
        nxt = level[:]
        if rnd.random() < 0.5:
            for _try in range(60):
                rnd.shuffle(nxt)
                if all(n != partner[p] for n, p in zip(nxt, level, strict=True)):
                    break
            else:
                nxt = level[:]
        level = nxt
        for chain, s in zip(out, level, strict=True):
            chain.append(s)
    return [[r + s for r, s in zip(SUIT_RANKS, chain, strict=True)] for chain in out]


@st.composite
def odd_positions(draw: st.DrawFn) -> Walk:
    """Positions no deal gives at once: cut K..A groups stacked at random, some single-suit
    (removable), some cards in the stock, empty columns, random face-down counts."""
    rnd = draw(st.randoms(use_true_random=False))
    single = draw(st.lists(st.sampled_from("SHDC"), max_size=3, unique=True))
    suits = [s for s in "SHDC" for _ in range(2 - single.count(s))]
    groups = chains(rnd, suits) + [suit(s).split() for s in single]
    pieces = []
    for group in groups:
        cuts = sorted(rnd.sample(range(1, 13), rnd.randint(0, 3)))
        pieces += [group[a:b] for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
    rnd.shuffle(pieces)
    stock: list[str] = []
    columns: list[list[str]] = [[] for _ in range(10)]
    for piece in pieces:
        where = rnd.randrange(14)
        (stock if where >= 10 else columns[where]).extend(piece)
    texts = []
    for col in columns:
        down = rnd.randrange(len(col)) if col else 0
        texts.append(" ".join(col[:down]) + " | " + " ".join(col[down:]))
    fd, fu = draw(SETUPS)
    game = position(texts, stock=stock, fd=fd, fu=fu)
    return walk(draw, game, False)


@st.composite
def auto_positions(draw: st.DrawFn) -> Walk:
    return walk(draw, draw(auto_boards()), False)


POSITIONS = st.one_of(dealt_games(), odd_positions(), auto_positions())


FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@FAST
@given(POSITIONS)
def test_cards_are_conserved(played: Walk) -> None:
    game, states, _ = played
    for data in states:
        assert card_counts(Mariant.from_json(data)) == ALL
    assert all(len(col) >= down for col, down in zip(game.columns, game.face_down, strict=True))
    assert all(not col or down < len(col)
               for col, down in zip(game.columns, game.face_down, strict=True))


@pytest.mark.slow
@FAST
@given(POSITIONS, st.data())
def test_undo_restores_the_previous_position(played: Walk,
                                             data: st.DataObject) -> None:
    """Undo restores board, stock, removed suits and history; it adds 2 points, may set the
    cheater flag and appends ``undo`` to the actions; nothing else changes."""
    game, _, _ = played
    moves = game.legal_moves()
    if game.won or not moves:
        return
    before = game.to_json()
    move = data.draw(st.sampled_from(moves))
    canon = game.canonical(move)
    down = sum(game.face_down)
    game.play(move)
    warn = game.undo_flags_cheater
    assert warn == (canon == "d" or sum(game.face_down) < down)
    raw = game.raw_points
    game.undo()
    after = game.to_json()
    for key in UNDO_RESTORES:
        assert after[key] == before[key], key
    assert game.raw_points == raw + 2
    assert after["points"]["undos"] == before["points"]["undos"] + 1
    assert after["cheater"] == (before["cheater"] or warn)
    assert after["actions"] == before["actions"] + [canon, "undo"]


@pytest.mark.slow
@FAST
@given(POSITIONS, st.data())
def test_every_listed_move_is_accepted(played: Walk,
                                       data: st.DataObject) -> None:
    game, _, _ = played
    for move in game.legal_moves():
        other = game.copy()
        other.play(move)
        assert other.actions[-1] == game.canonical(move)
        assert card_counts(other) == ALL


@pytest.mark.slow
@FAST
@given(POSITIONS, st.text(alphabet="0123456789:>rdauto ", max_size=6))
def test_refused_moves_change_nothing(played: Walk,
                                      text: str) -> None:
    game, _, _ = played
    before = game.to_json()
    legal = set(game.legal_moves())
    try:
        canon = game.canonical(text)
    except IllegalMove:
        canon = None
    try:
        game.play(text)
    except IllegalMove as exc:
        assert str(exc)
        assert canon not in legal
        assert game.to_json() == before
    else:
        assert canon in legal


@pytest.mark.slow
@FAST
@given(POSITIONS)
def test_json_round_trip(played: Walk) -> None:
    game, _, _ = played
    data = game.to_json()
    again = Mariant.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert again.legal_moves() == game.legal_moves()
    assert again.undo_flags_cheater == game.undo_flags_cheater
    assert again.status == game.status


@pytest.mark.slow
@FAST
@given(dealt_games())
def test_replaying_the_record_gives_the_same_game(played: Walk) -> None:
    game, _, _ = played
    data = game.to_json()
    replayed = Mariant.replay(game.record())
    assert replayed.to_json() == data
    assert replayed.score == game.score


@st.composite
def auto_boards(draw: st.DrawFn) -> Mariant:
    """Random Auto Ending boards: K..A groups of mixed suits in random columns."""
    removed = draw(st.lists(st.sampled_from("SHDC"), max_size=6).filter(
        lambda s: all(s.count(x) <= 2 for x in "SHDC")))
    suits = [s for s in "SHDC" for _ in range(2 - removed.count(s))]
    rnd = draw(st.randoms(use_true_random=False))
    groups = chains(rnd, suits)
    slots = rnd.sample(range(10), len(groups))
    columns = [""] * 10
    for slot, group in zip(slots, groups, strict=True):
        columns[slot] = " ".join(group)
    return position(columns, stock=[], removed="".join(removed))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(auto_boards())
def test_auto_ending_always_wins(game: Mariant) -> None:
    if game.won:
        assert not game.auto_ending_available
        return
    assert game.auto_ending_available
    plan = auto_ending_plan([list(c) for c in game.columns])
    game.play("auto")
    assert game.won
    assert game.raw_points == len(plan)
    assert card_counts(game) == ALL
    data = game.to_json()
    assert Mariant.from_json(data).to_json() == data
