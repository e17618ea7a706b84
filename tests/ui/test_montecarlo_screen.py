"""Monte Carlo on screen, end to end: keys in, pyte screen out.

Most tests feed a real :class:`Session` through a queue-backed Terminal whose output goes to
a pyte screen (fast, no sockets); one test plays through the real telnet door.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from pyteterm import ScreenCaller, TelnetCaller, instructions_text
from waiting import WAIT

from door.catalog.registry import hint, solve
from door.config import Settings, load_settings
from door.games.cards import Card
from door.games.hints import simplify
from door.games.montecarlo import MonteCarlo, adjacent, parse_position, position_name
from door.ui.game import replay
from door.ui.montecarlo.screen import (
    MOVED_MARK,
    MonteCarloScreen,
    cell_origin,
    closing_deal,
    closing_question,
    mark_glyph,
)
from door.ui.shared.cards import card_label
from door.ui.shared.widgets import plural

REPO = Path(__file__).resolve().parents[2]



class Caller(ScreenCaller):
    """Drives ``play_game`` for Monte Carlo and reads its screen."""

    screen_class = MonteCarloScreen

    def __init__(self, settings: Settings, **terminal: Any) -> None:
        terminal.setdefault("charset", "cp437")
        super().__init__(settings, **terminal)

    async def start(self, number: int) -> None:
        await self.wait_for("Game number:")
        self.send(f"{number}\r")
        await self.wait_for(f"Monte Carlo #{number}")

    def cell(self, p: int) -> str:
        """The six screen cells of grid position ``p``."""
        row, col = cell_origin(p)
        return self.term.lines[row][col:col + 6]

    def grid_text(self) -> list[str]:
        return [self.cell(p) for p in range(25)]


def face(card: Card | None) -> str:
    """How a card's face reads in UTF-8 pyte text (rank and suit glyph)."""
    return "··" if card is None else card_label(card)


def first_pair(game: MonteCarlo) -> tuple[int, int]:
    return game.pairs()[0]


def unpaired_positions(game: MonteCarlo) -> tuple[int, int]:
    """Two adjacent positions holding cards of different ranks."""
    for p, q in ((0, 1), (0, 5), (1, 2), (5, 6)):
        a, b = game.grid[p], game.grid[q]
        if a and b and a.rank != b.rank:
            return p, q
    raise AssertionError("no unpaired neighbours")


@pytest.fixture
async def caller(settings: Settings):
    c = Caller(settings, charset="utf8")
    yield c
    await c.close()


NUMBER = 11982
OFFER = "[E] or Enter  end the game here"


