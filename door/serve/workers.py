"""``reussite serve --workers N``: callers answered by N processes, one event loop each.

The process the sysop starts is the *supervisor*: it answers no caller.  It starts worker 1,
which opens the store (migrating it), binds the listeners (port 0: the system picks) and
reports its ports; then workers 2 … N, which listen on those same ports.  Every worker runs
the whole of :func:`door.serve.server.serve` (the same listeners, the same code path), so what a
single-process server does, each worker does.  What they share, and how:

* **The listening ports.**  On Linux each worker binds its own socket with SO_REUSEPORT and
  the kernel spreads new connections evenly over them.  Elsewhere (where SO_REUSEPORT does
  not balance, or is missing) worker 1 hands its listening sockets to the supervisor, which
  passes them on: every worker accepts from the same sockets (a pre-fork accept).  A
  worker's event loop (:class:`WorkerLoop`) does this for every listener started in it, so
  telnet, SSH, RLogin and any later listener share their ports without knowing of workers.
* **Node numbers** (:class:`SharedNodes`): one table in shared memory, so a caller gets the
  lowest free node whichever worker answers, ``max_nodes`` counts all the workers' callers,
  and node numbers never repeat across workers.
* **The store**, as two servers share it today: each worker is a host of its own in who's
  online (``machine:port/2``), so rows never collide; one call per player, takeovers and
  messages go through the store.  A takeover asked in one worker nudges the others through
  shared memory, so the call is hung up within a fraction of a second instead of at the
  next 5 s round.
* **The login pool**: each worker has its own (door/gate/pool.py).  ``login_pool`` is divided
  between the workers (each takes its share, rounded up), so the server as a whole holds
  about as many connections logging in as sysop.ini says.  ``login_per_address`` and
  ``max_per_address`` hold for the whole server: the connections per address are counted
  in one table in shared memory (door/gate/address_counts.py), checked and counted in one step
  under its lock at every accept.
* **Failed logins** (door/gate/guard.py): each worker keeps the whole server's record.  A worker
  tells the supervisor each failure over its channel (one JSON line); the supervisor tells
  the other workers, and a worker started again is told those of the lockout window.  A
  check stays a lookup in the worker's own memory: a failure costs a password hash and a
  pause, so the milliseconds a relay takes give a guesser nothing.
* **Stopping**: SIGTERM or SIGINT to the supervisor stops every worker the way a single
  server stops (callers told, games saved) and waits for them.  A worker that dies is
  started again (its nodes freed, its who's-online rows taken back).  If the supervisor
  itself dies (kill -9), the workers notice at once and stop as on SIGTERM.
* **The log file**: the supervisor and the workers append to it; whichever fills it
  rotates it, and the others follow (door/logs/files.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import select
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..config import ConfigError, Settings
from ..gate.address_counts import SharedCounts, SharedMemory
from ..logs.files import log_to_file
from ..logs.private import make_private_dir
from ..store.online import worker_prefix
from .ports import Ports
from .server import serve
from .supervisor_link import MAX_LINE

log = logging.getLogger(__name__)

MAX_WORKERS = 64
START_S = 60.0
"""How long a worker may take to open the store and listen before the start is given up."""
STOP_S = 10.0
"""After SIGTERM, how long the supervisor waits for its workers (each stops within 5 s)."""
RESTART_BACKOFF_S = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Pauses before starting a dead worker again, longer each time it dies soon after a start."""
STABLE_S = 60.0
"""A worker that ran this long before dying is started again at once."""
CHECK_S = 1.0
"""How often the supervisor looks at its workers when no signal comes."""
FAILURES_KEPT = 100_000
"""Failed logins the supervisor keeps for a worker started again (the lockout window's)."""
MAX_UNSENT = 1 << 20
"""Bytes of lines waiting for a worker past which more are dropped (it reads nothing)."""


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    return hasattr(os, "fork")


