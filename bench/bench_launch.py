"""Launch → first screen byte of ``reussite door DOOR.SYS`` under a pty, as a BBS starts it,
beside the interpreter's own start (``python -c pass``, to its exit), in the same run.

Target (issue #40): the door's first byte within 3× the bare interpreter's start.

Two installs can be measured:

* this interpreter's (``python -m door``): the worktree's editable install, whose import
  finder (setuptools' ``__editable__`` hook, run at every interpreter start that imports
  ``door``) a sysop's install has not;
* ``--venv DIR``: a sysop's install as the README makes it, ``pip install .`` of this tree
  into the venv DIR, run as its ``reussite`` script.  DIR is made (``python3 -m venv``, then
  ``pip install .``, dependencies and all: about half a minute) when it is not there, and
  this tree reinstalled into it (``--no-deps``) when it is, so the figure is the tree's.
  ``--compile`` makes that install with ``REUSSITE_COMPILE=1`` (mypyc).

Children run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` removed) and a warm-up
launch first, as an installed package runs; each run times the bare interpreter and the door
one after the other, so that the machine's load moves both alike.  ``--imports`` adds what
importing each command module costs (this interpreter's install).

    python bench/bench_launch.py [--runs 20] [--venv /tmp/reussite-venv] [--imports]
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

from benchkit import REPO, make_door_home

from door.compiled import build_name

TARGET_RATIO = 3.0


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


def sysop_install(venv: Path, compile_it: bool) -> Path:
    """``venv``'s Python, with this tree installed as ``pip install .`` does (made first
    when there is no such venv)."""
    env = {**os.environ}
    env.pop("REUSSITE_PURE_PYTHON", None)
    env.pop("REUSSITE_COMPILE", None)
    if compile_it:
        env["REUSSITE_COMPILE"] = "1"
    python = venv / "bin" / "python"
    if python.exists():
        pip = [str(python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
               str(REPO)]
    else:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q", str(REPO)]
    subprocess.run(pip, check=True, env=env, stdout=subprocess.DEVNULL)
    return python


def measure(label: str, python: Path, door: list[str], home: Path,
            runs: int) -> tuple[str, list[float], list[float]]:
    """(label, bare exits, door first bytes), ``runs`` of each, alternately."""
    first_byte_ms(door, home)  # warm the page cache, the bytecode and the database once
    exit_ms([str(python), "-c", "pass"], home)
    bare, first = [], []
    for _ in range(runs):
        bare.append(exit_ms([str(python), "-c", "pass"], home))
        first.append(first_byte_ms(door, home))
    return label, bare, first


def row(name: str, times: list[float]) -> str:
    return (f"    {name:<42} median {statistics.median(times):7.1f} ms   "
            f"min {min(times):7.1f}   max {max(times):7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--venv", type=Path, metavar="DIR",
                        help="also measure a `pip install .` of this tree in the venv DIR "
                             "(made when missing)")
    parser.add_argument("--compile", action="store_true",
                        help="make that install with REUSSITE_COMPILE=1 (mypyc)")
    parser.add_argument("--imports", action="store_true",
                        help="also time importing door.cli and each command module")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        dropfile = str(make_door_home(home))
        here = Path(sys.executable)
        results.append(measure(f"this interpreter's install ({build_name()}), python -m door",
                               here, [str(here), "-m", "door", "--home", str(home), "door",
                                      dropfile], home, args.runs))
        if args.venv is not None:
            python = sysop_install(args.venv.resolve(), args.compile)
            script = python.parent / "reussite"
            built = subprocess.run([str(script), "--version"], capture_output=True,
                                   text=True, check=True).stdout.strip()
            results.append(measure(f"pip install . in {args.venv} ({built}), reussite",
                                   python, [str(script), "--home", str(home), "door",
                                            dropfile], home, args.runs))
        extra = []
        if args.imports:
            # Every subcommand module is imported to build the help's parser: one with heavy
            # top-level imports slows `reussite --help` and every other command.
            from door.cli import COMMAND_MODULES
            for module in ("door.cli", *COMMAND_MODULES):
                extra.append((f"python -c 'import {module}'",
                              [exit_ms([str(here), "-c", f"import {module}"], home)
                               for _ in range(max(3, args.runs // 4))]))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Launch benchmark, median of {args.runs} runs each (Python "
          f"{sys.version.split()[0]}, load average {load}, {os.cpu_count()} cores)")
    for label, bare, first in results:
        ratio = statistics.median(first) / statistics.median(bare)
        verdict = "meets" if ratio <= TARGET_RATIO else "misses"
        print(f"  {label}")
        print(row("python -c pass (exit)", bare))
        print(row("reussite door DOOR.SYS → first byte", first))
        print(f"    first byte / bare start: {ratio:.2f}× ({verdict} the "
              f"{TARGET_RATIO:g}× target)")
    for name, times in extra:
        print(row(name, times))


if __name__ == "__main__":
    main()
