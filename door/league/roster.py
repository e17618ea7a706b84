"""A league hub's roster: the member boards and their public keys, signed by the hub.

A member knows only its hub's key (exchanged when it joined); to check results that other
members signed, it needs their keys too.  The hub hands them out in this roster, which the
member believes because the hub signed it — the same trust it placed in the hub when it
joined — and then checks each result against its own board's key, and replays it, as
always.  A board the hub drops leaves the roster, and members drop it and its results.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .keys import BadKey, BoardKey, parse_public_key, signature_valid
from .results import Refused, canonical, check_board_name, iso_utc, parse_utc

FORMAT = "reussite-league-roster/1"
PREFIX = (FORMAT + "\n").encode("ascii")
MAX_BOARDS = 5000


@dataclass(frozen=True)
class Roster:
    hub: str
    issued: datetime
    boards: dict[str, str]
    """name -> public key"""
    signature: str = ""

    def body(self) -> dict[str, Any]:
        return {"v": 1, "hub": self.hub, "issued": iso_utc(self.issued),
                "boards": [{"name": name, "key": key}
                           for name, key in sorted(self.boards.items())]}

    def signed_bytes(self) -> bytes:
        return PREFIX + canonical(self.body())

    def to_json(self) -> dict[str, Any]:
        return {**self.body(), "signature": self.signature}


def signed_roster(hub: str, key: BoardKey, boards: dict[str, str], now: datetime) -> Roster:
    roster = Roster(hub, now, dict(boards))
    return Roster(hub, now, dict(boards), key.sign(roster.signed_bytes()))


def parse_roster(data: Any, hub: str, hub_key: str) -> Roster:
    """A roster received from ``hub``, checked against the hub's key (Refused otherwise)."""
    if not isinstance(data, dict) or data.get("v") != 1 or data.get("hub") != hub:
        raise Refused(f"not a roster of hub {hub!r}")
    entries = data.get("boards")
    if not isinstance(entries, list) or len(entries) > MAX_BOARDS:
        raise Refused("the roster's boards are not a list")
    boards: dict[str, str] = {}
    try:
        issued = parse_utc(data.get("issued"))  # type: ignore[arg-type]
        for entry in entries:
            if not isinstance(entry, dict):
                raise Refused("a roster entry is not an object")
            boards[check_board_name(entry.get("name"))] = parse_public_key(  # type: ignore[arg-type]
                str(entry.get("key", "")))
    except (TypeError, ValueError, BadKey) as exc:
        raise Refused(f"the roster is malformed ({exc})") from None
    signature = data.get("signature")
    roster = Roster(hub, issued, boards, signature if isinstance(signature, str) else "")
    if not signature_valid(hub_key, roster.signed_bytes(), roster.signature):
        raise Refused(f"the roster is not signed by hub {hub!r}")
    return roster
