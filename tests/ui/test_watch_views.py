"""Watchers in-process (real Sessions over queue terminals read through pyte): watchers of
one charset get the same bytes for each move, a late or lagging one is repainted, and each
screen is the game drawn for that watcher's charset."""

from __future__ import annotations

import asyncio
import contextlib

from pyteterm import PyteTerminal, QueueTerminal
from waiting import WAIT

from door.config import Settings
from door.games.montecarlo import MonteCarlo
from door.session import Services, Session
from door.ui.menus.watch import watch_game
from door.watching.hub import WatchHub


class Recording(QueueTerminal):
    """A queue terminal that also keeps every write."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)
        super().write(data)


async def until(check, what: str, timeout: float = WAIT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"never {what}"
        await asyncio.sleep(0.005)


async def test_watchers_of_one_charset_share_each_moves_bytes(settings: Settings) -> None:
    hub = WatchHub()
    game = MonteCarlo.new(42)
    watched = hub.offer("Ann", "Monte Carlo", "#42", game, True)
    terminals = [Recording(charset="utf8"), Recording(charset="utf8"),
                 Recording(charset="ascii")]
    sessions = [Session(t, Services(settings)) for t in terminals]
    tasks = [asyncio.create_task(watch_game(s, watched)) for s in sessions]
    try:
        await until(lambda: all("3 watching" in t.term.text for t in terminals),
                    "all three watching")
        marks = [len(t.writes) for t in terminals]
        for _ in range(3):
            move = game.legal_moves()[0]
            game.play(move)
            watched.look("")
            await until(lambda: all(f"Score {game.score} " in t.term.text
                                    for t in terminals), f"score {game.score} shown")
        sent = [b"".join(t.writes[m:]) for t, m in zip(terminals, marks, strict=True)]
        assert sent[0] == sent[1]  # one diff for both UTF-8 watchers
        assert terminals[0].term.lines == terminals[1].term.lines
        assert "♥" in terminals[0].term.text or "♠" in terminals[0].term.text
        assert not any(g in terminals[2].term.text for g in "♠♥♦♣")  # ASCII: 9C, not 9♣

        late = Recording(charset="utf8")  # joins now: a whole screen, then the shared bytes
        tasks.append(asyncio.create_task(watch_game(Session(late, Services(settings)), watched)))
        await until(lambda: "4 watching" in terminals[0].term.text, "the fourth counted")
        assert late.term.lines == terminals[0].term.lines
        move = game.legal_moves()[0]
        game.play(move)
        watched.look("b1 and c1 go")
        await until(lambda: all("b1 and c1 go" in t.term.text for t in (late, *terminals)),
                    "the player's message shown")
        assert late.writes[-1] == terminals[0].writes[-1]
        assert late.term.lines == terminals[0].term.lines

        hub.withdraw(watched)
        await until(lambda: all("Ann has left this game" in t.term.text for t in terminals),
                    "told the game is gone")
        for t in (*terminals, late):
            t.inbox.put_nowait(b" ")
        await asyncio.wait_for(asyncio.gather(*tasks), WAIT)
        assert watched.watchers == [] and watched.views == {}
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class Windowed(Recording):
    """A watcher whose window can change, woken by it as the network transports are."""

    def wake(self) -> None:
        self.inbox.put_nowait(b"\0")  # a NUL is no key


def windowed(cols: int) -> Windowed:
    """A UTF-8 watcher whose window is ``cols`` wide (the door's screen stays 80)."""
    terminal = Windowed(charset="utf8")
    terminal.term = PyteTerminal(cols, 24, "utf8")
    terminal.resized(cols, 24)
    return terminal


def centred(terminal: Recording, left: int) -> list[str]:
    """The 80 columns from ``left`` of each row, once the rest of each row is seen blank."""
    lines = terminal.term.lines
    assert all(not line[:left].strip() and not line[left + 80:].strip() for line in lines)
    return [line[left:left + 80] for line in lines]


async def test_each_watcher_sees_the_game_centred_in_their_own_window(
        settings: Settings) -> None:
    """Watchers of one game in windows 80, 132 and 100 columns wide: each sees the same
    screen in the middle of their own window (the two of 132 share the bytes of each move);
    one who widens their window meanwhile sees it move to the middle of the new width."""
    hub = WatchHub()
    game = MonteCarlo.new(42)
    watched = hub.offer("Ann", "Monte Carlo", "#42", game, True)
    narrow, wide, twin, other = windowed(80), windowed(132), windowed(132), windowed(100)
    terminals = [narrow, wide, twin, other]
    tasks = [asyncio.create_task(watch_game(Session(t, Services(settings)), watched))
             for t in terminals]
    try:
        await until(lambda: all("4 watching" in t.term.text for t in terminals),
                    "all four watching")
        marks = [len(t.writes) for t in terminals]
        game.play(game.legal_moves()[0])
        watched.look("")
        await until(lambda: all(f"Score {game.score} " in t.term.text for t in terminals),
                    f"score {game.score} shown")
        assert b"".join(wide.writes[marks[1]:]) == b"".join(twin.writes[marks[2]:])
        assert centred(wide, 26) == centred(other, 10) == narrow.term.lines
        other.term.screen.resize(24, 120)
        other.resized(120, 24)
        await until(lambda: other.term.lines[0][20:100] == narrow.term.lines[0],
                    "the watcher's screen moved to the middle of 120 columns")
        await until(lambda: centred(other, 20) == narrow.term.lines, "redrawn whole")
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class NeverReads(Recording):
    """A watcher whose bytes never leave: every drain waits forever."""

    async def drain(self) -> None:
        await asyncio.Event().wait()


async def test_a_watcher_who_never_reads_is_dropped_and_holds_nobody_up(
        settings: Settings, monkeypatch) -> None:
    from door import session as session_module
    from door.session import CarrierLost

    monkeypatch.setattr(session_module, "DRAIN_TIMEOUT", 0.5)
    hub = WatchHub()
    game = MonteCarlo.new(42)
    watched = hub.offer("Ann", "Monte Carlo", "#42", game, True)
    stuck, reader = NeverReads(charset="utf8"), Recording(charset="utf8")
    stuck_task = asyncio.create_task(watch_game(Session(stuck, Services(settings)), watched))
    task = asyncio.create_task(watch_game(Session(reader, Services(settings)), watched))
    try:
        await until(lambda: "2 watching" in reader.term.text, "both watching")
        for _ in range(3):  # the player plays on while the stuck watcher's frame waits
            game.play(game.legal_moves()[0])
            watched.look("")
            await until(lambda: f"Score {game.score} " in reader.term.text,
                        f"score {game.score} shown to the reading watcher")
        with contextlib.suppress(CarrierLost):
            await asyncio.wait_for(stuck_task, WAIT)
        assert isinstance(stuck_task.exception(), CarrierLost)
        await until(lambda: "1 watching" in reader.term.text, "the stuck one gone")
        assert len(watched.watchers) == 1
    finally:
        for t in (stuck_task, task):
            t.cancel()
            with contextlib.suppress(asyncio.CancelledError, CarrierLost):
                await t
