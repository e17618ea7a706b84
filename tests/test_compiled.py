"""The compiled terminal modules (setup.py, door/compiled.py): used only while they match
their source, and the plain-Python modules they replace still pass the renderer's tests.

The rest of the suite runs whatever the install built (compiled where the machine has a C
compiler, as CI's does); these tests run the other one too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from waiting import SCALE, WAIT

from door.compiled import COMPILED_MODULES, PURE_PYTHON_ENV, stale_source, why_not_compiled
from door.term import Attr, Charset, Renderer, Screen

ROOT = Path(__file__).resolve().parent.parent


def pure_env() -> dict[str, str]:
    return {**os.environ, PURE_PYTHON_ENV: "1"}


def test_an_edited_source_is_found_stale(tmp_path: Path) -> None:
    compiled = tmp_path / "render.cpython-311-x86_64-linux-gnu.so"
    source = tmp_path / "render.py"
    source.write_text("x = 1\n")
    compiled.write_bytes(b"\0")
    os.utime(source, (1_000, 1_000))
    os.utime(compiled, (2_000, 2_000))
    assert stale_source({"door.term.render": compiled}) is None
    os.utime(source, (3_000, 3_000))  # edited after the build
    assert stale_source({"door.term.render": compiled}) == "render.py"
    assert "render.py changed" in str(why_not_compiled({"door.term.render": compiled},
                                                       source_tree=True))


def test_a_stale_module_matters_only_in_a_source_tree(tmp_path: Path, monkeypatch) -> None:
    """An installed wheel's files all carry the install's times, in any order: only a
    checkout (setup.py beside the package) is judged by them."""
    monkeypatch.delenv(PURE_PYTHON_ENV, raising=False)
    compiled = tmp_path / "render.so"
    compiled.write_bytes(b"\0")
    (tmp_path / "render.py").write_text("x = 1\n")
    os.utime(compiled, (1_000, 1_000))
    reason = why_not_compiled({"door.term.render": compiled}, source_tree=False)
    assert reason is None  # door.term.render itself loads, whatever it is here


def test_pure_python_is_asked_for_and_given() -> None:
    """REUSSITE_PURE_PYTHON=1: every hot module is its .py file, whatever was built."""
    code = ("import sys, door.term, door.compiled as c\n"
            f"names = {COMPILED_MODULES!r}\n"
            "print(all(sys.modules[n].__file__.endswith('.py') for n in names),"
            " c.is_compiled())\n"
            "s = door.term.Screen(20, 3); s.put(1, 2, 'Réussite ♠', door.term.Attr(1))\n"
            "print(door.term.Renderer(door.term.Charset('cp437')).frame(s))\n")
    out = subprocess.run([sys.executable, "-c", code], env=pure_env(), cwd=ROOT,
                         capture_output=True, text=True, timeout=2 * WAIT)
    assert out.returncode == 0, out.stderr
    first, frame = out.stdout.splitlines()
    assert first == "True False"
    here = Screen(20, 3)  # this process's modules: the compiled ones where they were built
    here.put(1, 2, "Réussite ♠", Attr(1))
    assert frame == str(Renderer(Charset("cp437")).frame(here))
    assert "\\x1b[31mR\\x82ussite" in frame  # red; CP437 has é at 0x82
    assert out.stderr == ""  # asked for: no warning


def test_the_plain_python_renderer_passes_the_renderer_tests() -> None:
    """The renderer's and the cell buffer's own tests (pyte oracle, hypothesis), run again
    on the plain-Python modules: a machine without a compiler runs those."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/term/test_term_render.py", "tests/term/test_term_screen_put.py",
         "tests/term/test_term_keys.py", "tests/term/test_term_charset.py"],
        env=pure_env(), cwd=ROOT, capture_output=True, text=True, timeout=600 * SCALE)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " passed" in out.stdout.splitlines()[-1]
