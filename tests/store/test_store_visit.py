"""A visit's link to the store: open it at start-up, find the caller's player record."""

from __future__ import annotations

from pathlib import Path

import pytest

from door.config import load_settings
from door.session import Caller
from door.store import MessageRefused, Store
from door.store.migrate import head
from door.store.visit import identify, node_gone, node_seen, open_store


async def test_bbs_and_direct_callers_get_their_own_records(store: Store) -> None:
    bbs = await identify(store, Caller(alias="Ann", node=2, user_id="17",
                                       source="Night Owl BBS"))
    same = await identify(store, Caller(alias="Ann the Great", node=3, user_id="17",
                                        source="Night Owl BBS"))
    direct = await identify(store, Caller(alias="Ann", node=4))
    assert bbs.id == same.id and same.alias == "Ann the Great"
    assert (direct.source, direct.user_id) == ("direct", "ann") and direct.id != bbs.id
    call, later = Caller(alias="Ann", node=2), Caller(alias="Bob", node=2)
    await node_seen(store, call, bbs, "main menu")
    assert [(n.node, n.alias) for n in await store.online.nodes()] == [(2, "Ann the Great")]
    await node_seen(store, later, direct, "main menu")  # the BBS gave node 2 to another call
    await node_gone(store, call)  # the first call's late exit leaves the new row alone
    assert [(n.node, n.alias) for n in await store.online.nodes()] == [(2, "Ann")]
    await node_gone(store, later)
    assert await store.online.nodes() == []
    assert await identify(None, Caller()) is None


async def test_open_store_migrates_and_a_broken_one_still_opens(door_home: Path) -> None:
    settings = load_settings(door_home)
    store = await open_store(settings)
    try:
        assert await store.core.revision() == head()
    finally:
        await store.close()
    (door_home / "data" / "reussite.db").write_bytes(b"\0" * 4096 + b"garbage" * 100)
    broken = await open_store(settings)  # logs, does not raise: the door answers anyway
    try:
        assert await identify(broken, Caller(alias="Ann")) is None
        await node_seen(broken, Caller(), None, "main menu")  # silently not recorded
        await node_gone(broken, Caller())
    finally:
        await broken.close()


async def test_message_limits_come_from_sysop_ini(door_home: Path) -> None:
    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace(
        ";messages_per_hour = 10", "messages_per_hour = 2").replace(
        ";message_length = 2000", "message_length = 150"), encoding="utf-8")
    store = await open_store(load_settings(door_home))
    try:
        ann = await identify(store, Caller(alias="Ann"))
        await identify(store, Caller(alias="Bob"))
        with pytest.raises(MessageRefused, match="150"):
            await store.messages.send(ann.id, "Bob", "long", "x" * 151)
        await store.messages.send(ann.id, "Bob", "one", "x" * 150)
        await store.messages.send(ann.id, "Bob", "two", "hi")
        with pytest.raises(MessageRefused):
            await store.messages.send(ann.id, "Bob", "three", "hi")
    finally:
        await store.close()
