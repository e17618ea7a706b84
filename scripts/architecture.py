"""The map of door/ in docs/architecture.md, drawn from the code's imports.

    python scripts/architecture.py            # print the map
    python scripts/architecture.py --write    # put it in docs/architecture.md

The modules of door/ are grouped into the rooms below (:data:`GROUPS`); an arrow
``a ──► b`` says that some module of room ``a`` imports one of room ``b`` (at module level
or inside a function; not under ``if TYPE_CHECKING:``, which never runs), read by grimp as
import-linter reads it.  tests/test_architecture_doc.py fails when the committed map is not
what this prints, or when a module of door/ is in no room.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- map: scripts/architecture.py writes this block; do not edit by hand -->"
END = "<!-- end of map -->"

GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cli": ("the command line and its commands", ("__main__", "cli", "commands")),
    "serve": ("`reussite serve`: listeners, nodes, one call per player, workers, garbage "
              "collection, idle callers' shared rows", ("serve",)),
    "web": ("the web listener and its pages", ("web",)),
    "league": ("the InterBBS league", ("league",)),
    "bbs": ("the BBS hand-off: dropfiles, and member boards' RLogin callers", ("bbs",)),
    "ui": ("what a caller sees: the visit, menus, game screens, shared parts", ("ui",)),
    "session": ("one caller's visit", ("session",)),
    "watching": ("games others watch, in this process and across them", ("watching",)),
    "solvers": ("the solvers' process pool", ("solvers",)),
    "net": ("the ways in: one Terminal per transport", ("net",)),
    "gate": ("who may come in: the login pool, connections per address, the failed-login "
             "guard, the password-hash budget", ("gate",)),
    "store": ("the database and its migrations", ("store", "migrations")),
    "config": ("sysop.ini into typed settings", ("config",)),
    "catalog": ("the game registry: one record per game", ("catalog",)),
    "ini": ("sysop.ini's values and comments, read below the settings", ("ini",)),
    "games": ("the engines, solvers and players (pure)", ("games",)),
    "term": ("the terminal (pure), and its compiled build", ("term", "compiled")),
    "logs": ("logs, the sysop's private files, a stranger's text made printable", ("logs",)),
}
"""Room name -> (what it is, the top-level modules and packages of door/ in it), outer
rooms first."""


def room_of() -> dict[str, str]:
    """Top-level module or package of door/ -> its room."""
    return {top: room for room, (_, tops) in GROUPS.items() for top in tops}


def arrows() -> tuple[dict[str, set[str]], set[str]]:
    """Room -> the rooms it imports; and the top-level modules of door/ in no room."""
    graph = grimp.build_graph("door", exclude_type_checking_imports=True, cache_dir=None)
    rooms = room_of()
    found: dict[str, set[str]] = defaultdict(set)
    unplaced: set[str] = set()
    for module in graph.modules:
        parts = module.split(".")
        if len(parts) < 2:  # door itself: its version
            continue
        here = rooms.get(parts[1])
        if here is None:
            unplaced.add(parts[1])
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            there = rooms.get(imported.split(".")[1]) if "." in imported else None
            if there is not None and there != here:
                found[here].add(there)
    return found, unplaced


def render() -> str:
    """The map's block, as docs/architecture.md holds it."""
    found, unplaced = arrows()
    if unplaced:
        raise SystemExit(f"door/ modules in no room: {', '.join(sorted(unplaced))}: add them "
                         "to GROUPS in scripts/architecture.py")
    order = list(GROUPS)
    width = max(map(len, order))
    lines = [BEGIN, "", "```"]
    for room in order:
        targets = sorted(found.get(room, ()), key=order.index)
        lines.append(f"{room:<{width}}  ──► {', '.join(targets)}" if targets else room)
    lines += ["```", "", "| room | what | in door/ |", "|---|---|---|"]
    for room, (what, tops) in GROUPS.items():
        names = ", ".join(f"`{top}`" for top in tops)
        lines.append(f"| {room} | {what} | {names} |")
    lines += ["", END]
    return "\n".join(lines)


def committed() -> str:
    """The block as docs/architecture.md has it now."""
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end]


def write() -> None:
    text = DOC.read_text(encoding="utf-8")
    DOC.write_text(text.replace(committed(), render()), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        print(render())
