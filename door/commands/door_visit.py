"""``reussite door``'s visit: the caller's terminal, the session and the store, after the
caller's first screen (door/commands/door.py sends it, and runs this module next), and how
the visit ends (exit codes: door/commands/door.py).  ``reussite bridge`` and ``reussite
local`` share the terminal and log set-up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import logging.handlers
import sys
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bbs.dropfile import MAX_TIME_LEFT_S
from ..config import load_settings
from ..logs.files import open_log
from ..logs.private import make_private_dir
from ..net.launch import FirstFrame, fit_to_stdio, raw_mode
from ..net.socket import NotASocket, connect_back, inherit_socket, open_socket_terminal
from ..net.stdio import blocking_restored, open_stdio
from ..net.terminal import window_size
from ..term import Charset
from .bbs_watch import BBSWatch
from .common import CliError, start_logging
from .hangup import HangupSignals, ignore_hangups

if TYPE_CHECKING:
    import socket

    from ..bbs.dropfile import DropfileCaller
    from ..config import Settings
    from ..net.terminal import Terminal
    from ..session import Caller, Session
    from ..store import Store

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_CARRIER = 0, 1, 2, 3
HELD_LINES = 1000
"""Log lines held until the log file is open (a sysop.ini read yields a few at most)."""
HANGUP_GRACE = 1.5
"""Seconds a visit gets to save and unwind after SIGHUP/SIGTERM before it is cancelled:
Synchronet sends SIGTERM 5 s after SIGHUP, and the issue asks for an exit within 2 s."""
LOG_NAME = "door.log"
BBS_SOURCE = "bbs"
"""``Caller.source`` of every dropfile caller (the store keys players by source and id)."""


def visit(args: argparse.Namespace, home: Path, record: DropfileCaller, transport: str,
          target: int | None, charset: Charset, shown: FirstFrame | None,
          notes: list[str]) -> int:
    """The visit of the dropfile's caller, once the launch has chosen the transport and the
    charset (and sent a caller on stdio the title: ``shown``); returns the exit code.
    ``notes``: what the launch has to say in the log, which opens here."""
    held = logging.handlers.BufferingHandler(HELD_LINES)  # stderr: over the caller's title
    start_logging(args.log_level, held)
    settings = load_settings(home)  # (a retired key is a warning: held)
    caller, clamped = make_caller(record, args)
    log_to_file(settings, caller.node)
    for line in held.buffer:
        logging.getLogger(line.name).handle(line)
    log = logging.getLogger("door.door")
    log.info("dropfile %s (%s): %s, node %s, %s s left", record.path, record.format,
             caller.alias, caller.node, caller.time_left_s)
    log.debug("dropfile as read: %s", json.dumps(record.as_json(), ensure_ascii=False))
    for note in (*record.warnings, *clamped):
        log.warning("dropfile: %s", note)
    for note in notes:
        log.info("%s", note)
    if args.keep_dropfile is not None:
        keep_dropfile(Path(record.path), args.keep_dropfile)
    return _run(settings, caller, record, args, transport, target, charset, shown, CliError)


def keep_dropfile(source: Path, target: Path) -> None:
    """Copy the dropfile for the sysop (``--keep-dropfile``): ENiGMA½ deletes its
    ``drop/node<N>/`` folder as soon as the door exits.  A copy that fails is logged and the
    caller plays on."""
    import shutil  # local: when the command runs

    log = logging.getLogger("door.door")
    if target.is_dir():
        target = target / source.name
    try:
        shutil.copyfile(source, target)
    except OSError as exc:
        log.warning("--keep-dropfile %s: cannot copy the dropfile there: %s", target,
                    exc.strerror or exc)
        return
    log.info("dropfile kept as %s", target)


def make_caller(record: DropfileCaller, args: argparse.Namespace) -> tuple[Caller, list[str]]:
    """The session's caller from the dropfile and the command line's overrides."""
    from ..session import Caller  # local: with a visit, not for a bridge

    time_left, notes = visit_seconds(record, args)
    node = record.node if args.node is None else args.node
    # One source for every dropfile: the BBS's name in DOOR32.SYS carries its version and
    # DOOR.SYS names no BBS, so either would split a player's record on an upgrade or a
    # change of dropfile type.  The BBS's user number (or, without one, the alias) is the key.
    return Caller(alias=record.alias, node=node, time_left_s=time_left,
                  user_name=record.user_name, user_id=record.user_id,
                  source=BBS_SOURCE), notes


def visit_seconds(record: DropfileCaller, args: argparse.Namespace) -> tuple[int, list[str]]:
    """Seconds for this visit: ``--time-left``'s (clamped to a day), else the dropfile's;
    and a note for the log when it was clamped.  (``reussite bridge`` shares it.)"""
    if args.time_left is None:
        return record.time_left_s, []
    notes: list[str] = []
    time_left = int(args.time_left * 60)
    if time_left > MAX_TIME_LEFT_S:
        notes.append(f"--time-left {args.time_left:g}: more than a day, clamped to "
                     f"{MAX_TIME_LEFT_S // 60} minutes")
        time_left = MAX_TIME_LEFT_S
    return max(time_left, 1), notes


def log_to_file(settings: Settings, node: int) -> None:
    """Log to data/door.log: on stdio, stderr is the caller's screen (``reussite door``,
    and the sysop's own in ``reussite local``)."""

    root = logging.getLogger()
    level = root.level

    try:
        make_private_dir(settings.data_dir)
        handler: logging.Handler = open_log(
            settings.data_dir / LOG_NAME,
            f"%(asctime)s node {node} pid %(process)d %(levelname)s %(name)s: %(message)s")
    except OSError:
        handler = logging.NullHandler()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)


