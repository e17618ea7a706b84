"""Failed logins counted so that a stranger cannot aim a lockout (door/gate/guard.py)."""

from __future__ import annotations

import pytest

from door.gate.guard import ADDRESS_FACTOR, BACKOFF_MAX_S, LoginLimiter, address_of


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limiter(attempts: int = 3) -> tuple[LoginLimiter, Clock]:
    clock = Clock()
    return LoginLimiter(attempts, 900, clock=clock), clock


def test_a_handle_locks_from_the_guessing_address_only() -> None:
    guard, _ = limiter()
    for _ in range(3):
        assert not guard.locked("Alice", "10.0.0.9")
        guard.failed("alice", "10.0.0.9")
    assert guard.locked("ALICE", "10.0.0.9")
    assert not guard.locked("alice", "10.0.0.1")  # the owner, elsewhere
    assert not guard.locked("bob", "10.0.0.9")  # the guesser, on another handle


def test_failures_from_everywhere_slow_a_handle_but_never_lock_it() -> None:
    guard, _ = limiter()
    waits = []
    for n in range(12):
        waits.append(guard.backoff("alice"))
        guard.failed("alice", f"10.0.{n}.1")
    assert waits[:3] == [0, 0, 0] and waits[3:7] == [1, 2, 4, 8]
    assert max(waits) == BACKOFF_MAX_S
    assert not guard.locked("alice", "10.0.99.1")


def test_an_address_failing_on_many_handles_is_locked() -> None:
    guard, _ = limiter()
    for n in range(3 * ADDRESS_FACTOR):
        assert not guard.address_locked("10.0.0.9")
        guard.failed(f"user{n}", "10.0.0.9")
    assert guard.address_locked("10.0.0.9") and guard.locked("anyone", "10.0.0.9")
    assert not guard.address_locked("10.0.0.1")


def test_failures_age_out_and_success_clears_the_pair() -> None:
    guard, clock = limiter()
    for _ in range(3):
        guard.failed("alice", "10.0.0.9")
    clock.now += 901
    assert not guard.locked("alice", "10.0.0.9") and guard.backoff("alice") == 0
    guard.failed("alice", "10.0.0.1")
    guard.failed("alice", "10.0.0.1")
    guard.succeeded("Alice", "10.0.0.1")
    guard.failed("alice", "10.0.0.1")
    assert not guard.locked("alice", "10.0.0.1")


@pytest.mark.parametrize(("peer", "address"), [
    ("127.0.0.1:2323", "127.0.0.1"),
    ("::1:50000", "::1"),
    ("::ffff:192.0.2.7:41000", "192.0.2.7"),
    ("2001:db8:1:2:aaaa:bbbb:cccc:dddd:4444", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::9:4444", "2001:db8:1:2::/64"),
    ("local", "local"),
])
def test_addresses_as_counted(peer: str, address: str) -> None:
    assert address_of(peer) == address


def test_another_workers_failures_count_as_ours_and_age_as_theirs() -> None:
    """What one worker publishes, another applies: the same lockout, the same clock."""
    told: list[list[str]] = []
    here, clock = limiter()
    there, _ = limiter()
    here.publish = told.append
    for _ in range(3):
        here.failed("Alice", "10.0.0.9")
    for event in told:
        there.apply(event, age=800)  # told late: 800 of the window's 900 s already gone
    assert there.locked("alice", "10.0.0.9") and not there.locked("alice", "10.0.0.1")
    clock.now += 101
    for guard in (here, there):
        guard._clock = clock
    assert here.locked("alice", "10.0.0.9") and not there.locked("alice", "10.0.0.9")
    here.succeeded("ALICE", "10.0.0.1")
    assert told[-1] == ["succeeded", "ALICE", "10.0.0.1"]
    there.apply(["failed", "x"])  # anything else is ignored
    there.apply(["failed", 1, 2])  # type: ignore[list-item]


def test_prefixes_are_the_24_and_the_48() -> None:
    from door.gate.guard import prefix_of

    assert prefix_of("192.0.2.77") == "192.0.2.0/24"
    assert prefix_of(address_of("[2001:db8:5:6::7]:22")) == "2001:db8:5::/48"
    assert prefix_of("10.1.2.3", v4_bits=16) == "10.1.0.0/16"
    assert prefix_of("2001:db8::/64", v6_bits=64) == "2001:db8::/64"
    assert prefix_of("::1") == "::/48" and prefix_of("not an address") == "not an address"
