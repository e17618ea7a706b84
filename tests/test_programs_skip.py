"""A test skipped for a missing program (tests/programs.py) is listed by ``pytest -rs`` under
its own file and line, not under the helper's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

HERE = Path(__file__).resolve().parent


def test_the_skip_names_the_test_that_needs_the_program(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "test_needs.py").write_text(
        "from programs import need\n\n\n"
        "def test_it():\n"
        "    need('reussite-no-such-program', 'apt-get install nothing')\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # under CI it would fail
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(HERE), env.get("PYTHONPATH"))))
    result = subprocess.run([sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider",
                             "-c", str(tmp_path / "pytest.ini"), str(tmp_path / "test_needs.py")],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    skipped = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 1 and "test_needs.py:4: reussite-no-such-program is not installed " \
                                  "here (apt-get install nothing)" in skipped[0], skipped
