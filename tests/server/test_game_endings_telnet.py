"""Every game knows when it is over, through a real telnet door and its store: each game is
played to a dead position from a real deal, the end offer says why, the end box follows
with the score and the hall of fame; and a resigned game is never offered again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from serverhelp import new_member, open_game, running
from waiting import WAIT

from door.games.anciento import Anciento
from door.games.auntmary import AuntMary
from door.games.mariant import Mariant
from door.games.montecarlo import MonteCarlo
from door.ui.montecarlo.screen import closing_deal

OFFER = "[E] or Enter  end the game here"
AGAIN = "[A] again with game #"


async def gone(caller, text: str) -> None:
    """Read until ``text`` is no longer on the screen."""
    async with asyncio.timeout(WAIT):
        while text in caller.term.text:
            assert await caller.pump(), "the door hung up"


async def not_offered_again(caller, key: str, prompt: str) -> None:
    """From the main menu, the game's key goes straight to a new deal: no resume box."""
    caller.send(key)
    await caller.wait_for(prompt)
    assert "Welcome back" not in caller.term.text and "Resume your" not in caller.term.text
    caller.send("\x1b")
    await caller.wait_for("Your choice")


async def resign(caller, question: str) -> None:
    caller.send("x")
    await caller.wait_for(question)
    assert "(y/N)" in caller.term.text
    caller.send("y")
    await caller.wait_for("You resigned.")
    assert "hall of fame!" not in caller.term.text          # never a place


async def test_mariant_ends_when_nothing_can_move(door_home: Path) -> None:
    """Deal 1, 2 down 1 up: eight deals and nothing can move (no empty column, no card
    fits another): the end offer, U offered at its price, then the end box."""
    game = Mariant.new(1)
    while game.stock_count:
        game.play("d")
    assert game.no_moves_left and len(game.actions) == 8
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Marie", "mariant-pw")
        caller.send("m")
        await caller.wait_for("New Mariant game")
        caller.send("1\r")
        await caller.wait_for("Mariant #1")
        caller.send("d" * 8)
        await caller.wait_for(OFFER)
        assert "Nothing can move and nothing is left to deal." in caller.term.text
        assert "take the last move back (+2 points, marks you a cheater)" in caller.term.text
        caller.send("\r")
        await caller.wait_for(AGAIN + "1")
        assert "Nothing can move and nothing is left to deal." in caller.term.text
        assert "Final score: 0" in caller.term.text
        caller.send("m")
        await caller.wait_for("Your choice")
        await not_offered_again(caller, "m", "New Mariant game")   # ended: not kept

        caller.send("m")
        await caller.wait_for("New Mariant game")
        caller.send("2\r")
        await caller.wait_for("Mariant #2")
        caller.send("d")
        await caller.wait_for("To deal 64")
        await resign(caller, "Resign? The game ends unwon")
        caller.send("m")
        await caller.wait_for("Your choice")
        await not_offered_again(caller, "m", "New Mariant game")
        caller.close()


def mc_keys(number: int) -> tuple[str, MonteCarlo]:
    """The keys that play deal ``number`` by its first legal move each time until no move
    is left (a 'y' after each move the screen asks about: one that deals from the stock
    while something could be taken back or chosen instead)."""
    game = MonteCarlo.new(number)
    keys = []
    while game.legal_moves():
        move = game.legal_moves()[0]
        keys.append(move + ("y" if closing_deal(game, move) else ""))
        game.play(move)
    return "".join(keys), game


