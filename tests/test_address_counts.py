"""Connections per address: the shared table of ``serve --workers`` counts exactly as a plain
dict would, through collisions, frees that move slots back, and a worker's death."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.gate.address_counts import OPEN, WAITING, LocalCounts, SharedCounts


def colliding(count: int) -> list[str]:
    """Addresses whose home slots in an 8-slot table are 6, 7 and 0 only: one run of
    collisions that wraps round the table's end."""
    table = SharedCounts(workers=1, capacity=4)
    found = [a for a in (f"10.0.{n // 250}.{n % 250}" for n in range(2000))
             if table._home(a.encode()) in (6, 7, 0)]
    return found[:count]


ADDRESSES = colliding(7)  # 7 addresses in 8 slots
OPS = st.lists(st.tuples(st.sampled_from(["reserve", "login", "release", "die"]),
                         st.integers(1, 2), st.sampled_from(ADDRESSES)), max_size=300)


class Model:
    """What the counts should be: per (address, worker), open and logging in."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, int], list[int]] = {}

    def totals(self, address: str) -> tuple[int, int]:
        pairs = [c for (a, _), c in self.counts.items() if a == address]
        return sum(p[0] for p in pairs), sum(p[1] for p in pairs)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(OPS)
def test_the_shared_table_counts_as_a_dict_would(ops) -> None:
    table, model = SharedCounts(workers=2, capacity=4), Model()  # 8 slots
    for op, worker, address in ops:
        table.owner = worker
        mine = model.counts.setdefault((address, worker), [0, 0])
        if op == "reserve":
            expected = None
            opened, waiting = model.totals(address)
            if opened >= 3:
                expected = OPEN
            elif waiting >= 2:
                expected = WAITING
            assert table.reserve(address, 3, 2) == expected
            if expected is None:
                mine[0] += 1
                mine[1] += 1
        elif op == "login" and mine[1]:
            table.logged_in(address)
            mine[1] -= 1
        elif op == "release" and mine[0]:
            waiting = mine[1] > 0
            table.release(address, waiting=waiting)
            mine[0] -= 1
            mine[1] -= waiting
        elif op == "die":
            assert table.free_worker(worker) == sum(
                c[0] for (_, w), c in model.counts.items() if w == worker)
            for (_, w), c in model.counts.items():
                if w == worker:
                    c[0] = c[1] = 0
        for each in ADDRESSES:
            assert table.get(each) == model.totals(each), (op, worker, address)
        assert table.addresses() == sum(1 for a in ADDRESSES if model.totals(a)[0])


def test_one_process_counts_the_same_way() -> None:
    counts = LocalCounts()
    assert counts.reserve("a", 2, 1) is None
    assert counts.reserve("a", 2, 1) == WAITING
    counts.logged_in("a")
    assert counts.reserve("a", 2, 1) is None
    assert counts.reserve("a", 2, 5) == OPEN
    counts.release("a", waiting=False)
    counts.release("a", waiting=True)
    assert counts.get("a") == (0, 0)
