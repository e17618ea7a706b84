"""``reussite league …``: the sysop's side of the InterBBS league (docs/league.md).

``show``     this board's name and key, the line to give another sysop, every board known
``add``      add a peer board (peer to peer: both sysops add each other)
``join``     join a league hub with the code its sysop gave
``drop``     forget a board and every result it signed
``sync``     push and pull now, rather than at the next round of ``reussite serve``
``export``   write a packet file of results (for boards linked by mail, not HTTP)
``import``   read packet files: each result checked and replayed, stored once
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from .common import EXIT_ERROR, EXIT_OK, CliError, resolve_settings, with_store

if TYPE_CHECKING:
    from ..config import Settings
    from ..league.keys import BoardKey
    from ..store import Store

Chore = Callable[["Store", "BoardKey", argparse.Namespace], Awaitable[int]]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             common: argparse.ArgumentParser) -> None:
    league = sub.add_parser("league", parents=[common],
                            help="the InterBBS league: keys, peers, hub, packets",
                            description="One daily challenge across independent boards: "
                                        "results signed by their board and replayed by "
                                        "every board that receives them (docs/league.md).")
    chores = league.add_subparsers(dest="chore", metavar="CHORE", required=True)

    def chore(name: str, help_text: str, func: Chore) -> argparse.ArgumentParser:
        parser = chores.add_parser(name, parents=[common], help=help_text,
                                   description=help_text)
        parser.set_defaults(func=lambda args: _run(args, func))
        return parser

    chore("show", "this board's name and public key, and the boards of its league", _show)
    add = chore("add", "add a peer board, with the key its sysop gave you", _add)
    add.add_argument("name", metavar="NAME", help="the board's name in the league")
    add.add_argument("key", metavar="KEY", help="its public key (44 characters)")
    add.add_argument("--url", default="", metavar="URL",
                     help="where its door answers (http[s]://host:port); without it, "
                          "results come only by its pushes or packet files")
    join = chore("join", "join a league hub", _join)
    join.add_argument("url", metavar="URL", help="the hub's address (http[s]://host:port)")
    join.add_argument("--code", required=True, metavar="CODE",
                      help="the join code the hub's sysop gave you")
    join.add_argument("--my-url", default="", metavar="URL",
                      help="this board's own address, if the hub should know it")
    drop = chore("drop", "forget a board and every result it signed", _drop)
    drop.add_argument("name", metavar="NAME")
    chore("sync", "push this board's results and pull the league's now", _sync)
    export = chore("export", "write a packet file of league results", _export)
    export.add_argument("file", type=Path, metavar="FILE",
                        help="the packet (.json, or .json.gz compressed)")
    export.add_argument("--all", action="store_true", dest="everyone",
                        help="every board's results held here (a hub relaying the league), "
                             "not only this board's")
    export.add_argument("--days", type=int, metavar="N",
                        help="results of the last N days (default: [league] accept_days)")
    imp = chore("import", "read league packet files", _import)
    imp.add_argument("files", type=Path, nargs="+", metavar="FILE")


def _run(args: argparse.Namespace, func: Chore) -> int:
    settings = resolve_settings(args)
    args.settings = settings

    from ..league.keys import BadKey, BoardKey  # local: when the command runs

    try:
        key = BoardKey.load_or_create(settings.data_dir)
    except BadKey as exc:
        raise CliError(str(exc)) from None

    async def work(store: Store) -> int:
        await store.core.migrate()
        await store.league.set_board(settings.league_name, key.public, "self")
        return await func(store, key, args)

    return with_store(settings, work)


def _settings(args: argparse.Namespace) -> Settings:
    settings: Settings = args.settings
    return settings


async def _show(store: Store, key: BoardKey, args: argparse.Namespace) -> int:
    settings = _settings(args)
    name = settings.league_name
    print(f"This board: {name}  ({'on' if settings.league.enabled else 'off'} in sysop.ini "
          f"[league]{', a hub' if settings.league.hub else ''})")
    print(f"Public key: {key.public}")
    print("For a peer's sysop to add this board:")
    print(f"  reussite league add '{name}' {key.public} --url http://THIS-HOST:PORT")
    boards = [b for b in await store.league.boards() if b.role != "self"]
    if not boards:
        print("No other boards yet: `reussite league join` a hub or `reussite league add` "
              "a peer.")
        return EXIT_OK
    print(f"\n{'board':<30} {'role':<7} {'last answer':<17} {'address / trouble'}")
    for b in boards:
        seen = f"{b.last_ok:%Y-%m-%d %H:%M}" if b.last_ok else "-"
        note = b.last_error if b.failures else b.url
        print(f"{b.name:<30} {b.role:<7} {seen:<17} {note}")
    return EXIT_OK


async def _add(store: Store, key: BoardKey, args: argparse.Namespace) -> int:
    from ..league.keys import BadKey, parse_public_key  # local: when the command runs
    from ..league.results import Refused, check_board_name  # local: when the command runs
    from ..league.sync import base_url  # local: when the command runs

    try:
        name = check_board_name(args.name.strip())
        public = parse_public_key(args.key)
        url = base_url(args.url) if args.url else ""
    except (Refused, BadKey, ValueError) as exc:
        raise CliError(str(exc)) from None
    if name == _settings(args).league_name:
        raise CliError(f"{name!r} is this board's own name")
    changed = await store.league.set_board(name, public, "peer", url)
    print(f"{'Added' if changed else 'Already there:'} {name} (peer{', ' + url if url else ''})")
    return EXIT_OK


async def _join(store: Store, key: BoardKey, args: argparse.Namespace) -> int:
    from ..league.results import Refused  # local: when the command runs
    from ..league.sync import SyncError, join_hub  # local: when the command runs

    settings = _settings(args)
    try:
        hub = await join_hub(store, key, settings.league_name, args.url, args.code,
                             args.my_url)
    except (SyncError, Refused, ValueError) as exc:
        raise CliError(f"could not join: {exc}") from None
    print(f"Joined the league of hub {hub.name} ({hub.url}).")
    if not settings.league.enabled:
        print("Turn [league] enabled = on in sysop.ini for `reussite serve` to sync.")
    return EXIT_OK


async def _drop(store: Store, key: BoardKey, args: argparse.Namespace) -> int:
    if args.name == _settings(args).league_name:
        raise CliError("that is this board's own name")
    boards, results = await store.league.drop(args.name)
    if not boards and not results:
        raise CliError(f"no board named {args.name!r} in this league")
    print(f"Dropped {args.name} and its {results} result{'s' if results != 1 else ''}.")
    return EXIT_OK


async def _sync(store: Store, key: BoardKey, args: argparse.Namespace) -> int:
    from ..league.sync import sync_once  # local: when the command runs

    boards = [b for b in await sync_once(_settings(args), store, key)
              if b.role in ("peer", "hub") and b.url]
    if not boards:
        print("No peer or hub with an address to sync with.")
        return EXIT_OK
    failed = 0
    for b in boards:
        failed += bool(b.failures)
        state = f"failed: {b.last_error}" if b.failures else "ok"
        print(f"{b.name:<30} {state}")
    return EXIT_ERROR if failed else EXIT_OK


async def _export(store: Store, key: BoardKey, args: argparse.Namespace) -> int:
    from ..league.outbox import sign_new  # local: when the command runs
    from ..league.packets import export_packet  # local: when the command runs

    settings = _settings(args)
    days = settings.league.accept_days if args.days is None else max(0, args.days)
    since = datetime.now(UTC).date() - timedelta(days=days)
    await sign_new(store, key, settings.league_name, since)
    try:
        count = await export_packet(store, key, settings.league_name, args.file, since,
                                    args.everyone, settings.league.hub)
    except OSError as exc:
        raise CliError(f"{args.file}: cannot write it ({exc.strerror or exc})") from None
    print(f"Wrote {count} result{'s' if count != 1 else ''} to {args.file}")
    return EXIT_OK


async def _import(store: Store, key: BoardKey, args: argparse.Namespace) -> int:
    from ..league.intake import Intake  # local: when the command runs
    from ..league.packets import import_packet  # local: when the command runs
    from ..league.results import Refused  # local: when the command runs

    settings = _settings(args)
    intake = Intake(store, settings.league.accept_days)
    status = EXIT_OK
    for path in args.files:
        try:
            report = await import_packet(store, intake, settings.league_name, path)
        except Refused as exc:
            print(f"reussite: {exc}", file=sys.stderr)
            status = EXIT_ERROR
            continue
        line = f"{path}: {report.added} new, {report.known} already here"
        if report.refused:
            line += f", {report.refused_count} refused (" + "; ".join(
                f"{n}× {why}" for why, n in report.refused.most_common(3)) + ")"
        print(line)
    return status
