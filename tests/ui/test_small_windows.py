"""Every screen, in every window from 40×15 to 200×60, is drawn whole or shows one notice.

A window narrower than 80 columns or shorter than 24 rows cannot hold the door's screens:
the caller sees a centred notice drawn at the window's own size (so it never wraps), and the
screen underneath comes back as soon as the window is big enough.  The property: after any
sequence of window sizes, what the caller's terminal (pyte, resized like the caller's window)
shows is either exactly the screen the door drew (centred in a larger window), or exactly the
notice.
"""

from __future__ import annotations

import asyncio
import shutil
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pyteterm import PyteTerminal, QueueTerminal
from waiting import WAIT

from door.config import Settings, load_settings
from door.gate.guard import LoginLimiter
from door.session import Services, Session, WindowTooSmall
from door.solvers.pool import close_solver_pool
from door.store import Store
from door.ui.anciento.screen import AncientoScreen
from door.ui.auntmary.screen import AuntMaryScreen
from door.ui.game.screen import play_game
from door.ui.mariant.screen import MariantScreen
from door.ui.menus.daily import daily_challenge
from door.ui.menus.halloffame import hall_of_fame
from door.ui.menus.main import main_menu
from door.ui.menus.messages import message_centre
from door.ui.menus.settings import terminal_settings
from door.ui.menus.whosonline import whos_online
from door.ui.montecarlo.screen import MonteCarloScreen
from door.ui.shared.instructions import instructions_menu
from door.ui.visits.actions import actions
from door.ui.visits.login import LoginScreen
from door.ui.visits.title import title

REPO = Path(__file__).resolve().parents[2]


class WindowTerminal(QueueTerminal):
    """A caller whose window can be resized, as a telnet client reports it (NAWS)."""

    def __init__(self, cols: int, rows: int) -> None:
        super().__init__("utf8", rows=max(rows, 24))
        self.term = PyteTerminal(cols, rows, "utf8")
        self.resized(cols, rows)

    def resize(self, cols: int, rows: int) -> None:
        self.term.screen.resize(rows, cols)
        self.resized(cols, rows)

    def wake(self) -> None:
        self.inbox.put_nowait(b"\0")  # as the network transports do: a NUL is no key


def notice(cols: int, rows: int) -> str:
    return (f"This door needs 80×24; your window is {cols}×{rows}. "
            "Widen it, or press Q to log off.")


def problem(terminal: WindowTerminal, session: Session) -> str | None:
    """Why the terminal does not show the door's screen whole nor the notice; None if it does."""
    cols, rows = terminal.window
    shown = terminal.term.lines
    if cols < 80 or rows < 24:
        words = " ".join(" ".join(shown).split())
        return None if words == notice(cols, rows) else f"not the notice: {words!r}"
    screen = session.screen
    if (screen.cols, screen.rows) != (80, min(rows, 60)):
        return f"screen {screen.cols}×{screen.rows} for a window {cols}×{rows}"
    # The screen centred in the window (the rest blank), its bottom-right cell never written.
    top, left = (rows - screen.rows) // 2, (cols - 80) // 2
    want = ([" " * cols] * top + [(" " * left + line).ljust(cols) for line in screen.text()]
            + [" " * cols] * (rows - screen.rows - top))
    last, corner = top + screen.rows - 1, left + 79
    want[last] = want[last][:corner] + " " + want[last][corner + 1:]
    got = [line[:corner] + " " + line[corner + 1:] if r == last else line
           for r, line in enumerate(shown)]
    wrong = [r for r in range(rows) if got[r] != want[r]]
    return f"rows {wrong} differ" if wrong else None


