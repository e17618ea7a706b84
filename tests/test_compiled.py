"""The compiled modules, the terminal's and Mariant's solver (setup.py, door/compiled.py,
build_backend/): built only when asked for, used only while they match their source, both
builds pass the renderer's tests, and the compiled solver searches as the Python one does.

An install is plain Python unless ``REUSSITE_COMPILE=1`` asks, so the rest of the suite runs
whatever the install built — plain Python after the README's test command.  Here a copy of
the source tree is compiled by setup.py itself (mypyc from the test extra, the machine's C
compiler), and the tests run on the build this process is not running.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from programs import missing
from waiting import SCALE, WAIT

from door.compiled import (
    COMPILE_ENV,
    GROUPS,
    PURE_PYTHON_ENV,
    SOLVER,
    TERMINAL,
    build_products,
    compile_asked,
    is_compiled,
    stale_source,
    why_not_compiled,
)
from door.games.mariant_solver import solve
from door.term import Attr, Charset, Renderer, Screen

pytestmark = pytest.mark.slow  # each test compiles a copy of the tree or runs a process

ROOT = Path(__file__).resolve().parent.parent
RENDERER_TESTS = ("tests/term/test_term_render.py", "tests/term/test_term_screen_put.py",
                  "tests/term/test_term_keys.py", "tests/term/test_term_charset.py",
                  "tests/term/test_term_mouse.py")
BUILD_MINUTES = 15  # a busy 2-core machine; a quiet one compiles in about 12 s


def env(**changes: str | None) -> dict[str, str]:
    """This environment without the two build variables, then ``changes`` (None: unset)."""
    out = {k: v for k, v in os.environ.items() if k not in (COMPILE_ENV, PURE_PYTHON_ENV)}
    out.update({k: v for k, v in changes.items() if v is not None})
    return out


def can_compile() -> bool:
    """A C compiler and Python's headers: what mypyc's extensions are built with."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(compiler) is not None and headers.is_file()


