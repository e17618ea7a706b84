"""door/gate/hash_budget.py with a fake clock: buckets per network, refilled over a minute; the
lane a check goes to."""

from __future__ import annotations

import pytest

from door.gate import hash_budget
from door.gate.hash_budget import AGAIN, FIRST, FIRST_PER_S, FIRST_QUEUE, HashBudget, HashRefused


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_network_has_its_minute_of_hashes_then_is_refused_until_one_comes_back() -> None:
    clock = Clock()
    budget = HashBudget(3, clock=clock)
    for _ in range(3):
        budget.turn("192.0.2.7", first=True)
    with pytest.raises(HashRefused, match="try again in 20 s"):
        budget.turn("192.0.2.99", first=True)        # the same /24
    budget.turn("198.51.100.1", first=True)          # another network: its own bucket
    clock.now += 20
    budget.turn("192.0.2.7", first=False)            # one back after a third of a minute
    with pytest.raises(HashRefused):
        budget.turn("192.0.2.7", first=False)
    clock.now += 600
    assert budget.tokens("192.0.2.1") == 3           # full, never more


def test_turns_are_by_network_and_first_tries_go_first_until_that_lane_is_full() -> None:
    budget = HashBudget(0)                           # no limit
    assert budget.turn("192.0.2.7", first=True) == (FIRST, "192.0.2.0/24")
    assert budget.turn("2001:db8:1:2::5", first=True).who == "2001:db8:1::/48"
    assert budget.turn("192.0.2.7", first=False).lane == AGAIN
    assert budget.turn("192.0.2.7", first=True, first_waiting=FIRST_QUEUE - 1).lane == FIRST
    assert budget.turn("192.0.2.7", first=True, first_waiting=FIRST_QUEUE).lane == AGAIN


def test_the_prefix_is_the_sysop_s(monkeypatch: pytest.MonkeyPatch) -> None:
    budget = HashBudget(1, prefix=lambda address: address.rsplit(".", 2)[0])  # a /16
    budget.turn("10.1.2.3", first=True)
    with pytest.raises(HashRefused):
        budget.turn("10.1.200.3", first=True)


def test_a_flood_of_networks_is_forgotten_full_buckets_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hash_budget, "REMEMBERED", 4)
    clock = Clock()
    budget = HashBudget(2, clock=clock)
    budget.turn("192.0.2.1", first=True)
    budget.turn("192.0.2.1", first=True)             # this one is empty
    clock.now += 60                                  # ... and full again
    budget.turn("198.51.100.1", first=True)
    budget.turn("198.51.100.1", first=True)          # this one stays empty
    for n in range(3):                               # the fifth network: one must go
        budget.turn(f"10.0.{n}.1", first=True)
    assert "192.0.2.0/24" not in budget._buckets and len(budget._buckets) == 4
    with pytest.raises(HashRefused):                 # the empty one is remembered
        budget.turn("198.51.100.1", first=True)


def test_the_first_lane_takes_its_hashes_a_second_and_no_more() -> None:
    """A burst of first tries from many networks: FIRST_PER_S go to the first lane, the
    rest to the again lane, until time gives the first lane more."""
    clock = Clock()
    budget = HashBudget(0, clock=clock)
    lanes = [budget.turn(f"10.0.{n}.1", first=True).lane for n in range(20)]
    assert lanes.count(FIRST) == int(FIRST_PER_S) and lanes[-1] == AGAIN
    clock.now += 1 / FIRST_PER_S
    assert budget.turn("10.9.9.9", first=True).lane == FIRST
    assert budget.turn("10.9.9.9", first=True).lane == AGAIN
