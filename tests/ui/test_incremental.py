"""Drawing part by part (door/ui/shared/redraw.py) always gives the screen a whole redraw gives.

For random key sequences in each of the four games — cursor keys, picks, moves, undo, redo,
hints, typed places, refused keys, help boxes and questions drawn over the board, Ctrl-R,
windows too small for the door and back, taller windows — every frame a game screen draws
by parts is compared cell for cell with the same state drawn whole on a fresh screen, and
at the end what the caller's terminal (pyte) shows is that whole redraw, characters and
colours, in every charset, in colour and in monochrome.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyteterm import PyteTerminal

from door.config import load_settings
from door.games.anciento import Anciento
from door.games.auntmary import AuntMary
from door.games.mariant import Mariant
from door.games.montecarlo import MonteCarlo
from door.net.terminal import Terminal
from door.session import Services, Session, SessionEnded
from door.solvers.pool import close_solver_pool
from door.term import Charset, Screen
from door.ui.anciento.screen import AncientoScreen
from door.ui.auntmary.screen import AuntMaryScreen
from door.ui.game.screen import GameScreen, LeaveGame
from door.ui.mariant.screen import MariantScreen
from door.ui.montecarlo.screen import MonteCarloScreen
from door.ui.shared.redraw import Parts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "term"))
from term_oracle import mismatches  # tests/term's oracle: after the path is known

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

REPO = Path(__file__).resolve().parents[2]
SETTINGS = load_settings(REPO)
UP, DOWN, RIGHT, LEFT = b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D"
COMMON = [UP, DOWN, RIGHT, LEFT, b"\r", b" ", b"\x7f", b"?", b"\x12", b"z", b"\x1b[H",
          b"\x1b[F"]
"""Keys every game gets: arrows, Enter, Space, Backspace, help, Ctrl-R, a refused key,
Home, End.  Keys that leave the game (Q, Esc, X) are left out: the sequence would end."""



def chars(text: str) -> list[bytes]:
    return [c.encode() for c in text]


PGUP, PGDN, TAB, SHIFT_TAB = b"\x1b[5~", b"\x1b[6~", b"\t", b"\x1b[Z"
GAMES: dict[str, tuple[type[GameScreen], Any, list[bytes]]] = {
    "montecarlo": (MonteCarloScreen, MonteCarlo.new,
                   [*chars("abcde12345huf"), b"b2c3", b"hh\r"]),
    "mariant": (MariantScreen, lambda n: Mariant.new(n, fd=2, fu=1),
                [*chars("1234567890duhvrayni"), PGUP, PGDN]),
    "auntmary": (AuntMaryScreen, AuntMary.new,
                 [*chars("123456wfshturayn"), b"\x19", TAB, SHIFT_TAB]),
    "anciento": (AncientoScreen, Anciento.new,
                 [*chars("ael148n-+uro*"), PGUP, PGDN, b"e4", b"c3", b"n\r"]),
}
WINDOWS = [("window", 60, 20), ("window", 79, 24), ("window", 80, 23), ("window", 80, 24),
           ("window", 100, 30)]


class ScriptTerminal(Terminal):
    """Keys from a script (bytes, or ("window", cols, rows) for a window change as NAWS
    reports it); what the door sends goes into a pyte terminal of the window's size."""

    def __init__(self, script: list[Any], charset: str, color: bool) -> None:
        super().__init__(80, 24, Charset(charset))
        self.color = color
        self.script = list(script)
        self.term = PyteTerminal(80, 24, "utf8" if charset == "utf8" else "cp437")

    async def read(self) -> bytes:
        await asyncio.sleep(0)
        if not self.script:
            return b""  # the caller hangs up: the run ends
        item = self.script.pop(0)
        if isinstance(item, tuple):
            _, cols, rows = item
            self.term.screen.resize(rows, cols)
            self.resized(cols, rows)
            return b"\0"  # as the network transports wake a read
        return item

    def write(self, data: bytes) -> None:
        self.term.feed(data)

    async def drain(self) -> None:
        return None

    async def close(self) -> None:
        return None


def drawn_whole(screen: GameScreen) -> Screen:
    """What ``screen`` draws from its present state on a fresh screen, all of it."""
    session = screen.session
    kept_screen, kept_parts = session.screen, screen.parts
    session.screen, screen.parts = Screen(kept_screen.cols, kept_screen.rows), Parts()
    try:
        type(screen).__mro__[1].draw(screen)  # the game's own draw, not the checking one
        return session.screen
    finally:
        session.screen, screen.parts = kept_screen, kept_parts


def checked(cls: type[GameScreen], frames: list[int]) -> type[GameScreen]:
    """``cls`` whose every draw is compared with a whole redraw of the same state."""

    class Checked(cls):  # type: ignore[valid-type, misc]
        def draw(self) -> None:
            super().draw()
            whole = drawn_whole(self)
            mine = self.session.screen
            wrong = [(r, "".join(c.ch for c in mine.cells[r]), "".join(c.ch for c in
                                                                     whole.cells[r]))
                     for r in range(mine.rows) if mine.cells[r] != whole.cells[r]]
            assert not wrong, f"frame {len(frames)}: drawn by parts != drawn whole: {wrong}"
            frames.append(mine.version)

    return Checked


