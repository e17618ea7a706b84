"""``reussite``: the command line of the door.

Subcommands: ``serve`` (direct callers over telnet), ``local`` (the sysop plays on this
terminal), ``init DIR`` (make a door home).  Configuration problems end with one line on
stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path

from . import __version__
from .commands.common import (
    EXIT_CONFIG,
    EXIT_ERROR,
    EXIT_OK,
    CliError,
    resolve_settings,
    start_logging,
)
from .compiled import build_name
from .ini.file import CONFIG_NAME, HOME_ENV, ConfigError
from .logs.private import make_private_dir
from .term import Charset

COMMANDS = ("replay", "sysop", "dropfile", "door", "bridge", "solve", "league")
"""Subcommands with a module of their own, ``door.commands.<name>``: each has
``register(subparsers, common_options_parser)`` that adds the subcommand of its name with
``parents=[common]`` and ``set_defaults(func=…)``; ``func(args)`` returns the exit code and
may raise ConfigError/CliError for a one-line message, exit 2.  A launch that names one of
them loads that module alone (``reussite door`` draws its caller's title sooner); the
help, and a launch naming another command, load them all."""
COMMAND_MODULES = tuple(f"door.commands.{name}" for name in COMMANDS)

def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; ``only``: of the :data:`COMMANDS` load and add that one
    alone (the others are not added: for a launch that names it)."""
    common = _common_options(argparse.SUPPRESS)
    parser = argparse.ArgumentParser(prog="reussite", parents=[_common_options(None)],
                                     description=None if only else _description())
    if only is None:  # (a launch that names a command has neither before it: command_named)
        parser.add_argument("--version", action="version",
                            version=f"reussite {__version__}, {build_name()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    serve = sub.add_parser("serve", parents=[common],
                           help="answer direct callers over telnet, SSH and the web, and "
                                "member boards' callers over RLogin",
                           description="Listen for telnet and SSH callers on [server] bind, "
                                       "telnet_port and ssh_port of sysop.ini, for the "
                                       "RLogin callers of [boards] on rlogin_port, and for "
                                       "browsers on [web] port when it is enabled.")
    serve.add_argument("--bind", metavar="ADDR", help="override [server] bind")
    serve.add_argument("--telnet-port", type=int, metavar="PORT",
                       help="override [server] telnet_port (0 picks a free port)")
    serve.add_argument("--ssh-port", type=int, metavar="PORT",
                       help="override [server] ssh_port (0 picks a free port, -1 no SSH)")
    serve.add_argument("--rlogin-port", type=int, metavar="PORT",
                       help="override [server] rlogin_port (0 picks a free port, -1 no "
                            "RLogin)")
    serve.add_argument("--web-port", type=int, metavar="PORT",
                       help="override [web] port and enabled (0 picks a free port, -1 no "
                            "web)")
    serve.add_argument("--workers", type=_workers_option, metavar="N",
                       help="processes answering callers (default [server] workers: one "
                            "per core); 1 answers in this process")
    serve.set_defaults(func=cmd_serve)

    local = sub.add_parser("local", parents=[common], help="play on this terminal, no network",
                           description="The sysop plays on this terminal.")
    local.add_argument("--charset", choices=["cp437", "utf8", "ascii"],
                       help="character set of this terminal (default: from LANG)")
    local.set_defaults(func=cmd_local)

    init = sub.add_parser("init", parents=[common],
                          help="make a door home: sysop.ini, ansi/, data/",
                          description="Create DIR with a commented sysop.ini, the screens in "
                                      "ansi/ and an empty data/, so an installed door runs "
                                      "from anywhere.")
    init.add_argument("dir", type=Path, nargs="?", metavar="DIR",
                      help="the folder to create or fill (or give it as --home DIR)")
    init.add_argument("--force", action="store_true",
                      help="overwrite an existing sysop.ini and screens")
    init.set_defaults(func=cmd_init)
    for module in COMMAND_MODULES:
        if only is None or module == f"door.commands.{only}":
            import_module(module).register(sub, common)
    return parser


def _description() -> str:
    """The help's first line, naming the games: the registry loads for the help, not for a
    launch (``reussite door``: the caller's title is drawn first)."""
    from .catalog import registry as gamelist  # local: not before a BBS caller's title

    return ("Réussite: a BBS door of classic solitaires ("
            + ", ".join(info.title for info in gamelist.games()) + ").")


def command_named(argv: Sequence[str]) -> str | None:
    """The one of :data:`COMMANDS` that ``argv`` runs, when it asks for no help before it
    (else None: the whole parser is built)."""
    values = {"--home", "--log-level"}
    words = iter(argv)
    for word in words:
        if word in values:
            next(words, None)
        elif word.startswith("-"):
            if word in ("-h", "--help") or not word.startswith(tuple(v + "=" for v in values)):
                return None
        else:
            return word if word in COMMANDS else None
    return None


def _common_options(default: object) -> argparse.ArgumentParser:
    """--home and --log-level, accepted before or after the subcommand."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--home", type=Path, metavar="DIR", default=default,
                         help=f"door home holding {CONFIG_NAME} (default: the folder holding "
                              f"{CONFIG_NAME}, found from the current folder up, else "
                              f"${HOME_ENV})")
    options.add_argument("--log-level", choices=["debug", "info", "warning", "error"],
                         default=default if default is not None else "info",
                         help="how much to log (default: info)")
    return options


def cmd_serve(args: argparse.Namespace) -> int:
    settings = resolve_settings(args)
    bind = args.bind or settings.server.bind
    port = settings.server.telnet_port if args.telnet_port is None else args.telnet_port
    import asyncio  # local: not before a BBS caller's first screen (reussite door)

    from .serve.listeners import Plan  # local: when the command runs
    from .serve.workers import can_fork, default_workers  # local: when the command runs

    # Two listeners on one port, a port in use, an address this machine lacks: one line
    # naming the key and its value, before the store opens or a worker starts.
    plan = Plan.of(settings, bind, port, args.ssh_port, args.rlogin_port, args.web_port)
    plan.check()
    plan.probe()

    workers = args.workers or settings.server.workers or default_workers()
    if workers > 1 and can_fork():
        from .serve.workers import supervise  # local: when the command runs

        return supervise(settings, bind, port, args.ssh_port, args.rlogin_port, workers,
                         web_port=args.web_port)
    from .serve.server import serve  # local: when the command runs

    return asyncio.run(serve(settings, bind, port, ssh_port=args.ssh_port,
                             rlogin_port=args.rlogin_port, web_port=args.web_port))


def _workers_option(value: str) -> int:
    try:
        workers = int(value)
    except ValueError:
        workers = 0
    if not 1 <= workers <= 64:
        raise argparse.ArgumentTypeError("expected a number of processes 1-64")
    return workers


def cmd_local(args: argparse.Namespace) -> int:
    import asyncio  # local: not before a BBS caller's first screen (reussite door)

    settings = resolve_settings(args)
    from .commands.door_visit import log_to_file  # local: when the command runs
    from .net.launch import raw_mode  # local: when the command runs
    from .net.stdio import open_stdio  # local: when the command runs
    from .session import Caller, Services, Session  # local: when the command runs
    from .ui.visits.visit import run_visit  # local: when the command runs

    async def play() -> None:
        terminal = await open_stdio()
        if args.charset:
            terminal.charset = Charset(args.charset)
        terminal.watch_window()
        session = Session(terminal, Services(settings),
                          Caller(alias=settings.door.sysop, node=0))
        await run_visit(session)
        from .solvers.pool import close_solver_pool  # local: when the command runs

        await close_solver_pool()
        await terminal.close()

    log_to_file(settings, 0)
    with raw_mode(sys.stdin.fileno()):
        asyncio.run(play())
    return EXIT_OK


def cmd_init(args: argparse.Namespace) -> int:
    from importlib import resources  # local: not at every launch: tempfile, zipfile and more

    target = _init_target(args.dir, args.home)
    target.mkdir(parents=True, exist_ok=True)
    defaults = resources.files("door") / "defaults"
    made: list[str] = []
    ini = target / CONFIG_NAME
    if ini.exists() and not args.force:
        print(f"{ini}: already there, kept (use --force to overwrite)")
    else:
        ini.write_bytes((defaults / CONFIG_NAME).read_bytes())
        made.append(CONFIG_NAME)
    (target / "ansi").mkdir(exist_ok=True)
    for item in (defaults / "ansi").iterdir():
        dest = target / "ansi" / item.name
        if item.is_file() and (args.force or not dest.exists()):
            dest.write_bytes(item.read_bytes())
            made.append(f"ansi/{item.name}")

    make_private_dir(target / "data")
    made.append("data/")
    print(f"Door home ready in {target}: {', '.join(made)}")
    print(f"Start it with: cd {target} && reussite serve")
    return EXIT_OK


def _init_target(folder: Path | None, home: Path | None) -> Path:
    """The folder ``init`` makes: DIR, or --home DIR (both given, they name one folder)."""
    if folder is None and home is None:
        raise CliError("init: which folder? `reussite init DIR` (or --home DIR)")
    target = (folder or home or Path()).resolve()
    if home is not None and Path(home).resolve() != target:
        raise CliError(f"init makes DIR {target} a door home, but --home names {home}: give "
                       "one folder (DIR, or --home DIR)")
    return target


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(command_named(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    if not getattr(args, "late_logging", False):  # reussite door: after its first screen
        start_logging(args.log_level)
    try:
        code: int = args.func(args)
        sys.stdout.flush()  # here, not at exit, so that a reader gone is seen below
        return code
    except BrokenPipeError:  # `reussite replay … | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error
        return EXIT_OK
    except (ConfigError, CliError) as exc:
        print(f"reussite: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return EXIT_OK
    except OSError as exc:
        print(f"reussite: {exc}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
