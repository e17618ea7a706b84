"""``reussite bridge DROPFILE``: a BBS's caller sent on to a Réussite hub over RLogin.

For a BBS with no RLogin client of its own (ENiGMA½ since it dropped ``combatnet``, any
BBS that runs doors): the BBS runs this as a door, with the same command line and transports
as ``reussite door`` (stdio, an inherited socket, a connect-back port).  It reads the
caller's alias from the dropfile, calls the hub of sysop.ini's ``[bridge]`` with the alias
and the board's secret (the hub's ``[boards]`` then names the caller ``handle@TAG``), and
relays bytes both ways untouched: CP437 stays CP437 (only a raw telnet socket's IAC is
taken out and 0xFF doubled, as ``reussite door`` does), and the caller's window size goes
to the hub as RLogin's window message whenever the BBS lets us know it (a pty's size and
SIGWINCH, telnet NAWS, else the dropfile's rows).

The call ends when either side does: the caller hangs up (end of input, SIGHUP/SIGTERM)
and the hub sees the end of its caller's input, which saves their game; or the hub ends
the call (the caller left, or it turned the call away) and the bridge gives the line back
to the BBS.  A hub that turns the call away never asks for the window size: the bridge
knows its one line (shown to the caller, held for ``[door] goodbye_pause``, logged) from a
call that was played.

Exit codes: 0 the hub ended the call, or the dropfile's time ran out; 1 the hub could not
be reached or turned the call away (the reason in data/door.log); 2 an unusable dropfile,
sysop.ini or option (one line on stderr); 3 the caller hung up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..catalog import registry as gamelist
from ..config import BOARD_TAG
from ..term import Charset
from .common import CliError, resolve_settings

if TYPE_CHECKING:
    from ..bbs.dropfile import DropfileCaller
    from ..config import BridgeSettings, Settings
    from ..net.rlogin_client import HubLink, Opening
    from ..net.terminal import Terminal

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_CARRIER = 0, 1, 2, 3
DEFAULT_SPEED = 38400
UNREACHABLE = "The game hub cannot be reached right now. Please try again later."
TIME_UP = "Your time is up: your game is kept on the hub for your next call."
HEARD_MAX = 512  # bytes of a refusing hub's words kept for the log


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "bridge", parents=[common],
        help="send a BBS's caller on to a Réussite hub over RLogin (a door for any BBS)",
        description="Run as a door: read the caller's alias from DROPFILE, call the Réussite "
                    "hub of sysop.ini's [bridge] over RLogin with it and the board's secret, "
                    "and relay the call both ways until either side ends it.  The secret is "
                    "read from sysop.ini only (a command line is visible to every user of "
                    "the machine).  Exit codes: 0 done, 1 hub unreachable or refused, 2 bad "
                    "dropfile, sysop.ini or option, 3 carrier lost.")
    parser.add_argument("dropfile", type=Path, metavar="DROPFILE",
                        help="the dropfile, or the folder the BBS wrote it in")
    parser.add_argument("--hub", metavar="HOST[:PORT]",
                        help="the hub (default: [bridge] host and port)")
    parser.add_argument("--board", metavar="TAG",
                        help="this board's tag on the hub, sent as [TAG] before the handle "
                             "(default: [bridge] board)")
    parser.add_argument("--game", metavar="GAME",
                        help="open this game at once (default: [bridge] game; none: the "
                             "hub's title and menu)")
    parser.add_argument("--node", type=int, metavar="N",
                        help="node number for the log (default: the dropfile's)")
    parser.add_argument("--socket", type=int, metavar="FD",
                        help="the caller is on this inherited socket descriptor")
    parser.add_argument("--port", type=int, metavar="P",
                        help="connect back to the BBS on 127.0.0.1:P")
    parser.add_argument("--time-left", type=float, metavar="MIN",
                        help="minutes left for this call (default: the dropfile's)")
    parser.add_argument("--telnet", action=argparse.BooleanOptionalAction, default=None,
                        help="socket only: --telnet announces telnet options too; "
                             "--no-telnet passes bytes untouched (default: IAC stripped and "
                             "answered, none announced)")
    parser.set_defaults(func=cmd_bridge, local=False)


def cmd_bridge(args: argparse.Namespace) -> int:

    from ..bbs.dropfile import DropfileError, read_dropfile  # local: when the command runs
    from .door import (  # local: when the command runs
        _check_options,
        choose_transport,
        stdio_problem,
    )
    from .door_visit import log_to_file, visit_seconds  # local: when the command runs

    stdio = stdio_problem()  # first: the next file opened would take a closed fd 0 or 1
    settings = resolve_settings(args)
    _check_options(args, CliError)
    host, port = hub_address(args.hub, settings)
    opening_of = opening_maker(args, settings.bridge, settings)
    try:
        record = read_dropfile(args.dropfile)
    except DropfileError as exc:
        raise CliError(str(exc)) from None
    opening = opening_of(record)
    time_left, notes = visit_seconds(record, args)
    node = record.node if args.node is None else args.node
    log_to_file(settings, node)
    log = logging.getLogger("door.bridge")
    log.info("bridge: %s (node %s, %s s left) to the hub %s:%s as %r, terminal type %s",
             record.alias, node, time_left, host, port, opening.client_user,
             opening.term_type)
    for note in (*record.warnings, *notes):
        log.warning("dropfile: %s", note)
    said: list[str] = []
    transport, target = choose_transport(args, record, CliError, said)
    for note in said:
        log.info("%s", note)
    if transport == "stdio" and stdio:
        raise CliError(stdio)
    return _run(settings, record, args, transport, target, host, port, opening, time_left)


def hub_address(option: str | None, settings: Settings) -> tuple[str, int]:
    """``--hub HOST[:PORT]`` (``[v6]:PORT`` for an IPv6 address), else [bridge]'s."""
    bridge = settings.bridge
    host, port = bridge.host, bridge.port
    if option:
        text = option.strip()
        if text.startswith("["):
            inside, _, rest = text[1:].partition("]")
            host, text = inside, rest
            if text and not text.startswith(":"):
                raise CliError(f"--hub {option}: expected HOST, HOST:PORT or [IPv6]:PORT")
            text = text[1:]
            port_text = text
        elif text.count(":") == 1:
            host, _, port_text = text.partition(":")
        else:  # a host name, or an IPv6 address without a port
            host, port_text = text, ""
        if port_text:
            if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
                raise CliError(f"--hub {option}: expected a port number 1-65535 after ':'")
            port = int(port_text)
    if not host:
        raise CliError(f"no hub to call: set [bridge] host in {_ini(settings)} or pass "
                       "--hub HOST:PORT")
    return host, port


