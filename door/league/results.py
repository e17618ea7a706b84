"""One league result: a caller's counted daily-challenge attempt, signed by its board.

The signed bytes are the result's *canonical form*: its fields as JSON with sorted keys, no
spaces and ASCII only, after a fixed prefix naming the format.  Any implementation that
writes the same JSON gets the same bytes, so a result can be re-serialised by a relay, a
packet file or a database and still verify.  A result's id is the SHA-256 of those bytes
(32 hex characters kept): the same result received twice, over any transport, is stored
once.

Everything a peer sends is untrusted: :func:`parse_result` bounds every field before any
work is done on it and refuses with a short reason (:class:`Refused`) that the receiving
board logs once and sends back.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

from ..catalog import registry as gamelist
from ..store.league import SignedFields

FORMAT = "reussite-league-result/1"
SIGNED_PREFIX = (FORMAT + "\n").encode("ascii")

BOARD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._\-]{0,29}")
"""A board's name in the league: 1–30 letters, digits, spaces, dots, dashes, underscores."""
HANDLE_MAX = 40
MAX_MOVES = 10_000
"""Actions in one record at most (undo and redo included): a long card game with every
undo is a few thousand."""
MOVE_MAX_CHARS = 32
MAX_OPTIONS = 8
MAX_NUMBER = 10**9
MAX_SCORE = 10**7
MAX_JSON_BYTES = 256 * 1024
"""One result's JSON at most (10,000 short moves fit)."""


class Refused(ValueError):
    """A result, a roster or a request a board will not take, with the reason (one line)."""


@dataclass(frozen=True)
class LeagueResult(SignedFields):
    signature: str = ""
    rid: str = field(default="", compare=False)

    def body(self) -> dict[str, Any]:
        """The signed fields, as JSON values."""
        return {"v": 1, "board": self.board, "handle": self.handle,
                "day": self.day.isoformat(), "game": self.game, "number": self.number,
                "options": self.options, "moves": self.moves, "score": self.score,
                "won": self.won, "finished": iso_utc(self.finished)}

    def signed_bytes(self) -> bytes:
        return SIGNED_PREFIX + canonical(self.body())

    def with_id(self) -> LeagueResult:
        return replace(self, rid=result_id(self.signed_bytes()))

    def to_json(self) -> dict[str, Any]:
        return {**self.body(), "signature": self.signature}


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True, allow_nan=False).encode("ascii")


def result_id(signed: bytes) -> str:
    return hashlib.sha256(signed).hexdigest()[:32]


def iso_utc(moment: datetime) -> str:
    """``2026-12-03T07:15:00Z``: whole seconds, UTC (what is signed)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_utc(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def check_board_name(name: str) -> str:
    if not isinstance(name, str) or not BOARD_NAME.fullmatch(name) or name != name.strip():
        raise Refused("a board name is 1-30 letters, digits, spaces, dots, dashes or "
                      "underscores")
    return name


def _printable(text: str) -> bool:
    return all(ch.isprintable() for ch in text)


def _int(value: Any, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"{what} is not a whole number from {low} to {high}")
    return value


def parse_result(data: Any) -> LeagueResult:
    """A result from a peer's JSON, every field bounded and typed (no signature check yet:
    :mod:`door.league.verify` does that and the replay)."""
    if not isinstance(data, dict):
        raise Refused("a result is a JSON object")
    if data.get("v") != 1:
        raise Refused("unknown result version (expected v 1)")
    board = check_board_name(data.get("board"))  # type: ignore[arg-type]
    handle = data.get("handle")
    if not isinstance(handle, str) or not 0 < len(handle) <= HANDLE_MAX \
            or not _printable(handle) or handle != handle.strip():
        raise Refused(f"the handle is not 1-{HANDLE_MAX} printable characters")
    try:
        day = date.fromisoformat(data.get("day"))  # type: ignore[arg-type]
        finished = parse_utc(data.get("finished"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise Refused("day or finished is not a date (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ)"
                      ) from None
    game = data.get("game")
    if game not in gamelist.daily_games():
        raise Refused(f"game is not one of {', '.join(gamelist.daily_games())}")
    number = _int(data.get("number"), 1, MAX_NUMBER, "number")
    options = data.get("options")
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS or not all(
            isinstance(k, str) and len(k) <= 16
            and (isinstance(v, bool | int | str) and len(str(v)) <= 16)
            for k, v in options.items()):
        raise Refused("options are not a small object of short values")
    moves = data.get("moves")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(
            isinstance(m, str) and 0 < len(m) <= MOVE_MAX_CHARS and m.isascii()
            and m.isprintable() for m in moves):
        raise Refused(f"moves are not a list of at most {MAX_MOVES} short ASCII actions")
    score = _int(data.get("score"), -MAX_SCORE, MAX_SCORE, "score")
    won = data.get("won")
    if not isinstance(won, bool):
        raise Refused("won is not true or false")
    signature = data.get("signature", "")
    if not isinstance(signature, str) or len(signature) > 100:
        raise Refused("signature is not base64 text")
    return LeagueResult(board, handle, day, game, number, dict(options), list(moves), score,
                        won, finished, signature).with_id()


def from_stored(row: Any) -> LeagueResult:
    """The signed result back from a stored one (``door.store.league.StoredResult``)."""
    return LeagueResult(row.board, row.handle, row.day, row.game, row.number,
                        dict(row.options), list(row.moves), row.score, row.won, row.finished,
                        row.signature, row.rid)