def balanced_reuse_port() -> bool:
    """Whether the kernel balances connections over sockets bound with SO_REUSEPORT (Linux
    does; BSD and macOS let several bind but do not spread connections)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


# -- what the workers share -----------------------------------------------------------------

class SharedNodes(SharedMemory):
    """Node numbers for every worker of one server, in shared memory.

    One byte per node: 0 free, else the number of the worker whose caller has it.  A POSIX
    record lock (released by the system if its holder dies) makes a take or a give-back one
    step across processes; each lasts microseconds, once per call.  Bytes past the nodes
    hold a counter that a worker bumps after asking another to hang up a call (a nudge)."""

    _NUDGE = 4  # bytes of the nudge counter, after the node bytes

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.owner = 0
        """This process's worker number (set in each worker after the fork)."""
        super().__init__(max_nodes + 1 + self._NUDGE)
        self._seen = 0

    def take(self) -> int | None:
        """The lowest free node, now this worker's; None when all are busy."""
        with self._locked():
            node = self._map.find(b"\0", 1, self.max_nodes + 1)
            if node < 0:
                return None
            self._map[node] = self.owner
            return node

    def give_back(self, node: int) -> None:
        with self._locked():
            if 0 < node <= self.max_nodes and self._map[node] == self.owner:
                self._map[node] = 0

    def in_use(self) -> dict[int, int]:
        """node → worker, for every busy node."""
        return {n: self._map[n] for n in range(1, self.max_nodes + 1) if self._map[n]}

    def free_worker(self, owner: int) -> int:
        """Give back every node of a dead worker; returns how many."""
        freed = 0
        with self._locked():
            for node in range(1, self.max_nodes + 1):
                if self._map[node] == owner:
                    self._map[node] = 0
                    freed += 1
        return freed

    def nudge(self) -> None:
        """Tell the other workers to read their hang-up orders now."""
        at = self.max_nodes + 1
        with self._locked():
            value = int.from_bytes(self._map[at:at + self._NUDGE], "little")
            self._map[at:at + self._NUDGE] = ((value + 1) % 2**32).to_bytes(4, "little")

    def nudged(self) -> bool:
        """True once after each nudge (any worker's, this one's included)."""
        at = self.max_nodes + 1
        value = int.from_bytes(self._map[at:at + self._NUDGE], "little")
        if value == self._seen:
            return False
        self._seen = value
        return True


