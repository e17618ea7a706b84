"""A solver worker: ``python -m door.solvers.worker``, run by :mod:`door.solvers.pool`.

It says ``ready`` once it will die with the door, then reads one job per line on stdin
(JSON: game, number, options, position, seconds), solves it, and writes the verdict as one
JSON line on stdout, until stdin closes (the door is gone).
A job ``{"kind": "move", "game": …, "position": …}`` asks the game's search player (its
record's ``player``) for its move instead (the Demo, the Hint): the answer is ``{"move":
"e4"}``.  A job with ``"kind": "hint"`` asks for a card game's hint
(``door.games.solvers.hint_game``): a verdict with the line the hint follows.  Games are
found by name in the registry, :mod:`door.catalog.registry`.
It lowers its own priority first, so that solving never slows the door's callers down: a
2-core machine gives the door's event loop the CPU it needs and the solver the rest.
On Linux it also asks the kernel to kill it when the door dies: a worker the pool had
suspended (SIGSTOP) would otherwise outlive a door killed with ``kill -9``, stopped for ever.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys
from typing import Any

from ..catalog.registry import game, hint, solve

NICE = 10
"""Added to the worker's niceness."""
PR_SET_PDEATHSIG = 1
"""Linux prctl(2): the signal this process gets when its parent dies."""


def die_with_parent() -> None:
    """Have the kernel SIGKILL this worker when the door that started it dies (Linux; a
    stopped process gets it too).  Elsewhere a worker ends when its stdin closes."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:       # the door died before the kernel was asked
        sys.exit(0)


def main() -> None:

    die_with_parent()
    with contextlib.suppress(OSError, AttributeError):  # not allowed, or not here
        os.nice(NICE)
    sys.stdout.write("ready\n")    # the pool may stop (SIGSTOP) this worker from now on
    sys.stdout.flush()
    for line in sys.stdin:
        job = json.loads(line)
        answer: dict[str, Any]
        try:
            if job.get("kind") == "move":
                answer = player_move(job)
            elif job.get("kind") == "hint":
                answer = hint(job["game"], job["number"], job.get("options") or {},
                              position=job.get("position"),
                              seconds=float(job.get("seconds") or 5.0)).to_json()
            else:
                answer = solve(job["game"], job["number"], job.get("options") or {},
                               position=job.get("position"), seconds=job.get("seconds"),
                               node_limit=job.get("nodes")).to_json()
        except (ValueError, KeyError, TypeError) as exc:
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def player_move(job: dict[str, Any]) -> dict[str, Any]:
    """The search player's move for the game state in the job (a game with a player)."""

    if not isinstance(job.get("position"), dict):
        raise ValueError("a move job wants a game and its position")
    return {"move": game(str(job.get("game"))).player_move(job["position"])}


if __name__ == "__main__":
    main()
