"""Make the shipped "winnable deals" lists (door/games/winnable/*.txt) from solver runs.

    reussite solve auntmary --range 1-1500 --budget 5 --out am.jsonl
    python bench/winnable_lists.py am.jsonl [more.jsonl …]

Each JSONL file holds runs of ``reussite solve --out``; the files' rows are merged by game
and option (several runs of one list: a deal any of them proved winnable stays winnable).
A deal is listed when its verdict is "winnable" AND its winning line, replayed here through
the engine, wins; any other deal is left out (a line that does not win would be a solver bug:
it is counted and printed).  The list's header says the range, budget, and counts.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from door.catalog.registry import engine
from door.catalog.registry import game as record
from door.games import IllegalMove, Status
from door.games.winnable import FOLDER

OUT = Path(__file__).resolve().parent.parent / "door" / "games" / FOLDER


def replays(game: str, number: int, options: dict, line: list[str]) -> bool:
    played = engine(game).new(number, **options)
    try:
        for move in line:
            played.play(move)
    except IllegalMove:
        return False
    return played.status is Status.WON


def merged(paths: list[str]) -> dict[str, list[dict]]:
    """The rows of every file, by list name; a deal solved in several runs keeps its
    "winnable" row if one run proved it (a later, stronger solver adds deals and never
    drops one: the daily challenge reads these lists, docs/daily.md)."""
    by_name: dict[str, dict[int, dict]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line:
                continue
            row = json.loads(line)
            rows = by_name.setdefault(record(row["game"]).winnable_list(row["options"]), {})
            old = rows.get(row["number"])
            if old is None or old["verdict"] == "unknown" or row["verdict"] == "winnable":
                rows[row["number"]] = row
    return {name: [rows[n] for n in sorted(rows)] for name, rows in by_name.items()}


def main(paths: list[str]) -> None:
    for name, rows in merged(paths).items():
        game, options = rows[0]["game"], rows[0]["options"]
        numbers = [r["number"] for r in rows]
        listed, bad = [], 0
        for row in rows:
            if row["verdict"] != "winnable":
                continue
            if replays(game, row["number"], options, row.get("line") or []):
                listed.append(row["number"])
            else:
                bad += 1
        unknown = sum(r["verdict"] == "unknown" for r in rows)
        budget = max(r["seconds"] for r in rows)
        header = [f"# Winnable {name} deals, proved by door.games.solvers with a winning line",
                  "# replayed to a win through the engine (bench/winnable_lists.py).",
                  f"# Solved: deals {numbers[0]}-{numbers[-1]} ({len(rows)}), longest verdict "
                  f"{budget:.2f} CPU s; {len(listed)} winnable, {unknown} unknown (left out).",
                  f"# Made {datetime.now(UTC):%Y-%m-%d}."]
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"{name}.txt").write_text("\n".join(header + [str(n) for n in listed]) + "\n")
        print(f"{name}: {len(listed)} of {len(rows)} deals listed, {unknown} unknown, "
              f"{bad} lines that did not win")


if __name__ == "__main__":
    main(sys.argv[1:])
