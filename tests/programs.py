"""External programs some tests drive (GNU telnet, rlogin, OpenSSH, Chromium).

On a machine without one, its tests skip and say how to install it, so that the README's
test command is green on a fresh machine.  Under CI (``$CI`` set: .ci/run installs every
one of them) a missing program is a failure, never a skip: those tests must run there.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from waiting import WAIT


def missing(what: str, install: str) -> str:
    """The skip reason for a test needing ``what``; under CI, fail instead."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not installed, and CI must run this test: .ci/run installs "
                    f"it ({install})")
    return f"{what} is not installed here ({install}); CI runs this test"


def need(program: str, install: str) -> str:
    """The path of ``program``; skips the test (fails it under CI) when it is missing."""
    path = shutil.which(program)
    if path is None:
        skip = pytest.skip.Exception(missing(program, install))
        # `pytest -rs` names the test, not this file: what pytest itself does for a skip
        # raised in a fixture (_pytest/fixtures.py sets the same flag).
        skip._use_item_location = True
        raise skip
    return path


def stop(proc: subprocess.Popen | None) -> None:
    """End a program a test started, if it still runs: asked first (SIGTERM), killed when it
    does not go within :data:`WAIT`."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
