"""Every import written inside a function in ``door/`` says why it is there.

An import at the top of a module says at a glance what the module stands on; one inside a
function hides a dependency from that glance (and once hid four import circles).  The only
reason left for one is start-up time: ``reussite door`` draws a BBS caller's title before
the store (SQLAlchemy), the game screens or the solvers load, and a command loads what it
runs.  Such an import carries ``# local: <reason>`` on its line, and this test finds any that
does not (tests/test_import_cycles.py keeps what loads before the title honest).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "door"
MARK = "# local: "


def local_imports(source: str) -> list[tuple[int, str]]:
    """(line, text) of each import statement inside a function of ``source``."""
    lines = source.splitlines()
    found: dict[int, str] = {}
    for function in ast.walk(ast.parse(source)):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    rows = lines[node.lineno - 1:(node.end_lineno or node.lineno)]
                    found[node.lineno] = "\n".join(rows)
    return sorted(found.items())


def unexplained(source: str) -> list[int]:
    """Lines of the function-local imports of ``source`` with no reason given."""
    return [line for line, text in local_imports(source)
            if MARK not in text or not text.split(MARK, 1)[1].strip()]


def test_a_local_import_without_a_reason_is_found() -> None:
    source = ("import os\n\n\ndef f():\n    import json  # local: json is slow to load\n"
              "    from . import x\n    from . import (\n        y,\n    )  # local:\n")
    assert [line for line, _ in local_imports(source)] == [5, 6, 7]
    assert unexplained(source) == [6, 7]


def test_every_local_import_in_door_says_why() -> None:
    missing = [f"{path.relative_to(PACKAGE.parent)}:{line}"
               for path in sorted(PACKAGE.rglob("*.py"))
               for line in unexplained(path.read_text(encoding="utf-8"))]
    assert missing == [], ("imports inside functions need '# local: <reason>' (start-up "
                           f"time), or belong at the top of the module: {missing}")