def _run(settings: Settings, caller: Caller, record: DropfileCaller,
         args: argparse.Namespace, transport: str, target: int | None, charset: Charset,
         shown: FirstFrame | None, error: type[Exception]) -> int:
    signals = HangupSignals()  # from here on a hang-up is the visit's to handle
    signals.install()
    bbs = BBSWatch()  # the BBS as it is now, before anything may have happened to it
    sock = caller_socket(transport, target, error)
    telnet, announce = telnet_modes(args, record)

    async def visit() -> int:
        try:
            terminal = await open_caller_terminal(transport, sock, telnet=telnet,
                                            announce=announce, charset=charset, record=record)
        except (OSError, ValueError) as exc:  # a descriptor asyncio cannot wait on
            raise error(f"cannot talk to the caller on {transport}: {exc}") from None
        from ..session import Services, Session  # local: with a visit, not for a bridge
        from ..ui.shared.theme import MESSAGE  # local: with a visit, not for a bridge

        session = Session(terminal, Services(settings), caller)  # the store comes later
        if shown is not None:  # the title the launch sent: only what the visit adds goes out
            shown.taken = True
            unsent = shown.terminal.take_unsent()
            if unsent:
                terminal.write(unsent)
            session.carry_on(shown.screen, shown.renderer)
        minutes = (caller.time_left_s or session.time_left) // 60
        session.notify(f"Welcome, {caller.alias}! You have {minutes} minute"
                       f"{'' if minutes == 1 else 's'} for this visit.", MESSAGE)
        opening = session.preparing = asyncio.ensure_future(attach_store(session, settings))
        return await door_visit(session, finish=lambda: detach_store(session, opening),
                                signals=signals, bbs=bbs)

    return run_with_caller(transport, visit)


def caller_socket(transport: str, target: int | None,
                  error: type[Exception]) -> socket.socket | None:
    """The caller's socket for a "connect" or "socket" transport (None for stdio); a
    socket that cannot be had is ``error`` with one line."""
    if transport == "connect":
        try:
            return connect_back(target or 0)
        except OSError as exc:
            raise error(f"cannot connect back to 127.0.0.1:{target}: "
                        f"{exc.strerror or exc}") from None
    if transport == "socket":
        try:
            return inherit_socket(target or 0)
        except (NotASocket, OSError) as exc:
            raise error(f"--socket {target}: {exc}") from None
    return None


def telnet_modes(args: argparse.Namespace, record: DropfileCaller) -> tuple[bool, bool]:
    """(strip and answer telnet, announce our options) on a socket: ``--telnet``, else on
    unless the dropfile names Synchronet, whose passthru socket carries clean bytes."""
    telnet = (args.telnet if args.telnet is not None
              else not record.bbs.lower().startswith("synchronet"))
    return telnet, bool(args.telnet)


