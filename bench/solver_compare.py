"""Two solver runs of the same deals, compared deal by deal (the before/after of a solver change).

    python bench/solver_compare.py BEFORE.jsonl AFTER.jsonl [--first A] [--last B]

The files are ``reussite solve GAME --range A-B --out F`` outputs.  Printed for the deals in
both files: decided share, median and p95 CPU seconds, the mean penalty (Mariant: lower is
better) over the deals both runs won, and the deals one run decided and the other did not
(a stronger solver should decide more and never fewer: a deal that became unknown is named
so that it can be explained), the deals both decided differently (an exact solver never
does: any is a bug), the total CPU seconds of each run, and how many deals took the same
number of nodes (a change meant to make each node cheaper keeps them all).  Reads files
only; never run by the tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from door.games.solvers import percentile


def _rows(path: Path, first: int, last: int) -> dict[int, dict[str, Any]]:
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if first <= row["number"] <= last:
                rows[row["number"]] = row
    return rows


def _line(name: str, rows: list[dict[str, Any]]) -> str:
    decided = sum(row["verdict"] != "unknown" for row in rows)
    seconds = [row["seconds"] for row in rows]
    return (f"{name:>7}: decided {decided}/{len(rows)} ({100 * decided / len(rows):.1f} %), "
            f"median {statistics.median(seconds):.2f} s, p95 {percentile(seconds, 0.95):.2f} s, "
            f"total {sum(seconds):.1f} CPU s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=10**9)
    args = parser.parse_args(argv)
    before = _rows(args.before, args.first, args.last)
    after = _rows(args.after, args.first, args.last)
    common = sorted(set(before) & set(after))
    if not common:
        raise SystemExit("no deal is in both files")
    print(f"deals {common[0]}-{common[-1]} in both files: {len(common)}")
    print(_line("before", [before[n] for n in common]))
    print(_line("after", [after[n] for n in common]))
    won = [n for n in common if before[n].get("penalty") is not None
           and after[n].get("penalty") is not None]
    if won:
        print(f"mean penalty over the {len(won)} deals both won: "
              f"{statistics.mean(before[n]['penalty'] for n in won):.1f} before, "
              f"{statistics.mean(after[n]['penalty'] for n in won):.1f} after")
    lost = [n for n in common
            if before[n]["verdict"] != "unknown" and after[n]["verdict"] == "unknown"]
    gained = [n for n in common
              if before[n]["verdict"] == "unknown" and after[n]["verdict"] != "unknown"]
    flipped = [n for n in common if "unknown" not in (before[n]["verdict"], after[n]["verdict"])
               and before[n]["verdict"] != after[n]["verdict"]]
    same_nodes = sum(before[n].get("nodes") == after[n].get("nodes") for n in common
                     if before[n]["verdict"] != "unknown" and after[n]["verdict"] != "unknown")
    decided_both = sum("unknown" not in (before[n]["verdict"], after[n]["verdict"])
                       for n in common)
    print(f"decided before, unknown after: {lost or 'none'}")
    print(f"unknown before, decided after: {gained or 'none'}")
    print(f"decided both times, differently: {flipped or 'none'}")
    print(f"decided both times with as many nodes: {same_nodes} of {decided_both}")


if __name__ == "__main__":
    main()
