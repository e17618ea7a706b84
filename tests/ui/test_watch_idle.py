"""Watching a live game counts as activity for the idle limit (door/session.py
``Session.idle_hold``, door/ui/menus/watch.py), up to sysop.ini's ``[limits] watch_minutes``
without a key; then the idle limit counts as anywhere else."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from pyteterm import QueueTerminal
from waiting import WAIT, until

import door.session as session_module
from door.config import Settings
from door.games.montecarlo import MonteCarlo
from door.session import IdleTimeout, Services, Session
from door.ui.menus.watch import watch_game
from door.watching.hub import WatchHub


def quick_idle(settings: Settings, monkeypatch, **limits) -> Settings:
    monkeypatch.setattr(session_module, "IDLE_WARNING", 0.2)
    return dataclasses.replace(settings, limits=dataclasses.replace(
        settings.limits, idle_timeout=0.4, **limits))


@pytest.mark.slow
async def test_a_busy_hold_starts_the_idle_clock_over(settings: Settings, monkeypatch) -> None:
    """Each time the idle limit comes, the hold is asked: while it says busy, no warning
    and no hang-up; the first time it does not, the warning, then the idle time-out."""
    session = Session(QueueTerminal(), Services(quick_idle(settings, monkeypatch)))
    answers = [True, True, True]
    asked: list[bool] = []

    def hold() -> bool:
        busy = bool(answers) and answers.pop()
        asked.append(busy)
        return busy

    session.idle_hold = hold
    with pytest.raises(IdleTimeout):
        await asyncio.wait_for(session.key(), WAIT)
    assert asked == [True, True, True, False, False]   # at the warning, then at the end


async def test_watching_holds_the_idle_clock_while_the_game_is_live(
        settings: Settings, monkeypatch) -> None:
    settings = quick_idle(settings, monkeypatch)
    hub = WatchHub()
    watched = hub.offer("Ann", "Monte Carlo", "#42", MonteCarlo.new(42), True)
    terminal = QueueTerminal(charset="utf8")
    session = Session(terminal, Services(settings))
    task = asyncio.create_task(watch_game(session, watched))
    await until(lambda: session.idle_hold is not None, "the hold set")
    hold = session.idle_hold
    assert hold is not None and hold()          # a live game: busy watching
    hub.withdraw(watched)                        # the player left: nothing live to watch
    await until(lambda: "Ann has left this game" in terminal.term.text, "told so")
    assert not hold()
    terminal.inbox.put_nowait(b" ")
    await asyncio.wait_for(task, WAIT)
    assert session.idle_hold is None             # the rest of the visit idles as before


@pytest.mark.slow
async def test_watching_without_a_key_ends_past_the_watch_limit(
        settings: Settings, monkeypatch) -> None:
    """A watcher who never presses a key is held past the idle limit while watching, then
    let go once watch_minutes have passed since their last key: warned, then hung up."""
    settings = quick_idle(settings, monkeypatch, watch_minutes=0.03)   # 1.8 s
    hub = WatchHub()
    watched = hub.offer("Ann", "Monte Carlo", "#42", MonteCarlo.new(42), True)
    terminal = QueueTerminal(charset="utf8")
    session = Session(terminal, Services(settings))
    asked: list[bool] = []
    task = asyncio.create_task(watch_game(session, watched))
    await until(lambda: session.idle_hold is not None, "the hold set")
    hold = session.idle_hold
    assert hold is not None

    def counting() -> bool:
        asked.append(hold())
        return asked[-1]

    session.idle_hold = counting
    with pytest.raises(IdleTimeout):
        await asyncio.wait_for(task, WAIT)
    assert asked[0] and not asked[-1]           # held at first, let go in the end
    assert b"Still there? Press a key" in terminal.term.raw
