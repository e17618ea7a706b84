"""``reussite serve``: the direct-dial server, answering telnet and SSH callers on one asyncio loop,
and RLogin callers of the member boards in sysop.ini's ``[boards]`` (a game hub).

Each connection is admitted to the login pool (door/gate/pool.py: caps per address and overall,
silent and slow connections hung up), logs in (the door's login screen, the SSH layer for a
known handle, or the member board's word for an RLogin caller), then takes the lowest free
node (or sees "all nodes busy") and plays.
SIGTERM/SIGINT tell every caller, save games in progress and close everything within
``SHUTDOWN_S`` seconds.  One log line per connect, login, game end and disconnect goes to
stderr and to ``data/reussite.log`` (rotated: door/logs/files.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, Protocol

from ..bbs.boards import BoardLogin, BoardRefused, board_login
from ..catalog import registry as gamelist
from ..compiled import build_name
from ..config import Settings
from ..gate.address_counts import SharedCounts
from ..gate.guard import LoginLimiter, address_of, host_of, prefix_of
from ..gate.hash_budget import HashBudget
from ..gate.pool import EarlyDrop, LoginPool, Refused, Ticket
from ..logs.files import log_to_file
from ..logs.policy import limit_repeats
from ..logs.private import make_private_dir
from ..net.buffers import bound_send_buffers
from ..net.rlogin import HandshakeError, RLoginTerminal, start_rlogin
from ..net.telnet import notice, start_telnet
from ..net.terminal import Terminal
from ..session import Caller, Services, Session, SessionEnded
from ..solvers.pool import close_solver_pool
from ..store import Store, StoredGame, StoreError
from ..store.accounts import GUEST_ID
from ..store.visit import identify, node_gone, node_seen, open_store
from ..term.caches import forget_caches
from ..ui.menus.settings import parse_charset_code
from ..ui.visits.login import login
from ..ui.visits.visit import run_visit
from ..watching.hub import HUB
from ..watching.link import WatchLink
from ..web import start_web_for
from .collector import CallCollector
from .collector import tune as tune_collector
from .idle_rows import IdleRows
from .listeners import Listener, Plan
from .ports import Ports
from .supervisor_link import SupervisorLink
from .takeover import OtherCall, calls_elsewhere, one_call_per_player, watch_hang_up_orders

log = logging.getLogger(__name__)

SHUTDOWN_S = 5.0  # SIGTERM to everything closed
BOARD_SECRET = "\0board secret"
"""The failed-login key of a wrong RLogin board secret (no handle has a NUL in it)."""
INPUT_BURST, INPUT_RATE = 8192, 512
"""Bytes a caller may send at once, then per second: more than any typist or paste needs
(arrow keys auto-repeating send 90 a second); a flood (a megabyte without a newline) is
slowed to this pace instead of eating the CPU the other callers need."""
_FULL_BUCKET = float(INPUT_BURST)
# One line each, shorter than the 80 columns of the screen they are printed over.
TAKEN_OVER_NOTICE = (b"\r\n\x1b[0m\x1b[1;33m You have called again from another line: your "
                     b"game is saved.\x1b[0m\r\n")
SHUTDOWN_NOTICE = (b"\r\n\x1b[0m\x1b[1;33m The door is closing for maintenance. Your game is "
                   b"saved: call again soon.\x1b[0m\r\n")


class Flag:
    """Set once, asked on every read: what an asyncio.Event is to code that never waits on
    it, without the Event's deque of waiters (760 bytes a call)."""

    __slots__ = ("_set",)

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set


class Call(NamedTuple):
    """One live connection: its visit (None until it has one), its line, and the flag
    that hangs up this caller alone (a later call of the same handle took over)."""

    session: Session | None
    terminal: Terminal
    hangup: Flag


class Nodes(Protocol):
    """Node numbers for callers: :class:`NodeTable`, or the workers' shared one."""

    max_nodes: int

    def take(self) -> int | None: ...

    def give_back(self, node: int) -> None: ...


class WorkerNodes(Nodes, Protocol):
    """The workers' shared node table, which also carries the nudge that has every worker
    read its hang-up orders at once."""

    def nudge(self) -> None: ...

    def nudged(self) -> bool: ...


