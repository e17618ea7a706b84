"""``reussite door DROPFILE``: the door as a BBS runs it, for the caller the dropfile names.

The caller arrives on one of three transports (research/dropfiles.md §6.2):

* **stdio** (default): the pty or pipes the BBS started us on (ENiGMA½ ``io: stdio``,
  Synchronet, Mystic, WWIV); raw mode while we run, the modes restored after.
* **inherited socket**: ``--socket FD`` or the DOOR32.SYS handle, used only if that
  descriptor really is a socket (else stdio, and the log says why).
* **connect-back**: ``--port P`` connects to 127.0.0.1:P (ENiGMA½ ``io: socket``, WWIV).

Exit codes (also in docs/sysop-bbs-setup.md): 0 the caller quit, or their time or the idle
limit ran out (their game saved); 1 an unexpected error (in data/door.log, the game saved if
it could be); 2 an unusable dropfile, sysop.ini, option or stdin/stdout (one line on
stderr); 3 carrier lost: the caller hung up (EOF, EIO, reset), the BBS sent SIGHUP/SIGTERM,
or the BBS itself has gone (door/commands/bbs_watch.py) (game saved).  The log's last line
says which.

This module is what runs before the caller's first screen, and it stays light: a caller on
stdio sees the title (:func:`first_screen`, through :class:`~door.net.launch.LaunchTerminal`)
before asyncio, the full settings (the game registry), the session and the screens load;
:mod:`door.commands.door_visit` runs the visit, carrying on from that frame.
"""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..ini.door_section import glance_door
from ..net.launch import FirstFrame, LaunchTerminal, raw_mode
from ..term import Charset, Renderer, Screen
from ..term.detect import BBS_TERMINALS
from ..term.render import centred_origin
from ..ui.visits.title_page import draw_title
from .common import CliError, resolve_home

if TYPE_CHECKING:
    from ..bbs.dropfile import DropfileCaller

