"""``reussite dropfile PATH``: show how the door reads a BBS dropfile, as JSON.

For the sysop setting up a BBS: run it on the file the BBS writes and see the caller, the
node, the time left, and a warning for every line the door had to guess or clamp.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .common import CliError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "dropfile", parents=[common], help="print how the door reads a BBS dropfile (JSON)",
        description="Read DOOR.SYS, DOOR32.SYS or DORINFOx.DEF (a file, or a folder holding "
                    "one; names in any case) and print the caller as JSON.  An unusable file "
                    "gives one line on stderr and exit code 2.")
    parser.add_argument("path", type=Path, metavar="PATH", help="the dropfile or its folder")
    parser.set_defaults(func=cmd_dropfile)


def cmd_dropfile(args: argparse.Namespace) -> int:
    from ..bbs.dropfile import DropfileError, read_dropfile  # local: when the command runs

    try:
        caller = read_dropfile(args.path)
    except DropfileError as exc:
        raise CliError(str(exc)) from None
    print(json.dumps(caller.as_json(), indent=2))
    return 0
