"""``reussite sysop``: the sysop's database chores, from the shell.

``players``, ``who``, ``boards``, ``scores GAME``, ``bulletin GAME``, ``export-scores FILE.csv``,
``migrate``, ``backup`` only read (or upgrade, or write the file asked for);
``reset-scores``, ``delete-player`` and ``purge-messages`` destroy, so they ask
first (or take ``--yes``) and write a backup copy of the database before touching anything.

Exit codes: 0 done; 1 the database is unavailable or the backup failed (nothing destroyed);
2 a mistake on the command line (unknown game or player, no confirmation).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from ..catalog import registry as gamelist
from ..logs.private import is_shared
from .bulletin import FORMATS, OLD_NAMES, format_name
from .common import EXIT_OK, CliError, resolve_settings, with_store

if TYPE_CHECKING:  # the store pulls in SQLAlchemy and Alembic: only when a chore runs
    from ..config import Settings
    from ..store import Player, Store

EXPORT_FIELDS = ("id", "alias", "source", "game", "number", "score", "status", "cheater",
                 "hof", "started", "ended", "duration_s", "options", "moves")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             common: argparse.ArgumentParser) -> None:
    sysop = sub.add_parser("sysop", parents=[common], help="players, scores, backups",
                           description="Look after the door's database.  Destructive "
                                       "commands ask first (or take --yes) and back the "
                                       "database up before changing it.")
    chores = sysop.add_subparsers(dest="chore", metavar="CHORE", required=True)

    def chore(name: str, help_text: str, func: Callable[..., Awaitable[int]],
              confirm: bool = False) -> argparse.ArgumentParser:
        parser = chores.add_parser(name, parents=[common], help=help_text,
                                   description=help_text)
        if confirm:
            parser.add_argument("--yes", action="store_true",
                                help="do not ask for confirmation")
        parser.set_defaults(func=lambda args: _run(args, func))
        return parser

    chore("players", "list the players, with games played and last visit", _players)
    chore("who", "list the callers in the door now, on every server sharing the database",
          _who)
    chore("boards", "list the member boards of [boards]: players, callers now, games today",
          _boards)
    scores = chore("scores", "show a game's hall of fame", _scores)
    scores.add_argument("game", choices=gamelist.names(), metavar="GAME",
                        help=f"one of {', '.join(gamelist.names())}")
    scores.add_argument("--number", type=int, metavar="N", help="only game number N")
    scores.add_argument("--limit", type=int, default=10, metavar="N",
                        help="how many lines (default 10)")
    bulletin = chore("bulletin", "write a game's hall of fame, or the daily challenge, as a "
                     "bulletin file for BBSes", _bulletin)
    bulletin.add_argument("game", choices=(*gamelist.names(), "daily", "league"),
                          metavar="GAME",
                          help=f"one of {', '.join(gamelist.names())}, daily (today's "
                               "challenges, the month's standings and the streaks) or league "
                               "(the daily challenge across the boards of the league)")
    bulletin.add_argument("--date", type=_iso_date, metavar="YYYY-MM-DD",
                          help="daily: that UTC day's challenges (default today)")
    bulletin.add_argument("--format", type=format_name, choices=FORMATS, default="ansi",
                          help="ansi: CP437 with ANSI colours (default); text: UTF-8 without "
                               "colour; ascii: 7-bit ASCII without colour; json: the entries "
                               "as data (" + ", ".join(f"{old} is {new}" for old, new
                                                      in OLD_NAMES.items()) + ")")
    bulletin.add_argument("--output", "-o", type=Path, metavar="FILE",
                          help="write FILE (replaced whole) instead of standard output")
    bulletin.add_argument("--limit", type=int, default=10, metavar="N",
                          help="how many places (default 10)")
    bulletin.add_argument("--board", metavar="TAG",
                          help="only the callers of this member board, ranked among "
                               "themselves")
    reset = chore("reset-scores", "forget every finished game of GAME (a fresh hall of fame)",
                  _reset_scores, confirm=True)
    reset.add_argument("game", choices=gamelist.names(), metavar="GAME",
                       help=f"one of {', '.join(gamelist.names())}")
    delete = chore("delete-player", "delete a player with their games, saves and messages",
                   _delete_player, confirm=True)
    delete.add_argument("name", metavar="NAME",
                        help="the player's alias, any case (alias@source if several)")
    purge = chore("purge-messages", "delete messages older than DAYS days", _purge_messages,
                  confirm=True)
    purge.add_argument("--older-than", type=int, required=True, metavar="DAYS",
                       help="age in days (0 deletes every message)")
    export = chore("export-scores", "write every finished game to a CSV file", _export)
    export.add_argument("file", type=Path, metavar="FILE.csv")
    chore("migrate", "upgrade the database to this version's schema", _migrate)
    chore("backup", "write a copy of the database to data/backups/", _backup)


def _run(args: argparse.Namespace, func: Callable[..., Awaitable[int]]) -> int:
    settings = resolve_settings(args)
    args.settings = settings


    _warn_if_shared(settings)

    async def work(store: Store) -> int:
        if func is not _migrate:
            await store.core.migrate()
        return await func(store, args, settings.data_dir / "backups")

    return with_store(settings, work)


def _warn_if_shared(settings: Settings) -> None:
    """A database (it holds password hashes) that other users can read: say so and how to
    fix it; the chore goes on.  New databases are made 0600 (door/logs/private.py)."""
    from ..store.engine import sqlite_path  # local: when the command runs

    path = sqlite_path(settings.database_url)
    if path is not None and is_shared(Path(path)):
        print(f"reussite: warning: {path} can be read by other users of this machine and "
              f"holds password hashes: chmod 600 {path}", file=sys.stderr)


def _confirm(args: argparse.Namespace, question: str) -> None:
    if args.yes:
        return
    if not sys.stdin.isatty():
        raise CliError(f"{question} — add --yes to confirm (no terminal to ask on)")
    answer = input(f"{question} Type yes to go on: ").strip().lower()
    if answer not in ("y", "yes"):
        raise CliError("nothing changed")


async def _backup_first(store: Store, folder: Path) -> None:
    path = await store.backups.make(folder)
    print(f"Backup written to {path}")


async def _players(store: Store, args: argparse.Namespace, backups: Path) -> int:
    players = await store.players.all()
    if not players:
        print("No players yet.")
        return EXIT_OK
    print(f"{'alias':<24} {'from':<20} {'user':<12} {'games':>6}  last visit")
    for p in players:
        seen = p.last_seen.strftime("%Y-%m-%d %H:%M") if p.last_seen else "-"
        print(f"{p.alias:<24} {p.source:<20} {p.user_id:<12} {p.games_played:>6}  {seen}")
    print(f"{len(players)} player{'s' if len(players) != 1 else ''}")
    return EXIT_OK


async def _who(store: Store, args: argparse.Namespace, backups: Path) -> int:

    from ..ui.menus.whosonline import idle_text  # local: when the command runs

    nodes = await store.online.nodes()
    if not nodes:
        print("Nobody is in the door.")
        return EXIT_OK
    now = datetime.now(UTC)
    print(f"{'server':<24} {'node':>4}  {'handle':<20} {'doing':<30} {'idle':>7}  on since")
    for n in nodes:
        print(f"{n.host:<24} {n.node:>4}  {(n.alias or '(logging in)'):<20} "
              f"{n.activity:<30} {idle_text((now - n.heartbeat).total_seconds()):>7}  "
              f"{n.since:%Y-%m-%d %H:%M}")
    print(f"{len(nodes)} caller{'s' if len(nodes) != 1 else ''}")
    return EXIT_OK


async def _boards(store: Store, args: argparse.Namespace, backups: Path) -> int:

    from ..bbs.boards import SOURCE_PREFIX, board_source  # local: when the command runs

    settings = args.settings
    midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    activity = await store.online.activity_by_source(midnight)
    port = settings.server.rlogin_port
    print(f"RLogin: {'port ' + str(port) if port else 'off'} ([server] rlogin_port)")
    configured = {b.tag for b in settings.boards}
    gone = sorted(s[len(SOURCE_PREFIX):] for s in activity
                  if s.startswith(SOURCE_PREFIX) and s[len(SOURCE_PREFIX):] not in configured)
    if not settings.boards and not gone:
        print("No member boards: add them to [boards] in sysop.ini.")
        return EXIT_OK
    print(f"{'board':<8} {'name':<24} {'players':>7} {'online':>6} {'games today':>11}  "
          "addresses")
    rows = [(b.tag, b.name, ", ".join(str(n.network_address) if n.num_addresses == 1
                                       else str(n) for n in b.networks))
            for b in settings.boards]
    rows += [(tag, "(no longer in [boards])", "-") for tag in gone]
    for tag, name, addresses in rows:
        seen = activity.get(board_source(tag))
        players, online, games = (seen.players, seen.online, seen.games) if seen else (0, 0, 0)
        print(f"{tag:<8} {name[:24]:<24} {players:>7} {online:>6} {games:>11}  {addresses}")
    count = len(rows)
    print(f"{count} board{'s' if count != 1 else ''}; games today: since "
          f"{midnight:%Y-%m-%d %H:%M %Z}")
    return EXIT_OK


async def _bulletin(store: Store, args: argparse.Namespace, backups: Path) -> int:
    from ..bbs.boards import board_source  # local: when the command runs
    from ..ui.menus.halloffame import list_title, rule  # local: when the command runs
    from .bulletin import render  # local: when the command runs

    if not 1 <= args.limit <= 100:
        raise CliError("--limit: expected 1 to 100 places")
    if args.game == "daily":
        return await _daily_bulletin(store, args)
    if args.game == "league":
        return await _league_bulletin(store, args)
    source = None
    title = list_title(args.game, None)
    if args.board:
        tag = args.board.upper()
        if tag not in {b.tag for b in args.settings.boards}:
            raise CliError(f"--board {args.board}: no such board in [boards] "
                           "(see `reussite sysop boards`)")
        source, title = board_source(tag), f"{title} ({tag})"
    entries = await store.scores.top(args.game, args.limit, source=source)
    data = render(args.format, args.settings.door.name, args.game, title, rule(args.game),
                  entries)
    return _put_bulletin(args, data, f"{args.game} hall of fame",
                         f"{len(entries)} entr{'ies' if len(entries) != 1 else 'y'}, ")


def _put_bulletin(args: argparse.Namespace, data: bytes, what: str, detail: str = "") -> int:
    """The bulletin on standard output, or written whole to --output (said on stderr)."""
    from .bulletin import write_atomically  # local: when the command runs

    if args.output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return EXIT_OK
    try:
        write_atomically(args.output, data)
    except OSError as exc:
        raise CliError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
    print(f"{what} ({detail}{args.format}) written to {args.output}", file=sys.stderr)
    return EXIT_OK


def _iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date such as 2026-12-01, got {text!r}"
                                         ) from None


async def _daily_bulletin(store: Store, args: argparse.Namespace) -> int:
    from ..ui.menus.daily import gather  # local: when the command runs
    from .daily_bulletin import render_daily  # local: when the command runs

    day = args.date or datetime.now(UTC).date()
    games, runs = await gather(store, day, args.limit)
    data = render_daily(args.format, args.settings.door.name, day, games, runs)
    return _put_bulletin(args, data, f"daily challenge of {day}")


async def _league_bulletin(store: Store, args: argparse.Namespace) -> int:
    from ..league.ladder import league_day  # local: when the command runs
    from .league_bulletin import render_league  # local: when the command runs

    day = args.date or datetime.now(UTC).date()
    found = await league_day(store, day, args.settings.league_name, args.limit)
    data = render_league(args.format, args.settings.door.name, found)
    return _put_bulletin(args, data, f"league of {day}")


async def _scores(store: Store, args: argparse.Namespace, backups: Path) -> int:
    if args.number is None:
        entries = await store.scores.top(args.game, args.limit)
        title = f"Hall of fame: {args.game}"
    else:
        entries = await store.scores.number_board(args.game, args.number, args.limit)
        title = f"Best on {args.game} #{args.number}"
    print(title)
    if not entries:
        print("No scores yet.")
    for e in entries:
        print(f"{e.rank:>3}. {e.alias:<24} {e.score:>7}  #{e.number:<8} {e.status:<8} "
              f"{e.ended:%Y-%m-%d}")
    return EXIT_OK


async def _reset_scores(store: Store, args: argparse.Namespace, backups: Path) -> int:
    _confirm(args, f"Forget every finished {args.game} game?")
    await _backup_first(store, backups)
    count = await store.scores.reset(args.game)
    print(f"{count} {args.game} game{'s' if count != 1 else ''} forgotten.")
    return EXIT_OK


async def _delete_player(store: Store, args: argparse.Namespace, backups: Path) -> int:
    player = await _one_player(store, args.name)
    _confirm(args, f"Delete {player.alias} ({player.source}) with their games, saves and "
                   "messages?")
    await _backup_first(store, backups)
    await store.players.delete(player.id)
    print(f"{player.alias} deleted.")
    return EXIT_OK


async def _one_player(store: Store, name: str) -> Player:
    alias, _, source = name.rpartition("@") if "@" in name else (name, "", "")
    found = await store.players.find(name)
    if not found and source:
        found = [p for p in await store.players.find(alias)
                 if p.source.lower() == source.lower()]
    if not found:
        raise CliError(f"no player called {name} (see `reussite sysop players`)")
    if len(found) > 1:
        names = ", ".join(f"{p.alias}@{p.source}" for p in found)
        raise CliError(f"several players are called {name}: name one of {names}")
    return found[0]


async def _purge_messages(store: Store, args: argparse.Namespace, backups: Path) -> int:
    if args.older_than < 0:
        raise CliError("--older-than: expected a number of days, 0 or more")
    _confirm(args, f"Delete every message older than {args.older_than} days?")
    await _backup_first(store, backups)
    count = await store.messages.purge(timedelta(days=args.older_than))
    print(f"{count} message{'s' if count != 1 else ''} deleted.")
    return EXIT_OK


async def _export(store: Store, args: argparse.Namespace, backups: Path) -> int:
    path: Path = args.file
    count = 0
    try:
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(EXPORT_FIELDS)
            async for row in store.scores.game_rows():
                row["options"] = _json(row["options"])
                row["moves"] = " ".join(row["moves"])
                writer.writerow([row[f] for f in EXPORT_FIELDS])
                count += 1
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
    print(f"{count} game{'s' if count != 1 else ''} written to {path}")
    return EXIT_OK


def _json(value: object) -> str:

    return json.dumps(value, sort_keys=True)


async def _migrate(store: Store, args: argparse.Namespace, backups: Path) -> int:
    before = await store.core.revision()
    await store.core.migrate()
    from ..store.migrate import head  # local: when the command runs

    target = head()
    if before == target:
        print(f"Database {store.core.describe()} is up to date (revision {target}).")
    else:
        print(f"Database {store.core.describe()} upgraded from revision {before or 'empty'} "
              f"to {target}.")
    return EXIT_OK


async def _backup(store: Store, args: argparse.Namespace, backups: Path) -> int:
    await _backup_first(store, backups)
    return EXIT_OK
