"""4 processes × 4 sessions writing at once to one database: no lost write, and no
"database is locked" (or any other error, such as a deadlock between two callers writing to
each other) reaching a caller.  SQLite file and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import WAIT

from door.store import Store

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

WORKER = Path(__file__).with_name("store_worker.py")
PROCESSES, SESSIONS, ROUNDS = 4, 4, 8


async def prepare(url: str) -> None:
    store = Store(url)
    assert await store.start()
    await store.players.player("direct", "hub", "Hub")
    await store.players.player("direct", "shared", "Shared")
    for worker in range(PROCESSES):
        for index in range(SESSIONS):
            await store.players.player("direct", f"w{worker}s{index}", f"W{worker}S{index}")
    await store.close()


async def check(url: str) -> None:
    store = Store(url)
    total = PROCESSES * SESSIONS * ROUNDS
    try:
        shared = (await store.players.find("shared"))[0]
        hub = (await store.players.find("hub"))[0]
        assert shared.games_played == total  # the atomic counter lost nothing
        assert len([r async for r in store.scores.game_rows()]) == total
        assert await store.messages.unread_count(hub.id) == total
        for worker in range(PROCESSES):
            for index in range(SESSIONS):
                me = (await store.players.find(f"W{worker}S{index}"))[0]
                assert await store.saves.load_resume(me.id, "montecarlo") == {"round": ROUNDS - 1}
                assert len(await store.saves.list_named(me.id, "anciento")) == ROUNDS
                assert await store.messages.unread_count(me.id) == ROUNDS  # from its partner
    finally:
        await store.close()


def test_four_processes_write_at_once(db_url: str) -> None:
    asyncio.run(prepare(db_url))
    procs = [subprocess.Popen([sys.executable, str(WORKER), db_url, str(w), str(SESSIONS),
                               str(ROUNDS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for w in range(PROCESSES)]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=4 * WAIT)
        assert proc.returncode == 0, f"worker failed:\n{out}\n{err}"
        assert "locked" not in err.lower(), err
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert [r["errors"] for r in results] == [[]] * PROCESSES
    assert sum(r["done"] for r in results) == PROCESSES * SESSIONS * ROUNDS
    asyncio.run(check(db_url))
