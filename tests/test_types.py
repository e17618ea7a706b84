"""The code base type-checks: mypy finds no error in door/ (settings in pyproject.toml), and
all of door/ passes ``mypy --strict`` too (issue #40)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from waiting import SCALE

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.timeout(900)  # a first run with no cache takes a minute on a loaded machine
def test_mypy_finds_no_error() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True,
                            text=True, timeout=880 * SCALE)
    assert "No module named mypy" not in result.stderr, "mypy is part of the [test] extra"
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_door_passes_mypy_strict() -> None:
    """A run of its own rather than ``strict = true`` in pyproject.toml: tests/test_compiled.py's
    mypyc build reads that file for a part of the tree, and compiles with the project's
    ordinary settings."""
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                             ".mypy_cache/strict", "door"], cwd=REPO, capture_output=True,
                            text=True, timeout=880 * SCALE)
    assert result.returncode == 0, result.stdout + result.stderr
