"""The login pool on its own: caps, who is hung up to make room (the eviction order), early
drop, penalties, clocks, and what it logs."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from waiting import WAIT

import door.gate.pool
from door.gate.pool import (
    CREDIT,
    LOGIN_TIMED_OUT,
    MADE_ROOM,
    PENALIZED,
    PENALTY_MOST,
    POOL_FULL,
    REPORT_EACH,
    SILENT,
    TOO_MANY_FROM_ADDRESS,
    TOO_MANY_LOGGING_IN,
    EarlyDrop,
    LoginPool,
    Refused,
)


class Line:
    """A connection as the pool sees it: records the hang-up it was given."""

    def __init__(self) -> None:
        self.reason: str | None = None

    def hang_up(self, reason: str) -> None:
        self.reason = reason


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def pool(**kw) -> LoginPool:
    args = {"size": 4, "per_address": 2, "max_per_address": 3, "first_byte_s": 300,
            "login_s": 600, "chance": lambda: 0.99, **kw}
    return LoginPool(**args)


def admit(p: LoginPool, address: str, standing: str = "silent") -> Line:
    """A connection from ``address`` that has said nothing, or has been heard, or typed."""
    line = Line()
    ticket = p.admit(address, f"{address}:{id(line)}", line.hang_up)
    if standing == "heard":
        ticket.heard()
    elif standing == "typed":
        ticket.typed()
    return line


# -- the caps of one address -------------------------------------------------------------------

async def test_an_address_full_of_silent_lines_makes_room_for_the_next() -> None:
    p, lines = pool(), [Line() for _ in range(3)]
    first, second = (p.admit("a", "a:1", lines[0].hang_up), p.admit("a", "a:2", lines[1].hang_up))
    third = p.admit("a", "a:3", lines[2].hang_up)  # the oldest silent one goes
    assert (lines[0].reason, first.closed) == (MADE_ROOM, True)
    assert lines[1].reason is None and not second.closed and not third.closed
    assert len(p) == 2 and p.connections_from("a") == 2


async def test_an_address_drops_its_silent_lines_before_those_it_heard_from() -> None:
    p = pool()
    heard = admit(p, "a", "heard")
    silent = admit(p, "a")  # younger, but silent: it goes first
    admit(p, "a")
    assert (heard.reason, silent.reason) == (None, MADE_ROOM)
    admit(p, "a")  # now only heard and silent ones of the last two: the heard one is older
    assert heard.reason is None  # the silent one still goes first


async def test_typed_lines_are_never_dropped_for_room() -> None:
    p = pool()
    typed = [admit(p, "a", "typed") for _ in range(2)]
    with pytest.raises(Refused, match=TOO_MANY_LOGGING_IN):
        admit(p, "a")
    assert [line.reason for line in typed] == [None, None]
    assert admit(p, "b")  # another address is another share


async def test_logged_in_lines_leave_the_pool_but_count_for_their_address() -> None:
    p = pool()
    for n in range(3):
        ticket = p.admit("a", f"a:{n}", Line().hang_up)
        ticket.typed()
        ticket.logged_in()
    assert len(p) == 0 and p.connections_from("a") == 3
    with pytest.raises(Refused, match=TOO_MANY_FROM_ADDRESS):
        p.admit("a", "a:9", Line().hang_up)


# -- the whole pool: by prefix ------------------------------------------------------------------

async def test_a_full_pool_drops_its_oldest_silent_line_else_refuses() -> None:
    p = pool(size=3, per_address=3, max_per_address=9)
    lines = [admit(p, address) for address in ("10.0.1.1", "10.0.2.1", "10.0.3.1")]
    p._waiting.__iter__().__next__().heard()  # the first talks
    admit(p, "10.0.4.1")  # the second, the oldest silent one, goes
    assert [line.reason for line in lines] == [None, MADE_ROOM, None]
    for ticket in p._waiting:
        ticket.typed()
    with pytest.raises(Refused, match=POOL_FULL):
        admit(p, "10.0.5.1")


async def test_a_crowded_prefix_loses_its_own_connections_first() -> None:
    """Six slots; a lone caller's line is the oldest and silent, four lines of one /24 (more
    than per_address) came after it: a newcomer from a third network drops the crowded
    network's oldest, never the lone caller's."""
    p = pool(size=6, per_address=2, max_per_address=9)
    lone = admit(p, "192.0.2.7")
    crowd = [admit(p, f"198.51.100.{n}") for n in range(1, 5)]
    admit(p, "203.0.113.1")
    admit(p, "203.0.113.9")  # full now: this one makes room
    assert lone.reason is None
    assert [line.reason for line in crowd] == [MADE_ROOM, None, None, None]


async def test_a_crowded_prefix_drops_even_lines_it_heard_from_before_a_silent_lone_one() -> None:
    p = pool(size=5, per_address=2, max_per_address=9)
    lone = admit(p, "192.0.2.7")  # silent (a raw client before its prompt)
    crowd = [admit(p, f"198.51.100.{n}", "heard") for n in range(1, 5)]
    admit(p, "203.0.113.1")
    assert lone.reason is None and crowd[0].reason == MADE_ROOM


async def test_a_newcomer_of_the_crowded_prefix_replaces_its_own_or_is_refused() -> None:
    p = pool(size=5, per_address=2, max_per_address=9)
    others = [admit(p, "192.0.2.7"), admit(p, "203.0.113.1")]
    crowd = [admit(p, f"198.51.100.{n}") for n in range(1, 4)]
    admit(p, "198.51.100.9")  # its own oldest goes
    assert [line.reason for line in crowd] == [MADE_ROOM, None, None]
    for ticket in list(p._waiting):
        if ticket.prefix == "198.51.100.0/24":
            ticket.typed()
    with pytest.raises(Refused, match=POOL_FULL):  # nothing of its own may go: refused,
        admit(p, "198.51.100.10")                   # not a less crowded network's line
    assert [line.reason for line in others] == [None, None]


async def test_ipv6_addresses_count_by_their_48() -> None:
    p = pool(size=5, per_address=2, max_per_address=9)
    lone = admit(p, "2001:db8:1::/64")
    crowd = [admit(p, f"2001:db8:2:{n}::/64") for n in range(1, 4)]  # one /48, four /64s
    admit(p, "2001:db8:3::/64")
    admit(p, "2001:db8:4::/64")
    assert lone.reason is None and crowd[0].reason == MADE_ROOM


async def test_among_networks_alike_the_penalized_one_loses_first() -> None:
    """A flood spread one line per network: every network is alike in count, but those whose
    lines were dropped lately lose before a network that never misbehaved, older or not."""
    p = pool(size=3, per_address=2, max_per_address=9)
    caller = admit(p, "192.0.2.7")  # the oldest: oldest first would drop it
    p.penalties.add("198.51.100.0/24")
    flood = admit(p, "198.51.100.1")
    admit(p, "203.0.113.1")
    admit(p, "203.0.113.9")
    assert (caller.reason, flood.reason) == (None, MADE_ROOM)


async def test_a_network_penalized_while_its_line_waits_loses_it_first() -> None:
    clock = Clock()
    p = pool(size=2, per_address=2, max_per_address=9, clock=clock)
    older = admit(p, "10.0.0.1")
    clock.now += 1
    flood = admit(p, "10.0.1.1")
    p._penalize("10.0.1.0/24")  # another of its lines dropped meanwhile
    admit(p, "10.0.2.1")
    assert (older.reason, flood.reason) == (None, MADE_ROOM)


@pytest.mark.parametrize("rebuilt", [False, True])
async def test_among_networks_alike_silent_goes_before_heard_then_oldest(rebuilt: bool) -> None:
    p = pool(size=3, per_address=2, max_per_address=9)
    heard = admit(p, "10.0.1.1", "heard")
    silent_old, silent_young = admit(p, "10.0.2.1"), admit(p, "10.0.3.1")
    if rebuilt:
        p._rebuild()  # as when stale entries pile up: the same order
    admit(p, "10.0.4.1")
    assert (heard.reason, silent_old.reason, silent_young.reason) == (None, MADE_ROOM, None)


async def test_a_penalized_newcomer_is_refused_rather_than_drop_a_better_network() -> None:
    p = pool(size=2, per_address=2, max_per_address=9, early_drop=EarlyDrop(0.9, 0.0, 1.0),
             chance=lambda: 1.0, clock=Clock())  # no early drop
    lines = [admit(p, "10.0.1.1"), admit(p, "10.0.2.1")]
    p.penalties.add("10.0.8.0/24")  # one drop: a caller dropped in a flood's first second,
    admit(p, "10.0.8.1")            # let in all the same
    assert [line.reason for line in lines] == [MADE_ROOM, None]
    for _ in range(3):
        p.penalties.add("10.0.9.0/24")
    with pytest.raises(Refused, match=POOL_FULL):
        admit(p, "10.0.9.1")
    assert lines[1].reason is None


# -- early drop and penalties ---------------------------------------------------------------------

def test_early_drop_grows_from_rate_at_start_to_all_at_full() -> None:
    drop = EarlyDrop(0.5, 0.3, 1.0)
    assert [drop.chance(f) for f in (0.0, 0.49, 0.5, 0.75, 1.0)] == \
        [0.0, 0.0, 0.3, pytest.approx(0.65), 1.0]


async def test_early_drop_refuses_penalized_networks_only() -> None:
    p = pool(size=10, per_address=10, max_per_address=10, chance=lambda: 0.4, clock=Clock())
    for n in range(6):  # 60 % full: a penalized newcomer is refused with a chance of 0.44
        admit(p, f"10.0.{n}.1")
    for _ in range(3):
        p.penalties.add("10.9.9.0/24")
        p.penalties.add("10.7.7.0/24")
    p.penalties.add("10.8.8.0/24")  # one drop: not yet penalized
    with pytest.raises(Refused, match=POOL_FULL):
        admit(p, "10.9.9.1")
    assert admit(p, "10.8.8.1").reason is None  # a network that barely misbehaved: let in
    assert admit(p, "10.6.6.1").reason is None  # nor one that never did
    p._chance = lambda: 0.5  # 80 % full now: 0.72
    with pytest.raises(Refused, match=POOL_FULL):
        admit(p, "10.7.7.1")


async def test_early_drop_leaves_a_pool_below_start_alone() -> None:
    p = pool(size=10, per_address=10, max_per_address=10, chance=lambda: 0.0, clock=Clock())
    for _ in range(5):
        p.penalties.add("10.9.9.0/24")
    for n in range(4):
        admit(p, f"10.9.9.{n + 1}")  # 0-40 % full: never dropped early


async def test_dropped_and_silently_closed_lines_penalize_their_network() -> None:
    clock = Clock()
    p = pool(size=1, per_address=2, max_per_address=9, clock=clock)
    admit(p, "10.0.1.1")
    admit(p, "10.0.2.1")  # drops 10.0.1.1 for room
    assert p.penalties.value("10.0.1.0/24") == 1.0
    p._waiting.__iter__().__next__().close()  # hung up by its client, never said a word
    assert p.penalties.value("10.0.2.0/24") == 1.0
    talker = p.admit("10.0.3.1", "t", Line().hang_up)
    talker.heard()
    talker.close()  # a caller who gave up at the login screen: no penalty
    assert p.penalties.value("10.0.3.0/24") == 0.0
    clock.now += 30
    assert p.penalties.value("10.0.1.0/24") == pytest.approx(0.5)  # halved each 30 s


# -- clocks ----------------------------------------------------------------------------------------

async def wait_for_hang_up(line: Line) -> str:
    deadline = time.monotonic() + WAIT
    while line.reason is None:
        assert time.monotonic() < deadline, "never hung up"
        await asyncio.sleep(0.02)
    return line.reason


async def test_silence_then_slowness_are_hung_up() -> None:
    p = pool(first_byte_s=0.1, login_s=0.4)
    silent, slow, quick = Line(), Line(), Line()
    p.admit("a", "a:1", silent.hang_up)
    p.admit("b", "b:1", slow.hang_up).heard()
    done = p.admit("c", "c:1", quick.hang_up)
    done.heard()
    done.logged_in()
    assert await wait_for_hang_up(silent) == SILENT
    assert await wait_for_hang_up(slow) == LOGIN_TIMED_OUT
    assert quick.reason is None and not done.closed
    assert len(p) == 0 and p.connections_from("a") == p.connections_from("b") == 0


async def test_the_servers_work_for_a_caller_does_not_count_against_the_login_clock() -> None:
    """A password hashed for 15 minutes on a crowded machine: the caller who typed it is
    not hung up meanwhile nor for it afterwards; the caller's own time still counts."""
    clock = Clock()
    p, line = pool(login_s=600, clock=clock), Line()
    ticket = p.admit("a", "a:1", line.hang_up)
    ticket.typed()
    clock.now += 500                                  # the caller's time: 500 of 600 s
    with ticket.hold():
        clock.now += 900                              # the server's
        p._check(ticket)                              # the clock's timer fires meanwhile
        assert line.reason is None
    p._check(ticket)
    assert line.reason is None                        # 500 s of the caller's, not 1,400
    clock.now += 101
    p._check(ticket)
    assert line.reason == LOGIN_TIMED_OUT


