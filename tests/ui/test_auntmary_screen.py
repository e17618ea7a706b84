"""Aunt Mary on screen, end to end: keys in, pyte screen out.

Most tests feed a real :class:`Session` through a queue-backed Terminal whose output goes to
a pyte screen (fast, no sockets); one test plays through the real telnet door.  What the
screen shows is always compared with an engine that played the same moves, never with
numbers written into the test.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from pyteterm import ScreenCaller, TelnetCaller, instructions_text
from waiting import WAIT

from door.catalog.registry import hint, solve
from door.config import Settings
from door.games.auntmary import AuntMary
from door.games.cards import SUITS, Card, new_deck
from door.games.hints import simplify
from door.ui.auntmary.screen import (
    DOWN_ROW,
    FOUNDATION_ROW,
    PILES,
    SLOT_COL,
    STOCK_ROW,
    UP_TOP,
    AuntMaryScreen,
    describe,
    pile_left,
    tip_target,
)
from door.ui.game import replay
from door.ui.shared.cards import card_label
from door.ui.shared.keymap import SHARED

REPO = Path(__file__).resolve().parents[2]
NUMBER = 2
UP, DOWN, RIGHT, LEFT = "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D"



class Caller(ScreenCaller):
    """Drives ``play_game`` for Aunt Mary and reads its screen."""

    screen_class = AuntMaryScreen

    async def start(self, number: int) -> None:
        await self.wait_for("Game number:")
        self.send(f"{number}\r")
        await self.wait_for(f"Aunt Mary #{number}")

    def column(self, k: int) -> list[str]:
        """Column ``k``'s (1-based) face-up cards as shown, bottom first."""
        left = pile_left(k - 1)
        cards = []
        for row in range(UP_TOP, self.session.screen.rows - 3):
            label = self.term.lines[row][left + 2:left + 4]
            if label.strip() in ("", "··"):
                break
            cards.append(label)
        return cards

    def down(self, k: int) -> str:
        left = pile_left(k - 1)
        return self.term.lines[DOWN_ROW][left + 1:left + 5]

    def slot(self, spot: str, row: int) -> str:
        """A panel place's six cells: brackets and the four between."""
        return self.term.lines[row][SLOT_COL[spot]:SLOT_COL[spot] + 6]


def shown(game: AuntMary, k: int) -> list[str]:
    """What column ``k`` should show: its face-up cards, bottom first."""
    return [card_label(c) for c in game.columns[k - 1][game.face_down[k - 1]:]]


def assert_board(caller: Caller, game: AuntMary) -> None:
    for k in range(1, 7):
        assert caller.column(k) == shown(game, k), f"column {k}"
        down = game.face_down[k - 1]
        assert caller.down(k) == (f"▒▒ {down}" if down else "    "), f"column {k}"
    assert f"Stock {len(game.stock)} " in caller.text
    assert f"Waste {len(game.waste)} " in caller.text
    assert f"Home {game.score} of 52" in caller.text
    for suit in SUITS:
        rank = game.foundations[suit]
        expected = card_label(Card(rank, suit)) if rank else "·" + card_label(Card(1, suit))[1]
        assert expected in caller.slot("f" + suit, FOUNDATION_ROW)


def build(columns: list[tuple[list[str], list[str]]], foundations: dict[str, int] | None = None,
          stock: list[str] | None = None, waste: tuple[str, ...] = (), redeals: int = 0,
          number: int = 5) -> AuntMary:
    """A position to play from (no history).  Cards not placed go face down under the
    columns in turn when ``stock`` is given, else into the stock."""
    foundations = foundations or dict.fromkeys(SUITS, 0)
    placed = {c for down, up in columns for c in down + up} | set(waste) | set(stock or [])
    placed |= {str(Card(r, s)) for s, top in foundations.items() for r in range(1, top + 1)}
    rest = [str(c) for c in new_deck(1) if str(c) not in placed]
    tableau = [{"down": list(down), "up": list(up)} for down, up in columns]
    if stock is None:
        stock = rest
    else:
        for i, card in enumerate(rest):
            tableau[i % len(tableau)]["down"].insert(0, card)
    return AuntMary.from_json({
        "game": "auntmary", "number": number, "options": {}, "tableau": tableau,
        "stock": stock, "waste": list(waste), "foundations": foundations,
        "redeals": redeals, "actions": []})