def run_with_caller(transport: str, main: Callable[[], Coroutine[Any, Any, int]]) -> int:
    """``main()`` in a new event loop, stdin in raw mode for a stdio caller, and stdin's and
    stdout's blocking flags (shared with the BBS) put back after; from then on the process
    is deaf to hang-up signals (the call has been handled)."""

    stdin = sys.stdin.fileno() if transport == "stdio" else -1
    with blocking_restored(0, 1), (raw_mode(stdin) if stdin >= 0
                                   else contextlib.nullcontext()):
        try:
            return asyncio.run(main())
        finally:
            ignore_hangups()  # the visit has been handled: nothing may kill us now


async def open_caller_terminal(transport: str, sock: socket.socket | None, *, telnet: bool,
                               announce: bool, charset: Charset,
                               record: DropfileCaller) -> Terminal:
    """The caller's terminal on the BBS's socket (``sock``) or stdio, sized from the pty,
    else from the dropfile's rows (``reussite bridge`` shares it)."""
    terminal: Terminal
    if sock is not None:
        terminal = await open_socket_terminal(sock, telnet=telnet, announce=announce,
                                              charset=charset, rows=record.screen_rows)
    else:
        terminal = stdio = await open_stdio()
        stdio.charset = charset
        if fit_to_stdio(stdio, record.screen_rows):  # as the launch's terminal: launch.py
            stdio.watch_window()
        terminal.color = record.ansi
        return terminal
    if terminal.window == window_size(80, record.screen_rows):
        # The dropfile's rows are the BBS's setting, not a measured window: no small-window
        # notice for them (a telnet socket's own NAWS report, when it came, is kept).
        terminal.window = (terminal.cols, terminal.rows)
    terminal.color = record.ansi
    return terminal


async def attach_store(session: Session, settings: Settings) -> Store | None:
    """Open the database (``door.store``), apply its migrations, and give the session its
    ``store``, ``player`` and game keeper, as ``serve`` does; returns the store, or None
    without one.

    Runs as a task beside the visit, so its imports (SQLAlchemy, Alembic: about 0.3 s) come
    after the first screen.  A store that cannot open is logged and the visit plays on
    without scores (``open_store`` never raises for a database problem).  The player is
    in the door on one node at a time: after the title, a call that finds another live
    call of the same BBS user offers to take over (:mod:`door.serve.takeover`), and this call
    itself hangs up when a later one takes over from it.
    """

    await asyncio.sleep(0)  # let the visit (scheduled after us) send its first screen first
    try:
        from ..serve.takeover import (  # local: the store loads beside the title
            calls_elsewhere,
            one_call_per_player,
            watch_hang_up_orders,
        )
        from ..store.visit import (  # local: the store loads beside the title
            identify,
            node_seen,
            open_store,
        )
    except ImportError as exc:
        logging.getLogger("door.door").warning("no database (%s): playing without scores",
                                               exc)
        return None
    store = await open_store(settings)
    session.services = replace(session.services, store=store)  # and a keeper for it
    session.player = await identify(store, session.caller)
    await node_seen(store, session.caller, session.player, "main menu")

    async def admission() -> bool:
        return await one_call_per_player(session, await calls_elsewhere(store, session))

    def hang_up(_node: int) -> None:
        hang = getattr(session.terminal, "hang_up", None)
        if hang is not None:
            hang()

    session.admission = admission
    caller = session.caller
    session.chores.append(asyncio.ensure_future(watch_hang_up_orders(
        store, lambda: {caller.node: caller.token}, hang_up)))
    return store


async def detach_store(session: Session, opening: asyncio.Future[Store | None]) -> None:
    """Stop the solver workers; wait (briefly) for the store to be open, write what the
    keeper holds, leave who's online, close it."""

    from ..solvers.pool import close_solver_pool  # local: when the command runs

    await close_solver_pool()

    try:
        store = await asyncio.wait_for(opening, 0.5)
    except Exception as exc:  # a store that is slow or broken must not keep the caller
        logging.getLogger("door.door").warning("database not ready at exit: %s", exc)
        return
    if store is None:
        return
    from ..store.visit import node_gone  # local: when the command runs
    for chore in session.chores:
        chore.cancel()
    if session.keeper is not None:
        await session.keeper.close()
    await node_gone(store, session.caller)
    with contextlib.suppress(Exception):
        await store.close()