async def test_close_is_idempotent_and_after_a_hang_up_harmless() -> None:
    p, line = pool(), Line()
    ticket = p.admit("a", "a:1", line.hang_up)
    ticket.hang_up("bye")
    ticket.close()
    ticket.close()
    ticket.logged_in()
    assert p.connections_from("a") == 0 and len(p) == 0 and line.reason == "bye"


# -- the log ---------------------------------------------------------------------------------------

async def test_a_flood_is_a_few_lines_and_one_count_in_the_log(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="door.gate.pool")
    p = pool(size=2, per_address=2, max_per_address=9)
    for _ in range(2):
        admit(p, "10.0.0.1", "typed")  # a full pool of callers typing: all else is refused
    for n in range(1000):
        with pytest.raises(Refused):
            admit(p, f"10.1.{n % 200}.1")
    p.report.flush()
    info = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert len(info) == REPORT_EACH + 1, info
    assert "1,000 refused (The door is busy" in info[-1] and "200 prefixes" in info[-1]


# -- the order, against a plain reading of the rules ------------------------------------------

def expected_victim(p: LoginPool, prefix: str):
    """Who the module docstring says goes to make room for a newcomer from ``prefix`` (None:
    the newcomer is refused), found by looking at every connection."""
    best, victim = None, None
    for ticket in p._waiting:
        if ticket.standing == 2:  # typed
            continue
        count = sum(t.prefix == ticket.prefix for t in p._waiting) + (ticket.prefix == prefix)
        key = (max(0, count - p.per_address), p.penalties.value(ticket.prefix),
               ticket.silent, -ticket.seq)
        if best is None or key > best:
            best, victim = key, ticket
    own = sum(t.prefix == prefix for t in p._waiting) + 1
    penalty = p.penalties.value(prefix)
    newcomer = (max(0, own - p.per_address), 0.0 if 0 < penalty < PENALIZED else penalty)
    return None if best is None or newcomer > best[:2] else victim


