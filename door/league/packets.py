"""League packet files: the same results as over HTTP, in a file a mailer can carry.

Boards linked by FidoNet or QWK networks move files, not HTTP requests.  ``reussite league
export`` writes this board's results (or every result it holds: a hub's packet relays the
league) with its name and key, and its roster when it is a hub; ``reussite league import``
reads packets from anywhere — a file area, a mail attachment — through the same intake as
a pull: checked, replayed, stored once.  Importing the same packet twice, or packets in any
order, changes nothing after the first.

A packet is one JSON object (``.json``), gzip-compressed when its name ends in ``.gz``::

    {"format": "reussite-league-packet/1", "from": BOARD, "key": PUBLIC_KEY,
     "created": "2026-12-03T08:00:00Z", "results": [...], "roster": {...}}
"""

from __future__ import annotations

import gzip
import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from ..store import Store
from .intake import Intake, IntakeReport
from .keys import BoardKey
from .results import Refused, from_stored, iso_utc
from .roster import signed_roster
from .sync import apply_roster

FORMAT = "reussite-league-packet/1"
MAX_PACKET = 64 * 1024 * 1024
"""A packet file at most (uncompressed): tens of thousands of results."""
PAGE = 1000


async def export_packet(store: Store, key: BoardKey, board: str, path: Path, since: date,
                        everyone: bool, hub: bool) -> int:
    """Write this board's results since ``since`` (everyone's with ``everyone``) to
    ``path``; return how many.  The file is written whole or not at all."""
    results: list[dict[str, Any]] = []
    cursor = 0
    while True:
        page = await store.league.since(cursor, PAGE, None if everyone else board, since)
        results += [from_stored(r).to_json() for r in page]
        if len(page) < PAGE:
            break
        cursor = page[-1].seq
    now = datetime.now(UTC)
    packet: dict[str, Any] = {"format": FORMAT, "from": board, "key": key.public,
                              "created": iso_utc(now), "results": results}
    if hub:
        boards = {b.name: b.public_key for b in await store.league.boards()
                  if b.role in ("self", "member")}
        packet["roster"] = signed_roster(board, key, boards, now).to_json()
    data = json.dumps(packet, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    if path.suffix == ".gz":
        data = gzip.compress(data)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    partial.replace(path)
    return len(results)


def read_packet(path: Path) -> dict[str, Any]:
    """A packet file's JSON, bounded; Refused with the reason otherwise."""
    try:
        with path.open("rb") as raw:
            head = raw.read(2)
            raw.seek(0)
            stream = gzip.GzipFile(fileobj=raw) if head == b"\x1f\x8b" else raw
            data = stream.read(MAX_PACKET + 1)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise Refused(f"{path}: cannot read it ({exc})") from None
    if len(data) > MAX_PACKET:
        raise Refused(f"{path}: larger than {MAX_PACKET} bytes")
    try:
        packet = json.loads(data)
    except ValueError:
        raise Refused(f"{path}: not a league packet (not JSON)") from None
    if not isinstance(packet, dict) or packet.get("format") != FORMAT \
            or not isinstance(packet.get("results"), list):
        raise Refused(f"{path}: not a league packet (format {FORMAT})")
    return packet


async def import_packet(store: Store, intake: Intake, me: str, path: Path) -> IntakeReport:
    """Take a packet's results (a hub's roster first, when it comes from this board's hub)."""
    packet = read_packet(path)
    sender = str(packet.get("from", "?"))[:30]
    if "roster" in packet:
        hubs = {b.name: b for b in await store.league.boards() if b.role == "hub"}
        if sender in hubs:
            await apply_roster(store, me, hubs[sender], packet["roster"])
    report = IntakeReport()
    results = packet["results"]
    for start in range(0, len(results), PAGE):
        part = await intake.take(results[start:start + PAGE], f"packet {path.name}")
        report.added += part.added
        report.known += part.known
        report.refused.update(part.refused)
    return report