CP437_TERMS = ("ansi", "pc3", "pcansi", "cons25", "scoansi", "syncterm", "netrunner")
"""TERM values that mean an ANSI-BBS terminal, hence CP437 (prefixes: ``ansi-bbs`` too)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "door", parents=[common], help="run for one caller a BBS hands over with a dropfile",
        description="Run the door for the caller in DROPFILE (DOOR.SYS, DOOR32.SYS or "
                    "DORINFOx.DEF, or the folder holding it).  The caller is on stdin/stdout "
                    "unless a socket is given.  Exit codes: 0 done, 1 error, 2 bad dropfile "
                    "or option, 3 carrier lost.")
    parser.add_argument("dropfile", type=Path, metavar="DROPFILE",
                        help="the dropfile, or the folder the BBS wrote it in")
    parser.add_argument("--node", type=int, metavar="N", help="node number (default: the "
                        "dropfile's)")
    parser.add_argument("--socket", type=int, metavar="FD",
                        help="the caller is on this inherited socket descriptor")
    parser.add_argument("--port", type=int, metavar="P",
                        help="connect back to the BBS on 127.0.0.1:P")
    parser.add_argument("--local", action="store_true",
                        help="local mode: this console, whatever the dropfile says")
    parser.add_argument("--time-left", type=float, metavar="MIN",
                        help="minutes left for this call (default: the dropfile's)")
    parser.add_argument("--charset", choices=["cp437", "utf8", "ascii"],
                        help="the caller's character set (default: cp437 on sockets; on "
                             "stdio from TERM, then LANG)")
    parser.add_argument("--keep-dropfile", type=Path, metavar="PATH",
                        help="copy the dropfile to PATH (a file, or a folder to put it in) "
                             "before the visit: some BBSes delete theirs when the door exits")
    parser.add_argument("--telnet", action=argparse.BooleanOptionalAction, default=None,
                        help="socket only: --telnet announces telnet options too; "
                             "--no-telnet passes bytes untouched (default: IAC stripped and "
                             "answered, none announced)")
    parser.set_defaults(func=cmd_door, late_logging=True)  # (start_logging: door_visit.py)


def cmd_door(args: argparse.Namespace) -> int:
    from ..bbs.dropfile import DropfileError, read_dropfile  # local: when the command runs

    stdio = stdio_problem()  # first: the next file opened would take a closed fd 0 or 1
    home = resolve_home(args)
    _check_options(args, CliError)
    try:
        record = read_dropfile(args.dropfile)
    except DropfileError as exc:
        raise CliError(str(exc)) from None
    notes: list[str] = []
    transport, target = choose_transport(args, record, CliError, notes)
    if transport == "stdio" and stdio:
        raise CliError(stdio)
    charset = pick_charset(args, record, transport)
    if transport != "stdio":
        return _visit(args, home, record, transport, target, charset, None, notes)
    with raw_mode(0):  # raw before the title: its bytes go out as they are, keys unechoed
        shown = first_screen(home, record, charset)
        try:
            return _visit(args, home, record, transport, target, charset, shown, notes)
        except BaseException:
            if shown is not None:
                shown.withdraw()  # a sysop.ini error, say: the title goes, the line reads
            raise


def _visit(args: argparse.Namespace, home: Path, record: DropfileCaller, transport: str,
           target: int | None, charset: Charset, shown: FirstFrame | None,
           notes: list[str]) -> int:
    from .door_visit import (  # local: asyncio, the store, the session load after the title
        visit,
    )

    return visit(args, home, record, transport, target, charset, shown, notes)


def first_screen(home: Path, record: DropfileCaller, charset: Charset) -> FirstFrame | None:
    """Send a caller on stdio the title page now (without the games' names, which come
    with the visit), through the launch's terminal: the visit's session carries on from it.
    None, and nothing sent, for a window smaller than the screen (the visit shows its
    notice instead) or a sysop.ini whose [door] cannot be read (the full read says why)."""
    door = glance_door(home)
    terminal = LaunchTerminal(charset, record.ansi, record.screen_rows)
    cols, rows = terminal.window
    if door is None or cols < terminal.cols or rows < terminal.rows:
        return None
    screen = Screen(terminal.cols, terminal.rows)
    draw_title(screen, door, home)
    renderer = Renderer(charset, record.ansi)
    renderer.place(*centred_origin(terminal.window, (screen.cols, screen.rows)))
    terminal.write(renderer.frame(screen))
    return FirstFrame(terminal, screen, renderer)


def _check_options(args: argparse.Namespace, error: type[Exception]) -> None:
    if args.node is not None and not 0 <= args.node <= 9999:
        raise error(f"--node {args.node}: expected a node number 0–9999")
    if args.port is not None and not 1 <= args.port <= 65535:
        raise error(f"--port {args.port}: expected a port number 1–65535")
    if args.socket is not None and args.socket < 0:
        raise error(f"--socket {args.socket}: expected a descriptor number")
    if args.time_left is not None and not 0 < args.time_left < float("inf"):
        raise error(f"--time-left {args.time_left:g}: expected minutes above 0")
    if args.local and (args.port is not None or args.socket is not None):
        raise error("--local is this console: it cannot go with --port or --socket")


def choose_transport(args: argparse.Namespace, record: DropfileCaller,
                     error: type[Exception], notes: list[str]) -> tuple[str, int | None]:
    """("stdio" | "socket" | "connect", descriptor or port): what the fds really are
    decides.  What the log should hear of the choice is added to ``notes`` (the log is
    opened later: ``reussite door`` chooses before its caller's first screen)."""
    if args.local:
        return "stdio", None
    if args.port is not None:
        return "connect", args.port
    if args.socket is not None:
        from ..net.socket import is_socket  # local: asyncio, for a socket caller only

        if not is_socket(args.socket):
            raise error(f"--socket {args.socket}: descriptor {args.socket} is not a socket")
        return "socket", args.socket
    handle = record.socket_handle
    if handle is not None:
        from ..net.socket import is_socket  # local: asyncio, for a socket caller only

        if is_socket(handle):
            return "socket", handle
        notes.append(f"dropfile handle {handle} is not a socket here: the caller is on "
                     "stdin/stdout")
    return "stdio", None


def stdio_charset(environ: Mapping[str, str]) -> Charset:
    """The charset for a caller on stdio: TERM says ANSI-BBS → cp437 (SyncTERM-like ones
    with the glyphs at 0x01–0x1F), dumb → ascii; else LANG/LC_* UTF-8 → utf8; else cp437
    (what BBSes expect a door to send, and convert for their UTF-8 callers)."""
    term = environ.get("TERM", "").lower()
    if term.startswith(BBS_TERMINALS):
        return Charset("cp437", c0_glyphs=True)
    if term.startswith(CP437_TERMS):
        return Charset("cp437")
    if term == "dumb":
        return Charset("ascii")
    lang = " ".join(environ.get(k, "") for k in ("LC_ALL", "LC_CTYPE", "LANG")).lower()
    return Charset("utf8" if "utf-8" in lang or "utf8" in lang else "cp437")


def pick_charset(args: argparse.Namespace, record: DropfileCaller, transport: str) -> Charset:
    """The caller's charset: ``--charset``; plain 7-bit text when the dropfile says no
    graphics; CP437 on a socket; on stdio what TERM or LANG says (:func:`stdio_charset`)."""
    if args.charset:
        return Charset(args.charset)
    if record.seven_bit or not record.ansi:  # 7E, NG, emulation 0: plain 7-bit text
        return Charset("ascii")
    if transport != "stdio":
        return Charset("cp437")
    return stdio_charset(os.environ)


def stdio_problem() -> str | None:
    """Why stdin/stdout cannot carry a caller (one line), or None when both can.

    A caller is on a terminal, a pipe or a socket.  A closed descriptor, a plain file, or a
    device that is no terminal (/dev/null: asyncio cannot even wait on it) is a launch
    mistake: the door says so at once instead of waiting for a caller who is not there."""

    for fd, name in ((0, "standard input"), (1, "standard output")):
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            return (f"{name} is closed: the BBS must give the door its caller on "
                    "stdin/stdout, or a socket (--socket FD, --port P)")
        if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
            return (f"{name} is a file: the caller must be on a terminal, a pipe or a "
                    "socket (--socket FD, --port P)")
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)):
            return (f"{name} is a device that is no terminal (such as /dev/null): the "
                    "caller must be on a terminal, a pipe or a socket (--socket FD, --port P)")
    return None


