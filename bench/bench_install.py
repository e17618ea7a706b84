"""The README's first install, timed as a new sysop meets it: a fresh clone of this
repository's HEAD, then ``python3 -m venv .venv && .venv/bin/pip install .`` with pip's cache
off (a new machine has none), in a throwaway folder.  Prints the seconds, the machine's load
average before and after (the figure moves with it), and which build ``reussite --version``
reports.

    python bench/bench_install.py              # the default: plain Python
    python bench/bench_install.py --compile    # REUSSITE_COMPILE=1: the mypyc build

It downloads every dependency from the package index each run: run it rarely.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compile", action="store_true",
                        help="time REUSSITE_COMPILE=1 pip install . instead")
    args = parser.parse_args()
    env = {**os.environ, "PIP_NO_CACHE_DIR": "1"}
    env.pop("REUSSITE_PURE_PYTHON", None)
    env.pop("REUSSITE_COMPILE", None)
    if args.compile:
        env["REUSSITE_COMPILE"] = "1"
    folder = Path(tempfile.mkdtemp(prefix="reussite-install-"))
    try:
        clone = folder / "reussite"
        subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
        head = subprocess.run(["git", "-C", str(clone), "log", "--oneline", "-1"],
                              capture_output=True, text=True, check=True).stdout.strip()
        before = load()
        start = time.monotonic()
        done = subprocess.run("python3 -m venv .venv && .venv/bin/pip install -q .", shell=True,
                              cwd=clone, env=env, capture_output=True, text=True)
        seconds = time.monotonic() - start
        after = load()
        if done.returncode:
            print(done.stdout[-2000:] + done.stderr[-2000:], file=sys.stderr)
            return 1
        version = subprocess.run([str(clone / ".venv" / "bin" / "reussite"), "--version"],
                                 capture_output=True, text=True).stdout.strip()
        print(f"{head[:60]}")
        print(f"install{' (REUSSITE_COMPILE=1)' if args.compile else ''}: {seconds:.1f} s; "
              f"load average {before} -> {after} ({os.cpu_count()} cores); {version}")
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
