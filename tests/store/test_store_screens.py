"""The hall of fame and the message centre through a real telnet door with a real store.

Direct callers are "Guest" (source ``direct``, user ``guest``) until logins exist, so the
tests seed other players and Guest's own games and messages straight into the store.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from pyteterm import TelnetCaller
from storehelp import insert_game
from waiting import until

from door.config import load_settings
from door.net.telnet import start_telnet
from door.serve.server import NodeTable, session_runner
from door.store.visit import open_store


async def at_menu(port: int) -> TelnetCaller:
    return await TelnetCaller.at_menu(port)


async def leave(caller: TelnetCaller) -> None:
    await caller.log_off()


async def online_becomes(store, *rows: tuple) -> None:
    """Who's online reaches ``rows`` of (alias, activity): screens write it in the
    background, a moment after they are drawn."""
    async def there() -> bool:
        return [(n.alias, n.activity) for n in await store.online.nodes()] == list(rows)
    await until(there, f"who's online: {rows}")


@pytest.mark.slow
async def test_hall_of_fame_screen(door) -> None:
    store, port = door
    ann = await store.players.player("Night Owl BBS", "1", "Ann")
    guest = await store.players.player("direct", "guest", "Guest")
    await insert_game(store, ann.id, "anciento", 500, number=505)
    await insert_game(store, guest.id, "anciento", 300, number=505)
    await insert_game(store, ann.id, "anciento", 800, number=9,
                      ended=datetime(2026, 2, 2, tzinfo=UTC))
    caller = await at_menu(port)
    caller.send("h")
    await caller.wait_for("Mariant's Hit Parade")
    await online_becomes(store, ("Guest", "Hall of Fame"))
    assert [n.node for n in await store.online.nodes()] == [1]
    assert "won games only, fewest points first" in caller.term.text
    assert "No scores yet" in caller.term.text
    caller.send("4")
    await caller.wait_for("Anciento: Hall of Fame")
    lines = [line.strip() for line in caller.term.lines if line.strip()[:2] in ("1.", "2.",
                                                                                  "3.")]
    assert [line.split()[:3] for line in lines] == [["1.", "Ann", "800"],
                                                    ["2.", "Ann", "500"],
                                                    ["3.", "Guest", "300"]]
    assert "Your best: 300 on #505, rank 3." in caller.term.text
    caller.send("#")
    await caller.wait_for("Game number:")
    caller.send("505\r")
    await caller.wait_for("Best on Anciento #505")
    await caller.settle()
    assert "#9 " not in caller.term.text and "1. Ann" in caller.term.text
    caller.send("\x1b")
    await caller.wait_for("Your choice")
    await leave(caller)


@pytest.mark.slow
async def test_message_centre_read_reply_write(door) -> None:
    store, port = door
    bob = await store.players.player("direct", "bob", "Bob")
    await store.players.player("direct", "guest", "Guest")
    await store.players.player("Night Owl BBS", "5", "Bobby Tables")
    await store.messages.send(bob.id, "guest", "Rematch?",
                              "Deal #505 tonight?\x1b[2J\x1b[1;1HYOU HAVE BEEN HACKED")
    caller = await at_menu(port)
    caller.send("e")
    await caller.wait_for("New messages for Guest")
    assert caller.term.find("Rematch?") is not None
    caller.send("\r")
    await caller.wait_for("Subject: Rematch?")
    await caller.settle()
    assert "Deal #505 tonight?YOU HAVE BEEN HACKED" in caller.term.text  # inert text
    assert caller.term.find("From:    Bob") == (2, 2)  # the screen was not cleared or moved
    caller.send("r")
    await caller.wait_for("Subject: Re: Rematch?")
    caller.send("Yes, at nine.\r")
    await caller.settle()
    caller.send("/s\r")
    await caller.wait_for("Message sent to Bob.")
    assert [(m.subject, m.body) for m in await store.messages.inbox(bob.id)] == [
        ("Re: Rematch?", "Bob wrote:\n> Deal #505 tonight?YOU HAVE BEEN HACKED\n\nYes, at nine.")]
    assert "No new messages" in caller.term.text  # Bob's message is read now

    caller.send("w")
    await caller.wait_for("To:")
    caller.send("bobby tabels\r")
    await caller.wait_for("did you mean Bobby Tables?")
    caller.send("\x1b")
    await caller.settle()
    caller.send("\x1b")
    await caller.wait_for("Your choice")
    await leave(caller)


async def test_screens_say_unavailable_and_the_door_goes_on(door_home: Path) -> None:
    (door_home / "data" / "reussite.db").write_bytes(b"not a database at all " * 300)
    settings = load_settings(door_home)
    store = await open_store(settings)
    server = await start_telnet("127.0.0.1", 0, session_runner(
        settings, NodeTable(settings.server.max_nodes), store))
    try:
        caller = await at_menu(server.sockets[0].getsockname()[1])
        caller.send("h")
        await caller.wait_for("Scores are unavailable right now")
        caller.send("\x1b")
        await caller.wait_for("Your choice")
        caller.send("e")
        await caller.wait_for("Messages are unavailable right now")
        caller.send(" ")
        await caller.wait_for("Your choice")
        caller.send("h")
        await caller.wait_for("Hall of Fame")
        caller.send("\x1b")
        await caller.wait_for("Your choice")
        await leave(caller)
    finally:
        server.close()
        await server.wait_closed()
        await store.close()


async def test_long_message_is_paged_and_can_be_deleted(door) -> None:
    store, port = door
    bob = await store.players.player("direct", "bob", "Bob")
    guest = await store.players.player("direct", "guest", "Guest")
    body = "\n".join(f"Line {i:02d} of the saga." for i in range(1, 31))
    await store.messages.send(bob.id, "guest", "The saga", body)
    caller = await at_menu(port)
    caller.send("e")
    await caller.wait_for("The saga")
    caller.send("\r")
    await caller.wait_for("Page 1 of 3")
    assert "Line 01" in caller.term.text and "Line 15" not in caller.term.text
    caller.send(" ")
    await caller.wait_for("Page 2 of 3")
    assert "Line 15" in caller.term.text and "Line 01" not in caller.term.text
    caller.send("\x1b[5~")  # PgUp
    await caller.wait_for("Page 1 of 3")
    caller.send("d")
    await caller.wait_for("Delete the message from Bob?")
    caller.send("y")
    await caller.wait_for("Message deleted.")
    assert await store.messages.inbox(guest.id) == []
    caller.send("\x1b")
    await caller.wait_for("Your choice")
    await leave(caller)


async def test_main_menu_tells_of_new_messages(door) -> None:
    store, port = door
    bob = await store.players.player("direct", "bob", "Bob")
    await store.players.player("direct", "guest", "Guest")
    await store.messages.send(bob.id, "guest", "Hello", "First")
    await store.messages.send(bob.id, "guest", "Again", "Second")
    caller = await at_menu(port)
    await caller.wait_for("You have 2 new messages.")
    caller.send("e")
    await caller.wait_for("New messages for Guest")
    caller.send("\r")
    await caller.wait_for("Subject: ")
    caller.send("\x1b")
    await caller.settle()
    caller.send("\x1b")
    await caller.wait_for("Your choice")
    await caller.wait_for("You have 1 new message.")
    await leave(caller)


@pytest.mark.slow
async def test_terminal_settings_are_kept_for_the_next_call(door) -> None:
    store, port = door
    caller = await at_menu(port)
    hot = caller.term.find("[C]")
    assert hot and caller.term.screen.buffer[hot[0]][hot[1] + 1].fg == "brown"
    caller.send("s")
    await caller.wait_for("Character set")
    caller.send("o")
    await caller.wait_for("Colour off.")
    caller.send("\x1b")
    await caller.wait_for("Your choice")
    await leave(caller)
    (guest,) = [p for p in await store.players.all() if p.alias == "Guest"]
    assert (guest.charset, guest.color, guest.rows) == ("cp437", False, 24)

    again = await at_menu(port)
    hot = again.term.find("[C]")
    assert hot and again.term.screen.buffer[hot[0]][hot[1] + 1].fg == "default"
    await leave(again)


async def test_whos_online_says_which_game_is_played(door) -> None:
    store, port = door
    caller = await at_menu(port)
    caller.send("c")
    await caller.wait_for("Game number:")
    await online_becomes(store, ("Guest", "Playing Monte Carlo"))
    caller.send("\x1b")
    await caller.wait_for("Your choice")
    await online_becomes(store, ("Guest", "main menu"))
    await leave(caller)


async def test_hall_of_fame_replays_a_game_to_its_final_score(door) -> None:
    from datetime import timedelta

    from door.games import Status
    from door.games.montecarlo import MonteCarlo

    store, port = door
    game = MonteCarlo.new(42)
    while game.status is Status.PLAYING and game.hints():
        game.play(game.hints()[0])
    ann = await store.players.player("Night Owl BBS", "1", "Ann")
    ended = datetime(2026, 3, 3, tzinfo=UTC)
    await store.scores.finish_game(ann.id, game.record(), game.score, str(game.status), False,
                                   ended - timedelta(minutes=5), ended)
    caller = await at_menu(port)
    caller.send("h")
    await caller.wait_for("Mariant's Hit Parade")
    caller.send("2")
    await caller.wait_for("Monte Carlo: Hall of Fame")
    caller.send("r")
    await caller.wait_for("Replay: Ann's Monte Carlo")
    moves = len(game.actions)
    assert f"The deal, before move 1 of {moves}" in caller.term.text
    assert "Monte Carlo #42" in caller.term.text
    caller.send("\x1b[C")
    await caller.wait_for(f"Move 1 of {moves}: {game.actions[0]}")
    caller.send("\x1b[F")
    await caller.wait_for(f"Final score {game.score}.")
    caller.send("q")
    await caller.wait_for("Monte Carlo: Hall of Fame")
    caller.send("\x1b")
    await caller.wait_for("Your choice")
    await leave(caller)
