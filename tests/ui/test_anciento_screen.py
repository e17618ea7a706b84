"""Anciento on screen, end to end: keys in, pyte screen out.

Most tests feed a real :class:`Session` through a queue-backed Terminal whose output goes to
a pyte screen (fast, no sockets); one test plays through the real telnet door, and the
save/load test uses a real SQLite store.  What the screen shows is compared with an engine
that played the same moves.  The timer test drives the screen's clock by hand.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest
from pyteterm import ScreenCaller, TelnetCaller, instructions_text
from waiting import WAIT

import door.session as session_module
from door.config import Settings, load_settings
from door.games.anciento import Anciento, Stone, new_stones
from door.games.anciento_player import search_move
from door.session import IdleTimeout
from door.store import Store
from door.ui.anciento.menu import screen_choices
from door.ui.anciento.screen import GRID_LEFT, AncientoScreen, square_origin
from door.ui.anciento.stones import PATTERN_NAMES, SHAPE_TEXT, misfit_reason, stone_label
from door.ui.game.screen import play_game

REPO = Path(__file__).resolve().parents[2]
NUMBER = 505
ARROW = {(-1, 0): "\x1b[A", (1, 0): "\x1b[B", (0, 1): "\x1b[C", (0, -1): "\x1b[D"}



class Caller(ScreenCaller):
    """Drives ``play_game`` for Anciento and reads its screen."""

    screen_class = AncientoScreen

    def restart(self) -> None:
        """Play again in the same visit (the menu remembers this visit's choices)."""
        assert self.task.done()
        self.task = asyncio.create_task(play_game(self.session, AncientoScreen))

    async def start(self, number: int = NUMBER) -> Anciento:
        await self.wait_for("New Anciento game")
        self.send(f"s{number}\r")
        await self.wait_for(f"Anciento #{number}")
        return Anciento.new(number)

    def square(self, game: Anciento, square: int) -> str:
        """The three inner cells of a square."""
        row, col = square_origin(game, square)
        return self.term.lines[row][col:col + 3]

    def board(self, game: Anciento) -> list[str]:
        return [self.square(game, sq)[1:] for sq in range(game.geo.size)]

    def cursor(self, game: Anciento) -> int:
        """The square between the cursor's brackets on screen."""
        for sq in range(game.geo.size):
            row, col = square_origin(game, sq)
            line = self.term.lines[row]
            if line[col - 1] == "[" and line[col + 3] == "]":
                return sq
        raise AssertionError(f"no cursor on the board:\n{self.text}")

    def walk(self, game: Anciento, target: int) -> str:
        """Arrow keys from the cursor on screen to ``target``."""
        cols = game.geo.cols
        here = self.cursor(game)
        dr, dc = target // cols - here // cols, target % cols - here % cols
        return (ARROW[(1 if dr > 0 else -1, 0)] * abs(dr)
                + ARROW[(0, 1 if dc > 0 else -1)] * abs(dc))


def shown(stone: Stone | None) -> str:
    """A stone as a UTF-8 caller reads it."""
    return "  " if stone is None else stone_label(stone)


@pytest.fixture
async def caller(settings: Settings):
    c = Caller(settings)
    yield c
    await c.close()


async def test_selected_game_shows_its_stones(caller: Caller) -> None:
    game = await caller.start()
    assert caller.board(game) == [shown(s) for s in game.board]
    current = game.current
    assert f"[{stone_label(current)}]" in caller.text
    assert "Stones left 66" in caller.text and "BONUS       x1" in caller.text
    assert "Quatros     0" in caller.text
    assert caller.cursor(game) == game.geo.start[4]
    row, col = square_origin(game, 0)
    cell = caller.term.screen.buffer[row][col + 1]
    assert cell.fg == PATTERN_NAMES[game.board[0].pattern] and cell.bold
    assert cell.bg == "blue"                                    # a corner: the shaded edge
    inside = square_origin(game, game.geo.start[4])
    assert caller.term.screen.buffer[inside[0]][inside[1] + 1].bg == "default"


async def test_digits_at_the_menu_select_a_game(caller: Caller) -> None:
    await caller.wait_for("New Anciento game")
    caller.send("77\r")
    await caller.wait_for("Anciento #77")
    caller.send("q")
    await caller.wait_for("Leave this game?")
    caller.send("y")
    await asyncio.wait_for(caller.task, WAIT)
    caller.restart()
    await caller.wait_for("New Anciento game")
    caller.send("s40000\r")
    await caller.wait_for("Game numbers run from 1 to 32000.")


async def test_legal_move_by_cursor_places_the_stone(caller: Caller) -> None:
    game = await caller.start()
    name, points = game.check()[-1]
    target = game.geo.names.index(name)
    stone = game.current
    caller.send(caller.walk(game, target) + "\r")
    game.play(name)
    await caller.wait_for(f"Score       {points} ")          # the panel
    assert caller.square(game, target) == " " + stone_label(stone)
    assert caller.cursor(game) == target                 # the cursor stays on the new stone
    assert caller.board(game) == [shown(s) for s in game.board]
    assert f"[{stone_label(game.current)}]" in caller.text
    assert "Stones left 65" in caller.text


async def test_typed_square_column_then_row(caller: Caller) -> None:
    """The chess way: e4 is column e, row 4; the letters never run commands meanwhile."""
    game = await caller.start()
    name, points = game.check()[0]
    stone = game.current
    column = game.geo.names.index(name) % game.geo.cols
    letter_at = (2 - 1, GRID_LEFT + 2 + 4 * column)  # the column letters' row, this letter
    caller.send(name[0].upper())
    await caller.settle()
    assert caller.term.screen.buffer[letter_at[0]][letter_at[1]].bg == "cyan"  # it lights up
    caller.send(name[1:])
    game.play(name)
    await caller.wait_for("Stones left 65")
    assert caller.square(game, game.geo.names.index(name))[1:] == stone_label(stone)
    assert caller.cursor(game) == game.geo.names.index(name)
    assert caller.term.screen.buffer[letter_at[0]][letter_at[1]].bg == "default"
    caller.send("c\x1b")                          # a column, then Esc: nothing is placed
    await caller.wait_for("Typed column dropped.")
    assert "Leave this game?" not in caller.text and "Stones left 65" in caller.text
    assert f"Score       {points} " in caller.text
    for letter in "bcdefk":                       # once commands; now only columns
        caller.send(letter + "\x1b")
        await caller.wait_for("Typed column dropped.")
        caller.send("\x1b[C")                     # (a key between: the note is said anew)
    assert "Stones left 65" in caller.text and "Skip taken  off" in caller.text
    caller.send("4")
    await caller.wait_for("A square is its column letter, then its row (1 to 8): e4.")
    caller.send("a9")
    await caller.wait_for("No square a9: the rows are 1 to 8.")
    caller.send("z9")                             # no column z, and no row 9 to suggest
    await caller.wait_for("A square is its column letter, then its row (1 to 8): e4.")
    assert "e9" not in caller.text


@pytest.mark.slow
async def test_illegal_moves_say_why_and_change_nothing(caller: Caller) -> None:
    game = await caller.start()
    before = caller.board(game)
    bells = caller.bells
    lonely = next(sq for sq in range(game.geo.size)
                  if game.board[sq] is None and not game.neighbours(sq))
    caller.send(caller.walk(game, lonely) + " ")
    await caller.wait_for("has no neighbour (diagonals do not count)")
    assert f"{game.square_name(lonely)} has no neighbour" in caller.text
    assert caller.bells == bells + 1
    misfit = next(sq for sq in range(game.geo.size) if game.board[sq] is None
                  and game.neighbours(sq) and not game.can_place(sq))
    caller.send(caller.walk(game, misfit) + "\r")
    await caller.wait_for(f"{stone_label(game.current)} cannot go on "
                          f"{game.square_name(misfit)}")
    assert caller.bells == bells + 2
    taken = game.geo.start[5]
    caller.send(caller.walk(game, taken) + "\r")
    await caller.wait_for(f"{game.square_name(taken)} is taken by")
    assert caller.board(game) == before and "Score       0 " in caller.text
    assert "Stones left 66" in caller.text


@pytest.mark.slow
async def test_take_back_and_put_back(caller: Caller) -> None:
    game = await caller.start()
    before = caller.board(game)
    first = game.check()[0][0]
    caller.send("n\r")
    game.play(first)
    await caller.wait_for("Stones left 65")
    after = caller.board(game)
    caller.send("-")
    await caller.wait_for(f"Took back {stone_label(Anciento.new(NUMBER).current)} from {first}.")
    assert caller.board(game) == before and "Stones left 66" in caller.text
    caller.send("+")
    await caller.wait_for(f"on {first}.")
    assert caller.board(game) == after
    caller.send("ur")                         # the letter twins
    await caller.settle()
    caller.send("u")
    await caller.wait_for("Took back")
    caller.send("-")
    await caller.wait_for("Nothing to take back: the six start stones stay.")
    caller.send("rr")
    await caller.wait_for("Nothing to put back.")
    assert caller.board(game) == after


async def test_check_cycles_through_the_fitting_squares(caller: Caller) -> None:
    game = await caller.start()
    squares = game.check()
    for i, (name, points) in enumerate(squares[:3]):
        caller.send("n")
        word = "point" if points == 1 else "points"
        await caller.wait_for(f"Check {i + 1} of {len(squares)}: {name} scores {points} {word}")
        assert caller.cursor(game) == game.geo.names.index(name)
    caller.send("\x1b[17~")                   # F6 too; it wraps round after the last
    caller.send("n" * (len(squares) - 3))
    await caller.wait_for(f"Check 1 of {len(squares)}: {squares[0][0]}")


async def test_skip_occupied_jumps_over_stones(caller: Caller) -> None:
    game = await caller.start()
    start = game.geo.start[4]                  # f4, a start stone
    caller.send(ARROW[(0, -1)])
    await caller.settle()
    assert caller.cursor(game) == start - 1
    caller.send("o" + ARROW[(0, 1)])
    await caller.wait_for("Skip occupied squares: on.")
    await caller.settle()
    assert caller.cursor(game) == start + 1    # over f4
    assert "Skip taken  on" in caller.text


async def test_easy_mode_shows_the_next_four(caller: Caller) -> None:
    await caller.wait_for("New Anciento game")
    caller.send("e")
    await caller.wait_for("Easy mode       on")
    caller.send(f"s{NUMBER}\r")
    await caller.wait_for(f"Anciento #{NUMBER}")
    game = Anciento.new(NUMBER, easy=True)
    assert " ".join(stone_label(s) for s in game.next_stones(4)) in caller.text


def near_won() -> Anciento:
    """71 stones on the board (rows 1-6), the 72nd to place; 100 points and 2 Quatros so far.

    The last stone's twin sits at b6, so the last stone fits on b7 (one neighbour)."""
    stones = new_stones()
    last = stones.pop(0)                       # A1; its twin stays in the list
    stones.remove(last)
    geo = Anciento.new(1).geo
    cells: list[Stone | None] = [None] * geo.size
    cells[5 * geo.cols + 1] = last             # b6
    free = [sq for sq in range(6 * geo.cols - 1) if sq != 5 * geo.cols + 1]
    for sq, stone in zip(free, stones, strict=True):
        cells[sq] = stone
    rows = [" ".join(".." if s is None else str(s) for s in cells[r * 12:(r + 1) * 12])
            for r in range(geo.rows)]
    return Anciento.from_json({"game": "anciento", "number": 1, "options": {},
                               "board": rows, "pouch": [str(last)], "points": 100,
                               "quatros": 2})


async def test_finish_a_near_won_game(settings: Settings, monkeypatch) -> None:
    Caller.dealing(monkeypatch, near_won())
    caller = Caller(settings)
    await caller.wait_for("Anciento #1")
    game = near_won()
    target = game.geo.names.index("b7")
    assert caller.board(game)[5 * 12 + 1] == stone_label(game.current)
    caller.send(caller.walk(game, target) + "\r")
    await caller.wait_for("All 72 stones are placed! Press X to end the game")
    game.play("b7")
    game.end()
    caller.send("x")
    await caller.wait_for("All 72 stones placed!")
    assert f"Final score: {game.score}" in caller.text and game.score == 100 + 4 + 1000 + 50
    assert "Placements 104 + stones-left bonus 1000 + Quatro bonus 50 (2 Quatros)" \
        in caller.text
    assert "[A] again with game #1" in caller.text
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


def stuck() -> Anciento:
    """One stone on the board, and the current stone shares nothing with it."""
    stones = new_stones()
    fixed, current = Stone(1, 1), Stone(0, 0)
    stones.remove(fixed)
    stones.remove(current)
    rows = [".. " * 11 + ".."] * 8
    rows[3] = ".. " * 5 + "B2 " + ".. " * 5 + ".."
    return Anciento.from_json({"game": "anciento", "number": 3, "options": {},
                               "board": rows, "pouch": [str(current)] + [str(s) for s in stones]})


async def test_stuck_game_waits_for_end(settings: Settings, monkeypatch) -> None:
    Caller.dealing(monkeypatch, stuck())
    caller = Caller(settings)
    # No stone fits and none can be taken back (the start stones stay): nothing to choose,
    # so the end box comes at once.
    await caller.wait_for("Game ended with 71 stones not placed.")
    assert "Final score: 0" in caller.text
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


async def test_end_asks_first_while_stones_fit(caller: Caller) -> None:
    await caller.start()
    caller.send("x")
    await caller.wait_for("End the game now? The 66 stones left are never placed. (y/N)")
    caller.send("\r")                         # Enter: No
    await caller.wait_for("The game goes on.")
    caller.send("x")
    await caller.wait_for("End the game now")
    caller.send("y")
    await caller.wait_for("Game ended with 66 stones not placed.")
    assert "Final score: 0" in caller.text
    caller.send("a")                           # again, the same stones
    await caller.wait_for("Stones left 66")
    assert f"Anciento #{NUMBER}" in caller.text


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_timer_counts_down_pauses_and_ends_the_game(settings: Settings,
                                                          monkeypatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr(AncientoScreen, "clock", staticmethod(clock))
    monkeypatch.setattr(AncientoScreen, "tick", 0.01)
    caller = Caller(settings)
    await caller.wait_for("New Anciento game")
    caller.send("t2\r")
    await caller.wait_for("2 minutes")
    game = await caller.start()
    await caller.wait_for("Timer       2:00")
    clock.now += 30
    await caller.wait_for("Timer       1:30")           # redrawn while waiting for a key
    caller.send("w")
    await caller.wait_for("1:30 paused")
    clock.now += 600
    await caller.settle()
    assert "1:30 paused" in caller.text
    caller.send("\x1b[13~")                                   # F3: on again
    await caller.wait_for("Timer running again.")
    caller.send("t")
    await caller.wait_for("removed (T)")
    clock.now += 6000
    caller.send("t")
    await caller.wait_for("Timer       2:00")             # back, with no time used
    first = game.check()[0][0]
    caller.send("n\r")
    game.play(first)  # often an edge square: "Score 0" is on the screen before the move too
    await caller.wait_until(lambda: "Stones left 65" in caller.text
                            and f"Score       {game.score} " in caller.text, "the stone placed")
    clock.now += 121
    await caller.wait_for("Time is up: the game is over, like it or not.")
    game.end()
    assert f"Final score: {game.score}" in caller.text
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)


async def test_a_timed_game_still_idles_out(settings: Settings, monkeypatch) -> None:
    """The clock redraws many times within the idle limit, each time ending the wait for a
    key: the limit goes on counting from the last key all the same."""
    monkeypatch.setattr(AncientoScreen, "tick", 0.02)
    monkeypatch.setattr(session_module, "IDLE_WARNING", 0.3)
    settings = dataclasses.replace(settings, limits=dataclasses.replace(settings.limits,
                                                                        idle_timeout=0.6))
    caller = Caller(settings)
    await caller.wait_for("New Anciento game")
    caller.send("t2\r")
    await caller.wait_for("2 minutes")
    await caller.start()
    await caller.wait_for("Timer       2:00")
    with pytest.raises(IdleTimeout):
        await asyncio.wait_for(caller.task, WAIT)
    assert b"Still there? Press a key" in caller.term.raw


async def test_timer_keys_without_a_timer(caller: Caller) -> None:
    await caller.start()
    assert "Timer       off" in caller.text
    caller.send("w")
    await caller.wait_for("No timer is running")
    caller.send("t")
    await caller.wait_for("No timer was set")


async def test_random_and_picked_games(caller: Caller) -> None:
    await caller.wait_for("New Anciento game")
    caller.send("r")
    await caller.wait_for("Anciento random game")
    assert "nobody can ask for these stones again" in caller.text
    caller.send("xy")
    await caller.wait_for("Final score: 0")
    caller.send("n")                                          # a new deal: the menu again
    await caller.wait_for("New Anciento game")
    caller.send("p")
    await caller.wait_for("give the number to a friend")
    number = int(caller.text.split("Game #")[1].split(":")[0])
    assert 1 <= number <= 32000 and f"Anciento #{number}" in caller.text
    game = Anciento.new(number)
    assert caller.board(game) == [shown(s) for s in game.board]


async def test_saving_without_a_store(caller: Caller) -> None:
    await caller.start()
    caller.send("s")
    await caller.wait_for("Saving is unavailable")
    await caller.close()
    caller.restart()
    await caller.wait_for("New Anciento game")
    caller.send("l")
    await caller.wait_for("Saved games are unavailable")


async def test_save_under_a_name_and_load_it(settings: Settings, sqlite_store: Store) -> None:
    store = sqlite_store
    player = await store.players.player("direct", "ann", "Ann")
    caller = Caller(settings, store=store, player=player)
    game = await caller.start()
    for _ in range(2):
        move = game.check()[0][0]
        game.play(move)
        caller.send("n\r")
        await caller.wait_for(f"Stones left {game.stones_left}")
    caller.send("s")
    await caller.wait_for("Save this game as:")
    caller.send("Tuesday\r")
    await caller.wait_for('Saved as "Tuesday"')
    caller.send("s")                                            # the name again: asked first
    await caller.wait_for("Save this game as:")
    caller.send("tuesday\r")
    await caller.wait_for('Replace your save "tuesday"? The game saved under that name is '
                          "lost. (y/N)")
    caller.send("\r")                                           # Enter: No, nothing replaced
    await caller.wait_for("Not saved: choose another name (S).")
    caller.send("xy")
    await caller.wait_for("Final score:")
    caller.send("n")
    await caller.wait_for("New Anciento game")
    caller.send("l")
    await caller.wait_for("Your saved games")
    assert "Tuesday" in caller.text
    caller.send("1\r")
    await caller.wait_for("take back (U) and put back (R) to replay it")
    assert caller.board(game) == [shown(s) for s in game.board]
    assert f"Stones left {game.stones_left}" in caller.text
    caller.send("-")                                            # its history came along
    await caller.wait_for("Took back")
    await caller.close()
    assert (await store.saves.load_named(player.id, "anciento", "tuesday"))["history"] \
        == game.history
    await store.close()


@pytest.mark.slow
async def test_demo_from_the_menu_steps_runs_and_stops(settings: Settings,
                                                       monkeypatch) -> None:
    monkeypatch.setattr(AncientoScreen, "demo_pause", 0.01)
    caller = Caller(settings)
    await caller.wait_for("New Anciento game")
    caller.send("d")
    await caller.wait_for("Anciento demo #")
    assert "DEMO  Enter/Space: next move" in caller.text
    caller.send("\r")
    await caller.wait_for("Demo: ")
    assert "Stones left 65" in caller.text
    caller.send("r")
    await caller.wait_for("Stones left 60")                 # it plays by itself ...
    caller.send("x")                                         # ... until a key
    await caller.wait_for("Stopped.")
    await caller.settle()

    def stones_left() -> int:
        return int(caller.text.split("Stones left")[1].split()[0])

    left = stones_left()
    caller.send("\r")                                        # stopped: one move per Enter
    await caller.wait_until(lambda: stones_left() == left - 1, "one move made")
    caller.send("z")  # running, any key would stop it; stepping, it is not a command
    await caller.wait_for("Enter or Space: next move")
    assert stones_left() == left - 1                         # and no move was made meanwhile
    caller.send("\x1b")
    await caller.wait_for("New Anciento game")
    caller.send("\x1b")
    await asyncio.wait_for(caller.task, WAIT)


@pytest.mark.slow
async def test_the_demo_move_comes_from_the_pool_and_keys_are_answered_meanwhile(
        settings: Settings) -> None:
    caller = Caller(settings)
    await caller.wait_for("New Anciento game")
    caller.send("d")
    await caller.wait_for("Anciento demo #")
    pool = caller.session.solvers
    busy = [asyncio.ensure_future(pool.solve("auntmary", 55, seconds=60 + i, urgent=True))
            for i in range(pool.size)]   # other callers' questions hold every worker
    try:
        await caller.wait_until(lambda: pool.running == pool.size, "the pool busy")
        caller.send("\r")                       # the demo's move waits for a worker ...
        await caller.wait_until(lambda: pool.queued == 1, "the move queued")
        caller.send(" ")                        # ... and a key is answered meanwhile
        await caller.wait_for("The demo player is thinking...  Esc: leave the demo.")
        assert "Stones left 66" in caller.text
        caller.send("\x1b")                     # leaving drops the job
        await caller.wait_for("New Anciento game")
        await caller.wait_until(lambda: pool.queued == 0, "the move's job dropped")
        assert pool.running == pool.size and not any(job.done() for job in busy)
    finally:
        for job in busy:
            job.cancel()
        await asyncio.gather(*busy, return_exceptions=True)
    caller.send("d")                            # the pool free again: moves come at once
    await caller.wait_for("Anciento demo #")
    caller.send("\r")
    await caller.wait_for("Demo: ")
    assert "Stones left 65" in caller.text
    caller.send("\x1b")
    await caller.wait_for("New Anciento game")
    caller.send("\x1b")
    await asyncio.wait_for(caller.task, WAIT)


@pytest.mark.slow
async def test_demo_in_game_leaves_the_game_alone(caller: Caller) -> None:
    game = await caller.start()
    before = caller.board(game)
    caller.send("m")
    await caller.wait_for(f"Anciento demo #{NUMBER}")
    caller.send(" ")
    await caller.wait_for("Demo: ")
    demo = Anciento.new(NUMBER)
    demo.play(caller.text.split("Demo: ")[1].split(" on ")[1].split(",")[0])
    last = demo.geo.names.index(demo.history[-1])
    assert caller.square(demo, last) == "»" + stone_label(demo.board[last])   # its last move
    caller.send("?")                                          # the demo's own keys
    await caller.wait_for("The demo: its keys")
    assert "let it run (any key stops it)" in caller.text
    caller.send("z")
    await caller.wait_until(lambda: "The demo: its keys" not in caller.text, "the map closed")
    caller.send("q")
    await caller.wait_for("Back to your game: the demo changed nothing here.")
    assert caller.board(game) == before and "Stones left 66" in caller.text
    caller.send("n\r")
    await caller.wait_for("Stones left 65")
    caller.send("m")
    await caller.wait_for("The demo plays a fresh game")


@pytest.mark.parametrize("charset", ["cp437", "utf8", "ascii"])
async def test_fits_80_by_24_in_every_charset(settings: Settings, charset: str) -> None:
    caller = Caller(settings, charset=charset)
    game = await caller.start()
    caller.send("n?")
    await caller.wait_for("other keys: back")
    assert "Anciento: its own keys" in caller.text
    caller.send("z")
    await caller.settle()
    lines = caller.term.lines
    assert len(lines) == 24
    assert lines[0].rstrip().endswith(f"Anciento #{NUMBER}")
    assert "? keys" in lines[23] and "Score" not in lines[23] and "N check" in lines[21]
    assert caller.term.screen.buffer[23][79].data == " "
    assert caller.session.screen.cells[23][79].ch == " "
    corner = game.board[0]
    if charset == "utf8":
        assert caller.square(game, 0)[1:] == stone_label(corner)
        assert "┌───┬" in lines[2]
    else:   # no CP437 control-range glyphs announced: the shapes as letters
        assert caller.square(game, 0)[1:] == SHAPE_TEXT[corner.shape] + str(corner.pattern + 1)
    if charset == "ascii":
        assert all(byte < 128 for byte in caller.term.raw)
        assert lines[2][GRID_LEFT:GRID_LEFT + 5] == "+---+"
    await caller.close()


async def test_monochrome_shades_the_edge_in_reverse(settings: Settings) -> None:
    caller = Caller(settings, charset="ascii", color=False)
    game = await caller.start()
    row, col = square_origin(game, 1)           # b1: an empty edge square
    assert caller.term.screen.buffer[row][col].reverse
    row, col = square_origin(game, game.geo.cols + 1)   # b2: inside
    assert not caller.term.screen.buffer[row][col].reverse
    assert all(not c.fg or c.fg == "default" for line in caller.term.screen.buffer.values()
               for c in line.values())
    await caller.close()


async def test_8x8_board_from_sysop_ini(door_home: Path) -> None:
    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace(";board = 8x12", "board = 8x8"),
                   encoding="utf-8")
    caller = Caller(load_settings(door_home))
    await caller.wait_for("board 8 x 8")
    caller.send(f"s{NUMBER}\r")
    await caller.wait_for("Board       8 x 8")
    game = Anciento.new(NUMBER, board="8x8")
    assert caller.board(game) == [shown(s) for s in game.board]
    assert screen_choices(caller.session).timer_minutes == 0
    await caller.close()


