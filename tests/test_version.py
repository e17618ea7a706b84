"""The version is written once (door/__init__.py): the package metadata and ``reussite
--version`` say the same."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import door


def test_one_version_everywhere() -> None:
    said = subprocess.run([sys.executable, "-m", "door", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert said.returncode == 0, said.stderr
    assert said.stdout.strip() == f"reussite {door.__version__}"
    assert version("reussite") == door.__version__
