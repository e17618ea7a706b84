"""Make the shipped "winnable deals" lists (door/games/winnable/*.txt) from solver runs.

    reussite solve auntmary --range 1-1500 --budget 5 --out am.jsonl
    python bench/winnable_lists.py am.jsonl [more.jsonl …]

Each JSONL file is one game and option (as ``reussite solve --out`` writes it).  A deal is
listed when its verdict is "winnable" AND its winning line, replayed here through the
engine, wins; any other deal is left out (a line that does not win would be a solver bug:
it is counted and printed).  The list's header says the range, budget, and counts.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from door.games import IllegalMove, Status, engine
from door.games.winnable import FOLDER, list_name

OUT = Path(__file__).resolve().parent.parent / "door" / "games" / FOLDER


def replays(game: str, number: int, options: dict, line: list[str]) -> bool:
    played = engine(game).new(number, **options)
    try:
        for move in line:
            played.play(move)
    except IllegalMove:
        return False
    return played.status is Status.WON


def main(paths: list[str]) -> None:
    for path in paths:
        rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line]
        game, options = rows[0]["game"], rows[0]["options"]
        numbers = sorted(r["number"] for r in rows)
        listed, bad = [], 0
        for row in sorted(rows, key=lambda r: r["number"]):
            if row["verdict"] != "winnable":
                continue
            if replays(game, row["number"], options, row.get("line") or []):
                listed.append(row["number"])
            else:
                bad += 1
        name = list_name(game, options)
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