@dataclass
class Worker:
    """What one worker process knows of its place among the others (``serve(worker=)``)."""

    index: int
    count: int
    nodes: SharedNodes
    lifeline: int
    """Read end of a pipe the supervisor holds open: end of file means it has gone."""
    channel: socket.socket
    """To the supervisor: one line when listening (the ports; worker 1 also its sockets)."""
    first: bool = False
    """Worker 1's first start: the rows of every worker of this server that a previous run
    left in who's online are removed."""
    ports: Ports | None = None
    """The ports to listen on (all but the first start of worker 1)."""
    hand_over_sockets: bool = False
    counts: SharedCounts | None = None
    """Connections per address, every worker's (door/gate/address_counts.py): the login pool's
    caps per address hold for the whole server."""

    def host_id(self, server: str) -> str:
        """This worker's name in who's online: the server's (machine:port) and its number."""
        return f"{worker_prefix(server)}{self.index}"

    def pool_size(self, size: int) -> int:
        """This worker's share of the login pool (door/gate/pool.py): the total divided,
        rounded up."""
        return max(1, -(-size // self.count))

    def listening(self, ports: Ports, where: str, sockets: list[socket.socket]) -> None:
        """Tell the supervisor this worker is answering (and hand it the sockets if asked)."""
        line = json.dumps({"ports": ports._asdict(), "where": where}).encode() + b"\n"
        fds = [s.fileno() for s in sockets] if self.hand_over_sockets else []
        socket.send_fds(self.channel, [line], fds)


# -- the worker's event loop ----------------------------------------------------------------

class _Servers:
    """Several listening servers standing for one (a host name with several addresses, in
    the pre-fork mode): what telnetlib3 and asyncssh ask of an ``asyncio.Server``."""

    def __init__(self, servers: list[asyncio.Server]) -> None:
        self._servers = servers

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return tuple(s for server in self._servers for s in server.sockets)

    def close(self) -> None:
        for server in self._servers:
            server.close()

    async def wait_closed(self) -> None:
        for server in self._servers:
            await server.wait_closed()

    def is_serving(self) -> bool:
        return any(server.is_serving() for server in self._servers)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._servers[0].get_loop()


class WorkerLoop(asyncio.SelectorEventLoop):
    """An event loop whose listeners share their port with the other workers' (module
    docstring): SO_REUSEPORT on every socket it binds, or the sockets the supervisor passed
    down.  ``check_free`` (worker 1's first start): a fixed port is first bound without
    SO_REUSEPORT, so that a port already in use fails as it would for one process instead
    of being shared with a stranger."""

    def __init__(self, inherited: list[socket.socket] | None = None,
                 check_free: bool = False) -> None:
        super().__init__()
        self.inherited = inherited
        self.check_free = check_free
        self.bound: list[socket.socket] = []
        """Every listening socket this loop made (worker 1 hands them over in pre-fork)."""

    async def create_server(self, protocol_factory: Any, host: Any = None, port: Any = None,
                            **kw: Any) -> Any:
        if kw.get("sock") is not None or port is None:
            return await super().create_server(protocol_factory, host, port, **kw)
        if self.inherited is not None:
            mine = await self._inherited_for(host, port, kw.get("family", 0))
            if mine:
                kw = {k: v for k, v in kw.items() if k not in ("family", "flags",
                                                                "reuse_address", "reuse_port")}
                create = super().create_server  # (no zero-argument super in a comprehension)
                servers = [await create(protocol_factory, sock=s, **kw) for s in mine]
                return servers[0] if len(servers) == 1 else _Servers(servers)
        elif balanced_reuse_port():
            if self.check_free and port:
                await self._check_free(host, port, kw.get("family", 0))
            kw["reuse_port"] = True
        server = await super().create_server(protocol_factory, host, port, **kw)
        self.bound.extend(server.sockets)
        return server

    async def _addresses(self, host: Any, port: int, family: int
                         ) -> list[tuple[int, tuple[str, int] | tuple[int, bytes]]]:
        """(family, (address, port)) of each address ``host`` names."""
        hosts = host if isinstance(host, list | tuple) else [host or None]
        found: list[tuple[int, tuple[str, int] | tuple[int, bytes]]] = []
        for name in hosts:
            infos = await self.getaddrinfo(name, port, family=family, type=socket.SOCK_STREAM,
                                           flags=socket.AI_PASSIVE)
            found += [(info[0], info[4][:2]) for info in infos]
        return found

    async def _inherited_for(self, host: Any, port: int, family: int) -> list[socket.socket]:
        wanted = await self._addresses(host, port, family)
        assert self.inherited is not None
        return [s for s in self.inherited if (s.family, s.getsockname()[:2]) in wanted]

    async def _check_free(self, host: Any, port: int, family: int) -> None:
        for fam, address in await self._addresses(host, port, family):
            probe = socket.socket(fam, socket.SOCK_STREAM)
            try:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if fam == socket.AF_INET6:
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
            finally:
                probe.close()


# -- the supervisor -------------------------------------------------------------------------

@dataclass
class _Child:
    index: int
    pid: int
    channel: socket.socket
    started: float
    listening: bool = False
    deaths: int = 0
    status: int | None = None
    """The wait status once it has exited."""
    told: bytearray = field(default_factory=bytearray)
    """What it sent past its last whole line."""
    unsent: bytearray = field(default_factory=bytearray)
    """Lines for it that its channel did not take yet."""
    link_open: bool = True


@dataclass
class Supervisor:
    """Starts the workers, reports the ports, restarts a dead worker, stops them all."""

    settings: Settings
    bind: str
    telnet_port: int
    ssh_port: int | None
    rlogin_port: int | None
    count: int
    web_port: int | None = None
    pre_fork: bool = field(default_factory=lambda: not balanced_reuse_port())
    children: dict[int, _Child] = field(default_factory=dict)  # worker number -> child
    ports: Ports | None = None
    inherited: list[socket.socket] = field(default_factory=list)
    stopping: bool = False
    failures: deque[tuple[float, list[str]]] = field(default_factory=deque)
    """The workers' failed logins within the lockout window, for a worker started again."""

    def run(self) -> int:
        make_private_dir(self.settings.data_dir)
        handler = log_to_file(self.settings.data_dir)
        self.nodes = SharedNodes(self.settings.server.max_nodes)
        server = self.settings.server
        self.counts = SharedCounts(self.count, 2 * (server.login_pool + server.max_nodes
                                                    + self.count) + 64)
        self._lifeline_r, self._lifeline_w = os.pipe()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        previous = self._catch_signals()
        try:
            code = self._start_all()
            if code is None:
                where = self._where
                print(f"Réussite is answering {where} ({self.count} workers). Ctrl-C stops it.",
                      flush=True)
                log.info("supervisor: %d workers answering %s", self.count, where)
                code = self._watch()
            return code
        finally:
            self._stop_all()
            for sig, was in previous.items():
                signal.signal(sig, was)
            signal.set_wakeup_fd(-1)
            if handler is not None:
                logging.getLogger().removeHandler(handler)
                handler.close()

    # -- signals --------------------------------------------------------------------------
    def _catch_signals(self) -> dict[signal.Signals, Any]:
        def stop(_sig: int, _frame: Any) -> None:
            self.stopping = True

        previous: dict[signal.Signals, Any] = {}
        for sig, handler in ((signal.SIGTERM, stop), (signal.SIGINT, stop),
                             (signal.SIGCHLD, lambda *_: None)):
            previous[sig] = signal.signal(sig, handler)
        signal.set_wakeup_fd(self._wake_w)
        return previous

    def _pause(self, timeout: float, also: Sequence[Any] = ()) -> list[Any]:
        """Wait for a signal, one of ``also`` to be readable, or ``timeout``."""
        try:
            ready, _, _ = select.select([self._wake_r, *also], [], [], max(0.0, timeout))
        except InterruptedError:
            return []
        if self._wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                while os.read(self._wake_r, 512):
                    pass
        return [r for r in ready if r is not self._wake_r]

    # -- starting ---------------------------------------------------------------------------
    def _start_all(self) -> int | None:
        """Worker 1, then the others once its ports are known; None when all listen, else the
        exit code of the failed start."""
        first = self._fork(1, first=True)
        code = self._await_listening([first])
        if code is not None:
            return code
        others = [self._fork(i) for i in range(2, self.count + 1)]
        return self._await_listening(others)

    def _await_listening(self, children: list[_Child]) -> int | None:
        deadline = time.monotonic() + START_S
        waiting = {c.channel: c for c in children}
        while waiting:
            if self.stopping:
                return 0
            left = deadline - time.monotonic()
            if left <= 0:
                log.error("supervisor: worker %s did not start within %.0f s",
                          ", ".join(str(c.index) for c in waiting.values()), START_S)
                return 1
            for channel in self._pause(left, list(waiting)):
                child = waiting.pop(channel)
                if not self._read_report(child):
                    return self._exit_code_of(child)
            for child in list(waiting.values()):
                if self._reaped(child):
                    return self._exit_code_of(child)
        return None

    def _read_report(self, child: _Child) -> bool:
        try:
            data, fds, _, _ = socket.recv_fds(child.channel, 65536, 64)
        except OSError:
            data, fds = b"", []
        if not data:
            return False
        line, _, child.told[:] = data.partition(b"\n")  # its guard lines may follow
        report = json.loads(line.decode())
        child.listening = True
        child.channel.setblocking(False)
        now = time.monotonic()
        for when, event in self.failures:
            self._send(child, {"guard": event, "age": now - when})
        if self.ports is None:
            self.ports = Ports(**report["ports"])
            self._where = report["where"]
            self.inherited = [socket.socket(fileno=fd) for fd in fds]
        else:
            for fd in fds:
                os.close(fd)
        return True

    def _reaped(self, child: _Child) -> bool:
        """True (and the child's status kept) when it has exited."""
        if child.status is not None:
            return True
        pid, status = os.waitpid(child.pid, os.WNOHANG)
        if pid == 0:
            return False
        child.status = status
        return True

    def _exit_code_of(self, child: _Child) -> int:
        """The exit code of a worker that failed to start (it is ending: waited for)."""
        deadline = time.monotonic() + STOP_S
        while not self._reaped(child) and time.monotonic() < deadline:
            self._pause(0.05)
        if not self._reaped(child):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGKILL)
            child.status = os.waitpid(child.pid, 0)[1]
        code = os.waitstatus_to_exitcode(child.status or 0)
        log.error("supervisor: worker %d ended before it listened (%s)", child.index,
                  f"killed by signal {-code}" if code < 0 else f"exit code {code}")
        return code if code > 0 else 1

    def _fork(self, index: int, first: bool = False) -> _Child:
        mine, theirs = socket.socketpair()
        hand_over = self.pre_fork and self.ports is None
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            mine.close()
            self._run_worker(index, theirs, first, hand_over)
        theirs.close()
        log.info("supervisor: worker %d is pid %d", index, pid)
        child = _Child(index, pid, mine, time.monotonic())
        old = self.children.get(index)
        if old is not None:
            child.deaths = old.deaths
            old.channel.close()
        self.children[index] = child
        return child

    def _run_worker(self, index: int, channel: socket.socket, first: bool,
                    hand_over: bool) -> None:
        code = 1
        try:
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            for handler in logging.getLogger().handlers[:]:  # serve opens its own
                if isinstance(handler, logging.FileHandler):
                    logging.getLogger().removeHandler(handler)
            signal.set_wakeup_fd(-1)
            for fd in (self._lifeline_w, self._wake_r, self._wake_w):
                os.close(fd)
            for other in self.children.values():
                other.channel.close()
            self.nodes.owner = self.counts.owner = index
            _name_logs(index)
            worker = Worker(index, self.count, self.nodes, self._lifeline_r, channel,
                            first=first, ports=self.ports, hand_over_sockets=hand_over,
                            counts=self.counts)
            code = run_worker(self.settings, self.bind, self.telnet_port, self.ssh_port,
                              self.rlogin_port, worker, self.inherited if self.pre_fork else None,
                              web_port=self.web_port)
        except BaseException:  # nothing may return into the supervisor's code
            with contextlib.suppress(Exception):
                log.exception("worker %d: ended by an error", index)
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)

    # -- running --------------------------------------------------------------------------
    def _watch(self) -> int:
        """Until a stop: reap and restart dead workers."""
        restart_at: dict[int, float] = {}
        while not self.stopping:
            links = {c.channel: c for c in self.children.values()
                     if c.listening and c.link_open and c.status is None}
            for channel in self._pause(min([CHECK_S, *(t - time.monotonic()
                                                       for t in restart_at.values())]),
                                       list(links)):
                self._relay(links[channel])
            for child in links.values():
                self._flush(child)
            for child in list(self.children.values()):
                if child.index not in restart_at and self._reaped(child):
                    restart_at[child.index] = time.monotonic() + self._died(child)
            for index, when in list(restart_at.items()):
                if time.monotonic() >= when and not self.stopping:
                    del restart_at[index]
                    new = self._fork(index)
                    if self._await_listening([new]) is not None and not self.stopping:
                        restart_at[index] = time.monotonic() + self._died(new)
        return 0

    # -- what the workers tell each other ---------------------------------------------------
    def _relay(self, child: _Child) -> None:
        """Lines from a worker: each failed login goes to every other worker."""
        try:
            data = child.channel.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            child.link_open = False
            return
        child.told += data
        *lines, rest = child.told.split(b"\n")
        child.told[:] = rest[-MAX_LINE:]
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            event = message.get("guard") if isinstance(message, dict) else None
            if not isinstance(event, list):
                continue
            now = time.monotonic()
            self.failures.append((now, event))
            window = self.settings.accounts.lockout_minutes * 60
            while self.failures and (now - self.failures[0][0] > window
                                     or len(self.failures) > FAILURES_KEPT):
                self.failures.popleft()
            for other in self.children.values():
                if other is not child and other.listening and other.status is None:
                    self._send(other, {"guard": event})

    def _send(self, child: _Child, message: dict[str, object]) -> None:
        if len(child.unsent) > MAX_UNSENT:  # a worker that reads nothing: it is stuck
            return
        child.unsent += json.dumps(message).encode() + b"\n"
        self._flush(child)

    def _flush(self, child: _Child) -> None:
        while child.unsent:
            try:
                sent = child.channel.send(child.unsent, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return
            except OSError:
                child.unsent.clear()
                return
            del child.unsent[:sent]

    def _died(self, child: _Child) -> float:
        """Log a worker's death, free its nodes; returns the pause before its restart."""
        code = os.waitstatus_to_exitcode(child.status or 0)
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        freed = self.nodes.free_worker(child.index)
        self.counts.free_worker(child.index)
        child.deaths = 0 if time.monotonic() - child.started >= STABLE_S else child.deaths + 1
        pause = RESTART_BACKOFF_S[min(child.deaths, len(RESTART_BACKOFF_S) - 1)]
        log.error("supervisor: worker %d (pid %d) died (%s); its %d nodes freed, started "
                  "again in %.0f s", child.index, child.pid, how, freed, pause)
        return pause

    def _stop_all(self) -> None:
        """SIGTERM to every worker still running, then wait (SIGKILL past STOP_S)."""
        live = [c for c in self.children.values() if not self._reaped(c)]
        for child in live:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_S
        while live and time.monotonic() < deadline:
            self._pause(0.05)
            live = [c for c in live if not self._reaped(c)]
        for child in live:
            log.error("supervisor: worker %d did not stop within %.0f s: killed",
                      child.index, STOP_S)
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGKILL)
            child.status = os.waitpid(child.pid, 0)[1]
        os.close(self._lifeline_w)
        if self.children:
            log.info("supervisor: all workers stopped")


