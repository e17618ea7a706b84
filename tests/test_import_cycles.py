"""No import cycles in ``door/``, counting imports inside functions too.

A function-local import runs later than a module-level one but it is still a dependency:
two modules that import each other, one of them inside a function, are one tangle (which
module may change without the other, which loads first) hidden from a reader of the top
of the file.  So the graph here has every ``import`` and ``from … import`` of every module,
wherever it is written; what it leaves out is an import under ``if TYPE_CHECKING:``
(annotations only: it never runs, so it orders nothing).  A few lines of ``ast`` do this
without a dependency: import-linter's contracts are about layers, not cycles of
function-local imports.

Function-local imports that remain are there for start-up time: a command loads what it
runs, and a BBS caller's title is drawn before the store (SQLAlchemy), the game screens or
the solvers load.  The last test here keeps that true.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "door"


def _module_names(package: Path) -> dict[str, Path]:
    names = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The import nodes under ``if TYPE_CHECKING:`` (ids)."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                hidden.update(id(n) for n in ast.walk(inner))
    return hidden


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, at module level or in a function."""
    modules = _module_names(package)
    root = package.name
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        hidden = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in hidden:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = (".".join(here[:len(here) - node.level + 1]) if node.level
                        else "")
                prefix = ".".join(filter(None, [base, node.module or ""]))
                targets = [f"{prefix}.{alias.name}" for alias in node.names]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                # A module's own packages are imported before it: no edge back to them.
                if target.split(".")[0] == root and not f"{name}.".startswith(f"{target}."):
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_door_has_no_import_cycle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) > 100 and "door.ui.menu" in graph["door.ui.visit"]
    assert cycles(graph) == []


def test_a_cycle_hidden_in_a_function_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("def late():\n    from ..a import thing\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from .a import thing\n")
    (package / "d.py").write_text("import pkg.c\n")
    graph = import_graph(package)
    assert graph["pkg.c"] == set() and graph["pkg.d"] == {"pkg.c"}
    assert cycles(graph) == [["pkg.a", "pkg.sub.b"]]


def test_the_title_is_drawn_before_the_heavy_modules_load() -> None:
    """What ``reussite door`` imports before its first screen byte (bench/bench_launch.py
    times it): the command line and the visit up to the title, and none of the database,
    SSH or web libraries, which load while the title is up."""
    code = ("import sys, door.cli, door.ui.visit; door.cli.build_parser(); "
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=PACKAGE.parent)
    loaded = set(result.stdout.split())
    assert "door" in loaded
    assert not loaded & {"sqlalchemy", "alembic", "aiosqlite", "asyncpg", "asyncssh",
                         "telnetlib3", "aiohttp"}
