"""The end offer in-process, with a real SQLite store: a dead game left at the offer is kept
and offered back with a word saying so (the resume box drawn again whole after a resize),
resumes straight into the offer, and once ended is never offered again."""

from __future__ import annotations

import asyncio

import pytest
from pyteterm import ScreenCaller
from waiting import WAIT

from door.config import Settings
from door.games.mariant import Mariant
from door.store import Store
from door.ui.mariant.screen import MariantScreen

OFFER = "[E] or Enter  end the game here"
DEAD_NOTE = "No move is left in it: take a move back, or end it."


class Caller(ScreenCaller):
    screen_class = MariantScreen


async def test_a_dead_game_left_at_the_offer_comes_back_to_it(settings: Settings,
                                                              sqlite_store: Store) -> None:
    game = Mariant.new(1)
    while game.stock_count:
        game.play("d")
    assert game.no_moves_left                 # deal 1: eight deals, nothing can move
    store = sqlite_store
    player = await store.players.player("direct", "ann", "Ann")

    caller = Caller(settings, store=store, player=player)
    await caller.wait_for("New Mariant game")
    caller.send("1\r")
    await caller.wait_for("Mariant #1")
    caller.send("d" * 8)
    await caller.wait_for(OFFER)
    caller.send("q")                          # Q at the offer leaves, asked as on the board
    await caller.wait_for("Leave this game?")
    caller.send("y")
    await asyncio.wait_for(caller.task, WAIT)

    again = Caller(settings, store=store, player=player)
    await again.wait_for("Resume your Mariant game #1? (Y/n)")
    assert DEAD_NOTE in again.text
    question = "Resume your Mariant game #1? (Y/n)"
    assert question in again.term.lines[22]
    again.terminal.term.screen.resize(30, 100)
    again.terminal.resized(100, 30)           # 80 × 30 for the door: all drawn again
    again.terminal.inbox.put_nowait(b"\0")    # the wake a network transport sends
    await again.wait_until(lambda: question in again.term.lines[28], "the question redrawn")
    assert again.session.screen.rows == 30 and not again.term.lines[22].strip()
    assert DEAD_NOTE in again.text
    top = next(i for i, line in enumerate(again.term.lines) if "Welcome back" in line)
    assert again.term.lines[top].index("╔") == again.term.lines[top + 1].index("║")
    assert again.term.lines[top + 5].strip().startswith("╚")   # the box whole, once
    assert again.text.count("Welcome back") == 1
    again.send("y")
    await again.wait_for(OFFER)               # resumed straight into the end offer
    again.send("\r")
    await again.wait_for("[A] again with game #1")
    assert "Nothing can move and nothing is left to deal." in again.text
    again.send("m")
    await asyncio.wait_for(again.task, WAIT)

    third = Caller(settings, store=store, player=player)
    await third.wait_for("New Mariant game")  # ended: never offered again
    assert "Welcome back" not in third.text
    await third.close()
    past, total = await store.scores.player_games(player.id, 0, 5)
    assert total == 1 and past[0].status == "lost"
    assert await store.scores.top("mariant") == []   # the Hit Parade takes won games only
    await store.close()


@pytest.mark.slow
async def test_a_resigned_game_is_never_offered_again(settings: Settings,
                                                      sqlite_store: Store) -> None:
    store = sqlite_store
    player = await store.players.player("direct", "bob", "Bob")
    caller = Caller(settings, store=store, player=player)
    await caller.wait_for("New Mariant game")
    caller.send("2\r")
    await caller.wait_for("Mariant #2")
    caller.send("d")
    await caller.wait_for("To deal 64")
    caller.send("x")
    await caller.wait_for("Resign? The game ends unwon: only won games enter the Hit Parade."
                          " (y/N)")
    caller.send("\r")                         # Enter: No
    await caller.wait_for("Play on.")
    caller.send("x")
    await caller.wait_for("Resign?")
    caller.send("y")
    await caller.wait_for("You resigned.")
    caller.send("m")
    await asyncio.wait_for(caller.task, WAIT)
    again = Caller(settings, store=store, player=player)
    await again.wait_for("New Mariant game")
    assert "Welcome back" not in again.text
    await again.close()
    past, _ = await store.scores.player_games(player.id, 0, 5)
    assert [p.status for p in past] == ["resigned"]
    await store.close()