async def test_through_the_telnet_door(telnet_door) -> None:
    port = await telnet_door()
    caller = await TelnetCaller.at_menu(port, charset="cp437")
    caller.send("n")
    await caller.wait_for("New Anciento game")
    caller.send(f"s{NUMBER}\r")
    await caller.wait_for(f"Anciento #{NUMBER}")
    game = Anciento.new(NUMBER)
    caller.send("n\r")
    game.play(game.check()[0][0])
    await caller.wait_for(f"Stones left {game.stones_left}")
    assert "┌───┬" in caller.term.text
    await caller.leave_game()
    caller.close()


def test_instructions_file_is_ours_and_fits() -> None:
    text = instructions_text("anciento")
    assert text.count("@E@") >= 3
    for key in ("Check", "Quatro", "BONUS", "take back", "Timer", "Demo", "Easy"):
        assert key.lower() in text.lower(), key
    for phrase in ("whether you like it or not", "sky is the limit", "It is a Single player",
                   "Neighboring stones must match"):                # the seed's wording
        assert phrase not in text


def test_refusals_name_the_rule_that_fails() -> None:
    a1, a2, a3, a4, b1, c3 = (Stone.parse(t) for t in ("A1", "A2", "A3", "A4", "B1", "C3"))
    assert misfit_reason(a1, [], "e4") == \
        "♠1 must touch a stone: e4 has no neighbour (diagonals do not count)."
    assert misfit_reason(a1, [a2, c3], "e4") == \
        "♠1 cannot go on e4: ♦3 beside it shares neither its shape nor its pattern."
    assert misfit_reason(a1, [a2, a3], "e4").endswith("none shares its pattern.")
    assert misfit_reason(a1, [b1, b1], "e4").endswith("none shares its shape.")
    assert "(here 3 and 1)" in misfit_reason(a1, [a2, a3, a4, b1], "e4")


