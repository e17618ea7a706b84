"""The layers of ``door/`` (docs/architecture.md) as import-linter contracts.

The contracts live in pyproject.toml (``[tool.importlinter]``): no import cycle, engines
pure, the terminal pure, screens away from sockets and the store's internals, the ways in
below the screens, the store below the session, telnetlib3 behind one module, the floors
of the screens (door/ui/: visit, menus, each game's own, game screen, parts).  The first
test runs ``lint-imports`` on the tree as a developer would; the others add one forbidden
import per contract to the real graph and check that the contract notices, so a contract
that a typo or an overlap made toothless fails here instead of passing forever.
"""

from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.application.use_cases import read_user_options
from importlinter.application.user_options import UserOptions
from importlinter.configuration import configure
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract
from importlinter.contracts.protected import ProtectedContract
from importlinter.domain.contract import Contract

ROOT = Path(__file__).resolve().parent.parent
CONTRACT_TYPES: dict[str, type[Contract]] = {
    "forbidden": ForbiddenContract,
    "protected": ProtectedContract,
    "acyclic_siblings": AcyclicSiblingsContract,
    "layers": LayersContract,
}

BREACHES = {
    "no-cycles": [("door.games.cards", "door.games.mariant"),  # mariant imports cards
                  ("door.term", "door.ui.menus.main")],
    "engines-pure": [("door.games.cards", "door.term.screen"),
                     ("door.games.mariant", "asyncio"), ("door.games.daily", "door.store")],
    "term-pure": [("door.term.screen", "door.games"), ("door.term.keys", "door.net.telnet"),
                  ("door.term.render", "socket")],
    "screens-no-sockets": [("door.ui.menus.main", "door.net.telnet"),
                           ("door.ui.menus.main", "socket"),
                           ("door.ui.game.screen", "telnetlib3")],
    "screens-no-store-internals": [("door.ui.menus.halloffame", "door.store.models"),
                                   ("door.ui.menus.main", "sqlalchemy")],
    "net-below-screens": [("door.net.telnet", "door.ui.menus.main"),
                          ("door.net.ssh", "door.session")],
    "session-no-screens": [("door.session", "door.ui.menus.main")],
    "store-below-screens": [("door.store.scores", "door.ui.menus.halloffame"),
                            ("door.store.core", "door.net.terminal")],
    "ui-floors": [("door.ui.shared.widgets", "door.ui.menus.main"),
                  ("door.ui.game.screen", "door.ui.anciento.screen"),
                  ("door.ui.mariant.screen", "door.ui.anciento.screen"),
                  ("door.ui.menus.daily", "door.ui.visits.actions")],
    "telnetlib3-one-door": [("door.net.ssh", "telnetlib3"), ("door.net.telnet", "telnetlib3")],
}
"""One or more imports each contract must refuse, added to the real graph one at a time."""

configure()  # import-linter's own adapters (its clock, file system), as lint-imports sets them


@cache
def _options() -> UserOptions:
    """pyproject.toml's contracts, read by import-linter's own reader (its values are text)."""
    return read_user_options(str(ROOT / "pyproject.toml"))


def _contracts() -> list[dict[str, Any]]:
    return _options().contracts_options


@cache
def _graph() -> grimp.ImportGraph:
    session = _options().session_options
    return grimp.build_graph(
        *session["root_packages"],
        include_external_packages=session["include_external_packages"].lower() == "true",
        exclude_type_checking_imports=session["exclude_type_checking_imports"].lower() == "true")


def _kept(options: dict[str, Any], graph: grimp.ImportGraph) -> bool:
    contract = CONTRACT_TYPES[options["type"]](
        name=options["name"], session_options=_options().session_options,
        contract_options=options)
    return contract.check(copy.deepcopy(graph), verbose=False).kept


def test_lint_imports_keeps_every_contract() -> None:
    command = (shutil.which("lint-imports", path=str(Path(sys.executable).parent))
               or shutil.which("lint-imports"))
    assert command, "import-linter is part of the [test] extra"
    result = subprocess.run([command, "--no-cache"], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_contract_has_breaches_to_refuse() -> None:
    ids = {contract["id"] for contract in _contracts()}
    assert ids == set(BREACHES)


@pytest.mark.parametrize("contract_id", sorted(BREACHES))
def test_a_contract_refuses_its_breaches(contract_id: str) -> None:
    (options,) = [c for c in _contracts() if c["id"] == contract_id]
    assert _kept(options, _graph()), f"{contract_id} is broken on the tree as it is"
    for importer, imported in BREACHES[contract_id]:
        graph = copy.deepcopy(_graph())
        graph.add_import(importer=importer, imported=imported, line_number=1,
                         line_contents=f"import {imported}")
        assert not _kept(options, graph), f"{contract_id} let {importer} import {imported}"