def opening_maker(args: argparse.Namespace, bridge: BridgeSettings,
                  settings: Settings) -> Callable[[DropfileCaller], Opening]:
    """The RLogin opening for a dropfile's caller, once the options are checked: the
    handle (after ``[TAG]``) as client user, the secret as server user, as Synchronet's
    rlogin.js and BSD rlogin order them; ``xtrn=GAME`` or the caller's graphics as the
    terminal type.  The hub takes either order of the user names."""
    from ..net.rlogin_client import Opening  # local: when the command runs

    if not bridge.secret:
        raise CliError(f"no board secret: set [bridge] secret in {_ini(settings)} (the "
                       "hub's sysop gives it; never on the command line)")
    board = (args.board if args.board is not None else bridge.board).strip().upper()
    if board and not BOARD_TAG.fullmatch(board):
        raise CliError(f"--board {args.board}: expected a tag of 1 to 8 letters or digits")
    game = (args.game if args.game is not None else bridge.game).strip().lower()
    if game and game not in gamelist.names():
        raise CliError(f"--game {args.game}: expected one of {', '.join(gamelist.names())}")

    def opening(record: DropfileCaller) -> Opening:
        handle = f"[{board}]{record.alias}" if board else record.alias
        # An "ansi" terminal is probed by the hub for its charset, through the BBS.
        term = f"xtrn={game}" if game else "ansi" if record.ansi else "dumb"
        speed = record.baud if record.baud and record.baud > 0 else DEFAULT_SPEED
        return Opening(handle.replace("\0", ""), bridge.secret, term, speed)
    return opening


def _ini(settings: Settings) -> str:
    return str(settings.source or settings.home / "sysop.ini")


def _run(settings: Settings, record: DropfileCaller, args: argparse.Namespace,
         transport: str, target: int | None, host: str, port: int, opening: Opening,
         time_left: int) -> int:
    from .door_visit import (  # local: when the command runs
        caller_socket,
        open_caller_terminal,
        run_with_caller,
        telnet_modes,
    )
    from .hangup import HangupSignals  # local: when the command runs

    signals = HangupSignals()  # from here on a hang-up is the call's to handle
    signals.install()
    sock = caller_socket(transport, target, CliError)
    telnet, announce = telnet_modes(args, record)

    async def call() -> int:

        try:
            terminal = await open_caller_terminal(
                transport, sock, telnet=telnet, announce=announce,
                charset=Charset("cp437"),  # unused: the bridge never encodes text
                record=record)
        except (OSError, ValueError) as exc:  # a descriptor asyncio cannot wait on
            raise CliError(f"cannot talk to the caller on {transport}: {exc}") from None
        hung_up: list[str] = []

        def on_signal(name: str) -> None:
            if not hung_up:
                logging.getLogger("door.bridge").info("%s from the BBS: the caller is gone",
                                                      name)
            hung_up.append(name)
            hang_up = getattr(terminal, "hang_up", None)
            if hang_up is not None:
                hang_up()

        signals.attach(asyncio.get_running_loop(), on_signal)
        return await bridge_call(terminal, host, port, opening, time_left,
                                 settings.door.goodbye_pause)

    return run_with_caller(transport, call)