async def door_visit(session: Session, finish: Callable[[], Awaitable[None]] | None = None,
                     signals: HangupSignals | None = None,
                     bbs: BBSWatch | None = None) -> int:
    """Run one visit with the BBS's signals wired to carrier loss; returns the exit code.

    SIGHUP, SIGTERM and SIGINT hang the terminal up, so the visit meets :class:`CarrierLost`
    at its next key and saves the game in progress (the same path as a dropped line); if it
    has not finished :data:`HANGUP_GRACE` seconds later it is cancelled, which saves too.
    The BBS's own end (``bbs``: the process that started the door has ended, while the pty
    may still be open) does the same.

    Then, in this order: ``finish()`` (the door's bookkeeping: its Who's Online row, the
    database closed), the log line saying how the visit ended, and last the caller's line
    is closed, which is what a socket BBS waits for.  A signal once the caller has chosen to
    leave (or ran out of time) is already handled: it ends the goodbye pause at once and
    changes nothing else.  An idle time-out while the BBS or the line was already gone is a
    hang-up noticed late, not an idle caller: exit code 3, and the log says so.

    ``signals``: the process's handlers, installed before the loop (``reussite door``);
    without them the visit installs its own and puts the old ones back at the end.
    """

    from ..ui.visits.visit import run_visit  # local: with a visit, not for a bridge

    own_signals = signals is None
    if signals is None:
        signals = HangupSignals()
        signals.install()
    log = logging.getLogger("door.door")
    loop = asyncio.get_running_loop()
    terminal = session.terminal
    node = session.caller.node
    task = asyncio.ensure_future(run_visit(session))
    signalled: list[str] = []

    def hang_up() -> None:
        hang_up_terminal = getattr(terminal, "hang_up", None)
        if hang_up_terminal is not None:
            hang_up_terminal()

    def caller_gone(what: str) -> None:
        """The BBS says, or shows by ending, that the caller is gone (``what``: how)."""
        if task.done() or session.leaving:
            log.info("node %s: %s while the door was leaving: already handled", node, what)
            hang_up()  # the goodbye pause ends now; the bookkeeping goes on
            return
        if signalled:
            return
        signalled.append(what)
        log.info("node %s: %s: the caller is gone", node, what)
        hang_up()
        loop.call_later(HANGUP_GRACE, task.cancel)

    signals.attach(loop, lambda name: caller_gone(f"{name} from the BBS"))
    if bbs is not None:
        bbs.start(loop, lambda why: caller_gone(f"the BBS has gone ({why})"))
    code = EXIT_OK
    try:
        try:
            await task
        except asyncio.CancelledError:
            if not signalled:
                raise
        except Exception:
            log.exception("node %s: the visit ended by an error", node)
            await session.save_game_in_progress()
            code = EXIT_ERROR
        code, how = how_it_ended(session, code, signalled, bbs)
        try:
            if finish is not None:
                await finish()
            log.info("node %s: back to the BBS, exit code %d: %s", node, code, how)
        finally:
            with contextlib.suppress(Exception):
                await terminal.close()
    finally:
        if bbs is not None:
            bbs.stop()
        if own_signals:
            signals.restore()
    return code


def how_it_ended(session: Session, code: int, signalled: list[str],
                 bbs: BBSWatch | None) -> tuple[int, str]:
    """The exit code and a few words for the log's last line: a sysop reading it tells a
    caller who quit from one who hung up, an idle caller, or a BBS that went away."""
    from ..session import (  # local: with a visit, not for a bridge
        CarrierLost,
        IdleTimeout,
        TimeUp,
        WindowTooSmall,
    )

    ended = session.ended_by
    if signalled:
        return EXIT_CARRIER, signalled[0]
    if code == EXIT_ERROR:
        return code, "an error, in the log above"
    if isinstance(ended, CarrierLost):
        return EXIT_CARRIER, "the caller hung up"
    if isinstance(ended, IdleTimeout):
        missed = bbs.gone() if bbs is not None else None
        if missed is None and session.terminal.hung_up():
            missed = "the line had dropped"
        if missed is not None:
            return EXIT_CARRIER, f"idle time-out, after a hang-up noticed only then: {missed}"
        return code, "idle time-out"
    if isinstance(ended, TimeUp):
        return code, "time up"
    if isinstance(ended, WindowTooSmall):
        return code, "the caller left a window too small"
    return code, "the caller quit"