NETWORKS = [f"10.0.{n}" for n in range(5)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["admit"] * 5 + ["heard", "typed", "close", "drop",
                                                         "penalize", "wait", "login"]),
                          st.integers(0, 4), st.integers(1, 6)), max_size=150))
def test_the_pool_drops_whom_the_rules_say(ops) -> None:
    slack = door.gate.pool.HEAP_SLACK
    async def run() -> None:
        door.gate.pool.HEAP_SLACK = 0  # rebuilt often: that way is checked too
        clock = Clock()
        p = pool(size=4, per_address=1, max_per_address=99, clock=clock,
                 early_drop=EarlyDrop(0.99, 0.0, 1.0), chance=lambda: 1.0)
        for n, (op, net, host) in enumerate(ops):
            tickets = list(p._waiting)
            some = tickets[(net * 7 + host) % len(tickets)] if tickets else None
            if op == "admit":
                address = f"{NETWORKS[net]}.{n}"  # one line per address: only the pool's caps
                prefix = f"{NETWORKS[net]}.0/24"
                expected = expected_victim(p, prefix) if len(p) >= p.size else "none"
                line = Line()
                try:
                    p.admit(address, address, line.hang_up)
                except Refused:
                    assert expected is None
                    continue
                if expected != "none":
                    assert expected is not None and expected.closed and expected.dropped
            elif some is not None and op in ("heard", "typed"):
                getattr(some, op)()
            elif some is not None and op == "login":
                some.logged_in()
            elif some is not None and op == "close":
                some.close()
            elif some is not None and op == "drop":
                some.hang_up("bye")
            elif op == "penalize":
                p._penalize(f"{NETWORKS[net]}.0/24")
            elif op == "wait":
                clock.now += host * 7
    try:
        asyncio.run(run())
    finally:
        door.gate.pool.HEAP_SLACK = slack