def _name_logs(index: int) -> None:
    """Log lines of a worker say which one: ``door.serve.server (worker 2): ...``."""
    make_record = logging.getLogRecordFactory()

    def worker_record(*args: Any, **kw: Any) -> logging.LogRecord:
        record = make_record(*args, **kw)
        record.name = f"{record.name} (worker {index})"
        return record

    logging.setLogRecordFactory(worker_record)


def run_worker(settings: Settings, bind: str, telnet_port: int, ssh_port: int | None,
               rlogin_port: int | None, worker: Worker,
               inherited: list[socket.socket] | None, web_port: int | None = None) -> int:
    """One worker's life, in its own process: ``serve`` on a :class:`WorkerLoop`."""
    def loop_factory() -> asyncio.AbstractEventLoop:
        return WorkerLoop(inherited, check_free=worker.first)

    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            return runner.run(serve(settings, bind, telnet_port, ssh_port=ssh_port,
                                    rlogin_port=rlogin_port, web_port=web_port,
                                    worker=worker))
    except ConfigError as exc:
        print(f"reussite: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"reussite: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def supervise(settings: Settings, bind: str, telnet_port: int, ssh_port: int | None,
              rlogin_port: int | None, workers: int, pre_fork: bool | None = None,
              web_port: int | None = None) -> int:
    """``reussite serve`` with ``workers`` processes; returns the exit code."""
    supervisor = Supervisor(settings, bind, telnet_port, ssh_port, rlogin_port,
                            min(workers, MAX_WORKERS), web_port)
    if pre_fork is not None:
        supervisor.pre_fork = pre_fork
    return supervisor.run()