async def play(name: str, number: int, script: list[Any], charset: str,
               color: bool) -> None:
    cls, new_game, _ = GAMES[name]
    terminal = ScriptTerminal(script, charset, color)
    session = Session(terminal, Services(SETTINGS))
    frames: list[int] = []
    screen = checked(cls, frames)(session, new_game(number))
    if screen.is_over:
        return  # a deal lost from the start (Monte Carlo #25: no pair, no gap) draws nothing
    try:
        with contextlib.suppress(SessionEnded, LeaveGame):
            await screen.run()
    finally:  # as play_game does when a game ends: the deal's verdict is no longer wanted
        screen.stop_solving()
        if screen.deal_task is not None:
            await asyncio.gather(screen.deal_task, return_exceptions=True)
        await close_solver_pool()  # this loop's workers, before asyncio.run closes it
    assert frames, "no frame was drawn"
    if session.too_small or session.screen.version != frames[-1]:
        return  # the last frame is the small-window notice, or a box over the game
    if screen.wakeup.is_set():
        return  # background work (a hint's "thinking" after 0.3 s) changed what the screen
        # shows after its last frame, and the caller hung up before the redraw it asked for
    whole = drawn_whole(screen)
    problems = mismatches(terminal.term, whole, terminal.charset, color=color)
    assert problems == [], problems[:5]


def scripts(keys: list[bytes]) -> st.SearchStrategy[list[Any]]:
    key = st.sampled_from(keys + COMMON)
    event = st.one_of(key, key, key, key, key, key, key, key, st.sampled_from(WINDOWS))
    return st.lists(event, min_size=1, max_size=60).map(lambda s: [*s, ("window", 80, 24)])


PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("name", list(GAMES))
@PROPERTY
@given(data=st.data())
def test_drawing_by_parts_is_drawing_whole(name: str, data) -> None:
    script = data.draw(scripts(GAMES[name][2]), label="script")
    number = data.draw(st.integers(1, 32000), label="deal")
    charset = data.draw(st.sampled_from(("cp437", "utf8", "ascii")), label="charset")
    color = data.draw(st.booleans(), label="color")
    asyncio.run(play(name, number, script, charset, color))


@pytest.mark.parametrize("name", list(GAMES))
def test_a_long_game_of_cursor_keys_and_moves(name: str) -> None:
    """Hundreds of keys in one game (the random scripts above are short)."""
    import random

    rng = random.Random(20)
    keys = GAMES[name][2] + COMMON
    script = [rng.choice(keys) for _ in range(600)]
    asyncio.run(play(name, 11982, script, "cp437", True))


async def press(screen: GameScreen, key: str) -> None:
    """What ``GameScreen.run`` does with a key: act on it, draw, show."""
    from door.term.keys import char

    if not await screen.on_key(char(key)):
        await screen.common_key(char(key))
    screen.draw()
    await screen.session.show()


async def montecarlo_moves(number: int, charset: str, window: tuple[int, int]) -> int:
    """Deal ``number`` played by its hints, typed (``b2c3``), at ``window``: the question
    before a consolidation that deals is answered No (the pair typed again) then Yes, every
    fifth pair undone and taken again.  After every move the caller's terminal (pyte) shows
    what a whole redraw of the state draws, centred.  Returns the questions answered."""
    from door.ui.montecarlo.screen import closing_deal

    terminal = ScriptTerminal([], charset, color=True)
    terminal.term.screen.resize(window[1], window[0])
    terminal.resized(*window)
    session = Session(terminal, Services(SETTINGS))
    screen = MonteCarloScreen(session, MonteCarlo.new(number))
    screen.draw()
    await session.show()
    questions = moves = 0

    def same_as_whole(what: str) -> None:
        problems = mismatches(terminal.term, drawn_whole(screen), terminal.charset,
                              origin=session.origin)
        assert problems == [], (number, charset, window, what, problems[:5])

    while not screen.is_over and screen.game.hints():
        move = screen.game.hints()[0]
        moves += 1
        if closing_deal(screen.game, move):
            terminal.script = [b"n"]
            for key in move:
                await press(screen, key)
            same_as_whole(f"{move} not played")
            terminal.script, questions = [b"y"], questions + 1
        for key in move:
            await press(screen, key)
        same_as_whole(move)
        if moves % 5 == 0 and not screen.is_over:
            done = len(screen.game.actions)
            await press(screen, "u")
            same_as_whole(f"{move} undone")
            if len(screen.game.actions) != done:   # undone (a deal from the stock is not)
                terminal.script = [b"y"] if closing_deal(screen.game, move) else []
                for key in move:
                    await press(screen, key)
                same_as_whole(f"{move} again")
    await close_solver_pool()
    return questions


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
@pytest.mark.parametrize("window", [(80, 24), (132, 50)], ids=lambda w: f"{w[0]}x{w[1]}")
def test_every_monte_carlo_move_shows_a_whole_redraw(charset: str,
                                                     window: tuple[int, int]) -> None:
    """A move sends only the cells it changed (the question before a dealing consolidation
    fits the message line, the pick stays under it: bench/bench_ui_montecarlo.py); what
    the caller then sees is exactly the screen drawn whole, after every move, question
    and undo of whole games."""
    questions = sum(asyncio.run(montecarlo_moves(number, charset, window))
                    for number in (1, 46, 505))
    assert questions >= 3  # the questions before dealing consolidations were asked