class WorkerPlace(Protocol):
    """What :func:`serve` needs of its place among ``serve --workers``'s processes (the
    workers' ``Worker``, door/serve/workers.py, which runs :func:`serve`)."""

    @property
    def index(self) -> int: ...
    @property
    def first(self) -> bool: ...
    @property
    def nodes(self) -> WorkerNodes: ...
    @property
    def lifeline(self) -> int: ...
    @property
    def channel(self) -> socket.socket: ...
    @property
    def ports(self) -> Ports | None: ...
    @property
    def counts(self) -> SharedCounts | None: ...

    def host_id(self, server: str) -> str: ...

    def pool_size(self, size: int) -> int: ...

    def listening(self, ports: Ports, where: str, sockets: list[socket.socket]) -> None: ...


class NodeTable:
    """Node numbers for callers: each gets the lowest free one."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self._used: set[int] = set()

    def take(self) -> int | None:
        for node in range(1, self.max_nodes + 1):
            if node not in self._used:
                self._used.add(node)
                return node
        return None

    def give_back(self, node: int) -> None:
        self._used.discard(node)


def session_runner(settings: Settings, nodes: NodeTable, store: Store | None = None
                   ) -> Callable[[Terminal], Awaitable[None]]:
    """An open door without logins (every caller is Guest): tests of the screens use it."""
    services = Services(settings, store)

    async def run(terminal: Terminal) -> None:
        node = nodes.take()
        if node is None:
            terminal.write(b"\r\nAll nodes are busy. Please call again later.\r\n")
            await terminal.drain()
            return
        caller = Caller(alias="Guest", node=node)
        try:
            player = await identify(store, caller)
            await node_seen(store, caller, player, "main menu")
            await run_visit(Session(terminal, services, caller, player))
        finally:
            await node_gone(store, caller)
            nodes.give_back(node)
    return run


def _elapsed(start: float) -> str:
    seconds = int(time.monotonic() - start)
    return f"{seconds // 60}m{seconds % 60:02d}s"


class Door:
    """Everything the server shares between callers: nodes, guards, accounts, live sessions."""

    def __init__(self, settings: Settings, store: Store | None,
                 worker: WorkerPlace | None = None, link: WatchLink | None = None) -> None:
        self.settings = settings
        self.store = store
        self.worker = worker
        """This process's place among the workers of ``serve --workers`` (None: alone)."""
        self.nodes: Nodes = (worker.nodes if worker is not None
                             else NodeTable(settings.server.max_nodes))
        acc, srv = settings.accounts, settings.server
        budget = HashBudget(acc.login_hashes_per_minute, lambda address: prefix_of(
            address, srv.login_prefix_v4, srv.login_prefix_v6))
        if store is not None:  # the store's accounts hash within this server's budget
            store.accounts.budget = budget
        self.accounts = store.accounts if store is not None else None
        self.limiter = LoginLimiter(acc.login_attempts, acc.lockout_minutes * 60)
        pool_size = worker.pool_size(srv.login_pool) if worker is not None else srv.login_pool
        self.pool = LoginPool(pool_size, srv.login_per_address, srv.max_per_address,
                              srv.first_byte_timeout, acc.login_timeout,
                              prefix_v4=srv.login_prefix_v4, prefix_v6=srv.login_prefix_v6,
                              early_drop=EarlyDrop(*(p / 100 for p in srv.login_early_drop)),
                              counts=worker.counts if worker is not None else None)
        self.live: dict[asyncio.Task[None], Call] = {}
        self.closing = False
        self.hangup = asyncio.Event()
        self.collector = CallCollector(forget=[forget_caches])
        """Frees what ended calls leave in reference cycles (door/serve/collector.py)."""
        self.services = Services(settings, store, watch=HUB, link=link)
        """What every session of this process uses besides its terminal."""
        self.viewing = Services(settings, watch=HUB, link=link)
        """The web's read-only viewers' (replays, watchers): nothing of theirs is kept."""
        self.keeper = self.services.keeper
        if store is not None:
            store.scores.game_stored = self._log_game_end

    def _log_game_end(self, stored: StoredGame) -> None:
        """One log line per finished game, whichever screen stores it."""
        session = self._session_of(stored.player_id)
        node = session.caller.node if session else "?"
        who = session.caller.alias if session else f"player {stored.player_id}"
        record, rank = stored.record, stored.rank
        log.info("node %s: %s finished %s #%s: %s, score %s%s", node, who, record.game,
                 record.number, stored.status, stored.score, f", rank {rank}" if rank else "")

    def _session_of(self, player_id: int) -> Session | None:
        calls = self._calls_of(player_id)
        return calls[0][0] if calls else None

    async def run(self, terminal: Terminal) -> None:
        """One connection, from the login pool to the goodbye.  The listener admitted it to
        the pool (``terminal.ticket``); one that did not (RLogin) is admitted here."""
        start = time.monotonic()
        task = asyncio.current_task()
        assert task is not None
        own_hangup = Flag()
        terminal.meter = InputMeter(self.hangup, own_hangup)
        kind = terminal.kind or "telnet"
        if self.closing:
            return
        board: BoardLogin | None = None
        if isinstance(terminal, RLoginTerminal):
            board = await self._board_login(terminal)
            if board is None:
                return
        ticket, own_ticket = terminal.ticket, terminal.ticket is None
        if ticket is None:
            # A member board's address carries all of its callers: only the nodes limit them.
            limit = self.settings.server.max_nodes if board else None
            try:
                ticket = self.pool.admit(address_of(terminal.peer), f"{kind} {terminal.peer}",
                                         lambda why: self._hang_up(terminal, own_hangup, why),
                                         limit=limit)
            except Refused as exc:  # the pool logs it
                await self._notice(terminal, str(exc))
                return
        if board is not None:
            ticket.heard()  # its board vouched for it
        if ticket.closed or ticket.sessions:  # hung up already, or a second SSH session
            return
        ticket.sessions += 1
        # A telnet line that has said nothing yet (a raw client before its prompt, or a
        # flood) is told only at debug level, as its leaving: the pool's report counts them.
        # (A WebSocket has been through an HTTP upgrade, an SSH session through key
        # exchange: told.)
        quiet = ticket.silent and kind == "telnet"
        log.log(logging.DEBUG if quiet else logging.INFO, "%s connect from %s", kind,
                terminal.peer)
        self.live[task] = Call(None, terminal, own_hangup)
        try:
            await self._visit(terminal, task, ticket, board)
        finally:
            call = self.live.pop(task, None)
            session = call.session if call is not None else None
            if session is not None:
                session.visit_over()
            node = session.caller.node if session is not None else 0
            if session is not None and node:
                await node_gone(self.store, session.caller)
                self.nodes.give_back(node)
                log.info("node %s: disconnect %s after %s", node, terminal.peer,
                         _elapsed(start))
            else:
                log.log(logging.DEBUG if quiet and ticket.silent else logging.INFO,
                        "%s %s: left before logging in, after %s", kind, terminal.peer,
                        _elapsed(start))
            if own_ticket:
                ticket.close()
            self.collector.ended(len(self.live))

    def _hang_up(self, terminal: Terminal, hangup: Flag, reason: str) -> None:
        """The pool's hang-up for a connection its listener did not admit: the visit ends
        at its next read, as on carrier loss, and the listener closes the line."""
        with contextlib.suppress(Exception):
            terminal.write(notice(reason))
        hangup.set()
        terminal.wake()

    def _take_node(self, session: Session, ticket: Ticket) -> bool:
        """The logged-in caller leaves the pool for the lowest free node, if there is one."""
        node = self.nodes.take()
        if node is None:
            log.warning("%s: %s refused, all %d nodes busy", session.terminal.peer,
                        session.caller.alias, self.nodes.max_nodes)
            return False
        ticket.logged_in()
        session.caller.node = node
        return True

    async def _board_login(self, terminal: RLoginTerminal) -> BoardLogin | None:
        """Who an RLogin caller is, on a member board's word; None (after one line for the
        caller and one for the log) when no board vouches for them."""
        address = address_of(terminal.peer)
        boards = [b for b in self.settings.boards if b.allows(host_of(terminal.peer))]
        if not boards:
            log.warning("rlogin %s: refused, not the address of a board in [boards]",
                        terminal.peer)
            await self._notice(terminal, "This door takes RLogin calls from its member "
                                         "boards only.")
            return None
        if self.limiter.locked(BOARD_SECRET, address):
            log.warning("rlogin %s: refused, locked out after wrong secrets", terminal.peer)
            await self._notice(terminal, "Too many wrong board secrets: try again later.")
            return None
        try:
            hello = await terminal.handshake()
            login = board_login(boards, hello)
        except HandshakeError as exc:
            log.warning("rlogin %s: dropped: %s", terminal.peer, exc)
            return None
        except BoardRefused as exc:
            self.limiter.failed(BOARD_SECRET, address)
            log.warning("rlogin %s: refused: %s", terminal.peer, exc)
            await self._notice(terminal, "Your board is not let in here: its sysop should "
                                         "check the secret.")
            return None
        self.limiter.succeeded(BOARD_SECRET, address)
        return login

    async def _visit(self, terminal: Terminal, task: asyncio.Task[None], ticket: Ticket,
                     board: BoardLogin | None = None) -> None:
        account = getattr(terminal, "account", None)  # SSH's, or a resumed web call's
        if terminal.kind == "ssh":  # SSH: UTF-8 unless the terminal type says CP437

            kept = parse_charset_code(account.player.charset) if account else None
            saved = kept.name + ("+glyphs" if kept.c0_glyphs else "") if kept else None
            await terminal.detect_charset(saved=saved, lang=getattr(terminal, "lang", ""),
                                          charset="utf-8")
        if isinstance(terminal, RLoginTerminal):  # the terminal type, else a probe
            await terminal.ask_window_size()
            choice = await terminal.detect_charset()
            log.info("%s: %s%s, %s", terminal.peer, choice.charset.name,
                     " with glyphs" if choice.charset.c0_glyphs else "", choice.reason)
        if board is not None:
            caller = Caller(alias=board.alias, node=0, source=board.source,
                            user_id=board.user_id)
        else:
            caller = Caller(alias=account.handle if account else "New caller", node=0)
        session = Session(terminal, self.services, caller,
                          account.player if account else None)
        self.live[task] = self.live[task]._replace(session=session)
        session.first_action = getattr(terminal, "first_action", None)
        if board is None and account is None and not await self._login(session, terminal):
            return
        if not self._take_node(session, ticket):
            await self._notice(terminal, "All nodes are busy. Please call again later.")
            return
        node = caller.node
        if board is not None:
            await self._board_caller(session, board)
        try:
            if not await self._one_call_per_account(session, task):
                return
        except SessionEnded:  # hung up at "Hang up the call on node N?": nothing to save
            return
        how = f" ({'ssh auth' if terminal.kind == 'ssh' else 'resumed'})" if account else \
            f" (rlogin, board {board.board.tag})" if board else ""
        log.info("node %s: login %s from %s%s", node, caller.alias, terminal.peer, how)
        await node_seen(self.store, caller, session.player, "main menu")
        await run_visit(session)

    async def _board_caller(self, session: Session, board: BoardLogin) -> None:
        """A member board's caller: their player record, and the game their BBS asked for
        (``xtrn=``), else the title and the main menu."""
        session.player = await identify(self.store, session.caller)
        if board.xtrn:
            game = board.xtrn.lower()
            enabled = {e.action for e in self.settings.enabled_menu}
            if game in gamelist.names() and game in enabled:
                session.start_action = game
            else:
                log.warning("node %s: board %s asked for xtrn=%s: no such game here, the "
                            "main menu instead", session.caller.node, board.board.tag,
                            board.xtrn)
                session.notify(f"No game {board.xtrn!r} here: pick one from the menu.")

    async def _login(self, session: Session, terminal: Terminal) -> bool:

        if self.accounts is None:  # no database: everyone plays as a guest, unscored
            session.caller.alias = "Guest"
            return True
        try:  # the login pool hangs up on a caller still here after its login_timeout
            who = await login(session, self.accounts, self.limiter, address_of(terminal.peer),
                              self.settings.accounts.guest)
        except SessionEnded:
            return False
        if who is None:
            return False
        session.caller.alias, session.player = who.alias, who.player
        return True

    async def _one_call_per_account(self, session: Session, task: asyncio.Task[None]) -> bool:
        """A handle is in the door on one line at a time (its saved games are one per game).

        A second call may take over from the first, which is hung up with its game saved,
        as if its line had dropped: a caller whose connection died without the server
        noticing yet is not locked out.  Calls on this server are ended here and now;
        those of another server sharing the database are told through the store.  Guests
        share one record and may come in together.
        """
        player = session.player
        if player is None or player.user_id == GUEST_ID:
            return True
        local = [OtherCall(f"node {other.caller.node}", self._ender(other_task))
                 for other, other_task in self._calls_of(player.id, but=task)]
        remote = await calls_elsewhere(self.store, session,
                                       skip_host=self.store.core.host if self.store else None,
                                       nudge=self.worker.nodes.nudge if self.worker else None)
        return await one_call_per_player(session, local + remote)

    def _ender(self, task: asyncio.Task[None]) -> Callable[[], Awaitable[None]]:
        async def end() -> None:
            call = self.live.get(task)
            if call is None:
                return
            with contextlib.suppress(Exception):
                call.terminal.write(TAKEN_OVER_NOTICE)
            call.hangup.set()
            call.terminal.wake()
            await asyncio.wait([task], timeout=SHUTDOWN_S)
        return end

    def hang_up_node(self, node: int) -> None:
        """Hang up the call on ``node`` (told through the store that its player called
        again elsewhere); its visit saves its game as on carrier loss."""
        for call in self.live.values():
            if call.session is not None and call.session.caller.node == node:
                with contextlib.suppress(Exception):
                    call.terminal.write(TAKEN_OVER_NOTICE)
                call.hangup.set()
                call.terminal.wake()

    def sessions(self) -> list[Session]:
        """The visits going on, logging in or playing."""
        return [call.session for call in self.live.values() if call.session is not None]

    def call_tokens(self) -> dict[int, str]:
        """This server's calls: node → token (kept alive, and watched for hang-up orders)."""
        return {c.session.caller.node: c.session.caller.token for c in self.live.values()
                if c.session is not None and c.session.caller.node}

    def _calls_of(self, player_id: int, but: asyncio.Task[None] | None = None
                  ) -> list[tuple[Session, asyncio.Task[None]]]:
        """The live calls logged in as this player (except ``but``), oldest first."""
        return [(c.session, t) for t, c in self.live.items() if t is not but
                and c.session is not None and c.session.player is not None
                and c.session.caller.node and c.session.player.id == player_id]

    async def _notice(self, terminal: Terminal, text: str) -> None:
        """One line to a caller about to be dropped; never waits long for a slow reader."""
        terminal.write(notice(text))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(terminal.drain(), 2)

    async def shutdown(self, timeout: float) -> None:
        """Tell every caller and hang up on them: each session then ends as on carrier loss,
        saving its game in progress.  Visits still running after ``timeout`` / 2 (stuck in
        a write or the database) are cancelled; all are waited for at most ``timeout``."""
        self.closing = True
        self.hangup.set()
        tasks = list(self.live)
        for _, terminal, _ in self.live.values():
            with contextlib.suppress(Exception):
                terminal.write(SHUTDOWN_NOTICE)
                terminal.wake()
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=timeout / 2)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=timeout / 2)
        log.info("shutdown: %d callers told and closed", len(tasks))
        self.pool.report.flush()  # what the pool refused and dropped since its last line
        if self.keeper is not None:
            await self.keeper.close()

        await close_solver_pool()


