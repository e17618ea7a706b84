"""A visit's link to the store: open it at start-up, find the caller's player record."""

from __future__ import annotations

from pathlib import Path

from door.config import load_settings
from door.session import Caller
from door.store import Store
from door.store.visit import identify, node_gone, node_seen, open_store


async def test_bbs_and_direct_callers_get_their_own_records(store: Store) -> None:
    bbs = await identify(store, Caller(alias="Ann", node=2, user_id="17",
                                       source="Night Owl BBS"))
    same = await identify(store, Caller(alias="Ann the Great", node=3, user_id="17",
                                        source="Night Owl BBS"))
    direct = await identify(store, Caller(alias="Ann", node=4))
    assert bbs.id == same.id and same.alias == "Ann the Great"
    assert (direct.source, direct.user_id) == ("direct", "ann") and direct.id != bbs.id
    await node_seen(store, 2, bbs, "main menu")
    assert [(n.node, n.alias) for n in await store.online()] == [(2, "Ann the Great")]
    await node_gone(store, 2)
    assert await store.online() == []
    assert await identify(None, Caller()) is None


async def test_open_store_migrates_and_a_broken_one_still_opens(door_home: Path) -> None:
    settings = load_settings(door_home)
    store = await open_store(settings)
    try:
        assert await store.revision() == "0002"
    finally:
        await store.close()
    (door_home / "data" / "reussite.db").write_bytes(b"\0" * 4096 + b"garbage" * 100)
    broken = await open_store(settings)  # logs, does not raise: the door answers anyway
    try:
        assert await identify(broken, Caller(alias="Ann")) is None
        await node_seen(broken, 1, None, "main menu")  # silently not recorded
        await node_gone(broken, 1)
    finally:
        await broken.close()