async def test_monte_carlo_ends_with_no_pair_left(door_home: Path) -> None:
    """Deal 18: the last pair leaves nothing to remove or consolidate.  The end offer lets
    it be taken back (the game goes on), and ends the game when asked: the end box with the
    place in the hall of fame.  Deal 25 has no pair at all: nothing to take back, so the
    end box comes at once."""
    keys, game = mc_keys(18)
    last = game.actions[-1]
    assert game.no_moves_left and game.can_undo
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Carla", "monte-pw")
        await open_game(caller, "c", 18)
        caller.send(keys)
        await caller.wait_for(OFFER)
        assert "No pair is left, and consolidating would change nothing." in caller.term.text
        caller.send("u")
        await caller.wait_for("Undone")
        assert OFFER not in caller.term.text
        caller.send(last)
        await caller.wait_for(OFFER)
        caller.send("e")
        await caller.wait_for(AGAIN + "18")
        assert f"Final score: {game.score}" in caller.term.text
        assert "Your game takes 1st place in the Monte Carlo hall of fame!" in caller.term.text
        caller.send("m")
        await caller.wait_for("Your choice")

        await open_game(caller, "c", 25)
        await caller.wait_for(AGAIN + "25")              # dead as dealt: no offer to make
        assert "No pair is left, and consolidating would change nothing." in caller.term.text
        caller.send("m")
        await caller.wait_for("Your choice")

        await open_game(caller, "c", 18)
        first = MonteCarlo.new(18)
        first.play(keys[:4])
        caller.send(keys[:4])
        await caller.wait_for(f"Score {first.score} ")
        await resign(caller, "Resign? The game ends now with a score of")
        caller.send("m")
        await caller.wait_for("Your choice")
        await not_offered_again(caller, "c", "Game number:")
        caller.close()


async def test_aunt_mary_ends_when_no_way_forward(door_home: Path) -> None:
    """Deal 273, turning the stock only: after 41 turns and redeals nothing can send a
    card home or turn one over any more (the engine's proof).  Esc plays on, X brings the
    offer back, Enter ends it."""
    game = AuntMary.new(273)
    for _ in range(41):
        game.play(game.deal_move() or "s")
    assert game.cannot_win and not game.no_moves_left
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Mary", "auntmary-pw")
        await open_game(caller, "a", 273, "Aunt Mary")
        caller.send("s" * 41)
        await caller.wait_for(OFFER)
        assert "No way forward: no move can send a card home" in caller.term.text
        caller.send("\x1b")
        await gone(caller, OFFER)
        assert "No way forward: X, U" in caller.term.text      # the panel keeps saying it
        caller.send("x")
        await caller.wait_for(OFFER)
        caller.send("\r")
        await caller.wait_for(AGAIN + "273")
        assert f"Final score: {game.score}" in caller.term.text
        caller.send("m")
        await caller.wait_for("Your choice")

        await open_game(caller, "a", 5, "Aunt Mary")
        await resign(caller, "Resign? The game ends now with 0 cards home")
        caller.send("m")
        await caller.wait_for("Your choice")
        await not_offered_again(caller, "a", "Game number:")
        caller.close()


async def test_anciento_ends_when_the_stone_fits_nowhere(door_home: Path) -> None:
    """Deal 3, the first fitting square each time: after 12 stones the next fits nowhere.
    The end offer (take the stone back, or end), then the end box with the bonuses."""
    game = Anciento.new(3)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    squares = list(game.actions)
    assert game.no_moves_left and len(squares) == 12
    game.play("end")
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Stone", "anciento-pw")
        caller.send("n")
        await caller.wait_for("New Anciento game")
        caller.send("s3\r")
        await caller.wait_for("Anciento #3")
        caller.send("".join(squares))
        await caller.wait_for(OFFER)
        assert "fits nowhere: no stone can be placed." in caller.term.text
        assert "[U]  take the last stone back" in caller.term.text
        caller.send("\r")
        await caller.wait_for(AGAIN + "3")
        assert f"Final score: {game.score}" in caller.term.text
        caller.send("m")
        await caller.wait_for("Your choice")
        await not_offered_again(caller, "n", "New Anciento game")

        caller.send("n")
        await caller.wait_for("New Anciento game")
        caller.send("s4\r")
        await caller.wait_for("Anciento #4")
        caller.send("x")
        await caller.wait_for("End the game now? The 66 stones left are never placed")
        assert "(y/N)" in caller.term.text
        caller.send("\r")                                 # Enter: No
        await caller.wait_for("The game goes on.")
        caller.send("x")
        await caller.wait_for("End the game now?")
        caller.send("y")
        await caller.wait_for(AGAIN + "4")
        caller.send("m")
        await caller.wait_for("Your choice")
        await not_offered_again(caller, "n", "New Anciento game")
        caller.close()
