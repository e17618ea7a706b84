"""A solver worker: ``python -m door.solver_worker``, run by :mod:`door.solving`.

It reads one job per line on stdin (JSON: game, number, options, position, seconds), solves
it, and writes the verdict as one JSON line on stdout, until stdin closes (the door is gone).
A job ``{"kind": "move", "game": "anciento", "position": …}`` asks the search player for its
move instead (the Demo, the Hint): the answer is ``{"move": "e4"}``.
It lowers its own priority first, so that solving never slows the door's callers down: on
Linux it takes the SCHED_IDLE policy (it runs only on CPU nothing else wants, and a caller's
process waking up takes the core from it at once), elsewhere nice +19 (it was nice +10:
docs/solvability.md, "Callers' keys while the solvers run", has the figures).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

NICE = 19
"""Added to the worker's niceness where there is no SCHED_IDLE."""


def lower_priority() -> None:
    """Give the CPU to everything else first: SCHED_IDLE, else nice +NICE."""
    with contextlib.suppress(OSError, AttributeError):   # not Linux, or not allowed
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICE)


def main() -> None:
    from .games.solvers import solve

    lower_priority()
    for line in sys.stdin:
        job = json.loads(line)
        answer: dict[str, Any]
        try:
            if job.get("kind") == "move":
                answer = player_move(job)
            else:
                answer = solve(job["game"], job["number"], job.get("options") or {},
                               position=job.get("position"), seconds=job.get("seconds"),
                               node_limit=job.get("nodes")).to_json()
        except (ValueError, KeyError, TypeError) as exc:
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def player_move(job: dict[str, Any]) -> dict[str, Any]:
    """The search player's move for the game state in the job (Anciento only)."""
    if job.get("game") != "anciento" or not isinstance(job.get("position"), dict):
        raise ValueError("a move job wants game anciento and its position")
    from .games.anciento import Anciento
    from .games.anciento_player import search_move

    return {"move": search_move(Anciento.from_json(job["position"]))}


if __name__ == "__main__":
    main()