async def test_numbered_deal_is_on_screen(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = MonteCarlo.new(NUMBER)
    for p in range(25):
        assert face(game.grid[p]) in caller.cell(p), position_name(p)
    assert "Stock" in caller.text and "27 cards" in caller.text
    assert caller.cell(0).startswith("[") and caller.cell(0).endswith("]")  # the cursor


@pytest.mark.slow
async def test_typed_pair_removes_cards_and_scores(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = MonteCarlo.new(NUMBER)
    p, q = first_pair(game)
    a, b = game.grid[p], game.grid[q]
    caller.send(position_name(p))
    await caller.settle()
    assert f"»{card_label(a)}«" in caller.cell(p)          # picked, in text as well as colour
    caller.send(position_name(q).upper())                   # capitals work too
    game.play(position_name(p) + position_name(q))
    await caller.wait_for(f"Score {game.score} ")
    assert f"Score {game.score} " in caller.term.lines[-1]     # once: not in the panel
    assert not any("Score" in line for line in caller.term.lines[:-1])
    assert game.score == 2 * a.rank and a.rank == b.rank
    for pos in range(25):
        assert face(game.grid[pos]) in caller.cell(pos)


async def test_cursor_pick_with_arrows_and_enter(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = MonteCarlo.new(NUMBER)
    p, q = first_pair(game)

    def walk(src: int, dst: int) -> str:
        dr, dc = dst // 5 - src // 5, dst % 5 - src % 5
        return ("\x1b[B" * dr if dr > 0 else "\x1b[A" * -dr) + \
               ("\x1b[C" * dc if dc > 0 else "\x1b[D" * -dc)

    caller.send(walk(0, p) + "\r" + walk(p, q) + " ")
    game.play(position_name(p) + position_name(q))
    await caller.wait_for(f"Score {game.score} ")
    assert caller.grid_text()[p].strip("[]").strip() == "··"
    assert f"Score {game.score}" in caller.text


async def test_typing_shows_the_half_and_esc_backspace_take_it_back(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = MonteCarlo.new(NUMBER)
    p, _ = first_pair(game)
    column, row = position_name(p)
    label_col = 4 + 3 + 7 * (p % 5)          # the column letters above the grid
    caller.send(column)
    await caller.settle()
    assert caller.term.screen.buffer[2][label_col].bg == "cyan"   # the typed column lights up
    caller.send(b"\x7f")                       # Backspace: the letter goes
    await caller.settle()
    assert caller.term.screen.buffer[2][label_col].bg == "default"
    caller.send(position_name(p) * 2)          # the same card twice: picked, then dropped
    await caller.wait_for("Pick dropped.")
    assert caller.cell(p)[1] == " " and "Score 0" in caller.text
    caller.send("p")                           # another message, then pick and drop with Esc
    await caller.wait_for("Hint:")
    caller.send(row)                           # the row alone: the column comes first
    await caller.wait_for(f"A card's place is its column a-e, then its row 1-5: b{row}.")
    caller.send("b9")                          # no row 9: said, and nothing picked
    await caller.wait_for("No square b9: a card's place is its column a-e, then its row 1-5")
    caller.send(column + row)
    await caller.settle()
    assert caller.cell(p)[1] == "»"
    caller.send(b"\x1b")                       # Esc drops the pick, and does not leave
    await caller.wait_for("Pick dropped.")
    assert caller.cell(p)[1] == " " and "Leave this game?" not in caller.text


async def test_illegal_pair_says_why_and_changes_nothing(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = MonteCarlo.new(NUMBER)
    before = caller.grid_text()
    p, q = unpaired_positions(game)
    bells = caller.term.raw.count(b"\x07")
    caller.send(position_name(p) + position_name(q))
    await caller.wait_for(f"{position_name(p)} {card_label(game.grid[p])} and "
                          f"{position_name(q)} {card_label(game.grid[q])} are not the same "
                          "rank.")
    assert caller.term.raw.count(b"\x07") == bells + 1
    assert [cell[2:4] for cell in caller.grid_text()] == [cell[2:4] for cell in before]
    assert "Score 0" in caller.text
    far = next(q for q in range(25) if q != p and game.grid[q].rank == game.grid[p].rank
               and not adjacent(p, q))
    caller.send(position_name(p) + position_name(far))
    await caller.wait_for(f"{card_label(game.grid[far])} do not touch")
    assert "Score 0" in caller.text


async def test_refused_pairs_name_cards_in_the_callers_charset(settings: Settings) -> None:
    """9♣ in UTF-8 (and CP437 with glyphs), 9C only where the terminal has no suit glyph."""
    game = MonteCarlo.new(NUMBER)
    p, q = unpaired_positions(game)
    for charset, want in (("utf8", card_label(game.grid[p])), ("ascii", str(game.grid[p]))):
        caller = Caller(settings, charset=charset)
        await caller.start(NUMBER)
        caller.send(position_name(p) + position_name(q))
        await caller.wait_for(f"{position_name(p)} {want} and")
        await caller.close()


async def test_undo_puts_the_pair_back(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = MonteCarlo.new(NUMBER)
    p, q = first_pair(game)
    before = [cell[1:5] for cell in caller.grid_text()]
    caller.send(position_name(p) + position_name(q))
    await caller.wait_for(f"Score {2 * game.grid[p].rank} ")
    caller.send("u")
    await caller.wait_for("Undone")
    assert [cell[1:5] for cell in caller.grid_text()] == before
    assert "Score 0" in caller.text
    caller.send("u")
    await caller.wait_for("No undo: nothing to undo.")
    at = caller.term.lines[-3].index("U undo")               # the key line greys it
    assert caller.term.screen.buffer[21][at + 1].fg == "black"
    assert caller.term.screen.buffer[21][at + 1].bold


async def play_until_dealt(caller: Caller, game: MonteCarlo, say_no: bool = False) -> None:
    """Play hint pairs on screen and in ``game`` until a consolidation deals cards (with
    ``say_no``, the question before it is first answered with Enter: No, nothing played)."""
    while game.status.value == "playing":
        move = game.hints()[0]
        dealt = len(game.consolidations)
        asked = closing_deal(game, move)
        if asked and say_no:
            caller.send(move)
            await caller.wait_for("(y/N)")
            caller.send("\r")
            await caller.wait_for("Not played: pick another pair, or U to take pairs back.")
            assert f"Score {game.score} " in caller.text
        game.play(move)
        caller.send(move)
        if asked:                       # the last pair of a round: asked first (y/N)
            await caller.wait_for(f"This pair deals {plural(asked, 'card')}: no undo of it")
            caller.send("y")
        await caller.wait_for(f"Score {game.score} ")
        if len(game.consolidations) > dealt and game.last_consolidation.dealt:
            return
    raise AssertionError("the deal never consolidated")


def assert_marks(caller: Caller, event) -> None:
    """Exactly the cards of ``event`` carry marks: ^ (↑ in CP437 with glyphs) moved up,
    + dealt from the stock; the legend counts them."""
    moved = {dst for _, dst in event.moves}
    dealt = {p for p, _ in event.dealt}
    charset = caller.terminal.charset
    up = charset.shows(mark_glyph(MOVED_MARK, charset))
    for p in range(25):
        mark = up if p in moved else "+" if p in dealt else " "
        assert caller.cell(p)[4] == mark, (position_name(p), caller.cell(p))
    assert legend_counts(event) in caller.text


def legend_counts(event) -> str:
    """The legend's line with the counts of ``event``'s marks."""
    return f"{len(event.moves):>2} moved up    9♠+ {len(event.dealt):>2} dealt from the stock"


@pytest.mark.slow
async def test_consolidation_is_shown_and_undo_stops_there(caller: Caller) -> None:
    await caller.start(NUMBER)
    game = MonteCarlo.new(NUMBER)
    await play_until_dealt(caller, game, say_no=True)
    event = game.last_consolidation
    await caller.wait_for(legend_counts(event))
    assert_marks(caller, event)
    for p, card in event.dealt:
        assert caller.cell(p)[2:5] == card_label(card) + "+"
    assert f"Stock        {len(game.stock):>2} cards" in caller.text
    at = caller.term.lines[-3].index("U undo")            # the key line greys it
    assert caller.term.screen.buffer[21][at + 1].fg == "black"
    caller.send("U")
    await caller.wait_for("No undo past cards dealt from the stock: U undoes the pairs taken "
                          "since.")
    assert_marks(caller, event)       # the marks stay until the next consolidation
    await play_until_dealt(caller, game)
    second = game.last_consolidation
    assert second is not event
    await caller.wait_for(legend_counts(second))
    await caller.settle()
    assert_marks(caller, second)


@pytest.mark.slow
async def test_hint_is_the_solvers_move_and_the_next_follows_its_line(caller: Caller) -> None:
    """H lights the first pair of the solver's winning line; played, the next H lights the
    next pair of the same line at once (no new question to the solver)."""
    number = next(n for n in range(1, 60) if solve("montecarlo", n).winnable)
    await caller.start(number)
    game = MonteCarlo.new(number)
    line = simplify(game, solve("montecarlo", number).line or [])
    for move in line[:2]:
        caller.send("p")
        p, q = parse_position(move[:2]), parse_position(move[2:])
        await caller.wait_for(f"Hint: {move}, {card_label(game.grid[p])} "
                              f"{card_label(game.grid[q])}", timeout=60)
        assert caller.cell(p)[1] == "*" and caller.cell(q)[1] == "*"      # lit on the board
        caller.send(move)
        game.play(move)
        await caller.wait_for(f"Score {game.score} ")
    jobs = caller.session.solvers._jobs.values()
    assert not [job for job in jobs if job.spec.get("kind") == "hint"]


@pytest.mark.slow
async def test_with_no_win_left_the_hint_says_so_and_gives_the_best_score(caller: Caller
                                                                          ) -> None:
    number = next(n for n in range(1, 60) if solve("montecarlo", n).verdict == "not winnable"
                  and MonteCarlo.new(n).pairs())
    await caller.start(number)
    best = hint("montecarlo", number, {"mode": "strict"}).best
    assert best
    caller.send("p")
    await caller.wait_for(f"No win is left. Best score: {best[0]}", timeout=60)


async def test_strict_refuses_f_relaxed_consolidates_on_request(door_home: Path) -> None:
    strict = Caller(load_settings(door_home), charset="utf8")
    await strict.start(NUMBER)
    assert "F consolidate" not in strict.text
    game = MonteCarlo.new(NUMBER)
    p, q = first_pair(game)
    strict.send(position_name(p) + position_name(q))
    await strict.wait_for(f"Score {2 * game.grid[p].rank} ")
    strict.send("f")
    await strict.wait_for("remove pairs first (strict consolidation)")
    await strict.close()

    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace(
        ";consolidation = strict", "consolidation = relaxed"), encoding="utf-8")
    relaxed = Caller(load_settings(door_home), charset="utf8")
    await relaxed.start(NUMBER)
    assert "F consolidate" in relaxed.text and "Consolidate  relaxed" in relaxed.text
    relaxed.send("f")
    await relaxed.wait_for("consolidating now would change nothing")
    game = MonteCarlo.new(NUMBER, mode="relaxed")
    p, q = first_pair(game)
    game.play(position_name(p) + position_name(q))
    relaxed.send(position_name(p) + position_name(q))
    await relaxed.wait_for(f"Score {game.score} ")
    relaxed.send("F")
    assert closing_deal(game, "c")        # the pairs before can no longer be undone: asked
    await relaxed.wait_for(f"Consolidating deals {plural(closing_deal(game, 'c'), 'card')}: "
                           "no undo of it or the pairs before. Go on? (y/N)")
    relaxed.send("y")
    game.play("c")
    event = game.last_consolidation
    await relaxed.wait_for(legend_counts(event))
    for pos in range(25):
        assert face(game.grid[pos]) in relaxed.cell(pos)
    await relaxed.close()


def near_won() -> MonteCarlo:
    """Game 7, all but one pair removed: the two kings left side by side."""
    deck = MonteCarlo.new(7)
    cards = deck.grid + deck.stock
    kings = [c for c in cards if c.rank == 13][:2]
    others = [c for c in cards if c not in kings]
    data = deck.to_json()
    data.update(grid=[str(kings[0]), str(kings[1])] + [None] * 23, stock=[],
                removed=[str(c) for c in others], undo=[], consolidations=[], actions=[])
    data.pop("score")
    return MonteCarlo.from_json(data)


async def test_finish_a_near_won_game(settings: Settings, monkeypatch) -> None:
    Caller.dealing(monkeypatch, near_won())
    caller = Caller(settings, charset="utf8")
    await caller.wait_for("Monte Carlo #7")
    assert "0 cards" in caller.text   # the stock
    caller.send("a1b1")
    await caller.wait_for("You won!")
    assert "Final score: 464" in caller.text          # 364 for the cards, 100 for clearing
    assert "You won deal #7: it could be won, and you did." in caller.text
    assert "[W] watch" not in caller.text
    assert "[A] again with game #7" in caller.text
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


def lost_in_one(number: int) -> MonteCarlo:
    """Deal ``number`` with two kings at a1 b1, then eight cards of eight other ranks: once
    the kings go, the grid consolidates to eight unpaired cards and the stock is empty."""
    deck = MonteCarlo.new(number)
    cards = deck.grid + deck.stock
    kings = [c for c in cards if c.rank == 13][:2]
    singles = [next(c for c in cards if c.rank == rank) for rank in range(1, 9)]
    removed = [c for c in cards if c not in kings and c not in singles]
    data = deck.to_json()
    data.update(grid=[str(c) for c in kings + singles] + [None] * 15, stock=[],
                removed=[str(c) for c in removed], undo=[], consolidations=[], actions=[])
    data.pop("score")
    return MonteCarlo.from_json(data)


@pytest.mark.slow
async def test_lost_game_says_whether_the_deal_could_be_won_and_shows_how(
        settings: Settings, monkeypatch) -> None:
    """Deal 7 (strict) can be won from its start, not from this position: the solver's line
    has 26 moves, e4d5 then b4a5, and ends with every card gone (score 364 + 100)."""
    Caller.dealing(monkeypatch, lost_in_one(7))
    monkeypatch.setattr(replay, "SPEEDS", (0.01,) * 5)        # P plays the line quickly
    caller = Caller(settings, charset="utf8")
    await caller.wait_for("Monte Carlo #7")
    caller.send("a1b1")
    await caller.wait_for(OFFER)          # no pair left: the last pair may come back
    assert "[U]  take the last move back" in caller.text
    caller.send("\r")
    await caller.wait_for("No pair is left, and consolidating would change nothing.")
    await caller.wait_for("This deal could be won: W shows a winning line.", timeout=2 * WAIT)
    final = lost_in_one(7)
    final.play("a1b1")
    assert final.status.value == "lost" and f"Final score: {final.score}" in caller.text
    caller.send("w")                                      # the line, in the replay viewer
    await caller.wait_for("Winning line: the deal, before move 1 of 26.")
    assert "27 cards" in caller.text                      # the deal from its start
    caller.send("\r")
    await caller.wait_for("Winning line, move 1 of 26: e4d5.")
    caller.send("\x1b[C")
    await caller.wait_for("move 2 of 26: b4a5.")
    caller.send("p")                                      # play it to the end
    await caller.wait_for("Won in 26 moves.", timeout=2 * WAIT)
    assert "Won in 26 moves.  Score 464." in caller.text
    caller.send("q")                                      # back to the end box
    await caller.wait_for("[W] watch a winning line")
    caller.send("a")                                      # again with the same number
    await caller.wait_for("27 cards")
    assert "Monte Carlo #7" in caller.text
    await caller.close()


async def test_nobody_could_win_this_deal(settings: Settings, monkeypatch) -> None:
    number = 1  # strict Monte Carlo #1 cannot be won (the solver is exact for Monte Carlo)

    Caller.dealing(monkeypatch, lost_in_one(number))
    caller = Caller(settings, charset="utf8")
    await caller.wait_for(f"Monte Carlo #{number}")
    caller.send("a1b1")
    await caller.wait_for(OFFER)
    caller.send("e")
    await caller.wait_for(f"Nobody could win deal #{number}.", timeout=2 * WAIT)
    assert "[W] watch" not in caller.text
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
async def test_fits_80_by_24_in_every_charset(settings: Settings, charset: str) -> None:
    caller = Caller(settings, charset=charset)
    await caller.start(NUMBER)
    game = MonteCarlo.new(NUMBER)
    p, _ = first_pair(game)
    caller.send(position_name(p) + "\x1b[B" + "p")
    await caller.wait_for("Hint:")
    caller.send("?")
    await caller.wait_for("other keys: back")
    caller.send("x")
    await caller.settle()
    lines = caller.term.lines
    assert len(lines) == 24
    assert lines[0].rstrip().endswith(f"Monte Carlo #{NUMBER}")   # nothing scrolled
    assert "Score 0" in lines[23]
    assert caller.term.screen.buffer[23][79].data == " "
    assert caller.session.screen.cells[23][79].ch == " "
    card = game.grid[0]
    if charset == "utf8":
        assert card_label(card) in caller.cell(0)
    else:   # no CP437 control-range glyphs announced: suits as letters
        assert f"{'A23456789TJQK'[card.rank - 1]}{card.suit}" in caller.cell(0)
    if charset == "ascii":
        assert all(byte < 128 for byte in caller.term.raw)
        assert "+------+" in lines[3]
    else:
        assert "┌──────┬" in lines[3]
    await caller.close()


async def test_monochrome_still_tells_picked_from_cursor(settings: Settings) -> None:
    caller = Caller(settings, charset="ascii", color=False)
    await caller.start(NUMBER)
    assert "U none" in caller.term.lines[-3]      # no grey in monochrome: nothing to undo
    game = MonteCarlo.new(NUMBER)
    p, _ = first_pair(game)
    caller.send(position_name(p) + "\x1b[B" if p < 20 else position_name(p) + "\x1b[A")
    await caller.settle()
    assert caller.cell(p)[1] == ">" and caller.cell(p)[4] == "<"      # » « degrade to > <
    row, col = cell_origin(p)
    assert caller.term.screen.buffer[row][col + 2].reverse
    assert all(not c.fg or c.fg == "default" for line in caller.term.screen.buffer.values()
               for c in line.values())
    await caller.close()


async def test_taller_window_keeps_bottom_rows(settings: Settings) -> None:
    caller = Caller(settings, charset="utf8", rows=30)
    await caller.start(NUMBER)
    lines = caller.term.lines
    assert "Score 0" in lines[29] and "P hint" in lines[27]
    assert caller.term.screen.buffer[29][79].data == " "
    await caller.close()


async def test_through_the_telnet_door(telnet_door) -> None:
    port = await telnet_door()
    caller = await TelnetCaller.at_menu(port, charset="cp437")
    caller.send("c")
    await caller.wait_for("Game number:")
    caller.send(f"{NUMBER}\r")
    await caller.wait_for(f"Monte Carlo #{NUMBER}")
    game = MonteCarlo.new(NUMBER)
    p, q = first_pair(game)
    caller.send(position_name(p) + position_name(q))
    game.play(position_name(p) + position_name(q))
    await caller.wait_for(f"Score {game.score} ")
    assert "··" in caller.term.text                      # the gaps (CP437 middle dots)
    await caller.leave_game()
    caller.close()


def test_instructions_file_is_ours_and_fits() -> None:
    text = instructions_text("montecarlo")
    assert text.count("@E@") >= 2
    assert "b2c3" in text and "F" in text
    for phrase in ("so as to make the rows solid", "does not make the two cards beside it",
                   "The objective of the game is to"):        # the Wildcat door's wording
        assert phrase not in text


# -- "Winnable deals only" ---------------------------------------------------------------------

async def test_winnable_only_deals_a_listed_number(settings: Settings) -> None:

    from door.catalog import registry as gamelist
    from door.games.montecarlo_solver import solve

    listed = gamelist.game("montecarlo").winnable_numbers({"mode": "strict"})
    assert len(listed) > 1000
    caller = Caller(settings)
    await caller.wait_for("Game number:")
    assert "W  Winnable deals only: off" in caller.text       # sysop.ini's default
    caller.send("x")                                           # refused, and says why
    await caller.wait_for("Type digits 0 to 9 only. (W: winnable deals only.)")
    caller.send("w")
    await caller.wait_for("W  Winnable deals only: ON   (Enter: a deal that can be won)")
    caller.send("\r")
    await caller.wait_for("27 cards")
    number = int(re.search(r"Monte Carlo #(\d+)", caller.text).group(1))
    assert number in listed and solve(number, "strict").verdict == "winnable"
    await caller.close()


async def test_winnable_only_from_sysop_ini_and_a_typed_number_still_wins(
        door_home: Path) -> None:
    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text().replace("[montecarlo]\n", "[montecarlo]\nwinnable_only = on\n"))
    caller = Caller(load_settings(door_home))
    await caller.wait_for("Game number:")
    assert "W  Winnable deals only: ON" in caller.text
    caller.send("1\r")                    # a typed number is dealt as typed (deal 1: lost)
    await caller.wait_for("Monte Carlo #1")
    await caller.close()


def test_the_up_mark_is_one_byte_in_every_charset() -> None:
    """↑ where the charset sends it as one byte (CP437's glyph 0x18), its stand-in ^ where
    it would cost three (UTF-8): a consolidation marks up to 24 cards."""
    from door.term.charset import Charset
    shown = {}
    for name, glyphs in (("cp437", True), ("cp437", False), ("utf8", False), ("ascii", False)):
        charset = Charset(name, glyphs)
        mark = mark_glyph(MOVED_MARK, charset)
        assert len(charset.encode_char(mark)) == 1
        shown[name, glyphs] = charset.shows(mark)
    assert shown == {("cp437", True): "↑", ("cp437", False): "^", ("utf8", False): "^",
                     ("ascii", False): "^"}


async def test_two_callers_on_one_deal_keep_the_same_look_tuples(settings: Settings) -> None:
    """Each cell's look as last drawn is a shared tuple (door/ui/montecarlo_screen.LOOKS):
    two callers on one deal hold the same 25 objects, not 25 each (issue #36)."""
    callers = [Caller(settings, charset="utf8") for _ in range(2)]
    try:
        for c in callers:
            await c.start(NUMBER)
        looks = [c.session._frame_of[0]._looks for c in callers]
        assert looks[0] is not None and looks[1] is not None
        assert looks[0] is not looks[1]
        assert all(a is b for a, b in zip(looks[0], looks[1], strict=True))
    finally:
        for c in callers:
            await c.close()


def test_the_question_before_a_deal_fits_the_message_line() -> None:
    """Any question before a dealing consolidation fits one row of the message line at 80
    columns, so the key line above it stays (putting it back cost ~90 bytes a move)."""
    for move in ("b2c3", "c"):
        for dealt in range(1, 26):
            for before in (False, True):
                text = f"{closing_question(move, dealt, before)} (y/N)"
                assert len(text) <= 78, text
