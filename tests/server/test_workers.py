"""``reussite serve --workers 2``: two processes on one port, sharing nodes, who's online,
takeovers and the database; SIGTERM stops both with games saved; a dead worker is started
again; the supervisor's death stops the workers; the pre-fork mode (inherited sockets)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path

from serverhelp import call, configure, login, open_game, signup, to_menu
from waiting import WAIT
from workerhelp import log_text, one_per_worker, serving

from door.compiled import build_name
from door.config import load_settings
from door.games.montecarlo import MonteCarlo, position_name
from door.serve.workers import SharedNodes
from door.store import Store

NUMBER = 11982

PRE_FORK = """
import logging, sys
from pathlib import Path
from door.config import load_settings
from door.serve.workers import supervise
logging.basicConfig(level="INFO", stream=sys.stderr)
sys.exit(supervise(load_settings(Path(sys.argv[1])), "127.0.0.1", 0, -1, -1, 2, pre_fork=True))
"""


async def test_shared_nodes_are_the_lowest_free_across_processes() -> None:
    nodes = SharedNodes(3)
    nodes.owner = 1
    assert nodes.take() == 1
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a second worker: its caller gets node 2, then frees nothing of worker 1's
        nodes.owner = 2
        os.write(write, bytes([nodes.take() or 0]))
        nodes.give_back(1)
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1) == bytes([2])
    assert nodes.in_use() == {1: 1, 2: 2}
    assert nodes.take() == 3
    assert nodes.take() is None  # max_nodes counts both workers' callers
    assert nodes.free_worker(2) == 1  # the supervisor, after worker 2 died
    assert nodes.take() == 2
    assert not nodes.nudged()
    nodes.nudge()
    assert nodes.nudged() and not nodes.nudged()


async def test_two_workers_share_port_nodes_and_who_is_online(door_home: Path) -> None:
    async with serving(door_home) as (proc, port):
        callers = await one_per_worker(door_home, port)
        for i, caller in enumerate(callers.values()):
            await signup(caller, f"Worker{i}", "pass-word", timeout=WAIT)
            await to_menu(caller, timeout=WAIT)
        store = Store(load_settings(door_home).database_url)
        try:
            rows = await store.online.nodes()
        finally:
            await store.close()
        assert sorted(row.node for row in rows) == [1, 2], rows  # never two node 1s
        assert {row.host.rsplit("/", 1)[1] for row in rows} == {"1", "2"}, rows
        caller = callers[1]
        caller.send("w")  # who's online, seen from worker 1, shows worker 2's caller too
        await caller.wait_for("Doing", timeout=WAIT)
        assert "Worker0" in caller.term.text and "Worker1" in caller.term.text
        for caller in callers.values():
            caller.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0


async def test_a_takeover_reaches_the_other_worker(door_home: Path) -> None:
    async with serving(door_home) as (proc, port):
        callers = await one_per_worker(door_home, port)
        first, second = callers[1], callers[2]
        await signup(first, "Pia", "pia-pass", timeout=WAIT)
        await to_menu(first, timeout=WAIT)
        await open_game(first, "c", NUMBER)
        p, q = MonteCarlo.new(NUMBER).pairs()[0]
        first.send(position_name(p) + position_name(q))
        await first.settle()
        await login(second, "pia", "pia-pass")
        await second.wait_for("Pia is already in the door on node 1.", timeout=WAIT)
        second.send("y")
        await first.wait_for("You have called again from another line", timeout=WAIT)
        await first.wait_closed(timeout=WAIT)
        await to_menu(second, timeout=WAIT)
        second.send("c")
        await second.wait_for(f"Resume your Monte Carlo game #{NUMBER}?", timeout=WAIT)
        second.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0


async def test_sigterm_stops_every_worker_with_games_saved(door_home: Path) -> None:
    async with serving(door_home) as (proc, port):
        callers = await one_per_worker(door_home, port)
        for worker, caller in callers.items():
            await signup(caller, f"Sam{worker}", "sam-pass", timeout=WAIT)
            await to_menu(caller, timeout=WAIT)
            await open_game(caller, "c", NUMBER)
            p, q = MonteCarlo.new(NUMBER).pairs()[0]
            caller.send(position_name(p) + position_name(q))
            await caller.settle()
        proc.send_signal(signal.SIGTERM)
        for caller in callers.values():
            await caller.wait_for("closing for maintenance", timeout=WAIT)
            await caller.wait_closed(timeout=WAIT)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0
    store = Store(load_settings(door_home).database_url)
    try:
        for worker in callers:
            (player,) = await store.players.find(f"Sam{worker}")
            state = await store.saves.load_resume(player.id, "montecarlo")
            assert state is not None and len(state["actions"]) == 1, worker
        assert await store.online.nodes() == []
    finally:
        await store.close()
    assert "supervisor: all workers stopped" in log_text(door_home)
    # each worker's listening line says which build of the terminal modules it runs
    assert re.search(rf"\(worker 1\): listening: .*; {re.escape(build_name())}\)",
                     log_text(door_home))


async def test_a_dead_worker_is_started_again(door_home: Path) -> None:
    async with serving(door_home) as (proc, port):
        callers = await one_per_worker(door_home, port)
        await signup(callers[2], "Gone", "gone-pass", timeout=WAIT)
        await to_menu(callers[2], timeout=WAIT)
        victim = _pid_of_worker(door_home, 2)
        os.kill(victim, signal.SIGKILL)
        await callers[2].wait_closed(timeout=WAIT)
        deadline = time.monotonic() + WAIT
        while log_text(door_home).count("(worker 2): listening") < 2:  # started again
            assert time.monotonic() < deadline, log_text(door_home)
            await asyncio.sleep(0.1)
        assert re.search(r"worker 2 \(pid \d+\) died \(killed by signal 9\); its 1 nodes "
                         r"freed", log_text(door_home))
        await signup(callers[1], "Still", "still-pass", timeout=WAIT)  # never noticed
        await to_menu(callers[1], timeout=WAIT)
        again = await call(port, timeout=WAIT)  # whichever worker answers, node 1 is free
        await login(again, "gone", "gone-pass")
        await to_menu(again, timeout=WAIT)
        again.send("w")
        await again.wait_for("Gone", timeout=WAIT)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0


async def test_the_workers_stop_when_the_supervisor_is_killed(door_home: Path) -> None:
    async with serving(door_home) as (proc, port):
        caller = await call(port, timeout=WAIT)
        await signup(caller, "Orphan", "orphan-pw", timeout=WAIT)
        await to_menu(caller, timeout=WAIT)
        await open_game(caller, "c", NUMBER)
        pids = await _children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        await caller.wait_for("closing for maintenance", timeout=WAIT)
        deadline = time.monotonic() + WAIT
        while any(_alive(pid) for pid in pids):
            assert time.monotonic() < deadline, "a worker outlived its supervisor"
            await asyncio.sleep(0.1)
    store = Store(load_settings(door_home).database_url)
    try:
        (player,) = await store.players.find("Orphan")
        assert await store.saves.load_resume(player.id, "montecarlo") is not None
    finally:
        await store.close()


async def test_pre_fork_workers_accept_from_the_same_sockets(door_home: Path) -> None:
    configure(door_home, guest="on")
    async with serving(door_home, "-c", PRE_FORK, str(door_home)) as (proc, port):
        log = log_text(door_home)
        assert "(worker 1): listening" in log and "(worker 2): listening" in log
        (inode,) = _listening_inodes(port)  # one socket, held by both workers
        workers = await _children(proc.pid)
        assert len(workers) == 2 and all(_holds(pid, inode) for pid in workers)
        caller = await call(port, timeout=WAIT)
        caller.send("guest\r")
        await to_menu(caller, timeout=WAIT)
        caller.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0


async def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def _pid_of_worker(home: Path, index: int) -> int:
    """The pid of worker ``index`` (the supervisor logs it as it starts one)."""
    found = re.findall(rf"supervisor: worker {index} is pid (\d+)", log_text(home))
    assert found, log_text(home)
    return int(found[-1])


def _listening_inodes(port: int) -> list[str]:
    """The inodes of the sockets listening on ``port`` (from /proc/net/tcp)."""
    lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return [f[9] for f in (line.split() for line in lines)
            if f[3] == "0A" and int(f[1].split(":")[1], 16) == port]


def _holds(pid: int, inode: str) -> bool:
    fds = Path(f"/proc/{pid}/fd")
    return any(os.readlink(fd) == f"socket:[{inode}]" for fd in fds.iterdir())
