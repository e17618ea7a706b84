"""docs/architecture.md's map of door/ is the code's: scripts/architecture.py draws it from
the imports, and this fails when the committed map differs (an arrow added or gone, a room's
modules changed) or a module of door/ belongs to no room."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "architecture.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("architecture_map", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_module_of_door_is_in_a_room() -> None:
    _, unplaced = _script().arrows()
    assert not unplaced, (f"door/ modules in no room: {sorted(unplaced)}: add them to GROUPS "
                          "in scripts/architecture.py")


def test_the_map_in_the_doc_is_drawn_from_the_imports() -> None:
    script = _script()
    assert script.committed() == script.render(), (
        "docs/architecture.md's map is not the code's: run "
        "`python scripts/architecture.py --write` and read the change")


def test_the_map_shows_the_arrows_the_issue_found_missing() -> None:
    """web ──► ui was missing from the hand-drawn diagram; the drawn one has it."""
    found, _ = _script().arrows()
    assert "ui" in found["web"] and "games" not in found.get("term", set())
