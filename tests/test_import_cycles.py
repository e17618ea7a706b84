"""No import cycles in ``door/``, counting imports inside functions and under
``if TYPE_CHECKING:`` too; and what loads before the title.

A function-local import runs later than a module-level one but it is still a dependency:
two modules that import each other, one of them inside a function, are one tangle (which
module may change without the other, which loads first) hidden from a reader of the top
of the file.  The cycle check itself is import-linter's ``no-cycles`` contract in
pyproject.toml (run with the others by tests/test_layers.py): its graph (grimp's) has every
``import`` of every module wherever it is written, except those under
``if TYPE_CHECKING:`` (annotations only: they never run, so they order nothing).  The test
here pins that reading of the graph on a small package.

A circle held apart by ``TYPE_CHECKING`` is still a circle for a reader: two modules that
need each other's names to be understood or type-checked.  So the same contract is run
here once more on the graph with those imports in: none may close a circle either (the
other contracts keep reading the graph without them, as what runs).

Function-local imports that remain are there for start-up time: a command loads what it
runs, and a BBS caller's title is drawn before the store (SQLAlchemy), the game screens or
the solvers load.  The last test here keeps that true: import-linter sees imports, not
when they run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.application.use_cases import read_user_options
from importlinter.configuration import configure
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract

PACKAGE = Path(__file__).resolve().parent.parent / "door"


def test_a_cycle_hidden_in_a_function_is_found(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The graph the contracts read counts a function's import and skips TYPE_CHECKING's."""
    package = tmp_path / "cycleprobe"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("def late():\n    from ..a import thing\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from .d import thing\n")
    (package / "d.py").write_text("import cycleprobe.c\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cycleprobe", exclude_type_checking_imports=True, cache_dir=None)
    assert graph.find_modules_directly_imported_by("cycleprobe.sub.b") == {"cycleprobe.a"}
    assert graph.find_modules_directly_imported_by("cycleprobe.c") == set()
    configure()
    contract = AcyclicSiblingsContract(name="probe", session_options={"root_packages": [
        "cycleprobe"]}, contract_options={"ancestors": ["cycleprobe"]})
    check = contract.check(graph, verbose=False)
    assert not check.kept
    # The import to break is the one written inside the function.
    assert check.metadata["cycle_breakers_by_package"] == {
        "cycleprobe": {("cycleprobe.sub.b", "cycleprobe.a")}}


def _no_cycles_contract() -> tuple[dict, dict]:
    options = read_user_options(str(PACKAGE.parent / "pyproject.toml"))
    (contract,) = [c for c in options.contracts_options if c["id"] == "no-cycles"]
    return options.session_options, contract


def test_a_cycle_under_type_checking_is_found_when_counted(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """c imports d only for annotations, d imports c: with those imports counted, a circle."""
    package = tmp_path / "typeprobe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from .d import thing\n")
    (package / "d.py").write_text("import typeprobe.c\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("typeprobe", exclude_type_checking_imports=False, cache_dir=None)
    configure()
    contract = AcyclicSiblingsContract(name="probe", session_options={"root_packages": [
        "typeprobe"]}, contract_options={"ancestors": ["typeprobe"]})
    assert not contract.check(graph, verbose=False).kept


def test_no_circle_hides_under_type_checking() -> None:
    """The no-cycles contract holds on door/'s graph with the TYPE_CHECKING imports in."""
    session, options = _no_cycles_contract()
    graph = grimp.build_graph("door", include_external_packages=True,
                              exclude_type_checking_imports=False, cache_dir=None)
    configure()
    contract = AcyclicSiblingsContract(name=options["name"], session_options=session,
                                       contract_options=options)
    check = contract.check(graph, verbose=False)
    assert check.kept, ("a circle of imports, counting those under TYPE_CHECKING: "
                        f"{check.metadata.get('cycle_breakers_by_package')}")


def test_the_title_is_drawn_before_the_heavy_modules_load() -> None:
    """What ``reussite door`` imports before the visit's title (the games' names on the
    title page its launch sent: tests/dropfile/test_door_first_screen.py checks what loads
    before that first screen): the command line and the visit up to the title, and none of
    the database, SSH or web libraries, which load while the title is up."""
    code = ("import sys, door.cli, door.ui.visits.visit; door.cli.build_parser(); "
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=PACKAGE.parent)
    loaded = set(result.stdout.split())
    assert "door" in loaded
    assert not loaded & {"sqlalchemy", "alembic", "aiosqlite", "asyncpg", "asyncssh",
                         "telnetlib3", "aiohttp"}