class InputMeter:
    """A caller's input slowed down to INPUT_RATE bytes a second past a burst of INPUT_BURST
    (a token bucket): a flooding caller waits, the others are served.  Once one of
    ``hangups`` is set, reads say the caller has gone: the session saves and ends as on
    carrier loss."""

    def __init__(self, *hangups: asyncio.Event | Flag) -> None:
        self.hangups = hangups
        self.tokens, self.last = _FULL_BUCKET, time.monotonic()

    def pause(self) -> float | None:
        for hangup in self.hangups:  # a loop, not any() over a generator: once per read
            if hangup.is_set():
                return None
        now = time.monotonic()
        tokens = self.tokens + (now - self.last) * INPUT_RATE
        if tokens > _FULL_BUCKET:  # not min() of a float(): a call each, once per read
            tokens = _FULL_BUCKET
        self.tokens, self.last = tokens, now
        return -tokens / INPUT_RATE if tokens < 0 else 0.0

    def took(self, size: int) -> None:
        self.tokens -= size


async def listen(hosts: list[str], port: int, listeners: list[Any],
                 start: Callable[[str, int], Awaitable[Any]]) -> int:
    """One listener per address in ``hosts``, all on one port (0: the port the OS gives the
    first), added to ``listeners`` as they start; returns the port."""
    for host in hosts:
        server = await start(host, port)
        listeners.append(server)
        bound_send_buffers(server.sockets)
        port = port or server.sockets[0].getsockname()[1]
    return port


