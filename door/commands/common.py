"""What every subcommand shares with ``door.cli``: exit codes, the one-line error, and
finding the door home's settings.  Here, below both, so that the command modules need not
import ``door.cli`` (which imports them to build its parser).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..ini.file import CONFIG_NAME, HOME_ENV, ConfigError, find_home

if TYPE_CHECKING:  # the store pulls in SQLAlchemy and Alembic: only when a chore runs
    import logging

    from ..config import Settings
    from ..store import Store

EXIT_OK, EXIT_ERROR, EXIT_CONFIG = 0, 1, 2


class CliError(Exception):
    """A problem to report in one line with exit code 2."""


def start_logging(level: str, handler: logging.Handler | None = None) -> None:
    """Log to stderr (or ``handler``) at ``level`` (a command's name for it: ``info``), the
    libraries' chatter at warnings only.  ``reussite door`` calls this itself, after its
    caller's first screen (``late_logging``: logging loads traceback, threading and more),
    with a handler that holds the lines until its log file is open: stderr is the caller's
    screen there (door/commands/door_visit.py)."""
    import logging  # local: not before a BBS caller's first screen

    from ..logs.policy import apply_log_policy  # local: not before a BBS caller's first screen

    root = logging.getLogger()
    if not root.handlers:  # (a test calling main() has its own)
        root.addHandler(apply_log_policy(handler or logging.StreamHandler(sys.stderr)))
        root.setLevel(level.upper())
    # Alembic talks at INFO as it loads (its plugins) and on every start ("Context impl
    # SQLiteImpl"), telnetlib3 and asyncssh on every connection (a flood's thousands a
    # second; the door logs its own lines): only their warnings matter to a sysop.
    if level != "debug":
        for library in ("alembic", "telnetlib3", "asyncssh"):
            logging.getLogger(library).setLevel(logging.WARNING)


def resolve_home(args: argparse.Namespace) -> Path:
    """The door home: ``--home``, else the folder holding sysop.ini (this one or a parent),
    else $REUSSITE_HOME; ConfigError when there is none."""
    home = args.home or find_home()
    if home is None:
        raise ConfigError(f"no {CONFIG_NAME} found in this folder or above, and ${HOME_ENV} "
                          "is not set: run `reussite init DIR` or pass --home DIR")
    home = Path(home).resolve()
    if not home.is_dir():
        raise ConfigError(f"{home}: no such folder (--home)")
    return home


def resolve_settings(args: argparse.Namespace) -> Settings:
    """The settings of the door home (:func:`resolve_home`)."""
    from ..config import (
        load_settings,  # local: its typed sections and the games load after a caller's title
    )

    return load_settings(resolve_home(args))


def with_store(settings: Settings, work: Callable[[Store], Awaitable[int]]) -> int:
    """``work``'s exit code, run on a store opened for this one command (no pool: it lives
    seconds) and closed after; a store that fails says why in one line, exit code 1."""
    import asyncio  # local: not before a BBS caller's first screen (reussite door)

    from ..store import Store, StoreError  # local: SQLAlchemy, when a chore runs

    async def main() -> int:
        store = Store.from_settings(settings, pooled=False)
        try:
            return await work(store)
        except StoreError as exc:
            print(f"reussite: {exc}", file=sys.stderr)
            return EXIT_ERROR
        finally:
            await store.close()

    return asyncio.run(main())