async def caller_for(settings: Settings, monkeypatch, game: AuntMary, **terminal: Any) -> Caller:
    """A caller whose next game is ``game`` (the screen's ``choose_game`` returns it).  A
    built position with no way forward opens with the end offer: Esc plays on."""
    Caller.dealing(monkeypatch, game)   # the test keeps its own to play along
    caller = Caller(settings, **terminal)
    await caller.wait_for(f"Aunt Mary #{game.number}")
    if game.no_moves_left or game.cannot_win:
        await caller.wait_for(OFFER_END)
        caller.send("\x1b")
        await caller.wait_until(lambda: OFFER_END not in caller.text, "the offer gone")
    return caller


OFFER_END = "[E] or Enter  end the game here"


@pytest.fixture
async def caller(settings: Settings):
    c = Caller(settings)
    yield c
    await c.close()


async def test_numbered_deal_is_on_screen(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = AuntMary.new(NUMBER)
    assert_board(caller, game)
    assert "Pass 1 of 3" in caller.text and "Score 0" in caller.text
    top = UP_TOP + len(shown(game, 1)) - 1
    assert caller.term.lines[top][pile_left(0)] == "["            # the cursor: column 1's top


@pytest.mark.slow
async def test_hot_keys_move_a_card_and_undo_redo(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = AuntMary.new(NUMBER)
    start = [caller.column(k) for k in range(1, 7)]
    move = next(m for m in game.legal_moves() if ">" in m and m[0].isdigit()
                and m[-1].isdigit())
    src, dst = move[0], move[-1]
    caller.send(src)
    await caller.settle()
    top_row = UP_TOP + len(caller.column(int(src))) - 1
    assert caller.term.lines[top_row][pile_left(int(src) - 1) + 1] == "»"   # picked up
    caller.send(dst)
    game.play(f"{src}>{dst}")
    await caller.settle()
    assert_board(caller, game)
    assert [caller.column(k) for k in range(1, 7)] != start
    caller.send("u")
    await caller.wait_for("Undone.")
    assert [caller.column(k) for k in range(1, 7)] == start
    caller.send("r")
    await caller.wait_for("Redone.")
    assert_board(caller, game)
    caller.send("u\x19")                                   # Ctrl-Y redoes as well
    await caller.settle()
    assert_board(caller, game)
    caller.send("uu")
    await caller.wait_for("No undo: nothing to undo.")


@pytest.mark.slow
async def test_illegal_move_says_why_and_changes_nothing(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = AuntMary.new(NUMBER)
    src, dst = next((a, b) for a in "123456" for b in "123456" if a != b
                    and not any(m.startswith(a) and m.endswith(">" + b)
                                for m in game.legal_moves()))
    bells = caller.bells
    caller.send(src + dst)
    top = game.columns[int(dst) - 1][-1]
    await caller.wait_for(f"Nothing in column {src} fits on {card_label(top)}.")
    assert caller.bells == bells + 1
    assert_board(caller, game)
    assert "»" not in caller.text                          # the cards were put back
    caller.send("w")
    await caller.wait_for("The waste is empty: S turns a card from the stock.")
    assert caller.bells == bells + 2


@pytest.mark.slow
async def test_cursor_picks_a_run_with_up_and_drops_it(settings: Settings, monkeypatch) -> None:
    game = build([([], ["KS", "9S", "8H", "7C"]), ([], ["TD"]), ([], ["2C"]), ([], ["3C"]),
                  ([], ["4C"]), ([], ["5C"])])
    caller = await caller_for(settings, monkeypatch, game)
    left = pile_left(0)
    caller.send(UP + UP)
    await caller.settle()
    rows = caller.term.lines
    assert rows[UP_TOP + 1][left] + rows[UP_TOP + 1][left + 5] == "[]"   # 9♠: the deepest
    assert rows[UP_TOP + 2][left] + rows[UP_TOP + 3][left] == "││"
    caller.send(UP)
    await caller.wait_for("K♠ does not take 9♠: the top 3 cards move together.")
    caller.send("\r" + RIGHT + " ")
    game.play("1:3>2")
    await caller.settle()
    assert_board(caller, game)
    assert caller.column(2) == ["T♦", "9♠", "8♥", "7♣"]
    caller.send(UP * 3 + "u")           # the cursor held 4 cards; after the undo, T♦ alone
    await caller.wait_for("Undone.")
    caller.send("\r")
    await caller.settle()
    left = pile_left(1)
    assert caller.term.lines[UP_TOP][left:left + 6] == "[»T♦ ]"
    await caller.close()


async def test_stock_turns_and_redeals_up_to_three_passes(settings: Settings,
                                                          monkeypatch) -> None:
    game = build([([], ["KS"]), ([], ["KH"]), ([], ["KD"]), ([], ["KC"]), ([], ["5S"]),
                  ([], ["9H"])], stock=["2C"], redeals=1)
    caller = await caller_for(settings, monkeypatch, game)
    assert "Pass 2 of 3" in caller.text
    caller.send("s")
    await caller.wait_for("Waste 1 ")
    assert "2♣" in caller.slot("w", STOCK_ROW) and "S: redeal" in caller.text
    caller.send("s")
    await caller.wait_for("Pass 3 of 3: the waste is the stock again.")
    caller.send("s")
    await caller.wait_for(OFFER_END)                       # stuck: nothing left to turn
    caller.send("\x1b")
    await caller.wait_until(lambda: OFFER_END not in caller.text, "the offer gone")
    caller.send("s")
    await caller.wait_for("No redeal left: this was the last of 3 passes")
    assert "stock done" in caller.text
    await caller.close()


async def test_send_home_by_key_and_by_enter_twice(settings: Settings, monkeypatch) -> None:
    game = build([([], ["KS", "AH"]), ([], ["2H"]), ([], ["KC"]), ([], ["QD"]), ([], ["JS"]),
                  ([], ["TD"])], stock=[], waste=("3H",))
    caller = await caller_for(settings, monkeypatch, game)
    caller.send("h")                                       # the cursor starts on column 1
    await caller.wait_for("A♥ home.")
    caller.send(RIGHT + "\r\r")                            # 2♥: Enter twice
    await caller.wait_for("2♥ home.")
    caller.send("ww")                                      # the waste card, W twice
    await caller.wait_for("3♥ home.")
    game.play("1>f")
    game.play("2>f")
    game.play("w>f")
    assert_board(caller, game)
    assert "Score 3" in caller.text
    caller.send("5h")
    await caller.wait_for("J♠ cannot go to its foundation yet")
    await caller.close()


async def test_foundation_card_comes_back_down(settings: Settings, monkeypatch) -> None:
    found = {"S": 0, "H": 5, "D": 0, "C": 0}
    game = build([([], ["6S"]), ([], ["KC"]), ([], ["KD"]), ([], ["KS"]), ([], ["2C"]),
                  ([], ["3C"])], foundations=found)
    caller = await caller_for(settings, monkeypatch, game)
    assert "5♥" in caller.slot("fH", FOUNDATION_ROW)
    caller.send("f")                                       # the cursor walks to the ♥ pile
    await caller.settle()
    assert caller.slot("fH", FOUNDATION_ROW).startswith("[")
    caller.send("\r1")
    await caller.wait_for("5♥ taken back from its foundation.")
    game.play("fH>1")
    assert_board(caller, game)
    assert "Score 4" in caller.text
    caller.send("2f")                                      # K♣ picked, dropped on the piles
    await caller.wait_for("K♣ cannot go to its foundation yet")
    await caller.close()


@pytest.mark.slow
async def test_tip_is_the_solvers_move_and_puts_the_cursor_on_it(caller: Caller) -> None:
    """T: the first move of the solver's winning line (deal 3 can be won), where it goes
    lit; played, the next T is the line's next move."""
    await caller.start(3)
    game = AuntMary.new(3)
    line = simplify(game, solve("auntmary", 3).line or [])
    for move in line[:2]:
        caller.send("p")
        await caller.wait_for(f"Hint: {describe(game, move)}", timeout=60)
        target = tip_target(game, move)
        if target in PILES and game.columns[int(target) - 1]:   # where the cards go: lit
            assert f"*{card_label(game.columns[int(target) - 1][-1])}*" in caller.text
        caller.send(hot_keys(move))
        game.play(move)
        await caller.wait_until(lambda: f"Stock {len(game.stock)} " in caller.text
                                and f"Score {game.score} " in caller.text, "played")


def hot_keys(move: str) -> str:
    """The keys that play a move of a column, the waste or the stock (``2>5``: pick up
    column 2, drop on 5 -- as many cards as fit, the only count that does)."""
    if move in ("s", "r"):
        return "s"
    src, dst = move.split(">")
    assert not src.startswith("f"), "foundation cards back down: use the cursor"
    return src.split(":")[0] + dst


@pytest.mark.slow
async def test_with_no_win_left_the_tip_says_so_and_gives_the_best_score(caller: Caller
                                                                         ) -> None:
    await caller.start(NUMBER)                       # deal 2: nobody can win it
    best = hint("auntmary", NUMBER, seconds=10).best
    assert best
    caller.send("p")
    await caller.wait_for(f"No win is left. Best score: {describe(AuntMary.new(NUMBER), best[0])}",
                          timeout=60)


async def test_stuck_brings_the_end_offer(settings: Settings, monkeypatch) -> None:
    """Stuck: the end offer says so; Esc looks at the board (the panel keeps saying it), X
    brings the offer back, U there takes the move back, and E ends the game: the end box
    says why.  Resigning is for a game that goes on, and asks first (default No)."""
    game = build([([], ["KS"]), ([], ["KH"]), ([], ["KD"]), ([], ["KC"]), ([], ["5S"]),
                  ([], ["9H"])], stock=["2C"], waste=("4H",), redeals=2)
    assert not game.stuck
    caller = await caller_for(settings, monkeypatch, game)
    assert "Stuck" not in caller.text
    caller.send("s")                                       # 4♥ goes under 2♣ for good
    await caller.wait_for(OFFER_END)
    assert "Stuck: no move of any kind is left." in caller.text
    assert "[U]  take the last move back" in caller.text
    caller.send("\x1b")
    await caller.wait_until(lambda: OFFER_END not in caller.text, "the offer gone")
    assert "Stuck: no move of any kind is left. U takes back, X ends the game." in caller.text
    assert "Stuck: X ends, U undoes" in caller.text        # and it stays in the panel
    caller.send("x")
    await caller.wait_for(OFFER_END)
    caller.send("u")
    await caller.wait_for("Undone.")
    assert OFFER_END not in caller.text and "Stuck" not in caller.text
    caller.send("x")
    await caller.wait_for("Resign? The game ends now with 0 cards home, out of the hall of "
                          "fame. (y/N)")
    caller.send("\r")                                      # Enter: No
    await caller.wait_for("Play on.")
    caller.send("s")
    await caller.wait_for(OFFER_END)
    caller.send("e")
    await caller.wait_for("Final score: 0")
    assert "Stuck: no move of any kind is left." in caller.text
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


async def test_no_way_forward_is_not_stuck_while_moves_remain(settings: Settings,
                                                              monkeypatch) -> None:
    """The issue's case: a stock card left and a pass to come, none of any use.  The screen
    says so (proven), never "Stuck", and the tip does not offer a useless move; "Stuck"
    comes only when no move of any kind is left."""
    game = build([([], ["KS"]), ([], ["KH"]), ([], ["KD"]), ([], ["KC"]), ([], ["5H"]),
                  ([], ["9H"])], stock=["2C"], waste=("4H",), redeals=1)
    assert game.legal_moves() == ["s"] and game.hopeless and not game.stuck
    caller = await caller_for(settings, monkeypatch, game)  # the offer, turned down
    assert "Pass 2 of 3" in caller.text and "Stock 1" in caller.text
    assert "No way forward: X, U" in caller.text and "Stuck" not in caller.text
    caller.send("p")
    await caller.wait_for("No tip: no way forward: no move can send a card home or turn one")
    for _ in range(3):                                     # turn, redeal, turn: moves remain
        caller.send("s")
        await caller.settle()
        assert "Stuck" not in caller.text and "No way forward: X, U" in caller.text
        assert OFFER_END not in caller.text               # turned down: not made again
    caller.send("s")                                       # the last card of the last pass
    await caller.wait_for(OFFER_END)                       # stuck now: another reason
    assert "Stuck: no move of any kind is left." in caller.text
    caller.send("\x1b")
    await caller.wait_until(lambda: OFFER_END not in caller.text, "the offer gone")
    assert "Stuck: no move of any kind is left. U takes back, X ends the game." in caller.text
    assert "Pass 3 of 3 · stock done" in caller.text
    caller.send("u")                                       # a move again: no longer stuck
    await caller.wait_for(OFFER_END)                       # a take back: offered again
    assert "No way forward: no move can send a card home" in caller.text
    caller.send("\x1b")
    await caller.wait_until(lambda: OFFER_END not in caller.text, "the offer gone")
    assert "Stuck" not in caller.text and "No way forward: X, U" in caller.text
    await caller.close()


async def test_finish_a_near_won_game(settings: Settings, monkeypatch) -> None:
    game = build([([], ["KC"])] + [([], [])] * 5,
                 foundations={"S": 13, "H": 13, "D": 13, "C": 12})
    caller = await caller_for(settings, monkeypatch, game)
    caller.send("1f")
    await caller.wait_for("You won!")
    assert "Final score: 52" in caller.text
    assert "[A] again with game #5" in caller.text
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


async def test_auto_finish_is_offered_and_wins(settings: Settings, monkeypatch) -> None:
    game = build([([], ["KS", "QH", "JC"]), ([], ["KH", "QS", "JD"]),
                  ([], ["KD", "QC", "JH"]), ([], ["KC", "QD", "JS"]), ([], []), ([], [])],
                 foundations=dict.fromkeys(SUITS, 10))
    caller = await caller_for(settings, monkeypatch, game)
    await caller.wait_for("Every card can go home now: press A to finish.")
    assert "A: finish" in caller.text
    caller.send("a")
    await caller.wait_for("You won!")
    assert "Final score: 52" in caller.text
    await caller.close()


async def test_tallest_column_fits_24_rows(settings: Settings, monkeypatch) -> None:
    tall = ["3D", "7S", "9C", "2H", "JD", "KS", "QH", "JC", "TH", "9S", "8H", "7C", "6H", "5C",
            "4H", "3C", "2D", "AS"]
    game = build([([], tall), ([], ["KD"]), ([], ["KH"]), ([], ["KC"]), ([], ["QS"]),
                  ([], ["4C"])], stock=[])
    caller = await caller_for(settings, monkeypatch, game)
    assert caller.column(1) == shown(game, 1)
    assert len(caller.column(1)) == 18
    assert "Enter 1-6 W F" in caller.term.lines[21]
    caller.send(UP * 13)
    await caller.wait_for("J♦ does not take K♠: the top 13 cards move together.")
    await caller.close()


async def test_impossibly_tall_column_is_cut_at_the_bottom(settings: Settings,
                                                           monkeypatch) -> None:
    """Play never builds more than 18 face-up cards; a made-up position may: the cards
    nearest the bottom give way to a count, the top run stays in view."""
    cards = [str(c) for c in new_deck(1) if c.suit in "SH"][:20]
    game = build([([], cards), ([], ["KD"]), ([], ["KC"]), ([], []), ([], []), ([], [])])
    caller = await caller_for(settings, monkeypatch, game)
    left = pile_left(0)
    assert caller.term.lines[UP_TOP][left + 1:left + 5] == "+3  "
    rows = [caller.term.lines[r][left + 2:left + 4] for r in range(UP_TOP + 1, 21)]
    assert rows == shown(game, 1)[3:]
    assert "Enter 1-6 W F" in caller.term.lines[21]
    await caller.close()


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
async def test_fits_80_by_24_in_every_charset(settings: Settings, charset: str) -> None:
    caller = Caller(settings, charset=charset)
    await caller.start(NUMBER)
    caller.send("p")
    await caller.wait_for("Hint:", timeout=60)
    caller.send("5?")
    await caller.wait_for("other keys: back")
    caller.send("x")
    await caller.settle()
    lines = caller.term.lines
    assert len(lines) == 24
    assert lines[0].rstrip().endswith(f"Aunt Mary #{NUMBER}")   # nothing scrolled
    assert "Score 0" in lines[23]
    assert caller.term.screen.buffer[23][79].data == " "
    assert caller.session.screen.cells[23][79].ch == " "
    game = AuntMary.new(NUMBER)
    card = game.columns[0][0]
    if charset == "utf8":
        assert caller.column(1)[0] == card_label(card)
        assert caller.down(2) == "▒▒ 1"
    else:   # no CP437 control-range glyphs announced: suits as letters
        assert caller.column(1)[0] == str(card)
    if charset == "ascii":
        assert all(byte < 128 for byte in caller.term.raw)
        assert caller.down(2) == "## 1"
    if charset == "cp437":
        assert caller.down(2) == "▒▒ 1"
    await caller.close()


async def test_monochrome_still_tells_picked_from_cursor(settings: Settings) -> None:
    caller = Caller(settings, charset="ascii", color=False)
    await caller.start(NUMBER)
    caller.send("3" + RIGHT)
    await caller.settle()
    game = AuntMary.new(NUMBER)
    top = UP_TOP + len(shown(game, 3)) - 1
    assert caller.term.lines[top][pile_left(2) + 1] == ">"     # » picked, in ASCII
    assert caller.term.screen.buffer[top][pile_left(2) + 1].reverse
    cursor = UP_TOP + len(shown(game, 4)) - 1
    assert caller.term.lines[cursor][pile_left(3)] == "["      # the cursor, elsewhere
    assert all(not c.fg or c.fg == "default" for line in caller.term.screen.buffer.values()
               for c in line.values())
    await caller.close()


async def test_taller_window_keeps_bottom_rows(settings: Settings) -> None:
    caller = Caller(settings, rows=30)
    await caller.start(NUMBER)
    lines = caller.term.lines
    assert "Score 0" in lines[29] and "Enter 1-6 W F" in lines[27]
    assert caller.term.screen.buffer[29][79].data == " "
    assert_board(caller, AuntMary.new(NUMBER))
    await caller.close()


async def test_through_the_telnet_door(telnet_door) -> None:
    port = await telnet_door()
    caller = await TelnetCaller.at_menu(port, charset="cp437")
    caller.send("a")
    await caller.wait_for("Game number:")
    caller.send(f"{NUMBER}\r")
    await caller.wait_for(f"Aunt Mary #{NUMBER}")
    game = AuntMary.new(NUMBER)
    caller.send("s")
    game.play("s")
    await caller.wait_for(f"Stock {len(game.stock)} ")
    assert str(game.waste[-1]) in caller.term.lines[STOCK_ROW]
    await caller.leave_game()
    caller.close()


def test_instructions_file_is_ours_and_fits() -> None:
    text = instructions_text("auntmary")
    assert text.count("@E@") >= 4
    shared = [a.label for a in SHARED if AuntMaryScreen.keys.has(a.name) and a.label != "F9"]
    for key in ("S", "H", "A", *shared):         # the game's own, and the key map's
        assert f"@H@{key}@B@" in text, key
    for phrase in ("extremely difficult and rarely solvable", "Double clicking on a card",
                   "gradually revealing more cards", "maintaining order"):   # the seed's
        assert phrase not in text


# -- the solvers at the end of a game, and while one works ------------------------------------

async def resign(caller: Caller) -> None:
    caller.send("x")
    await caller.wait_for("out of the hall of fame. (y/N)")
    caller.send("y")
    await caller.wait_for("You resigned.")
    assert "hall of fame!" not in caller.text             # a resigned game takes no place


@pytest.mark.slow
async def test_a_resigned_deal_that_could_be_won_shows_the_line(settings: Settings,
                                                               monkeypatch) -> None:
    from door.catalog.registry import solve

    winning = solve("auntmary", 3)
    assert winning.verdict == "winnable" and winning.line
    caller = await caller_for(settings, monkeypatch, AuntMary.new(3))
    monkeypatch.setattr(replay, "SPEEDS", (0.01,) * 5)        # P plays the line quickly
    await resign(caller)
    await caller.wait_for("This deal could be won: W shows a winning line.", timeout=2 * WAIT)
    moves = len(winning.line)
    caller.send("w")                                       # the replay viewer, on the line
    await caller.wait_for(f"Winning line: the deal, before move 1 of {moves}.")
    caller.send("\r")
    await caller.wait_for(f"Winning line, move 1 of {moves}: {winning.line[0]}.")
    assert "Winning line · ←→ step · P play" in caller.text
    caller.send("p")
    await caller.wait_for(f"Won in {moves} moves.", timeout=4 * WAIT)
    caller.send("q")
    await caller.wait_for("[W] watch a winning line")
    caller.send("w")                                       # again, and Esc goes back at once
    await caller.wait_for("Winning line: the deal")
    caller.send("\x1b")
    await caller.wait_for("[W] watch a winning line")
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


@pytest.mark.slow
async def test_a_deal_nobody_could_win_is_said(settings: Settings, monkeypatch) -> None:
    from door.catalog.registry import solve

    assert solve("auntmary", 2).verdict == "not winnable"
    caller = await caller_for(settings, monkeypatch, AuntMary.new(2))
    await resign(caller)
    await caller.wait_for("Nobody could win deal #2.", timeout=2 * WAIT)
    assert "[W] watch" not in caller.text
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


@pytest.mark.slow
async def test_keys_are_answered_while_a_long_solve_runs(settings: Settings,
                                                         monkeypatch) -> None:
    """The deal's verdict is asked when play starts; deal 55 keeps a worker busy for the
    whole 10 s budget, and the caller's keys are answered meanwhile."""
    from dataclasses import replace

    from door.solvers.pool import solver_pool

    settings = replace(settings, solver=replace(settings.solver, budget=10, workers=1))
    caller = await caller_for(settings, monkeypatch, AuntMary.new(55))
    pool = solver_pool(settings)
    deadline = asyncio.get_running_loop().time() + WAIT
    while not pool.running:
        assert asyncio.get_running_loop().time() < deadline, "the solve never started"
        await asyncio.sleep(0.01)
    caller.send("?")                               # the help screen, then back
    await caller.wait_for("other keys: back")
    assert pool.running == 1                       # answered while the solver works
    caller.send(" ")
    await caller.wait_for("P hint")
    assert pool.running == 1
    await resign(caller)
    await caller.wait_for("The solver is still at work", timeout=WAIT)
    await caller.wait_for("could not tell in 10 s", timeout=4 * WAIT)
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


async def test_winnable_only_deals_from_the_shipped_list(caller: Caller) -> None:
    import re

    from door.catalog import registry as gamelist

    await caller.wait_for("Game number:")
    caller.send("w")
    await caller.wait_for("W  Winnable deals only: ON")
    caller.send("\r")
    await caller.wait_for("Pass 1 of 3")
    number = int(re.search(r"Aunt Mary #(\d+)", caller.text).group(1))
    assert number in gamelist.game("auntmary").winnable_numbers({})