async def listen_as(plan: Plan, listener: Listener, listeners: list[Any],
                    start: Callable[[str, int], Awaitable[Any]]) -> int:
    """:func:`listen` for one listener of ``plan``: a bind that fails is one line naming
    the sysop.ini key (or option) and its value (door/serve/listeners.py)."""
    try:
        return await listen(list(listener.hosts), listener.port, listeners, start)
    except OSError as exc:
        raise plan.bind_error(listener, exc) from None


async def serve(settings: Settings, bind: str, port: int,
                started: asyncio.Future[Ports] | None = None, ssh_port: int | None = None,
                stop: asyncio.Event | None = None, rlogin_port: int | None = None,
                web_port: int | None = None, worker: WorkerPlace | None = None) -> int:
    """Run until SIGINT/SIGTERM (or ``stop`` is set).  ``started`` receives the bound
    :class:`Ports` (tests use port 0); ``ssh_port`` overrides [server] ssh_port (0 picks a
    free one; -1 turns SSH off), ``rlogin_port`` [server] rlogin_port and ``web_port``
    [web] port and enabled (likewise).  ``worker``: this process is one worker of
    ``serve --workers`` (door/serve/workers.py), which listens on the ports the first worker got
    and reports to the supervisor."""
    from ..net.ssh import start_ssh  # local: asyncssh loads only when SSH is on

    plan = Plan.of(settings, bind, port, ssh_port, rlogin_port, web_port)
    if worker is not None and worker.ports is not None:  # the ports worker 1 got
        plan = plan.on_ports(worker.ports)
    plan.check()
    make_private_dir(settings.data_dir)
    handler = log_to_file(settings.data_dir)
    unlimit_log = limit_repeats(logging.getLogger().handlers)
    store = await open_store(settings)
    link = WatchLink(store, HUB)
    """This process's games listed for the others, theirs followed (door/watching/link.py)."""
    door = Door(settings, store, worker, link)
    hosts = list(plan.telnet.hosts)
    listeners: list[Any] = []
    ssh_bound = rlogin_bound = web_bound = None
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    signals: list[signal.Signals] = []
    relay: SupervisorLink | None = None
    try:
        bound = await listen_as(plan, plan.telnet, listeners,
                                lambda host, port: start_telnet(host, port, door.run,
                                                                door.pool))
        await take_host_rows(store, f"{socket.gethostname()}:{bound}", worker)
        where = f"telnet on {', '.join(hosts)} port {bound}"
        if plan.ssh is not None:
            ssh_bound = await listen_as(plan, plan.ssh, listeners, lambda host, port: start_ssh(
                host, port, settings.data_dir, door.run, door.accounts, door.limiter,
                login_timeout=settings.accounts.login_timeout, pool=door.pool))
            where += f" and SSH on port {ssh_bound}"
        if plan.rlogin is not None:
            rlogin_bound = await listen_as(plan, plan.rlogin, listeners,
                                           lambda host, port: start_rlogin(host, port,
                                                                           door.run))
            where += f" and RLogin on port {rlogin_bound}"
            if not settings.boards:
                log.warning("rlogin: no [boards] in sysop.ini: every RLogin call is refused")
        if plan.web is not None:
            try:
                web_bound, url = await start_web_for(settings, door.run, door.pool, door.store,
                                                     hosts, plan.web.port, listeners,
                                                     viewing=door.viewing)
            except OSError as exc:
                raise plan.bind_error(plan.web, exc) from None
            where += f" and the web on {url}"
        log.info("listening: %s (home %s; %s)", where, settings.home, build_name())
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, stop.set)
                signals.append(sig)
        ports = Ports(bound, ssh_bound, rlogin_bound, web_bound)
        if worker is None:
            print(f"Réussite is answering {where}. Ctrl-C stops it.", flush=True)
        else:  # the supervisor says it, once all workers listen
            loop.add_reader(worker.lifeline, stop.set)  # the supervisor has gone
            worker.listening(ports, where, loop.bound if hasattr(loop, "bound") else [])
            relay = SupervisorLink(worker.channel, door.limiter)  # failed logins, shared
            await relay.start()
        link.start()
        league = await start_league(settings, store, stop, worker)
        watch = asyncio.create_task(watch_hang_up_orders(
            store, door.call_tokens, door.hang_up_node,
            nudged=worker.nodes.nudged if worker is not None else None))
        idle = asyncio.create_task(IdleRows(door.sessions, door.collector.trim).run())
        if started is not None:
            started.set_result(ports)
        tune_collector()
        door.collector.start()
        await stop.wait()
        watch.cancel()
        idle.cancel()
        if league is not None:
            league.cancel()
        log.info("stopping: telling %d callers", len(door.live))
    finally:
        if worker is not None:
            loop.remove_reader(worker.lifeline)
        if relay is not None:
            await relay.stop()
        door.collector.stop()
        began = time.monotonic()
        await link.stop()  # its rows go: the games here end with the server
        await door.shutdown(SHUTDOWN_S - 1.5)  # before the servers close their connections
        for server in listeners:
            server.close()
        for server in listeners:
            with contextlib.suppress(Exception):
                left = max(0.1, SHUTDOWN_S - 0.5 - (time.monotonic() - began))
                await asyncio.wait_for(server.wait_closed(), left)
        await store.close()
        # Only now: a second SIGTERM while the callers are told and the games saved (systemd's
        # stop signals every process of the unit, and the supervisor signals its workers
        # again) must not kill the worker half way, before its callers were told.
        for sig in signals:
            loop.remove_signal_handler(sig)
        log.info("stopped")
        unlimit_log()
        if handler is not None:
            logging.getLogger().removeHandler(handler)
            handler.close()
    return 0


