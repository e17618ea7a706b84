"""Watchers in-process (real Sessions over queue terminals read through pyte): watchers of
one charset get the same bytes for each move, a late or lagging one is repainted, and each
screen is the game drawn for that watcher's charset."""

from __future__ import annotations

import asyncio
import contextlib

from pyteterm import QueueTerminal
from waiting import WAIT

from door.config import Settings
from door.games.montecarlo import MonteCarlo
from door.session import Session
from door.ui.watch import watch_game
from door.watch import WatchHub


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
    sessions = [Session(t, settings) for t in terminals]
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
        tasks.append(asyncio.create_task(watch_game(Session(late, settings), watched)))
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
    stuck_task = asyncio.create_task(watch_game(Session(stuck, settings), watched))
    task = asyncio.create_task(watch_game(Session(reader, settings), watched))
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
