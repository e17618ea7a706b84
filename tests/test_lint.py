"""The code base stays ruff clean (settings in ruff.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from waiting import WAIT

REPO = Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is part of the [test] extra"
    result = subprocess.run([ruff, "check", "--no-cache", "door", "tests", "bench", "scripts"],
                            cwd=REPO, capture_output=True, text=True, timeout=4 * WAIT)
    assert result.returncode == 0, result.stdout + result.stderr
