"""A solver worker: ``python -m door.solver_worker``, run by :mod:`door.solving`.

It reads one job per line on stdin (JSON: game, number, options, position, seconds), solves
it, and writes the verdict as one JSON line on stdout, until stdin closes (the door is gone).
It lowers its own priority first, so that solving never slows the door's callers down: a
2-core machine gives the door's event loop the CPU it needs and the solver the rest.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys

NICE = 10
"""Added to the worker's niceness."""


def main() -> None:
    from .games.solvers import solve

    with contextlib.suppress(OSError, AttributeError):  # not allowed, or not here
        os.nice(NICE)
    for line in sys.stdin:
        job = json.loads(line)
        try:
            verdict = solve(job["game"], job["number"], job.get("options") or {},
                            position=job.get("position"), seconds=job.get("seconds"),
                            node_limit=job.get("nodes")).to_json()
        except (ValueError, KeyError, TypeError) as exc:
            verdict = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(verdict) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