async def test_taller_window_keeps_the_bottom_rows(settings: Settings) -> None:
    caller = Caller(settings, rows=30)
    game = await caller.start()
    lines = caller.term.lines
    assert "? keys" in lines[29] and "N check" in lines[27]
    assert caller.board(game) == [shown(s) for s in game.board]
    assert caller.term.screen.buffer[29][79].data == " "
    await caller.close()


# A resume slot and a finished game's record as the door stored them before squares were
# typed the chess way (main at d6d75c1, when the screen took "4e"): the engine has always
# written squares column first ("k1"), so nothing in a sysop's database needs converting.
OLD_SLOT = {
    "game": "anciento", "number": 505, "options": {"board": "8x12", "easy": False},
    "board": ["A5 A3 .. .. .. E2 .. .. .. .. D1 D2", ".. .. .. .. .. C2 .. .. .. .. .. ..",
              ".. .. .. .. .. C3 .. .. .. .. .. ..", ".. .. .. .. .. E3 .. .. .. .. .. ..",
              ".. .. .. .. .. .. F1 .. .. .. .. ..", ".. .. .. .. .. .. .. .. .. .. .. ..",
              ".. .. .. .. .. .. .. .. .. .. .. ..", "C6 .. .. .. .. .. .. .. .. .. .. B4"],
    "pouch": ["A5", "B5", "F4", "D5", "B1", "E3", "E4", "F5", "D1", "B3", "E1", "A3", "F3", "D6",
              "D4", "C2", "D3", "E1", "C1", "A2", "C4", "A2", "E2", "D6", "C1", "E5", "A6", "F1",
              "D3", "F6", "B6", "A1", "D4", "C5", "B5", "F2", "F5", "F3", "C6", "B1", "D5", "E4",
              "C5", "C4", "F6", "E6", "B2", "A6", "B2", "B3", "F4", "B4", "A4", "A1", "E6", "A4",
              "D2", "E5", "C3", "B6", "F2"],
    "history": ["k1", "f3", "f2", "f1", "b1"], "redo": ["c1"], "points": 2, "quatros": 0,
    "ended": False, "score": 2, "actions": ["k1", "f3", "f2", "f1", "b1", "c1", "undo"]}