# -- its settings ------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "ok"), [("50:30:100", (50, 30, 100)), ("0:0:1", (0, 0, 1)),
                                           ("90:30:50", None), ("50:30", None), ("a:b:c", None),
                                           ("50:130:100", None)])
def test_early_drop_is_start_rate_full_in_per_cent(tmp_path, value: str, ok) -> None:
    from door.config import ConfigError, parse_settings

    text = f"[server]\nlogin_prefix_v4 = 16\nlogin_early_drop = {value}\n"
    if ok is None:
        with pytest.raises(ConfigError, match=r":3: \[server\] login_early_drop: expected "
                                              r"start:rate:full in per cent"):
            parse_settings(text, tmp_path)
    else:
        server = parse_settings(text, tmp_path).server
        assert (server.login_early_drop, server.login_prefix_v4) == (ok, 16)


async def test_a_penalty_is_capped_and_credited_when_the_network_logs_in() -> None:
    clock = Clock()
    p = pool(size=4, per_address=4, max_per_address=9, clock=clock)
    for _ in range(20):  # a caller redialling through the first seconds of a flood
        p._penalize("10.0.1.0/24")
    assert p.penalties.value("10.0.1.0/24") == PENALTY_MOST
    clock.now += 13  # 13 s after the drops stop: no longer early-dropped
    assert p.penalties.value("10.0.1.0/24") < PENALIZED
    p._penalize("10.0.1.0/24")
    ticket = p.admit("10.0.1.7", "caller", Line().hang_up)
    ticket.typed()
    ticket.logged_in()
    assert p.penalties.value("10.0.1.0/24") == -CREDIT  # and credited
    for _ in range(3):
        p._penalize("10.0.1.0/24")
    p._penalize("10.0.2.0/24")
    assert p.penalties.score("10.0.1.0/24") < p.penalties.score("10.0.3.0/24") \
        < p.penalties.score("10.0.2.0/24")  # credit, clean, penalty: at any time
    clock.now += 1000
    assert p.penalties.score("10.0.1.0/24") < p.penalties.score("10.0.3.0/24") \
        < p.penalties.score("10.0.2.0/24")