@pytest.fixture(scope="module")
def compiled_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the source tree with the hot modules compiled in place, as
    ``REUSSITE_COMPILE=1 pip install -e .`` does (by setup.py's build_ext)."""
    if not can_compile():
        pytest.skip(missing("a C compiler with Python's headers", "apt-get install gcc "
                            "python3-dev"))
    tree = tmp_path_factory.mktemp("compiled")
    shutil.copytree(ROOT / "door", tree / "door", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd"))
    for name in ("setup.py", "setup.cfg", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    built = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                           cwd=tree, env=env(**{COMPILE_ENV: "1"}), capture_output=True,
                           text=True, timeout=BUILD_MINUTES * 60)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    products = build_products(tree)
    expected = sum(len(group.modules) + 1 for group in GROUPS)  # and a shared library each
    assert len(products) == expected, (products, built.stdout[-3000:])
    return tree


def run_in(tree: Path, code: str, **changes: str | None) -> subprocess.CompletedProcess:
    """``python -c code`` importing ``door`` from ``tree`` (the current folder comes first)."""
    return subprocess.run([sys.executable, "-c", code], cwd=tree, env=env(**changes),
                          capture_output=True, text=True, timeout=4 * WAIT)


FRAME = ("import sys, door, door.term, door.compiled as c\n"
         f"names = {TERMINAL.modules!r}\n"
         "print(all(sys.modules[n].__file__.endswith('.py') for n in names),"
         " c.is_compiled(), door.__file__)\n"
         "s = door.term.Screen(20, 3); s.put(1, 2, 'Réussite ♠', door.term.Attr(1))\n"
         "print(door.term.Renderer(door.term.Charset('cp437')).frame(s))\n")


def this_frame() -> str:
    here = Screen(20, 3)  # this process's modules, whichever build they are
    here.put(1, 2, "Réussite ♠", Attr(1))
    return str(Renderer(Charset("cp437")).frame(here))


@pytest.mark.timeout(BUILD_MINUTES * 60 + 120)
def test_the_compiled_build_runs_and_draws_the_same(compiled_tree: Path) -> None:
    out = run_in(compiled_tree, FRAME)
    assert out.returncode == 0, out.stderr
    first, frame = out.stdout.splitlines()
    assert first == f"False True {compiled_tree / 'door' / '__init__.py'}"
    assert frame == this_frame()
    assert "\\x1b[31mR\\x82ussite" in frame  # red; CP437 has é at 0x82
    version = subprocess.run([sys.executable, "-m", "door", "--version"], cwd=compiled_tree,
                             env=env(), capture_output=True, text=True, timeout=4 * WAIT)
    assert version.stdout.strip().endswith(
        ", terminal modules and Mariant's solver compiled (mypyc)")


SOLVE = ("import json, door.games.mariant_solver as m\n"
         "r = m.solve(3, fd=2, fu=2, node_limit=20_000)\n"
         "print(m.__file__.endswith('.py'),"
         " json.dumps([r.verdict, r.nodes, r.moves, r.penalty]))\n")


def solved_here() -> str:
    result = solve(3, fd=2, fu=2, node_limit=20_000)
    return json.dumps([result.verdict, result.nodes, result.moves, result.penalty])


@pytest.mark.timeout(BUILD_MINUTES * 60 + 120)
def test_the_compiled_solver_searches_as_the_python_one(compiled_tree: Path) -> None:
    """The same positions in the same order: at a node limit the verdict, the positions
    expanded and the winning line are the plain Python search's, to the move."""
    out = run_in(compiled_tree, SOLVE)
    assert out.returncode == 0, out.stderr
    from_py, result = out.stdout.split(" ", 1)
    assert from_py == "False"
    assert result.strip() == solved_here()
    assert json.loads(result)[0] == "winnable"


@pytest.mark.timeout(BUILD_MINUTES * 60 + 120)
def test_an_edited_solver_runs_from_its_source(compiled_tree: Path) -> None:
    """In a source tree, a solver edited after the build runs as its ``.py`` (with a
    warning saying how to build it again), and so does the rest of its group."""
    source = compiled_tree / "door" / "games" / "mariant_solver.py"
    times = source.stat()
    os.utime(source)  # edited now, after the build
    try:
        out = run_in(compiled_tree, "import sys, door.games\n"
                     f"print([sys.modules[n].__file__.endswith('.py')"
                     f" for n in {SOLVER.modules!r}])\n")
    finally:
        os.utime(source, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[True, True]"
    assert "running Mariant's solver as Python: mariant_solver.py changed" in out.stderr


@pytest.mark.timeout(BUILD_MINUTES * 60 + 120)
def test_pure_python_is_asked_for_and_given(compiled_tree: Path) -> None:
    """REUSSITE_PURE_PYTHON=1: every hot module is its .py file, whatever was built."""
    out = run_in(compiled_tree, FRAME, **{PURE_PYTHON_ENV: "1"})
    assert out.returncode == 0, out.stderr
    first, frame = out.stdout.splitlines()
    assert first.startswith("True False ")
    assert frame == this_frame()
    assert out.stderr == ""  # asked for: no warning
    solver = run_in(compiled_tree, SOLVE, **{PURE_PYTHON_ENV: "1"})
    assert solver.stdout.startswith("True "), solver.stderr


@pytest.mark.timeout(BUILD_MINUTES * 60 + 600)
def test_the_other_build_passes_the_renderer_tests(compiled_tree: Path) -> None:
    """The renderer's, the cell buffer's, the key decoder's and the charsets' own tests
    (pyte oracle, hypothesis), run again on the build this process is not running: the
    compiled copy when the install is plain Python, plain Python when it is compiled."""
    compiled_here = is_compiled()
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
         str(ROOT / "setup.cfg"), "--rootdir", str(ROOT),
         *(str(ROOT / test) for test in RENDERER_TESTS)],
        cwd=ROOT if compiled_here else compiled_tree,
        env=env(**{PURE_PYTHON_ENV: "1" if compiled_here else None}),
        capture_output=True, text=True, timeout=600 * SCALE)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " passed" in out.stdout.splitlines()[-1]


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


@pytest.mark.parametrize(("compile_value", "pure_value", "asked"), [
    (None, None, False), ("1", None, True), ("0", None, False), ("", None, False),
    ("1", "1", False),
])
def test_compiling_is_asked_for(compile_value: str | None, pure_value: str | None, asked: bool,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ((COMPILE_ENV, compile_value), (PURE_PYTHON_ENV, pure_value)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert compile_asked() is asked


def test_the_build_asks_for_mypy_only_when_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyproject.toml's static requirements name setuptools alone; the in-tree backend adds
    mypy and wcwidth to setuptools' own when compiling is asked for (setuptools' answer is
    stood in for: it would run setup.py's egg_info in this checkout)."""
    monkeypatch.syspath_prepend(str(ROOT / "build_backend"))
    import reussite_build

    monkeypatch.setattr(reussite_build._setuptools, "get_requires_for_build_wheel",
                        lambda config_settings=None: ["setuptools-own"])
    monkeypatch.setattr(reussite_build._setuptools, "get_requires_for_build_editable",
                        lambda config_settings=None: ["setuptools-own"])
    monkeypatch.delenv(PURE_PYTHON_ENV, raising=False)
    monkeypatch.delenv(COMPILE_ENV, raising=False)
    assert reussite_build.get_requires_for_build_wheel() == ["setuptools-own"]
    assert reussite_build.get_requires_for_build_editable() == ["setuptools-own"]
    monkeypatch.setenv(COMPILE_ENV, "1")
    assert reussite_build.get_requires_for_build_wheel() == [
        "setuptools-own", "mypy>=2.4,<2.5", "wcwidth>=0.2.13"]
    assert reussite_build.get_requires_for_build_editable() == [
        "setuptools-own", "mypy>=2.4,<2.5", "wcwidth>=0.2.13"]
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'requires = ["setuptools>=77"]' in text and 'build-backend = "reussite_build"' in text


def test_a_plain_editable_install_finds_what_a_compiled_one_left(tmp_path: Path) -> None:
    """The files the backend removes before a plain editable build: the compiled modules'
    extensions and mypyc's shared libraries, nothing else."""
    term = tmp_path / "door" / "term"
    term.mkdir(parents=True)
    games = tmp_path / "door" / "games"
    games.mkdir(parents=True)
    left = [tmp_path / "reussite_hot__mypyc.cpython-311-x86_64-linux-gnu.so",
            term / "render.cpython-311-x86_64-linux-gnu.so", term / "keys.abi3.so",
            tmp_path / "reussite_solver__mypyc.cpython-311-x86_64-linux-gnu.so",
            games / "mariant_solver.cpython-311-x86_64-linux-gnu.so"]
    kept = [term / "render.py", term / "art.cpython-311-x86_64-linux-gnu.so",
            tmp_path / "other.cpython-311-x86_64-linux-gnu.so",
            games / "mariant.cpython-311-x86_64-linux-gnu.so"]
    for path in (*left, *kept):
        path.write_bytes(b"")
    assert build_products(tmp_path) == sorted(left)
