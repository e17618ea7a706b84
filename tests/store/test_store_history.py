"""A caller's own finished games: the store's pages (newest first, undo and cheat marks) on
SQLite and PostgreSQL, and the Your Games screen through a real telnet door: paging, and R
replaying a game to its recorded final score."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from storehelp import insert_game

from door.games import Status
from door.games.montecarlo import MonteCarlo
from door.store import Store

DAY = datetime(2026, 4, 1, tzinfo=UTC)


def with_an_undo() -> MonteCarlo:
    """Monte Carlo #42 played by its hints to the end, with one undo after the first move."""
    game = MonteCarlo.new(42)
    game.play(game.hints()[0])
    game.undo()
    while game.status is Status.PLAYING and game.hints():
        game.play(game.hints()[0])
    return game


async def test_pages_are_the_players_own_games_newest_first(store: Store) -> None:
    ann = await store.players.player("bbs", "1", "Ann")
    bob = await store.players.player("bbs", "2", "Bob")
    for i in range(5):
        await insert_game(store, ann.id, "anciento", 100 + i, number=i,
                          ended=DAY + timedelta(hours=i), cheater=i == 3)
    await insert_game(store, bob.id, "anciento", 999, ended=DAY + timedelta(days=1))
    game = with_an_undo()
    await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status), False,
                                   DAY + timedelta(days=2), DAY + timedelta(days=2), still_asks=2)
    first, total = await store.scores.player_games(ann.id, 0, 3)
    assert total == 6
    assert [(e.record.game, e.score) for e in first] == [
        ("montecarlo", game.score), ("anciento", 104), ("anciento", 103)]
    assert (first[0].undos, first[0].cheater, first[0].record.actions) == (
        1, False, game.actions)
    assert (first[2].undos, first[2].cheater) == (0, True)
    assert [e.still_asks for e in first] == [2, 0, 0]
    rest, _ = await store.scores.player_games(ann.id, 3, 3)
    assert [e.score for e in rest] == [102, 101, 100]
    assert await store.scores.player_games(bob.id, 1, 3) == ([], 1)


@pytest.mark.slow
async def test_your_games_pages_and_replays(door) -> None:
    from pyteterm import TelnetCaller

    store, port = door
    guest = await store.players.player("direct", "guest", "Guest")
    for i in range(20):
        await insert_game(store, guest.id, "auntmary", 10 + i, number=i + 1,
                          ended=DAY + timedelta(hours=i))
    game = with_an_undo()
    await store.scores.finish_game(guest.id, game.record(), game.score, str(game.status), False,
                                   DAY + timedelta(days=3), DAY + timedelta(days=3), still_asks=1)
    caller = await TelnetCaller.at_menu(port)
    caller.send("h")
    await caller.wait_for("Mariant's Hit Parade")
    caller.send("y")
    await caller.wait_for("Your finished games, newest first: 1-15 of 21")
    first = next(line for line in caller.term.lines if "#42" in line)
    assert "Monte Carlo" in first and str(game.score) in first
    assert first.split()[-2:] == ["U1", "v"]              # an undo, "still winnable?" asked
    assert 'v "still winnable?" asked' in caller.term.text
    assert "2026-04-04" in first
    caller.send("\x1b[6~")  # PgDn
    await caller.wait_for("16-21 of 21")
    assert "#42" not in caller.term.text and "#1 " in caller.term.text
    caller.send("\x1b[6~")
    await caller.wait_for("That is the last page.")
    caller.send("\x1b[5~")  # PgUp
    await caller.wait_for("1-15 of 21")
    caller.send("r")  # the first line: the Monte Carlo game
    moves = len(game.actions)
    await caller.wait_for(f"The deal, before move 1 of {moves}")
    assert "Replay: Guest's Monte Carlo" in caller.term.text
    caller.send("\x1b[C\x1b[C")
    await caller.wait_for(f"Move 2 of {moves}: undo.")
    caller.send("\x1b[F")  # End
    await caller.wait_for(f"Final score {game.score}.")
    caller.send("q")
    await caller.wait_for("1-15 of 21")
    caller.send("\x1b")
    await caller.wait_for("Mariant's Hit Parade")
    caller.send("\x1b")
    await caller.wait_for("Your choice")
    await caller.log_off()
