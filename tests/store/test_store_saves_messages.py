"""Resume slots, named saves, messages and who's online, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from storehelp import Clock, played_game
from waiting import until

from door.store import Limits, MessageRefused, SaveRefused, Store, UnknownPlayer


@pytest.fixture
async def clocked(db_url: str):
    clock = Clock()
    store = Store(db_url, host="test-host", clock=clock, online_window_s=420,
                  limits=Limits(messages_per_hour=3, named_saves=2, body=200))
    assert await store.start()
    yield store, clock
    await store.close()


async def test_resume_slot_one_per_game_newest_claim_wins(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    game = played_game("anciento", 12, 5)
    assert await store.saves.load_resume(ann.id, "anciento") is None
    await store.saves.claim_resume(ann.id, "anciento", {"old": True})
    await store.saves.claim_resume(ann.id, "anciento", game.to_json())
    await store.saves.claim_resume(ann.id, "montecarlo", {"mc": 1})
    state = await store.saves.load_resume(ann.id, "anciento")
    assert type(game).from_json(state).to_json() == game.to_json()
    assert sorted(await store.saves.resumable(ann.id)) == ["anciento", "montecarlo"]
    await store.saves.clear_resume(ann.id, "anciento")
    assert await store.saves.load_resume(ann.id, "anciento") is None
    assert await store.saves.resumable(ann.id) == ["montecarlo"]
    bob = await store.players.player("direct", "bob", "Bob")
    assert await store.saves.resumable(bob.id) == []


async def test_named_saves(clocked) -> None:
    store, clock = clocked
    ann = await store.players.player("direct", "ann", "Ann")
    named = await store.saves.save_named(ann.id, "anciento", "  Before the\x1b[5m corner ",
                                         {"n": 1})
    assert named == "Before the corner"
    clock.advance(minutes=1)
    await store.saves.save_named(ann.id, "anciento", "second", {"n": 2})
    clock.advance(minutes=1)
    await store.saves.save_named(ann.id, "anciento", "BEFORE THE CORNER", {"n": 3})  # replaces
    saves = await store.saves.list_named(ann.id, "anciento")
    assert [s.name for s in saves] == ["BEFORE THE CORNER", "second"]
    assert await store.saves.load_named(ann.id, "anciento", "before the corner") == {"n": 3}
    with pytest.raises(SaveRefused, match="2 saved games"):
        await store.saves.save_named(ann.id, "anciento", "third", {"n": 4})
    with pytest.raises(SaveRefused, match="name"):
        await store.saves.save_named(ann.id, "anciento", "\x1b[0m ", {"n": 4})
    assert await store.saves.delete_named(ann.id, "anciento", "Second")
    assert not await store.saves.delete_named(ann.id, "anciento", "second")
    await store.saves.save_named(ann.id, "anciento", "third", {"n": 4})
    assert await store.saves.load_named(ann.id, "anciento", "nope") is None
    assert await store.saves.list_named(ann.id, "montecarlo") == []


async def test_messages_round_trip(store: Store) -> None:
    ann = await store.players.player("Night Owl BBS", "1", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    first = await store.messages.send(ann.id, "bOB", "Rematch?", "Deal #505.\nYou lost.")
    second = await store.messages.send(ann.id, "Bob", "", "again")
    assert await store.messages.unread_count(bob.id) == 2
    inbox = await store.messages.inbox(bob.id)
    assert [m.id for m in inbox] == [second, first]
    assert inbox[0].subject == "(no subject)"
    assert inbox[1].body == "Deal #505.\nYou lost." and inbox[1].sender == "Ann"
    assert await store.messages.mark_read(bob.id, first)
    assert not await store.messages.mark_read(bob.id, first)
    assert not await store.messages.mark_read(ann.id, second)  # not hers
    assert [m.id for m in await store.messages.inbox(bob.id, unread_only=True)] == [second]
    assert await store.messages.unread_count(bob.id) == 1
    assert not await store.messages.delete(ann.id, second)
    assert await store.messages.delete(bob.id, second)
    assert [m.id for m in await store.messages.inbox(bob.id)] == [first]
    assert not (await store.messages.inbox(bob.id))[0].unread


async def test_escape_sequences_never_reach_the_reader(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    body = ("hi\x1b[2J\x1b[H\x1b]0;owned\x07 there\r\nline\x9b31m two\x00\x7f\u202e\n"
            "\x1bPq#0;2;0;0;0\x1b\\end\x1bc")
    await store.messages.send(ann.id, "bob", "\x1b[31mred\x1b[0m alert\x08", body)
    message = (await store.messages.inbox(bob.id))[0]
    assert message.subject == "red alert"
    assert message.body == "hi there\nline two\nend"
    for text in (message.subject, message.body):
        assert not any((ord(c) < 32 and c != "\n") or 0x7f <= ord(c) < 0xa0 for c in text)


async def test_recipient_must_exist_with_near_names(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    await store.players.player("direct", "bob", "Bobby Tables")
    await store.players.player("Night Owl BBS", "3", "Carla")
    await store.players.player("Moon BBS", "9", "Carla")
    with pytest.raises(UnknownPlayer) as caught:
        await store.messages.send(ann.id, "bobby tabels", "s", "b")
    assert caught.value.suggestions == ["Bobby Tables"]
    assert "did you mean Bobby Tables?" in str(caught.value)
    with pytest.raises(UnknownPlayer, match=r"no player called Zed$"):
        await store.messages.send(ann.id, "Zed", "s", "b")
    with pytest.raises(UnknownPlayer, match="several players are called carla") as many:
        await store.messages.send(ann.id, "carla", "s", "b")
    assert many.value.suggestions == ["Carla@Night Owl BBS", "Carla@Moon BBS"]
    await store.messages.send(ann.id, "carla@moon bbs", "s", "b")
    moon = next(p for p in await store.players.find("carla") if p.source == "Moon BBS")
    assert await store.messages.unread_count(moon.id) == 1
    with pytest.raises(MessageRefused, match="a message to yourself stays unsent"):
        await store.messages.send(ann.id, "ANN", "s", "b")
    assert await store.messages.unread_count(ann.id) == 0


async def test_text_beyond_ascii_is_stored_as_unicode(store: Store) -> None:
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    await store.messages.send(ann.id, "bob", "Ünïcode 中", "Café, 中文, 😀 and e\u0301")
    ((msg,),) = [await store.messages.inbox(bob.id)]
    assert (msg.subject, msg.body) == ("Ünïcode 中", "Café, 中文, 😀 and e\u0301")


async def test_message_limits(clocked) -> None:
    store, clock = clocked
    ann = await store.players.player("direct", "ann", "Ann")
    await store.players.player("direct", "bob", "Bob")
    with pytest.raises(MessageRefused, match="200"):
        await store.messages.send(ann.id, "bob", "long", "x" * 201)
    with pytest.raises(MessageRefused, match="subject"):
        await store.messages.send(ann.id, "bob", "s" * 61, "x")
    with pytest.raises(MessageRefused, match="empty"):
        await store.messages.send(ann.id, "bob", "s", " \x1b[2J \n ")
    for _ in range(3):
        clock.advance(minutes=10)
        await store.messages.send(ann.id, "bob", "s", "b")
    with pytest.raises(MessageRefused, match="3 messages in the last hour"):
        await store.messages.send(ann.id, "bob", "s", "b")
    clock.advance(minutes=41)  # the first one is now over an hour old
    await store.messages.send(ann.id, "bob", "s", "b")


async def test_purge_messages(clocked) -> None:
    store, clock = clocked
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    await store.messages.send(ann.id, "bob", "old", "b")
    clock.advance(days=10)
    await store.messages.send(ann.id, "bob", "new", "b")
    assert await store.messages.purge(timedelta(days=5)) == 1
    assert [m.subject for m in await store.messages.inbox(bob.id)] == ["new"]


@pytest.mark.slow
async def test_who_is_online(clocked) -> None:
    store, clock = clocked
    ann = await store.players.player("direct", "ann", "Ann")
    await store.online.heartbeat(2, ann.id, "Anciento #505")
    await store.online.heartbeat(1, None, "\x1b[31mlogging in")
    clock.advance(minutes=5)
    await store.online.heartbeat(2, ann.id, "Hall of Fame")
    online = await store.online.nodes()
    assert [(n.node, n.alias, n.activity) for n in online] == [
        (1, None, "logging in"), (2, "Ann", "Hall of Fame")]
    assert online[1].since == clock.now - timedelta(minutes=5)  # same caller: since kept
    clock.advance(minutes=3)  # node 1 has been silent for 8 minutes: gone
    assert [n.node for n in await store.online.nodes()] == [2]
    await store.online.leave(2)
    assert await store.online.nodes() == []


@pytest.mark.slow
async def test_keys_keep_a_caller_in_whos_online(db_url: str, settings) -> None:
    """A caller playing one long game never changes screen: their keys, not their screens,
    keep the Idle column right and the node in the list.  The keys of every node are
    written together, once per ``touch_every_s``."""
    from pyteterm import QueueTerminal

    from door.session import Caller, Services, Session

    clock = Clock()
    store = Store(db_url, host="test-host", clock=clock, online_window_s=420,
                  touch_every_s=0.05)
    assert await store.start()
    try:
        ann = await store.players.player("direct", "ann", "Ann")
        await store.online.heartbeat(3, ann.id, "Playing Mariant")
        await store.online.heartbeat(4, None, "logging in")
        started = clock.now

        async def heartbeats() -> list[tuple[int, datetime]]:
            return [(n.node, n.heartbeat) for n in await store.online.nodes()]

        async def key_written() -> bool:  # node 3's heartbeat is the clock's time now
            return (3, clock.now) in await heartbeats()

        terminal = QueueTerminal()
        session = Session(terminal, Services(settings, store=store),
                          Caller(alias="Ann", node=3), player=ann)
        for _ in range(12):  # a key a minute for 12 minutes: longer than the online window
            clock.advance(seconds=60)
            terminal.inbox.put_nowait(b"x")
            await session.key()
            await until(key_written, "the key's heartbeat written")
        (node,) = await store.online.nodes()  # node 4, silent for 12 minutes, has faded out
        assert (node.node, node.heartbeat, node.since) == (3, clock.now, started)
        assert node.activity == "Playing Mariant"

        store.online.touch(3)
        store.online.touch(4)  # one write for both
        clock.advance(seconds=5)
        both = [(3, clock.now), (4, clock.now)]

        async def both_written() -> bool:
            return await heartbeats() == both

        await until(both_written, "both nodes' heartbeats written")
    finally:
        await store.close()