async def start_league(settings: Settings, store: Store, stop: asyncio.Event,
                       worker: WorkerPlace | None) -> asyncio.Task[None] | None:
    """The league's sync loop ([league] on), in one process of the server: worker 1 of
    several.  Its routes are on the web listener of every worker (door/league/http.py)."""
    if not settings.league.enabled or (worker is not None and worker.index != 1):
        return None
    from ..league.keys import (  # local: the league's modules load only when it is on
        BadKey,
        BoardKey,
    )
    from ..league.sync import LeagueNode  # local: the league's modules load only when it is on

    try:
        node = LeagueNode(settings, store, BoardKey.load_or_create(settings.data_dir))
        await node.start()
    except (BadKey, StoreError) as exc:
        log.error("league: not syncing: %s", exc)
        return None
    before = store.scores.game_stored

    def stored(game: StoredGame) -> None:  # a finished game may be a daily attempt: sign it
        if before is not None:
            before(game)
        node.wake.set()
    store.scores.game_stored = stored
    log.info("league: syncing as %r every %g s", node.name, settings.league.sync_seconds)
    return asyncio.create_task(node.run(stop))


async def take_host_rows(store: Store, server: str, worker: WorkerPlace | None) -> None:
    """Name this process in who's online and remove the rows a crash of it left behind.

    A server is named by machine and telnet port, so two servers on one machine never share
    rows and a restart takes its own rows back; each worker of one is a host of its own
    (``machine:port/2``).  The first start of worker 1 also removes every other worker's
    rows of a previous run (their number may differ now)."""
    store.core.host = worker.host_id(server) if worker is not None else server[:64]
    with contextlib.suppress(StoreError):
        gone = await store.online.forget_host()
        await store.live.forget_host(server if worker is None or worker.first else None)
        if worker is not None and worker.first:
            gone += await store.online.forget_server(server)
        if gone:
            log.warning("who's online: %d calls of a previous run (a crash?) removed", gone)
