"""``reussite sysop bulletin GAME``: a game's hall of fame as a file a BBS shows as a
bulletin or logon screen.

``ansi``: CP437 with ANSI colours, 79 columns, CRLF, the colours reset at the end (the
screen cleared first).  ``text``: the same lines without colour, in UTF-8.  ``ascii``: the
same in 7-bit ASCII (``é`` as ``e``, ``─`` as ``-``), which every terminal shows: a BBS's
file for callers without ANSI.  ``json``: the entries as data, for a BBS script that draws
its own.  The old names ``ans`` and ``asc`` still work, for ``ansi`` and ``ascii`` (``asc``
was CP437 without colour; in ASCII it still shows wherever it did, accents as plain
letters).  The player column shows each member board's callers as handle@TAG.  Written to a
temporary file then renamed, so a BBS reading it while it is
rewritten (a nightly event) never shows half a list.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..term import Charset

if TYPE_CHECKING:  # the command line imports this module to build its help: keep it light
    from datetime import datetime

    from ..store import ScoreEntry

FORMATS = ("ansi", "text", "ascii", "json")
OLD_NAMES = {"ans": "ansi", "asc": "ascii"}
WIDTH = 79  # never the 80th column: some BBSes wrap a line that reaches it
SGR = {"title": "\x1b[0;1;33m", "rule": "\x1b[0;36m", "head": "\x1b[0;1;37m",
       "line": "\x1b[0;37m", "first": "\x1b[0;1;32m", "foot": "\x1b[0;36m"}
CLEAR, RESET = "\x1b[0m\x1b[2J\x1b[H", "\x1b[0m"


def format_name(name: str) -> str:
    """A format's name as ``--format`` takes it (an old name is its new one)."""
    return OLD_NAMES.get(name.lower(), name.lower())


def encode(fmt: str, lines: list[tuple[str, str]]) -> bytes:
    """(style, text) lines as the bytes of format ``fmt`` (any but json), CRLF each."""
    fmt = format_name(fmt)
    if fmt == "ansi":
        text = CLEAR + "\r\n".join(SGR[style] + t for style, t in lines) + RESET + "\r\n"
        return text.encode("cp437", "replace")
    if fmt == "ascii":

        ascii_ = Charset("ascii")
        return b"".join(ascii_.encode(t) + b"\r\n" for _, t in lines)
    return "".join(t + "\r\n" for _, t in lines).encode("utf-8")


def board_of(source: str) -> str | None:
    from ..bbs.boards import SOURCE_PREFIX  # local: when the command runs

    return source[len(SOURCE_PREFIX):] if source.startswith(SOURCE_PREFIX) else None


def _lines(door: str, title: str, rule: str, entries: Sequence[ScoreEntry],
           now: datetime) -> list[tuple[str, str]]:
    """(style, text) for each line, the text at most WIDTH columns."""
    from ..ui.game.still_winnable import (  # local: as on the hall of fame screen
        HALL_LEGEND,
        HALL_MARK,
    )

    out = [("title", f"  {door} · {title}"), ("rule", f"  {rule}"), ("line", ""),
           ("head", f"  {'Rank':>4}  {'Player':<34} {'Score':>7}  {'Game #':<11} Date"),
           ("rule", "  " + "─" * 70)]
    if not entries:
        out.append(("line", "        No scores yet: be the first!"))
    for e in entries:
        mark = HALL_MARK if e.still_asks else " "
        out.append(("first" if e.rank == 1 else "line",
                    f"  {e.rank:>3}.  {e.alias[:34]:<34} {e.score:>7}{mark} #{e.number:<10} "
                    f"{e.ended:%Y-%m-%d}"))
    if any(e.still_asks for e in entries):
        out += [("line", ""), ("rule", f"  {HALL_LEGEND}")]
    out += [("line", ""), ("foot", f"  Updated {now:%Y-%m-%d %H:%M} UTC")]
    return [(style, text[:WIDTH]) for style, text in out]


def render(fmt: str, door: str, game: str, title: str, rule: str,
           entries: Sequence[ScoreEntry], now: datetime | None = None) -> bytes:

    now = now or datetime.now(UTC)
    if format_name(fmt) == "json":
        return (json.dumps({
            "door": door, "game": game, "title": title, "rule": rule,
            "updated": now.isoformat(timespec="seconds"),
            "entries": [{"rank": e.rank, "player": e.alias, "board": board_of(e.source),
                         "score": e.score, "number": e.number, "status": e.status,
                         "still_asks": e.still_asks,
                         "ended": e.ended.isoformat(timespec="seconds")} for e in entries],
        }, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    return encode(fmt, _lines(door, title, rule, entries, now))


def write_atomically(path: Path, data: bytes) -> None:
    """``path`` holds either the old file or the new one, never a part."""
    import tempfile  # local: when the command runs

    folder = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
