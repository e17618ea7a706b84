"""Replays of finished games on their own game screens, read through pyte: every game (each
record, and the toy one) steps forward and back and reaches its recorded final score."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from pyteterm import ScreenCaller
from waiting import WAIT

from door.catalog.record import GameInfo
from door.catalog.registry import engine
from door.config import Settings
from door.games import Game, GameRecord, Status
from door.ui.game.replay import Positions, Replay


def played(name: str, number: int, most: int = 120) -> Game:
    """A game played by its own hints (one undo early on, as callers do), to its end or
    ``most`` moves."""
    game = engine(name).new(number)
    while game.status not in (Status.WON, Status.LOST) and len(game.actions) < most:
        moves = game.hints() or game.legal_moves()
        if not moves:
            break
        game.play(moves[0])
        if len(game.actions) == 3:
            game.undo()
    return game


class ReplayCaller(ScreenCaller):
    """The replay screen of one record in a real Session over a queue terminal."""

    def __init__(self, settings: Settings, record: GameRecord, score: int) -> None:
        from pyteterm import QueueTerminal

        from door.session import Services, Session

        self.terminal = QueueTerminal(charset="utf8")
        self.session = Session(self.terminal, Services(settings))
        self.task = asyncio.create_task(Replay(self.session, record, "Ada", score).run())


@pytest.mark.slow
async def test_replay_steps_both_ways_to_the_final_score(settings: Settings,
                                                         every_game: GameInfo) -> None:
    game = played(every_game.name, 7)
    moves = len(game.actions)
    caller = ReplayCaller(settings, game.record(), game.score)
    try:
        await caller.wait_for(f"The deal, before move 1 of {moves}")
        assert "Replay: Ada's" in caller.text
        caller.send("\x1b[C")  # →
        await caller.wait_for(f"Move 1 of {moves}: {game.actions[0]}.")
        caller.send("\x1b[C\x1b[C\x1b[C")
        await caller.wait_for(f"Move 4 of {moves}: undo.")
        caller.send("\x1b[D")  # ←
        await caller.wait_for(f"Move 3 of {moves}: {game.actions[2]}.")
        caller.send("\x1b[F")  # End
        await caller.wait_for(f"Final score {game.score}.")
        assert "recorded" not in caller.text
        caller.send("\x1b[D")
        await caller.wait_for(f"Move {moves - 1} of {moves}")
        caller.send("\x1b[H")  # Home
        await caller.wait_for("The deal, before move 1")
        caller.send("q")
        await asyncio.wait_for(caller.task, WAIT)
    finally:
        with contextlib.suppress(Exception):
            await caller.close()


@pytest.mark.slow
async def test_replay_plays_by_itself_to_the_end(settings: Settings) -> None:
    game = played("montecarlo", 11, most=12)
    caller = ReplayCaller(settings, game.record(), game.score)
    try:
        await caller.wait_for("The deal")
        caller.send("+++")  # fastest
        caller.send("p")
        await caller.wait_for(f"Final score {game.score}.", timeout=WAIT)
        await caller.wait_for("P play")  # stopped at the end by itself
    finally:
        await caller.close()


def test_a_record_that_goes_wrong_replays_up_to_the_refused_move() -> None:
    game = played("montecarlo", 11, most=6)
    record = GameRecord("montecarlo", 11, {}, [*game.actions, "zz99"])
    positions = Positions(record)
    assert positions.last == len(game.actions)
    assert "zz99" in positions.error
    assert positions.scores[-1] == game.score


async def test_a_replay_of_a_winnable_deal_shows_the_solvers_line(settings: Settings
                                                                   ) -> None:
    game = played("montecarlo", 7, most=4)  # deal 7 could be won in 26 moves, from e4d5
    caller = ReplayCaller(settings, game.record(), game.score)
    try:
        await caller.wait_for("W: the solver's winning line.", timeout=2 * WAIT)
        caller.send("\x1b[C")  # the replay goes on as before
        await caller.wait_for(f"Move 1 of {len(game.actions)}: {game.actions[0]}.")
        caller.send("w")  # the same viewer, on the solver's line from the deal
        await caller.wait_for("Winning line: the deal, before move 1 of 26.")
        assert "Winning line · ←→ step" in caller.text
        caller.send("\x1b[C")
        await caller.wait_for("Winning line, move 1 of 26: e4d5.")
        caller.send("\x1b[F")  # End
        await caller.wait_for("Won in 26 moves.")
        caller.send("q")  # back to the replay, where it was
        await caller.wait_for(f"Move 1 of {len(game.actions)}: {game.actions[0]}.")
        assert "Replay: Ada's Monte Carlo" in caller.text
        caller.send("q")
        await asyncio.wait_for(caller.task, WAIT)
    finally:
        with contextlib.suppress(Exception):
            await caller.close()


async def test_question_mark_shows_the_replays_keys_and_puts_the_screen_back(
        settings: Settings) -> None:
    game = played("auntmary", 7, most=10)
    caller = ReplayCaller(settings, game.record(), game.score)
    try:
        await caller.wait_for("The deal, before move 1")
        await caller.settle()
        before = caller.term.lines
        caller.send("?")
        await caller.wait_for("Replay: its keys")
        assert "play by itself, or pause" in caller.text and "this map of the keys" in caller.text
        caller.send("\x1b")
        await caller.wait_until(lambda: caller.term.lines == before, "the replay as it was")
        caller.send("\x1b[C")                        # and its keys work again
        await caller.wait_for(f"Move 1 of {len(game.actions)}")
        caller.send("q")
        await asyncio.wait_for(caller.task, WAIT)
    finally:
        with contextlib.suppress(Exception):
            await caller.close()