async def test_games_stored_before_the_chess_way_still_replay_and_resume(
        settings: Settings, tmp_path: Path) -> None:
    from door.games.base import GameRecord
    from door.store.store import verify_record

    finished = GameRecord("anciento", 505, dict(OLD_SLOT["options"]),
                          [*OLD_SLOT["actions"], "end"])
    assert verify_record(finished, 2, "lost") is False  # the hall of fame's replay check
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
    assert await store.start()
    player = await store.players.player("direct", "ann", "Ann")
    await store.saves.claim_resume(player.id, "anciento", OLD_SLOT)
    caller = Caller(settings, store=store, player=player)
    await caller.wait_for("Resume your Anciento game #505?")
    caller.send("y")
    await caller.wait_for("Stones left 61")
    game = Anciento.from_json(OLD_SLOT)
    assert caller.board(game) == [shown(s) for s in game.board]
    name = game.check()[0][0]
    caller.send(name)                               # typed the chess way, and played on
    game.play(name)
    await caller.wait_for("Stones left 60")
    assert game.record().actions[:7] == OLD_SLOT["actions"]
    await caller.close()
    await store.close()


async def test_hint_waits_in_the_pool_keys_work_and_esc_or_a_move_drops_it(
        settings: Settings) -> None:
    caller = Caller(settings)
    game = await caller.start()
    pool = caller.session.solvers
    busy = [asyncio.ensure_future(pool.solve("auntmary", 55, seconds=60 + i, urgent=True))
            for i in range(pool.size)]   # other callers' questions hold every worker
    try:
        await caller.wait_until(lambda: pool.running == pool.size, "the pool busy")
        caller.send("p")                        # the hint waits for a worker ...
        await caller.wait_until(lambda: pool.queued == 1, "the hint queued")
        await caller.wait_for("Hint: thinking...  keys work meanwhile · Esc drops it.")
        caller.send("o")                        # ... and keys are answered meanwhile
        await caller.wait_for("Skip occupied squares: on.")
        caller.send("\x1b")                     # Esc drops the question, not the game
        await caller.wait_for("Hint dropped.")
        await caller.wait_until(lambda: pool.queued == 0, "the hint's job dropped")
        caller.send("p")
        await caller.wait_until(lambda: pool.queued == 1, "asked again")
        caller.send("n\r")                      # a stone placed: the question is stale
        game.play(game.check()[0][0])
        await caller.wait_for(f"Stones left {game.stones_left}")
        await caller.wait_until(lambda: pool.queued == 0, "the stale hint dropped")
        caller.send("p")
        await caller.wait_until(lambda: pool.queued == 1, "asked on the new board")
        caller.send("q")                        # leaving drops it too
        await caller.wait_for("Leave this game?")
        caller.send("y")
        await asyncio.wait_for(caller.task, WAIT)  # the game left (kept for resume)
        await caller.wait_until(lambda: pool.queued == 0, "the hint dropped with the game")
        assert pool.running == pool.size and not any(job.done() for job in busy)
    finally:
        for job in busy:
            job.cancel()
        await asyncio.gather(*busy, return_exceptions=True)


