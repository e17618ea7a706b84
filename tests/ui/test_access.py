"""The mouse and the describe key on the screens themselves: a click on the text of any
screen is the key written there; a click on each game's board is the place the board draws
there; F9's sentences say what the engine holds, card for card and stone for stone; and
the page of words gives the screen back as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pyteterm import QueueTerminal, ScreenCaller

from door.config import load_settings
from door.games.anciento import Anciento
from door.games.auntmary import AuntMary
from door.games.cards import Card
from door.games.mariant import Mariant
from door.games.montecarlo import SIZE, MonteCarlo
from door.session import Services, Session
from door.term import Key
from door.ui.anciento.pointer import square_at
from door.ui.anciento.screen import AncientoScreen, square_origin
from door.ui.anciento.stones import SHAPE_NAMES
from door.ui.anciento.words import board_words as anciento_words
from door.ui.auntmary.pointer import depth_at, pile_at, slot_at
from door.ui.auntmary.screen import SLOT_COL, UP_TOP, AuntMaryScreen, pile_left
from door.ui.auntmary.words import board_words as auntmary_words
from door.ui.mariant.board import CARDS_TOP, column_x, fitted_column
from door.ui.mariant.pointer import board_keys as mariant_keys
from door.ui.mariant.pointer import cell_at
from door.ui.mariant.screen import MariantScreen
from door.ui.mariant.words import board_words as mariant_words
from door.ui.montecarlo.pointer import position_at
from door.ui.montecarlo.screen import MonteCarloScreen, cell_origin
from door.ui.montecarlo.words import board_words as montecarlo_words
from door.ui.shared import access
from door.ui.shared.pointer import key_at

REPO = Path(__file__).resolve().parents[2]
SETTINGS = load_settings(REPO)
RANKS = {1: "Ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
         10: "10", 11: "Jack", 12: "Queen", 13: "King"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def said(card: Card) -> str:
    return f"{RANKS[card.rank]} of {SUITS[card.suit]}"


CLICKS = [  # a row of some screen; where a click falls (the text there); the key it means
    ("  ║  [M]  Mariant (Marie Antoinette)   ║", [("[M]", "m"), ("Mariant", "m"),
                                                  ("(Marie", "m"), ("║", None)]),
    (" Enter: random deal · W winnable only · Esc: back",
     [("Enter", "enter"), ("random", "enter"), ("W ", "w"), ("only", "w"), ("Esc", "esc"),
      ("·", None)]),
    (" Enter 1-6 W F: pick/drop · H home · U/R undo/redo",
     [("Enter", "enter"), ("1-6", "enter"), ("W F", "w"), ("F:", "f"), ("pick", "enter"),
      ("home", "h"), ("R undo", "r"), ("U/", "u"), ("redo", "u")]),
    (" Leave this game? (Y/n)", [("Y/", "y"), ("n)", "n"), ("Leave", None), ("(Y", None)]),
    ("   Press any key to continue", [("Press", "enter"), ("continue", "enter")]),
    (" ║ W  Winnable deals only: off  ║", [("W ", "w"), ("deals", "w"), ("off", "w")]),
    (" Score 12  · V still winnable? · ? keys", [("12", None), ("still", "v"), ("keys", "?")]),
    (" -- More (page 1/2) -- Space/Enter/PgDn: next",
     [("More", None), ("1/2", None), ("Space", " "), ("Enter/", "enter"), ("PgDn", "pgdn"),
      ("next", " ")]),
    ("Row 3: a3, 4 of spades · ok", [("3:", None), ("a3", None), ("4 of", None)]),
    (" -/+ back/fwd · X end", [("-/", "-"), ("+ ", "+"), ("fwd", "-"), ("end", "x")]),
]


@pytest.mark.parametrize(("row", "clicks"), CLICKS)
def test_a_click_on_a_screens_text_is_the_key_written_there(
        row: str, clicks: list[tuple[str, str | None]]) -> None:
    for where, meant in clicks:
        key = key_at(row, row.index(where))
        assert (None if key is None else key.char or key.name) == meant, where


def session(rows: int = 24) -> Session:
    return Session(QueueTerminal(rows=rows), Services(SETTINGS))


def test_monte_carlo_cells_answer_where_they_are_drawn() -> None:
    for p in range(SIZE * SIZE):
        row, col = cell_origin(p)
        assert [position_at(row, col + i) for i in range(6)] == [p] * 6
        assert position_at(row, col - 1) is None and position_at(row + 1, col) is None


def test_anciento_squares_answer_where_they_are_drawn() -> None:
    game = Anciento.new(7)
    for square in range(game.geo.size):
        row, col = square_origin(game, square)
        assert [square_at(game, row, col + i) for i in range(3)] == [square] * 3
        assert square_at(game, row, col - 1) is None and square_at(game, row - 1, col) is None


def test_aunt_mary_places_answer_where_they_are_drawn() -> None:
    screen = AuntMaryScreen(session(), AuntMary.new(16))
    for k in range(6):
        assert pile_at(pile_left(k)) == pile_at(pile_left(k) + 5) == k
    for spot, col in SLOT_COL.items():
        row = 3 if spot in "sw" else 7
        assert slot_at(row, col + 1) == spot
    game = screen.game
    up = len(game.columns[0]) - game.face_down[0]
    assert [depth_at(screen, 0, UP_TOP + i) for i in range(up)] == list(range(up, 0, -1))


def test_a_click_on_a_long_mariant_column_finds_the_card_drawn_there() -> None:
    state = Mariant.new(3).to_json()  # 22 cards of the stock on column 1: a long column
    state["columns"][0]["up"] += state["stock"][:22]
    state["stock"] = state["stock"][22:]
    game = Mariant.from_json(state)
    screen = MariantScreen(session(), game)
    down, up = game.visible()[0]
    cells = fitted_column(down, len(up), 24 - 4 - CARDS_TOP, game.group_length(0))
    assert any(cell.kind == "more" for cell in cells)  # compressed: "+k" hides some
    for i, cell in enumerate(cells):
        assert cell_at(screen, 0, CARDS_TOP + i) == cell
    last = CARDS_TOP + len(cells) - 1  # the top card: that one card selected
    keys = mariant_keys(screen, Key("click", "", column_x(0) + 3, last))
    group = game.group_length(0)
    assert keys == [Key("enter")] + [Key("down")] * (group - 1)
    assert screen.cursor == 0


def montecarlo_screen() -> MonteCarloScreen:
    game = MonteCarlo.new(11982)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    screen = MonteCarloScreen(session(), game)
    screen.picked, screen.cursor = 7, 12
    return screen


def test_monte_carlo_in_words_is_the_engines_grid() -> None:
    screen = montecarlo_screen()
    game = screen.game
    lines = montecarlo_words(screen)
    for r in range(SIZE):
        row = next(line for line in lines if line.startswith(f"Row {r + 1}:"))
        for c in range(SIZE):
            card = game.grid[r * SIZE + c]
            assert f"{'abcde'[c]}{r + 1}, {said(card) if card else 'empty'}" in row
    assert f"Stock: {len(game.stock)} cards" in lines[0]
    assert f"Score {game.score}." in lines[0]
    card = game.grid[7]
    assert f"Picked: c2, {said(card) if card else 'empty'}." in lines
    pairs = next(line for line in lines if line.startswith("Pairs to remove"))
    assert pairs.count(" and ") == len(game.pairs())


def test_mariant_in_words_is_the_engines_columns_and_moves() -> None:
    game = Mariant.new(11982, fd=2, fu=1)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    screen = MariantScreen(session(), game)
    lines = mariant_words(screen)
    for col, (down, up) in enumerate(game.visible()):
        line = lines[1 + col]
        assert line.startswith(f"Column {'1234567890'[col]}: ")
        assert (f"{down} face down" in line) == bool(down)
        assert ", ".join(said(card) for card in up) in line
    moves = next(line for line in lines if line.startswith("Moves: "))
    counted = [m for m in game.legal_moves()
               if ">" in m and (game.columns[int(m[-1]) - 1 if m[-1] != "0" else 9]
                                or ":" not in m)]
    more = re.search(r"and (\d+) more", moves)
    shown = moves.count(" onto column ")
    assert shown + (int(more.group(1)) if more else 0) >= len(counted) > 0


def test_aunt_mary_in_words_is_the_engines_piles() -> None:
    game = AuntMary.new(16)
    for move in ("1:1>2", "2:2>4", "s", "s"):
        game.play(move)
    screen = AuntMaryScreen(session(), game)
    lines = auntmary_words(screen)
    text = "\n".join(lines)
    for k in range(6):
        col, down = game.columns[k], game.face_down[k]
        line = next(line for line in lines if line.startswith(f"Column {k + 1}:"))
        assert (f"{down} face down" in line) == bool(down)
        assert ", ".join(said(card) for card in col[down:]) in line
    assert f"Stock: {len(game.stock)} cards. Waste: {said(game.waste[-1])} on top" in text
    moves = next(line for line in lines if line.startswith("Moves: "))
    more = re.search(r"and (\d+) more", moves)
    assert moves.count(", ") + 1 - (1 if more else 0) + (int(more.group(1)) if more else 0) \
        >= len(game.legal_moves())


def test_anciento_in_words_is_the_engines_board() -> None:
    game = Anciento.new(505)
    for _ in range(5):
        game.play(game.square_name(game.legal_squares()[0]))
    screen = AncientoScreen(session(), game)
    text = "\n".join(anciento_words(screen))
    for square, stone in enumerate(game.board):
        if stone is not None:
            assert (f"{game.square_name(square)} {SHAPE_NAMES[stone.shape]} "
                    f"{stone.pattern + 1}") in text
    for name, points in game.check():
        assert f"{name} ({points} point" in text
    assert f"{game.stones_left} stones left" in text


class MonteCarloCaller(ScreenCaller):
    screen_class = MonteCarloScreen


async def test_f9_shows_the_words_and_gives_the_board_back() -> None:
    caller = MonteCarloCaller(SETTINGS)
    access.start(caller.session)  # as a visit does
    caller.send("11982\r")
    await caller.wait_for("Monte Carlo #11982")
    await caller.settle()
    board = caller.term.lines
    caller.send(b"\x1b[20~")
    await caller.wait_for("The screen in words")
    game = MonteCarlo.new(11982)
    assert f"a1, {said(game.grid[0])}" in caller.text.replace("\n", " ")  # type: ignore[arg-type]
    caller.send(b"\x1b[20~")  # F9 again: back
    await caller.wait_until(lambda: caller.term.lines == board, "the board came back")
    caller.send(b"\x1b[<0;7;5M")  # a click: the mouse was not asked for here (QueueTerminal
    await caller.settle()  # says no terminal type): nothing happens
    assert caller.term.lines == board
    caller.session.set_mouse(True)
    caller.send(b"\x1b[<0;7;5M")  # now a1 is picked
    await caller.wait_until(lambda: "»" in caller.term.lines[4][5:11], "a1 picked")
    await caller.close()


def test_aunt_mary_clicks_pick_exactly_the_cards_clicked_and_the_right_button_sends_home(
        ) -> None:
    from door.ui.auntmary.pointer import board_keys

    game = AuntMary.new(16)
    screen = AuntMaryScreen(session(), game)
    up = len(game.columns[1]) - game.face_down[1]
    assert board_keys(screen, Key("click", "", pile_left(1) + 2, UP_TOP + up - 1)) == [
        Key("enter")]
    assert (screen.spot, screen.depth) == ("2", 1)
    assert board_keys(screen, Key("right-click", "", pile_left(4) + 1, UP_TOP)) == [
        Key("char", "h")]
    assert screen.spot == "5"
    screen.picked = ("2", 1)  # something picked up: put back first, then home
    assert board_keys(screen, Key("right-click", "", SLOT_COL["w"] + 1, 3)) == [
        Key("esc"), Key("char", "h")]
    assert board_keys(screen, Key("click", "", 79, 22)) is None  # off the board


def test_mariant_clicks_on_the_selection_choose_its_first_card_then_drop_it() -> None:
    game = Mariant.new(11982, fd=2, fu=1)
    while not any(game.group_length(c) > 1 for c in range(10)):
        game.play(next(m for m in game.legal_moves() if ">" in m))
    col = next(c for c in range(10) if game.group_length(c) > 1)
    group = game.group_length(col)
    screen = MariantScreen(session(), game)
    screen.sel, screen.count = col, group
    down, up = game.visible()[col]
    rows = fitted_column(down, len(up), 24 - 4 - CARDS_TOP, group)
    top = CARDS_TOP + len(rows) - 1  # the column's last card: one card selected
    x = column_x(col) + 3
    assert mariant_keys(screen, Key("click", "", x, top)) == [Key("down")] * (group - 1)
    first = top - group + 1  # the group's first card: the whole group, as selected
    assert mariant_keys(screen, Key("click", "", x, first)) == [Key("esc")]
    other = (col + 1) % 10
    assert mariant_keys(screen, Key("click", "", column_x(other) + 3, CARDS_TOP)) == [
        Key("enter")]
    assert screen.cursor == other


@pytest.mark.parametrize(("row", "col", "key"), [
    ("║ [E] or Enter  end the game here ║", 3, "e"), ("║ [U]  take the last move back", 2, "u"),
    ("can no longer be undone. Go on? (y/N)", 33, "y"),
    ("can no longer be undone. Go on? (y/N)", 35, "n"), ("│  K♦  │  7♥  │", 3, None),
    ("║ [E] or Enter", 6, None),
])
def test_a_box_key_or_a_question_wins_over_the_board(row: str, col: int,
                                                     key: str | None) -> None:
    """The end offer and the questions are drawn over a game's board: a click on their
    ``[E]`` or ``(y/N)`` is theirs, never the cell's underneath."""
    from door.ui.shared.pointer import box_key_at

    found = box_key_at(row, col)
    assert (found.char if found is not None else None) == key