async def settled(terminal: WindowTerminal, session: Session, task: asyncio.Task,
                  timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while (why := problem(terminal, session)) is not None:
        if task.done():
            task.result()
            raise AssertionError(f"the screen ended; {why}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{why}; the terminal shows:\n{terminal.term.text}")
        await asyncio.sleep(0.005)


Start = Callable[[Session], Awaitable[object]]


async def _login(session: Session) -> None:
    await LoginScreen(session, None, LoginLimiter(5, 60), "127.0.0.1", False).run()  # type: ignore[arg-type]


def game(cls) -> Start:
    return lambda session: play_game(session, cls)


# name: (what runs, keys that bring the screen up, text on it once it is up)
SCREENS: dict[str, tuple[Start, str, str]] = {
    "title": (title, "", "Press any key"),
    "login": (_login, "", "Handle:"),
    "main menu": (lambda s: main_menu(s, actions()), "", "Your choice"),
    "instructions": (instructions_menu, "", "Read about"),
    "a page of rules": (instructions_menu, "2", "MONTE CARLO: HOW TO PLAY"),
    "terminal settings": (terminal_settings, "", "Character set"),
    "hall of fame": (hall_of_fame, "", "Hall of Fame"),
    "daily board": (daily_challenge, "", "Today: Mariant"),
    "daily streaks": (daily_challenge, "s", "Streaks: days in a row"),
    "who's online": (whos_online, "", "Online"),
    "messages": (message_centre, "", "messages for"),
    "message editor": (message_centre, "wBob\rHello\rSome text", "Some text"),
    "game number": (game(MonteCarloScreen), "", "Game number:"),
    "Monte Carlo": (game(MonteCarloScreen), "505\r", "Monte Carlo #505"),
    "Mariant": (game(MariantScreen), "\r", "Mariant #"),
    "Aunt Mary": (game(AuntMaryScreen), "505\r", "Aunt Mary #505"),
    "Anciento": (game(AncientoScreen), "s505\r", "Anciento #505"),
}

SIZES = st.tuples(st.integers(40, 200), st.integers(15, 60))


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("home")
    shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
    shutil.copytree(REPO / "ansi", home / "ansi")
    (home / "data").mkdir()
    return home


async def run_screen(settings: Settings, name: str, sizes: list[tuple[int, int]]) -> None:
    start, keys, ready = SCREENS[name]
    # A database per example: a game started in one is kept in its resume slot, and the
    # next would be asked to resume it.
    store = Store(f"sqlite+aiosqlite:///{settings.data_dir / f'{uuid.uuid4().hex}.db'}")
    await store.start()
    me = await store.players.player("direct", "me", "Me")
    await store.players.player("direct", "bob", "Bob")
    terminal = WindowTerminal(80, 24)
    session = Session(terminal, Services(settings, store=store), player=me)
    session.caller.alias = "Me"
    task = asyncio.create_task(start(session))
    try:
        for ch in keys:
            terminal.inbox.put_nowait(ch.encode())
        deadline = time.monotonic() + WAIT
        while ready not in terminal.term.text:
            assert time.monotonic() < deadline and not task.done(), terminal.term.text
            await asyncio.sleep(0.005)
        for cols, rows in sizes:
            terminal.resize(cols, rows)
            await settled(terminal, session, task)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await store.close()
        await close_solver_pool()   # the card games ask a solver worker about the deal


@pytest.mark.slow
@pytest.mark.parametrize("name", SCREENS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(sizes=st.lists(SIZES, min_size=1, max_size=4))
@example(sizes=[(79, 24), (80, 23), (80, 24), (40, 15), (200, 60), (80, 24)])
def test_every_screen_is_whole_or_a_notice(home: Path, name: str,
                                           sizes: list[tuple[int, int]]) -> None:
    asyncio.run(run_screen(load_settings(home), name, sizes))


async def test_q_at_the_notice_leaves_and_keeps_the_game(home: Path) -> None:
    """Q while the notice is up: the visit ends the way a lost line does, game saved."""
    settings = load_settings(home)
    store = Store(f"sqlite+aiosqlite:///{settings.data_dir / 'q.db'}")
    await store.start()
    me = await store.players.player("direct", "me", "Me")
    terminal = WindowTerminal(80, 24)
    session = Session(terminal, Services(settings, store=store), player=me)
    task = asyncio.create_task(play_game(session, MonteCarloScreen))
    try:
        terminal.inbox.put_nowait(b"505\r")
        deadline = time.monotonic() + WAIT
        while "Monte Carlo #505" not in terminal.term.text:
            assert time.monotonic() < deadline and not task.done(), terminal.term.text
            await asyncio.sleep(0.005)
        terminal.resize(60, 20)
        await settled(terminal, session, task)
        terminal.inbox.put_nowait(b"x")  # any other key waits (with a bell)
        terminal.inbox.put_nowait(b"q")
        with pytest.raises(WindowTooSmall):
            await asyncio.wait_for(task, WAIT)
        await session.save_game_in_progress()
        assert await store.saves.resumable(me.id) == ["montecarlo"]
    finally:
        await store.close()
