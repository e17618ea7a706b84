"""Launch → first screen byte of ``reussite door DOOR.SYS`` under a pty, as a BBS starts it.

Prints the median of N launches beside ``python -c pass`` (the interpreter's own start) and
``python -m door --help`` (building the command line: every subcommand module is imported),
all in the same run.  Target: the door's first byte within 150 ms.

Children run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` removed) and a warm-up
launch first, as an installed package runs: otherwise every launch compiles every module.

    python bench/bench_launch.py [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchkit import make_door_home

from door.compiled import build_name

TARGET_MS = 150.0


def first_byte_ms(args: list[str], cwd: Path) -> float:
    """Milliseconds from spawning ``args`` on a fresh pty to its first output byte."""
    master, slave = os.openpty()
    env = child_env()
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env)
    try:
        ready, _, _ = select.select([master], [], [], 10.0)
        elapsed = (time.perf_counter() - start) * 1000
        if not ready:
            raise RuntimeError(f"no output within 10 s from {args}")
        os.read(master, 65536)
        return elapsed
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
        os.close(slave)


def child_env() -> dict[str, str]:
    env = {**os.environ, "TERM": "xterm", "LANG": "C.UTF-8"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def exit_ms(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True, env=child_env())
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        door = [sys.executable, "-m", "door", "--home", str(home), "door",
                str(make_door_home(home))]
        first_byte_ms(door, home)  # warm the page cache and the database once
        rows = [
            ("python -c pass (exit)", [exit_ms([sys.executable, "-c", "pass"], home)
                                       for _ in range(runs)]),
            ("python -m door --help (exit)",
             [exit_ms([sys.executable, "-m", "door", "--help"], home) for _ in range(runs)]),
            ("reussite door DOOR.SYS → first byte", [first_byte_ms(door, home)
                                                     for _ in range(runs)]),
        ]
        # Every subcommand module is imported to build the parser: one with heavy top-level
        # imports slows every launch.  Show what each costs on top of door.cli.
        from door.cli import COMMAND_MODULES
        for module in ("door.cli", *COMMAND_MODULES):
            rows.append((f"python -c 'import {module}'",
                         [exit_ms([sys.executable, "-c", f"import {module}"], home)
                          for _ in range(max(3, runs // 4))]))
    print(f"Launch benchmark, median of {runs} runs (Python {sys.version.split()[0]}, "
          f"{build_name()})")
    for name, times in rows:
        print(f"  {name:<44} median {statistics.median(times):7.1f} ms   "
              f"min {min(times):7.1f}   max {max(times):7.1f}")
    door_median = statistics.median(rows[2][1])
    verdict = "meets" if door_median <= TARGET_MS else "misses"
    print(f"  door first byte {door_median:.1f} ms {verdict} the {TARGET_MS:.0f} ms target")


if __name__ == "__main__":
    main()