@pytest.mark.slow
async def test_a_hint_does_not_wait_for_a_deals_verdict_in_the_background(
        settings: Settings) -> None:
    """Every worker on a card deal's verdict (asked in the background for another caller's
    end of game): the hint is worked out at once, the verdict suspended meanwhile."""
    caller = Caller(settings)
    game = await caller.start()
    pool = caller.session.solvers
    busy = [asyncio.ensure_future(pool.solve("auntmary", 55, seconds=60 + i))
            for i in range(pool.size)]
    try:
        await caller.wait_until(lambda: pool.running == pool.size, "the pool busy")
        caller.send("p")
        await caller.wait_for(f"Hint: {search_move(game)}.")
        assert not any(job.done() for job in busy)
        await caller.wait_until(lambda: pool.running == pool.size and not pool.suspended,
                                "the verdicts going on")
    finally:
        for job in busy:
            job.cancel()
        await asyncio.gather(*busy, return_exceptions=True)
    caller.send("q")
    await caller.wait_for("Leave this game?")
    caller.send("y")
    await asyncio.wait_for(caller.task, WAIT)


@pytest.mark.slow
async def test_hint_is_the_search_players_square_and_asked_again_counts_once(
        caller: Caller) -> None:
    game = await caller.start()
    best = search_move(game)
    caller.send("p")
    await caller.wait_for(f"Hint: {best}.")
    square = game.geo.names.index(best)
    assert caller.square(game, square) == "<->" and caller.cursor(game) == square
    caller.send("\x1b[D")                       # the cursor away, then the hint again
    await caller.wait_until(lambda: caller.cursor(game) != square, "the cursor moved")
    caller.send("p")                            # the same board: shown again, not counted
    await caller.wait_until(lambda: caller.cursor(game) == square, "back on the hint")
    caller.send(" ")                            # placed where the hint said
    game.play(best)
    await caller.wait_for(f"Stones left {game.stones_left}")
    assert caller.square(game, square) != "<->"
    caller.send("x")
    await caller.wait_for("End the game now")
    caller.send("y")
    await caller.wait_for("1 hint used: the hall of fame marks this game.")