async def bridge_call(terminal: Terminal, host: str, port: int, opening: Opening,
                      time_left: float, pause: float) -> int:
    """Call the hub and relay until either side ends; returns the exit code."""

    from ..net.rlogin_client import HubError, HubLink  # local: when the command runs

    log = logging.getLogger("door.bridge")
    try:
        hub = await HubLink.connect(host, port, opening)
    except HubError as exc:
        log.warning("the hub cannot be reached: %s", exc)
        if not getattr(terminal, "carrier_lost", False):
            terminal.write(f"\r\n{UNREACHABLE}\r\n".encode("ascii"))
            await _hold(terminal, pause)
        await terminal.close()
        return EXIT_CARRIER if getattr(terminal, "carrier_lost", False) else EXIT_ERROR
    log.info("the hub %s answered", hub.peer)
    hub.set_window(*terminal.window)
    terminal.on_resize = lambda _cols, _rows: hub.set_window(*terminal.window)
    heard = bytearray()
    ended = await relay(terminal, hub, time_left, heard)
    if ended == "caller":
        await hub.close()
        await terminal.close()
        log.info("the caller hung up: the hub told, exit code %d", EXIT_CARRIER)
        return EXIT_CARRIER
    await hub.close()
    code = EXIT_OK
    if ended == "time":
        log.info("time up: the hub told")
        terminal.write(f"\x1b[0m\r\n\r\n{TIME_UP}\r\n".encode("ascii"))
        await _hold(terminal, pause)
    elif not hub.window_asked:  # the hub turned the call away before any visit
        from ..store.text import clean_line  # local: when the command runs

        words = clean_line(bytes(heard).decode("cp437"), HEARD_MAX)
        log.warning("the hub turned the call away: %s", words or "(no word)")
        await _hold(terminal, pause)
        code = EXIT_ERROR
    await terminal.close()
    log.info("the hub ended the call: back to the BBS, exit code %d", code)
    return code


async def relay(terminal: Terminal, hub: HubLink, time_left: float,
                heard: bytearray) -> str:
    """Bytes both ways until one side ends: "caller" (hung up), "hub" (ended the call)
    or "time" (the dropfile's time ran out).  ``heard`` gets the hub's first words while
    it has not asked for the window size (what a refusal says)."""

    caller_side = asyncio.ensure_future(_caller_to_hub(terminal, hub))
    hub_side = asyncio.ensure_future(_hub_to_caller(hub, terminal, heard))
    clock = asyncio.ensure_future(asyncio.sleep(max(time_left, 0)))
    sides = {caller_side: "caller", hub_side: "hub", clock: "time"}
    try:
        done, _ = await asyncio.wait(sides, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in sides:
            task.cancel()
        await asyncio.gather(*sides, return_exceptions=True)
    if caller_side in done:
        return caller_side.result()
    if hub_side in done:
        return hub_side.result()
    return "time"


async def _caller_to_hub(terminal: Terminal, hub: HubLink) -> str:
    while True:
        window = terminal.window
        data = await terminal.read()
        if not data:
            return "caller"
        if data == b"\0" and terminal.window != window:
            continue  # the transport's mark of a window size (sent by on_resize), no key
        hub.write(data)
        try:
            await hub.drain()
        except (ConnectionError, OSError):
            return "hub"


async def _hub_to_caller(hub: HubLink, terminal: Terminal, heard: bytearray) -> str:
    while data := await hub.read():
        if not hub.window_asked and len(heard) < HEARD_MAX:
            heard += data[:HEARD_MAX - len(heard)]
        terminal.write(data)
        try:
            await terminal.drain()
        except (ConnectionError, OSError):
            return "caller"
    return "hub"


async def _hold(terminal: Terminal, pause: float) -> None:
    """Keep the last words on screen for ``pause`` seconds or until a key (the BBS
    clears the screen the moment we leave)."""

    with contextlib.suppress(TimeoutError, ConnectionError, OSError):
        await terminal.drain()
        await asyncio.wait_for(terminal.read(), pause)
