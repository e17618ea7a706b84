"""The code base type-checks: mypy finds no error in door/ (settings in pyproject.toml), and
the pure layers, engines and terminal, and the store pass ``mypy --strict`` too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from waiting import SCALE

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.slow
@pytest.mark.timeout(900)  # a first run with no cache takes a minute on a loaded machine
def test_mypy_finds_no_error() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True,
                            text=True, timeout=880 * SCALE)
    assert "No module named mypy" not in result.stderr, "mypy is part of the [test] extra"
    assert result.returncode == 0, result.stdout + result.stderr


STRICT = ("door/games", "door/term", "door/store")
"""Held to everything ``--strict`` checks.  A run of its own rather than per-module overrides
in pyproject.toml: tests/test_compiled.py's mypyc build reads that file for a part of the
tree, and mypy calls an override for modules it does not see an unused section."""


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_pure_layers_pass_mypy_strict() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                             ".mypy_cache/strict", *STRICT], cwd=REPO, capture_output=True,
                            text=True, timeout=880 * SCALE)
    assert result.returncode == 0, result.stdout + result.stderr
