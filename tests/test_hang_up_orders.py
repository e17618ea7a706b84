"""door/serve/takeover.py's watcher: a hang-up order read for a call that has gone meanwhile does
not hang up the node's next call."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from door.serve.takeover import watch_hang_up_orders


class SlowOrders:
    """Orders read slowly (a busy store): meanwhile node 1's call leaves and a new call takes
    the node; node 2's call stays.  Both are ordered off (the rows' tokens differ)."""

    def __init__(self, calls: dict[int, str]) -> None:
        self.calls = calls
        self.reads = 0

    async def hang_up_orders(self, live: dict[int, str]) -> list[int]:
        self.reads += 1
        if self.reads > 1:
            return []
        await asyncio.sleep(0)
        self.calls[1] = "new-call"
        return [1, 2]


async def test_an_order_for_a_call_gone_meanwhile_spares_the_node_s_next_call() -> None:
    calls = {1: "old-call", 2: "stays"}
    orders = SlowOrders(calls)
    store = SimpleNamespace(online=orders)  # the store's who's-online repository
    hung_up: list[int] = []
    watcher = asyncio.ensure_future(watch_hang_up_orders(
        store, lambda: dict(calls), hung_up.append, every_s=0.0))  # type: ignore[arg-type]
    try:
        while orders.reads < 2:
            await asyncio.sleep(0.01)
    finally:
        watcher.cancel()
    assert hung_up == [2]
